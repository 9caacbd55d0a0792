// One Laminar run on W worker threads (a piscina pool of W long-lived
// tasks), one Zone partition each (docs/parallel.md). The partitions meet at
// every window's end through shared memory: each writes its sorted outbox
// into its own region of a SharedArrayBuffer, all wait at a barrier, and
// each reads every region in canonical order; two sets of regions serve
// alternate windows, so one barrier a window is enough. No message object
// crosses a thread. At every 10 ms
// slice the partitions also share whether they are idle, so all of them
// stop at the same simulated time, exactly where the one-thread run would.
//
// The result is the same as runLaminar's with any number of partitions.
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Piscina } from "piscina";
import type { Config } from "../config/params.js";
import type { RunOptions, ThreadTiming } from "./options.js";
import { laminarResult, type PartReport, type SimResult } from "../laminar/result.js";
import { REC } from "../laminar/mailbox.js";
import { InvariantError } from "../laminar/invariants.js";

/**
 * Control words (Int32) in the shared control block: barrier count and
 * generation, error flag, partition 0's simulated ms, then four words per
 * partition (idle flag, first Zone, last Zone + 1, simulated ms) and the
 * gateway side's idle flag.
 */
export const C_COUNT = 0, C_GEN = 1, C_ERROR = 2, C_PROGRESS_MS = 3, C_PARTS = 4;
export const P_IDLE = 0, P_Z0 = 1, P_Z1 = 2, P_MS = 3, P_WORDS = 4;
/** Marks, in a partition's error message, an invariant violation (raised again as an InvariantError: exit code 3). */
export const INVARIANT_TAG = "invariant violated: ";
/** Messages one partition may send in one window (beyond this the run stops with an error). */
export const BOX_RECORDS = 1 << 16;

/** What a worker (thread-worker.ts, loaded by file name) returns for its partitions. */
export type PartitionResult = PartReport & { coreBuild: string; timing: ThreadTiming };

export interface ParallelTask {
  config: Config;
  index: number;
  count: number;
  control: SharedArrayBuffer;
  boxes: SharedArrayBuffer;
  /** Fault injection for tests: partition `index` throws (an invariant violation, or its thread exits) once it has simulated `ns`. */
  fault?: { index: number; ns: number; exit?: boolean; invariant?: boolean };
}

/** Run one simulation on `workers` threads; the result equals runLaminar(config, { partitions: workers }) but for timing fields. */
export async function runLaminarParallel(config: Config, workers: number, opts: RunOptions = {}, fault?: ParallelTask["fault"]): Promise<SimResult> {
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`);
  const wall0 = performance.now();
  const control = new SharedArrayBuffer(4 * (C_PARTS + P_WORDS * workers + 1));
  const boxes = new SharedArrayBuffer(2 * workers * (8 + BOX_RECORDS * REC * 8));
  const ctl = new Int32Array(control);
  const pool = new Piscina({
    filename: fileURLToPath(new URL("./thread-worker.js", import.meta.url)),
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: 1,
  });
  const endNs = Math.round((config.sim.durationS + config.sim.drainS) * 1e9);
  const ticker = opts.onProgress === undefined ? null : setInterval(() => opts.onProgress!(Atomics.load(ctl, C_PROGRESS_MS) * 1e6, endNs), 250);
  try {
    const reports = await Promise.all(Array.from({ length: workers }, (_, index) => {
      const task: ParallelTask = { config, index, count: workers, control, boxes, fault };
      return (pool.run(task) as Promise<PartitionResult>).catch((e: unknown) => {
        // a partition failed: tell the others (they leave their barrier) and report where
        Atomics.store(ctl, C_ERROR, 1);
        Atomics.add(ctl, C_GEN, 1);
        Atomics.notify(ctl, C_GEN);
        const msg = e instanceof Error ? e.message : String(e);
        if (msg.startsWith("partition ")) throw msg.includes(INVARIANT_TAG) ? new InvariantError(msg) : e;
        // the thread died without a word (killed, out of memory): what the shared block last said of it
        const b = C_PARTS + P_WORDS * index;
        throw new Error(`partition ${index} (Zones ${Atomics.load(ctl, b + P_Z0)}-${Atomics.load(ctl, b + P_Z1) - 1}) died at simulated ${Atomics.load(ctl, b + P_MS)} ms: ${msg}`);
      });
    }));
    reports.sort((a, b) => a.index - b.index);
    opts.onProgress?.(reports[0].simulatedNs, endNs);
    opts.onThreadTiming?.(reports.map((r) => r.timing));
    return laminarResult(config, reports, reports[0].coreBuild, (performance.now() - wall0) / 1000);
  } finally {
    if (ticker !== null) clearInterval(ticker);
    await pool.destroy();
  }
}
