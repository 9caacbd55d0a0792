// Constraints that tie two parameters together, checked after each parameter
// passed its own range. Each names the parameter it blames and says what that
// parameter must be, in terms of the other one's current value.
import type { Config } from "./params.js";

export interface CrossRule {
  /** Dotted name of the parameter the message blames. */
  readonly param: string;
  readonly ok: (c: Config) => boolean;
  /** Tail of "must be ...". */
  readonly mustBe: (c: Config) => string;
}

const fitsNode = (param: "fAtoms" | "lAtoms" | "squatterAtoms"): CrossRule => ({
  param: `workload.${param}`,
  // a demand larger than a whole node could never be placed anywhere
  ok: (c) => c.workload[param] <= c.cluster.atomsPerNode,
  mustBe: (c) => `<= cluster.atomsPerNode (${c.cluster.atomsPerNode})`,
});

/**
 * Why the core's Zone engine cannot run this configuration yet, or null
 * when it can (docs/engine.md): sim.engine=core then is an error, and auto
 * runs the TypeScript model.
 */
export function engineUnsupported(c: Config): string | null {
  if (c.sim.checkInvariants) return "sim.checkInvariants (the invariant checker watches the TypeScript model)";
  return null;
}

export const CROSS_RULES: readonly CrossRule[] = [
  {
    // the core's Zone engine does not run the invariant checker, which watches the model
    param: "sim.engine",
    ok: (c) => c.sim.engine !== "core" || engineUnsupported(c) === null,
    mustBe: (c) => `auto or ts with ${(engineUnsupported(c) ?? "").split(" (")[0]} (the core's Zone engine does not run it: docs/engine.md)`,
  },
  {
    // a trace workload reads its tasks from a file: there must be one
    param: "workload.trace.file",
    ok: (c) => c.workload.kind !== "trace" || c.workload.trace.file !== "",
    mustBe: () => "the path of a trace file with workload.kind=trace",
  },
  fitsNode("fAtoms"),
  fitsNode("lAtoms"),
  fitsNode("squatterAtoms"),
  {
    // suspension runs from the high watermark down to the safe one
    param: "airlock.safeWatermark",
    ok: (c) => c.airlock.safeWatermark < c.airlock.highWatermark,
    mustBe: (c) => `< airlock.highWatermark (${c.airlock.highWatermark})`,
  },
  {
    // a secondary landing's state pull (one hop + statePullMs) must fit in T_surv, or no landing can ever succeed
    param: "airlock.statePullMs",
    ok: (c) => !c.memory.enabled || c.network.hopMs + c.airlock.statePullMs < c.airlock.survivalMs,
    mustBe: (c) => `< airlock.survivalMs - network.hopMs (${c.airlock.survivalMs - c.network.hopMs}) with memory.enabled`,
  },
  {
    // ... and in the destination's pull window when two-phase reservation is on
    param: "reservation.ttlMs",
    ok: (c) => !c.memory.enabled || !c.reservation.enabled || c.network.hopMs + c.airlock.statePullMs < c.reservation.ttlMs,
    mustBe: (c) => `> network.hopMs + airlock.statePullMs (${c.network.hopMs + c.airlock.statePullMs}) with memory.enabled and reservation.enabled`,
  },
];
