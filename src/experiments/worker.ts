// One experiment point in a worker thread (a piscina task): the scheduler's
// run on the point's settings (a Laminar run over `threads` threads of its own when given); the per-interval series is left out of the
// returned record (experiments compare end-of-run figures), except with the
// memory model on: Exp5's second figure is a time series.
import { applySets, defaultConfig } from "../model/params-config.js";
import { runScheduler } from "../schedulers.js";

export interface PointTask {
  sets: string[];
  /** Threads for this point (Laminar splits its Zones over them; the result is the same). */
  threads?: number;
}

export default async function runPoint(task: PointTask): Promise<Record<string, unknown>> {
  const config = applySets(defaultConfig(), task.sets);
  const full = await runScheduler(config, task.threads ?? 1);
  if (config.memory.enabled) return full as unknown as Record<string, unknown>;
  const { series: _series, ...result } = full;
  return result as unknown as Record<string, unknown>;
}
