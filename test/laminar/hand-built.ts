// A Laminar model on hand-built nodes, for tests that place tasks themselves:
// no arrivals to speak of, the invariant checker on, and memory that is
// exactly what the test says (each task's use jumps to its target at the
// first tick, kappa = 1, and stays there: no noise, no bursts). Capacity 256
// GiB per node: high watermark 230.4, safe 204.8.
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { loadCore } from "../../src/core/wasm.js";

/** Nanoseconds per millisecond. */
export const MS = 1_000_000;

/** A started model of `nodes` hand-built nodes (suspensionScope=all unless `sets` say otherwise). */
export function handBuilt(nodes: number, ...sets: string[]): LaminarModel {
  const c = applySets(defaultConfig(), [
    `cluster.nodes=${nodes}`, "workload.rho=0.000001", "sim.durationS=0.001", "sim.checkInvariants=true",
    "memory.enabled=true", "memory.driftKappa=1", "memory.noiseSigma=0", "memory.burstRate=0",
    "reservation.enabled=false", "regeneration.enabled=false", "network.loss=0", "airlock.suspensionScope=all", ...sets,
  ]);
  const m = new LaminarModel(loadCore("auto"), c);
  m.start();
  return m;
}

/** Run the model to `ms` milliseconds. */
export const at = (m: LaminarModel, ms: number): void => m.runUntil(Math.round(ms * MS));
