// The scheduler registry: where `laminar sim` (and later the experiment
// runner) picks a model by name. Laminar and the baselines never import each
// other; they meet here.
import type { Config } from "./model/params.js";
import type { CommonResult } from "./metrics/result.js";
import type { RunOptions } from "./model/run-options.js";

export type SchedulerRun = (config: Config, opts?: RunOptions) => CommonResult;

/** The run function of config.sim.scheduler (loaded on demand). */
export async function schedulerRun(name: Config["sim"]["scheduler"]): Promise<SchedulerRun> {
  switch (name) {
    case "laminar": return (await import("./laminar/run.js")).runLaminar;
    case "slurm": return (await import("./baselines/slurm.js")).runSlurm;
    case "ray": return (await import("./baselines/ray.js")).runRay;
    case "flux": return (await import("./baselines/flux.js")).runFlux;
  }
}

/** One run of config.sim.scheduler; a Laminar run splits its Zones over `threads` worker threads when more than one (the same result). */
export async function runScheduler(config: Config, threads = 1, opts?: RunOptions): Promise<CommonResult> {
  if (threads > 1 && config.sim.scheduler === "laminar") return (await import("./laminar/parallel.js")).runLaminarParallel(config, threads, opts);
  return (await schedulerRun(config.sim.scheduler))(config, opts);
}
