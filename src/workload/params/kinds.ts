// The workloads a run may draw its tasks from (workload.kind), as plain
// data the parameter registry reads: each one's name and its own parameter
// group (at workload.<name>). Each kind also has a source in sources.ts,
// which the type there requires.
import type { ParamGroup } from "../../config/params-spec.js";
import { traceParams } from "./trace.js";

export interface WorkloadKind<N extends string = string, G extends ParamGroup | null = ParamGroup | null> {
  readonly name: N;
  readonly summary: string;
  /** Its own parameters at workload.<name>; null: none (the bimodal generator's are workload.* itself). */
  readonly params: G;
  readonly paramsTitle: string;
}

const kind = <const N extends string, const G extends ParamGroup | null>(k: WorkloadKind<N, G>): WorkloadKind<N, G> => k;

export const WORKLOADS = [
  kind({
    name: "bimodal", params: null, paramsTitle: "",
    summary: "the paper's open-loop generator: Poisson F- and L-task streams at offered load workload.rho",
  }),
  kind({
    name: "trace", params: traceParams, paramsTitle: "Trace workload (workload.kind=trace)",
    summary: "tasks read from a CSV, JSONL or Alibaba openb file, as a stream",
  }),
] as const;

type Kinds = (typeof WORKLOADS)[number];
export type WorkloadName = Kinds["name"];
export const WORKLOAD_NAMES = WORKLOADS.map((k) => k.name) as unknown as readonly [WorkloadName, ...WorkloadName[]];

/** The kinds' own groups, by name (those with none left out). */
export type WorkloadGroups = { readonly [K in Kinds as K["params"] extends null ? never : K["name"]]: Exclude<K["params"], null> };

export function workloadGroups(): WorkloadGroups {
  const out: Record<string, unknown> = {};
  for (const k of WORKLOADS as readonly WorkloadKind[]) if (k.params !== null) out[k.name] = k.params;
  return out as WorkloadGroups;
}
