// One experiment point in a worker thread (a piscina task): the scheduler's
// run on the point's settings (a Laminar run over `threads` threads of its own when given), reporting how far it has
// got through a shared buffer; the per-interval series is left out of the
// returned record (experiments compare end-of-run figures), except with the
// memory model on: Exp5's second figure is a time series.
import { resolveConfig } from "../config/params-config.js";
import type { ProfileName } from "../config/profiles.js";
import { runScheduler } from "../run/schedulers.js";

export interface PointTask {
  sets: string[];
  /** The run profile the sets are laid over (none: the defaults). */
  profile?: ProfileName;
  /** Threads for this point (Laminar splits its Zones over them; the result is the same). */
  threads?: number;
  /** 8 shared bytes: the run writes the share of its arrival window simulated so far (0 to 1) there as it goes. */
  progress?: SharedArrayBuffer;
  /** Return the result as `laminar sim --json` prints it (series included, then this profile), less its manifest. */
  simRecord?: { profile: string | null };
}

export default async function runPoint(task: PointTask): Promise<Record<string, unknown>> {
  const config = resolveConfig(undefined, task.sets, task.profile);
  const share = task.progress === undefined ? null : new Float64Array(task.progress);
  // the work is in the arrival window; the drain after it is short and ends early once nothing is left
  const arrivalsNs = config.sim.durationS * 1e9;
  const onProgress = share === null ? undefined : (now: number) => { share[0] = arrivalsNs > 0 ? Math.min(1, now / arrivalsNs) : 1; };
  const full = await runScheduler(config, task.threads ?? 1, { onProgress });
  if (task.simRecord !== undefined) return { ...full, profile: task.simRecord.profile };
  if (config.memory.enabled) return full as unknown as Record<string, unknown>;
  const { series: _series, ...result } = full;
  return result as unknown as Record<string, unknown>;
}
