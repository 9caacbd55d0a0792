// The one loop every run shares: simulated time in 10 ms slices through the
// arrival window and the drain, progress after each slice, and an early stop
// once nothing can change the outcome. One thread, partitions on one thread
// and each thread of a threaded run all go through it, so all stop at the
// same simulated time.
import type { RunOptions } from "./options.js";

/** What runSlices drives: a model that runs to a time and knows when it is done. */
export interface SlicedModel {
  readonly endArrivalsNs: number;
  /** Run every event before `until` (ns). */
  runUntil(until: number): void;
  /** Nothing can change the outcome any more. */
  quiescent(): boolean;
}

/** A slice of simulated time (ns): progress and the early stop are decided at its ends. */
export const SLICE_NS = 10_000_000;

/**
 * Run a model through its arrival window and drain (sim.drainS) in 10 ms
 * slices, reporting progress after each, and stopping early once it is
 * quiescent. Returns the simulated time reached.
 */
export function runSlices(model: SlicedModel, drainS: number, opts: RunOptions): number {
  const endNs = model.endArrivalsNs + Math.round(drainS * 1e9);
  let now = 0;
  while (now < endNs) {
    now = Math.min(now + SLICE_NS, endNs);
    model.runUntil(now);
    opts.onProgress?.(now, endNs);
    if (now >= model.endArrivalsNs && model.quiescent()) break;
  }
  return now;
}
