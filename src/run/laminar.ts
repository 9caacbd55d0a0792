// One Laminar run on this thread, from a validated Config to its result
// record: build the model on a fresh core instance (one per Zone partition),
// run arrivals for sim.durationS and then drain for up to sim.drainS
// (stopping early once nothing is in flight or running), and collect the
// metrics. The threaded run is threads.ts; both give the same record.
import { performance } from "node:perf_hooks";
import type { Config } from "../config/params.js";
import { loadCore } from "../core/wasm.js";
import { laminarResult, type SimResult } from "../laminar/result.js";
import type { RunOptions } from "./options.js";
import { PartitionSet, type SplitTiming } from "./partitions.js";
import { runSlices } from "./slices.js";

export interface LaminarRunOptions extends RunOptions {
  /** Zone partitions run one after another on this thread (default 1); the result is the same for any number. */
  partitions?: number;
  /**
   * Run the gateway side once (one more core beside the partitions: gatewayOnceOk must hold) and add each part's
   * wall milliseconds here (bench:sim --split).
   */
  split?: SplitTiming;
}

/** One run on this thread, in `partitions` Zone partitions (the threaded runner is threads.ts). */
export function runLaminar(config: Config, opts: LaminarRunOptions = {}): SimResult {
  const wall0 = performance.now();
  const P = opts.partitions ?? 1;
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`partitions must be a positive integer, got ${P}`);
  const once = opts.split !== undefined;
  const cores = Array.from({ length: once ? P + 1 : P }, (_, i) => (i === 0 && opts.core !== undefined ? opts.core : loadCore("auto")));
  const set = new PartitionSet(config, cores, once);
  if (once) set.timing = opts.split!;
  set.start();
  runSlices(set, config.sim.drainS, opts);
  set.finish();
  for (const m of set.models) m.invariants?.end();
  return laminarResult(config, set.reports(), cores[0].flavor, (performance.now() - wall0) / 1000);
}

