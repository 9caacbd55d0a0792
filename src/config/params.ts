// The parameter registry: every model parameter of the Laminar simulation, its
// baselines and its experiments, in one table. It is the single source of
// truth: the zod schema (params-schema.ts), the error messages, `laminar
// params` and docs/parameters.md are all derived from it.
//
// Names are dotted paths into the nested registry: `workload.rho` is
// REGISTRY.workload.rho, and a Config has the same shape (config.workload.rho).
// Units: times in ms unless the name says otherwise (durationS in s, *Ns in
// ns, *Us in µs, as the paper quotes those costs).
import { airlock, memory } from "./params-airlock.js";
import { baselines } from "./params-baselines.js";
import { arbiter, costs, da, reservation, regeneration, task, teg, zhaf } from "./params-laminar.js";
import { cluster, network, sim, workload } from "./params-run.js";
import { SCHEDULERS } from "../schedulers/catalogue.js";
import { WORKLOADS } from "../workload/params/kinds.js";
import { isParam, rangeText, type ConfigOf, type ParamGroup, type ParamSpec, type ParamType, type ParamValue } from "./params-spec.js";

export const REGISTRY = {
  sim, cluster, workload, network,
  teg, zhaf, da, arbiter, reservation, regeneration, task, costs,
  memory, airlock,
  baselines,
} satisfies ParamGroup;

/** The fully populated, validated configuration of one run (see params-config.ts). */
export type Config = ConfigOf<typeof REGISTRY>;

/** One line per group, in registry order: headings of `laminar params` and docs/parameters.md. */
export const GROUP_TITLES: Readonly<Record<string, string>> = {
  sim: "Run control",
  cluster: "Cluster: nodes, atoms, Zones",
  "cluster.preoccupancy": "Rigid-topology pre-occupancy (off by default; the artifact starts empty)",
  workload: "Workload: its kind, and the bimodal open-loop generator (F-tasks, L-tasks, squatters)",
  // each workload kind's own group
  ...Object.fromEntries(WORKLOADS.filter((k) => k.params !== null).map((k) => [`workload.${k.name}`, k.paramsTitle])),
  network: "Network (shared by all schedulers)",
  teg: "Laminar: Thermo-Economic Gateway",
  zhaf: "Laminar: Zone Holographic Availability Field",
  da: "Laminar: Decentralized Agent",
  arbiter: "Laminar: node arbitration",
  reservation: "Laminar: two-phase reservation",
  regeneration: "Laminar: DA regeneration",
  task: "Laminar: task deadline",
  costs: "Laminar: modelled hot-path costs (control work)",
  memory: "Memory model (Exp5)",
  airlock: "Airlock runtime survival (Exp5)",
  baselines: "Baselines: shared",
  // each registered scheduler's own group
  ...Object.fromEntries(SCHEDULERS.filter((e) => e.params !== null).map((e) => [`baselines.${e.name}`, e.paramsTitle])),
};

export interface ParamEntry {
  /** Dotted name, e.g. "workload.rho". */
  readonly name: string;
  /** Dotted name of the enclosing group, e.g. "workload". */
  readonly group: string;
  readonly spec: ParamSpec;
}

function flatten(group: ParamGroup, prefix: string, out: ParamEntry[]): ParamEntry[] {
  for (const [key, member] of Object.entries(group)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isParam(member)) out.push({ name, group: prefix, spec: member });
    else flatten(member, name, out);
  }
  return out;
}

/** Every parameter, in registry order. */
export const PARAMS: readonly ParamEntry[] = Object.freeze(flatten(REGISTRY, "", []));

const byName = new Map(PARAMS.map((p) => [p.name, p.spec]));

/** The parameter called `name`, or undefined. */
export function findParam(name: string): ParamSpec | undefined {
  return byName.get(name);
}

/** Dotted names of every group, in registry order. */
export const GROUP_NAMES: readonly string[] = Object.freeze([...new Set(PARAMS.map((p) => p.group))]);

/** Every name a user may mean: parameters and groups (for "did you mean" suggestions). */
export const KNOWN_NAMES: readonly string[] = Object.freeze([...PARAMS.map((p) => p.name), ...GROUP_NAMES]);

/** A parameter as plain data: what `laminar params --json` prints. */
export interface ParamRecord {
  name: string;
  group: string;
  type: ParamType;
  unit: string;
  default: ParamValue;
  range: string;
  min?: number;
  gt?: number;
  max?: number;
  lt?: number;
  multipleOf?: number;
  values?: string[];
  source: string;
  description: string;
}

export function paramRecord({ name, group, spec }: ParamEntry): ParamRecord {
  const r: ParamRecord = { name, group, type: spec.type, unit: spec.unit, default: spec.default, range: rangeText(spec), source: spec.source, description: spec.description };
  if (spec.type === "enum") r.values = [...spec.values];
  if (spec.type === "number" || spec.type === "integer") {
    for (const k of ["min", "gt", "max", "lt", "multipleOf"] as const) if (spec[k] !== undefined) r[k] = spec[k];
  }
  return r;
}
