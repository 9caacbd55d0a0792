// Options every scheduler's run takes (the run layer: src/run/).
import type { Core } from "../core/wasm.js";

export interface RunOptions {
  /** Called every slice of simulated time with (simulated ns so far, horizon ns). */
  onProgress?: (nowNs: number, endNs: number) => void;
  /** A core instance to build on (default: a fresh one; a run takes it over). */
  core?: Core;
  /** Threaded Laminar runs: where each partition's thread spent its wall time, called once at the end. */
  onThreadTiming?: (timing: ThreadTiming[]) => void;
  /**
   * Threaded Laminar runs: the gateway side once, on thread 0 (true), or a
   * replica in every thread (false); by default once wherever the run
   * allows it (threads.ts threadsTakeGatewayOnce). The result
   * is the same either way.
   */
  gatewayOnce?: boolean;
  /**
   * Threaded runs with the gateway once: keep every half window's start and
   * end in ThreadTiming.halves (bench:sim --replay; 16 bytes a half and
   * kind, about 4.5 MiB a thread over 35 s at the paper's hop).
   */
  keepHalves?: boolean;
}

/**
 * Wall seconds of one partition's thread: building its model (setup),
 * simulating (busy, handling messages included) and waiting at the barriers
 * of window ends and idle checks (wait). zones: its first and last Zone
 * (the last below the first: none, as on the thread that runs the gateway
 * side once when its share of the nodes comes to no whole Zone).
 */
export interface ThreadTiming {
  index: number;
  zones: [number, number];
  setupS: number;
  busyS: number;
  waitS: number;
  /** With the gateway once: the part of busyS this thread spent running the gateway side (thread 0). */
  gatewayS?: number;
  /** With the gateway once: where in the gateway's batch period its halves fell (HalfPhases). */
  phases?: HalfPhases;
  /** The nodes of its Zones. */
  nodes?: number;
  /** With the gateway once and RunOptions.keepHalves: every half it ran (HalfTimes). */
  halves?: HalfTimes;
}

/**
 * Every half window one thread ran, by half index k: start at [2k], end at
 * [2k + 1], in milliseconds since the epoch (comparable across threads;
 * NaN for a half it did not run): its Zones' halves, and on thread 0 the
 * gateway's (else null).
 */
export interface HalfTimes {
  zones: Float64Array;
  gateway: Float64Array | null;
}

/**
 * With the gateway once, a thread's half windows by their place in the
 * gateway's batch period (half k is phase k mod period; the first period
 * left out, as warm-up): milliseconds spent running the gateway's halves and
 * the Zones' of each phase, and waiting before each (docs/parallel.md,
 * "Where the threads wait"). period 0: the batch period is not a whole number
 * of halves (at most 64), and nothing is kept.
 */
export interface HalfPhases {
  period: number;
  gatewayMs: number[];
  zonesMs: number[];
  gatewayWaitMs: number[];
  zonesWaitMs: number[];
  /**
   * The halves of TIMELINE_PERIODS batch periods from the middle of the run,
   * each as four numbers: kind (0 the gateway's, 1 the Zones'), half index,
   * start and end in milliseconds since the epoch (performance.timeOrigin +
   * performance.now(), comparable across threads): bench:sim --timeline.
   */
  spans: number[];
}

/** Batch periods a thread's halves are kept for, one after another (HalfPhases.spans). */
export const TIMELINE_PERIODS = 4;

/** Mean share of the threads' time spent waiting (0 for no threads). */
export function waitShare(timing: ThreadTiming[]): number {
  if (timing.length === 0) return 0;
  return timing.reduce((a, t) => a + t.waitS / (t.setupS + t.busyS + t.waitS), 0) / timing.length;
}
