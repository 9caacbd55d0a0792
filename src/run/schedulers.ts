// Where a run is picked by scheduler name: `laminar sim`, the experiment
// runner and the bench start every run here. The name leads to the
// scheduler's entry in the catalogue (src/schedulers/catalogue.ts) and its
// entry to its run module, loaded on demand; Laminar and the baselines never
// import each other.
import type { Config } from "../config/params.js";
import type { CommonResult } from "../metrics/result.js";
import { schedulerEntry } from "../schedulers/catalogue.js";
import type { SchedulerImpl } from "./impl.js";
import type { RunOptions } from "./options.js";

export type SchedulerRun = (config: Config, opts?: RunOptions) => CommonResult;

const loaded = new Map<string, SchedulerImpl>();

/** The run module of a registered scheduler (loaded once, checked for the SchedulerImpl shape). */
export async function schedulerImpl(name: string): Promise<SchedulerImpl> {
  const have = loaded.get(name);
  if (have !== undefined) return have;
  const e = schedulerEntry(name);
  const mod = (await import(e.impl.href)) as { default?: Partial<SchedulerImpl> };
  const impl = mod.default;
  if (impl === undefined || typeof impl.run !== "function" || typeof impl.rows !== "function" || (e.supports.threads && typeof impl.runThreaded !== "function")) {
    throw new Error(`scheduler ${name}: its run module ${e.impl.pathname} has no default export with run and rows${e.supports.threads ? " and runThreaded" : ""} (src/run/impl.ts)`);
  }
  loaded.set(name, impl as SchedulerImpl);
  return impl as SchedulerImpl;
}

/** The one-thread run function of a registered scheduler. */
export async function schedulerRun(name: Config["sim"]["scheduler"]): Promise<SchedulerRun> {
  return (await schedulerImpl(name)).run;
}

/** One run of config.sim.scheduler; one that supports threads splits over `threads` worker threads when more than one (the same result). */
export async function runScheduler(config: Config, threads = 1, opts?: RunOptions): Promise<CommonResult> {
  const impl = await schedulerImpl(config.sim.scheduler);
  if (threads > 1 && schedulerEntry(config.sim.scheduler).supports.threads) return impl.runThreaded!(config, threads, opts);
  return impl.run(config, opts);
}
