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
import { gatewayOnceOk } from "./partitions.js";
import { SLICE_NS } from "./slices.js";
import { timingsOf } from "../laminar/timings.js";
import { workloadRates } from "../workload/sources.js";

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
/** Bytes of one partition's shared mailbox region: a count, then BOX_RECORDS records. */
export const BOX_BYTES = 8 + BOX_RECORDS * REC * 8;

/** What a worker (thread-worker.ts, loaded by file name) returns for its partitions (thread 0, with the gateway once: the gateway's report too). */
export type PartitionResult = PartReport & { coreBuild: string; timing: ThreadTiming; gateway?: PartReport };

export interface ParallelTask {
  config: Config;
  index: number;
  count: number;
  control: SharedArrayBuffer;
  boxes: SharedArrayBuffer;
  /** Fault injection for tests: partition `index` throws (an invariant violation, or its thread exits) once it has simulated `ns`. */
  fault?: { index: number; ns: number; exit?: boolean; invariant?: boolean };
  /** With the gateway once (thread-once.ts): four sets of its log (logLayout), and the pipe's counters (PIPE_*). */
  log?: SharedArrayBuffer;
  pipe?: SharedArrayBuffer;
  /** With the gateway once: keep every half's times (RunOptions.keepHalves). */
  keepHalves?: boolean;
}

/** The pipe (Int32): halves the gateway has published its log of, then each Zone partition's halves published. */
export const PIPE_GATEWAY = 0, PIPE_ZONES = 1;

/**
 * Whether a threaded run takes the gateway once: as asked (RunOptions
 * gatewayOnce; asked where it cannot, an error), else wherever it fits. On
 * two threads it ran even with, or faster than, a replica in each, with
 * less CPU time and memory, once the Zones replayed its log behind their
 * own run (docs/parallel.md, measured on this project's 2-core machine).
 */
export function threadsTakeGatewayOnce(config: Config, workers: number, asked?: boolean): boolean {
  const fits = gatewayOnceFits(config, workers);
  if (asked === true && !fits) throw new RangeError("the gateway once needs two threads or more, the core's Zone engine without the memory model and the invariant checker, the bimodal workload, and half windows on which the run's slices end");
  return asked ?? fits;
}

/**
 * Whether a threaded run can take the gateway once (thread-once.ts):
 * gatewayOnceOk, two threads or more, the bimodal workload (its arrival
 * rate sizes the log's shared region, logLayout; a trace's bursts are not
 * known ahead), and half windows (deltaNs / 2) of whole ns on which the
 * run's 10 ms slices, the arrivals' end and the drain's end all fall.
 */
export function gatewayOnceFits(config: Config, workers: number): boolean {
  if (workers < 2 || !gatewayOnceOk(config) || config.workload.kind !== "bimodal") return false;
  const t = timingsOf(config), H = t.deltaNs / 2, end = t.endArrivalsNs + Math.round(config.sim.drainS * 1e9);
  return Number.isInteger(H) && SLICE_NS % H === 0 && t.endArrivalsNs % H === 0 && end % H === 0;
}

/**
 * One set of the gateway's shared log: a head (words, answers), the records
 * of half a window and the proxy's answers, sized for four times the DAs a
 * gateway batch and half a window bring on average (a run that exceeds it
 * stops with an error that says so).
 */
/** Sets of the gateway's log in flight: a Zone partition replays half k - 2 while the gateway may write up to half k + 1. */
export const LOG_SETS = 4;

export function logLayout(config: Config): { ops: number; verdicts: number; bytes: number } {
  const t = timingsOf(config), perNs = workloadRates(config).lambda / 1e9;
  const ops = 14 * Math.ceil(4 * perNs * (t.batchNs + t.deltaNs) + 4096) + 8 * 4096;
  const verdicts = 3 * Math.ceil(8 * perNs * t.deltaNs + 4096);
  return { ops, verdicts, bytes: 16 + 8 * (ops + verdicts) };
}

/** Run one simulation on `workers` threads; the result equals runLaminar(config, { partitions: workers }) but for timing fields. */
export async function runLaminarParallel(config: Config, workers: number, opts: RunOptions = {}, fault?: ParallelTask["fault"]): Promise<SimResult> {
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`);
  const wall0 = performance.now();
  const once = threadsTakeGatewayOnce(config, workers, opts.gatewayOnce);
  const control = new SharedArrayBuffer(4 * (C_PARTS + P_WORDS * workers + 1));
  const boxes = new SharedArrayBuffer((once ? 4 : 2) * workers * BOX_BYTES);
  const log = once ? new SharedArrayBuffer(LOG_SETS * logLayout(config).bytes) : undefined;
  const pipe = once ? new SharedArrayBuffer(4 * (PIPE_ZONES + workers)) : undefined;
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
      const task: ParallelTask = { config, index, count: workers, control, boxes, fault, log, pipe, keepHalves: opts.keepHalves === true };
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
    // with the gateway once, its run (on thread 0) reports the gateway side's counters, first
    const parts = once ? [reports[0].gateway!, ...reports] : reports;
    return laminarResult(config, parts, reports[0].coreBuild, (performance.now() - wall0) / 1000);
  } finally {
    if (ticker !== null) clearInterval(ticker);
    await pool.destroy();
  }
}
