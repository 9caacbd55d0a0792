// The workload registry's sources: for each kind in params/kinds.ts, how a model
// gets its arrivals (the type requires one per kind), and the rates a
// result reports. Every model builds its arrivals here.
import type { Config } from "../config/params.js";
import { Arrivals } from "./arrivals.js";
import { arrivalRates } from "./bimodal.js";
import type { WorkloadName } from "./params/kinds.js";
import type { ArrivalSource } from "./source.js";
import { TraceArrivals } from "./trace.js";

/** `withService`: a copy that only counts arrivals may pass false where drawing service times costs; `withEntry`: draw entry nodes. */
type Make = (c: Config, endNs: number, withService: boolean, withEntry: boolean) => ArrivalSource;

const SOURCES: { readonly [K in WorkloadName]: Make } = {
  bimodal: (c, endNs, withService, withEntry) => new Arrivals(c, endNs, withService, withEntry),
  trace: (c, endNs, _withService, withEntry) => new TraceArrivals(c, endNs, withEntry),
};

/** The arrivals of config's workload (workload.kind) up to endNs. */
export function makeArrivals(c: Config, endNs: number, withService: boolean, withEntry = false): ArrivalSource {
  return SOURCES[c.workload.kind](c, endNs, withService, withEntry);
}

/** The offered arrival rate lambda and ideal throughput mu (tasks/s) a result reports: the bimodal generator's; NaN (null in JSON) for a trace, whose rate is what the file says. */
export function workloadRates(c: Config): { lambda: number; mu: number } {
  return c.workload.kind === "bimodal" ? arrivalRates(c) : { lambda: NaN, mu: NaN };
}
