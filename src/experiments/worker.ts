// One experiment point in a worker thread (a piscina task): the scheduler's
// run on the point's settings; the per-interval series is left out of the
// returned record (experiments compare end-of-run figures), except with the
// memory model on: Exp5's second figure is a time series.
import { applySets, defaultConfig } from "../model/params-config.js";
import { schedulerRun } from "../schedulers.js";

export interface PointTask {
  sets: string[];
}

export default async function runPoint(task: PointTask): Promise<Record<string, unknown>> {
  const config = applySets(defaultConfig(), task.sets);
  const run = await schedulerRun(config.sim.scheduler);
  const full = run(config);
  if (config.memory.enabled) return full as unknown as Record<string, unknown>;
  const { series: _series, ...result } = full;
  return result as unknown as Record<string, unknown>;
}
