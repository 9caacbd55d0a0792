// Where a run is picked by scheduler name: `laminar sim`, the experiment
// runner and the bench start every run here. Laminar and the baselines never
// import each other; they meet here, in the run layer.
import type { Config } from "../config/params.js";
import type { CommonResult } from "../metrics/result.js";
import type { RunOptions } from "./options.js";

export type SchedulerRun = (config: Config, opts?: RunOptions) => CommonResult;

/** The one-thread run function of config.sim.scheduler (loaded on demand). */
export async function schedulerRun(name: Config["sim"]["scheduler"]): Promise<SchedulerRun> {
  switch (name) {
    case "laminar": return (await import("./laminar.js")).runLaminar;
    case "slurm": return (await import("./baselines.js")).runSlurm;
    case "ray": return (await import("./baselines.js")).runRay;
    case "flux": return (await import("./baselines.js")).runFlux;
  }
}

/** One run of config.sim.scheduler; a Laminar run splits its Zones over `threads` worker threads when more than one (the same result). */
export async function runScheduler(config: Config, threads = 1, opts?: RunOptions): Promise<CommonResult> {
  if (threads > 1 && config.sim.scheduler === "laminar") return (await import("./threads.js")).runLaminarParallel(config, threads, opts);
  return (await schedulerRun(config.sim.scheduler))(config, opts);
}
