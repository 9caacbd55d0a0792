// `laminar worker`'s loop: take points from the queue of this build of
// laminar and run them on the local point runner's thread pool (the same
// worker file and task as a local sweep, so a point's result is the same
// bytes wherever it runs). BullMQ holds a lock on each point while it runs,
// renewed from this thread (the simulation runs on a pool thread, so the
// renewals are never starved); a worker killed mid-point stops renewing, and
// after the lock's time another worker's stalled check puts the point back
// on the queue. A point that throws is retried once (ATTEMPTS), then left
// failed with its error for the submitter to report; a point that can never
// run here (another build, settings that resolve to another configuration)
// fails at once.
import { Worker, UnrecoverableError, type Job } from "bullmq";
import { Piscina } from "piscina";
import { flattenConfig, resolveConfig } from "../config/params-config.js";
import { POINT_WORKER } from "../experiments/runner.js";
import type { PointTask } from "../experiments/worker.js";
import { queueName, type PointJobData, type PointJobResult, type RedisAddress } from "./queue.js";

export interface WorkerOptions {
  address: RedisAddress;
  build: string;
  /** Points run at once, one thread each. */
  workers: number;
  /** Seconds a point's lock lasts without renewal: a killed worker's point goes back to the queue after about this long (and up to as long again, the stalled check's interval). */
  stallS: number;
  log: (line: string) => void;
}

/** The checks a point passes before it runs here; throws UnrecoverableError (no retry: it would fail the same way). */
export function checkJob(d: PointJobData, build: string): void {
  if (d.build !== build) throw new UnrecoverableError(`submitted by build ${d.build}; this worker is build ${build}`);
  let flat: Record<string, unknown>;
  try {
    flat = flattenConfig(resolveConfig(undefined, d.sets, d.profile));
  } catch (e) {
    throw new UnrecoverableError(`its settings do not resolve here (${(e as Error).message})`);
  }
  if (JSON.stringify(flat) !== JSON.stringify(d.config)) throw new UnrecoverableError("its settings resolve to another configuration here than where it was submitted");
}

/** Start taking points; resolves with a function that stops (graceful: the points running end first, unless `now`). */
export async function startWorker(o: WorkerOptions): Promise<(now?: boolean) => Promise<void>> {
  const pool = new Piscina({ filename: POINT_WORKER, maxThreads: o.workers, minThreads: 1, idleTimeout: 10_000 });
  const lockMs = Math.round(o.stallS * 1000);
  const worker = new Worker<PointJobData, PointJobResult>(queueName(o.build), async (job: Job<PointJobData, PointJobResult>) => {
    const d = job.data;
    const shared = new SharedArrayBuffer(8);
    const share = new Float64Array(shared);
    const ticker = setInterval(() => { job.updateProgress(Math.round(share[0] * 1000) / 1000).catch(() => {}); }, 2000);
    const t0 = Date.now();
    o.log(`point ${d.key} started (attempt ${job.attemptsMade + 1})`);
    try {
      checkJob(d, o.build);
      const task: PointTask = { sets: d.sets, profile: d.profile, threads: 1, progress: shared, simRecord: { profile: d.recordProfile } };
      const result = (await pool.run(task)) as Record<string, unknown>;
      o.log(`point ${d.key} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return { build: o.build, key: d.key, result };
    } catch (e) {
      o.log(`point ${d.key} failed: ${(e as Error).message}`);
      throw e;
    } finally {
      clearInterval(ticker);
    }
  }, {
    connection: o.address,
    concurrency: o.workers,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    // a point whose workers keep dying (out of memory, say) fails after a few tries rather than circling for ever
    maxStalledCount: 3,
  });
  let lastError = "";
  worker.on("error", (e) => {
    // a lost connection repeats its error on every retry: said once per change
    if (e.message !== lastError) o.log(`queue: ${e.message}`);
    lastError = e.message;
  });
  await worker.waitUntilReady();
  return async (now = false) => {
    await worker.close(now);
    await pool.destroy();
  };
}
