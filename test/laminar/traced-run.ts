// A run of Laminar on this thread (as runLaminar runs it) with every
// partition's event trace fingerprinted (src/sim/fingerprint.ts): on the
// TypeScript model, its engine folds each event it dispatches; on the
// core's Zone engine, the engine's own trace (assembly/engine/trace.ts, the
// same hash) folds each event it runs, the host's included. The two engines
// run the same events in the same order, so the traces are equal.
import type { Config } from "../../src/config/params.js";
import { loadCore } from "../../src/core/wasm.js";
import { laminarResult, type SimResult } from "../../src/laminar/result.js";
import { PartitionSet } from "../../src/run/partitions.js";
import { runSlices } from "../../src/run/slices.js";
import { Fingerprint } from "../../src/sim/fingerprint.js";

export interface TracedRun {
  result: SimResult;
  /** Per partition: the trace's fingerprint and its count of events, "hex/count". */
  traces: string[];
}

/**
 * Run `config` in P partitions (the gateway replicated in each), every
 * partition's events fingerprinted. With `gatewayOnce` (the threads' way from
 * two up, docs/parallel.md), one more partition runs the gateway side alone
 * (its trace first) and the P Zone partitions replay its log. With
 * `oneInstance`, every partition's engine lives in one core instance (they
 * take turns in its memory, call by call) instead of one instance each.
 */
export function tracedRun(config: Config, P = 1, gatewayOnce = false, oneInstance = false): TracedRun {
  const shared = oneInstance ? loadCore("auto") : null;
  const cores = Array.from({ length: gatewayOnce ? P + 1 : P }, () => shared ?? loadCore("auto"));
  const set = new PartitionSet(config, cores, gatewayOnce);
  const fps = set.models.map(() => new Fingerprint());
  set.models.forEach((m, i) => {
    // the model built its engine; give it the fingerprint it folds every dispatched event into
    if (m.zoneEngine === null) (m.engine as unknown as { fp: Fingerprint | null }).fp = fps[i];
  });
  set.start();
  // the Zone engine starts its trace once it is laid out (start); no event has run yet
  for (const m of set.models) m.zoneEngine?.startTrace();
  runSlices(set, config.sim.drainS, {});
  set.finish();
  set.models.forEach((m, i) => m.zoneEngine?.traceInto(fps[i]));
  for (const m of set.models) m.invariants?.end();
  return { result: laminarResult(config, set.reports(), cores[0].flavor, 0), traces: fps.map((f) => `${f.hex()}/${f.count}`) };
}
