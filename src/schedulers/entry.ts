// What a scheduler registers (src/schedulers/catalogue.ts lists them): its
// name, its label and colour in tables and figures, its own parameter group
// (units, ranges and sources, placed at baselines.<name>), what it supports,
// how long the experiments let it drain, and the module that runs it and
// says which rows it adds to `laminar sim`'s table.
//
// An entry is plain data and imports only the parameter shapes
// (params-spec.ts): the parameter registry (src/config/params.ts) reads the
// entries to build the Config, and every model imports the Config, so an
// entry that imported its model would close a circle. It names its run module
// by URL instead, as threads.ts names its worker; src/run/schedulers.ts loads
// it on demand and checks it has the shape of SchedulerImpl (src/run/impl.ts).
import type { ParamGroup } from "../config/params-spec.js";

export interface SchedulerEntry<N extends string = string, G extends ParamGroup | null = ParamGroup | null> {
  /** The value of sim.scheduler (and --scheduler). */
  readonly name: N;
  /** How tables, legends and `--help` call it, e.g. "Ray-like". */
  readonly label: string;
  /** Its colour in every figure. */
  readonly color: string;
  /** One line: what it models, for `laminar params` and the docs. */
  readonly summary: string;
  /** Its own parameters, at baselines.<name>; null: it has none beyond the shared groups. */
  readonly params: G;
  /** The heading of its parameter group in `laminar params` and docs/parameters.md. */
  readonly paramsTitle: string;
  /**
   * What its control work per start counts, for figure captions ("every
   * broker decision"); null when it models no decision cost, so its 0 says
   * nothing and control-work figures leave it out (and say so).
   */
  readonly controlWork: string | null;
  /** The parameter whose value is the deadline a failed task is counted at (figures draw it). */
  readonly deadlineParam: string;
  /** Who owns that deadline, as a figure's reference line says it ("Laminar's", "baselines'"). */
  readonly deadlineOwner: string;
  readonly supports: {
    /** The memory model and Airlock (memory.enabled). */
    readonly memoryModel: boolean;
    /** sim.checkInvariants. */
    readonly invariants: boolean;
    /** Splitting one run over worker threads (`--workers`). */
    readonly threads: boolean;
  };
  /** sim.drainS at the experiments' scales; null keeps the parameter's default. */
  readonly drainS: { readonly quick: number | null; readonly paper: number | null };
  /** The module (compiled .js beside this file) whose default export is its SchedulerImpl. */
  readonly impl: URL;
}

/** An entry with its name and parameter group kept as literal types (the Config's type is built from them). */
export function defineScheduler<const N extends string, const G extends ParamGroup | null>(e: SchedulerEntry<N, G>): SchedulerEntry<N, G> {
  return e;
}
