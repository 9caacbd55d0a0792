// What a scheduler's run module (named by its entry, src/schedulers/entry.ts)
// exports as its default: the run on one thread, optionally a run split over
// worker threads, and the rows it adds to `laminar sim`'s table.
import type { Config } from "../config/params.js";
import type { CommonResult } from "../metrics/result.js";
import type { RunOptions } from "./options.js";

export type Rows = Array<[string, string]>;

export interface SchedulerImpl {
  /** One run on this thread, from a validated Config to its result record. */
  run(config: Config, opts?: RunOptions): CommonResult;
  /** One run split over `threads` worker threads, with the same result (entries with supports.threads). */
  runThreaded?(config: Config, threads: number, opts?: RunOptions): Promise<CommonResult>;
  /** The rows only this scheduler's result has, below the common ones. */
  rows(result: CommonResult): Rows;
}

/** A result value formatted with `digits` decimals, "-" for none. */
export const fmt = (x: number | null, digits = 2): string => (x === null ? "-" : x.toFixed(digits));
