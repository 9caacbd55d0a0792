// Random valid configurations at tiny scale, with the invariant checker on:
// every run must finish, account for every arrival, and violate nothing.
// Edge cases on purpose: one node, Zones of one node, candidates beyond the
// Zone size, tiny windows, hops longer than the broadcast period, heavy loss,
// TTLs shorter than the pull, squatters, pre-occupancy, small bitmaps, the
// shortest hop, deadlines and quiet intervals shorter than the gateway's batch.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { runLaminar } from "../../src/run/laminar.js";

const configs = fc.record({
  nodes: fc.integer({ min: 1, max: 60 }),
  atoms: fc.constantFrom(64, 128, 256),
  zoneSize: fc.integer({ min: 1, max: 80 }),
  jitter: fc.constantFrom(0, 0.2, 0.9),
  rho: fc.constantFrom(0.1, 0.5, 0.8, 1.2),
  lAtoms: fc.integer({ min: 1, max: 64 }),
  fAtoms: fc.integer({ min: 1, max: 8 }),
  loss: fc.constantFrom(0, 0.01, 0.3),
  hopMs: fc.constantFrom(0.001, 0.05, 0.5, 12),
  windowMs: fc.constantFrom(0.001, 1, 5),
  candidates: fc.integer({ min: 1, max: 100 }),
  reservation: fc.boolean(),
  ttlMs: fc.constantFrom(0.2, 5, 200),
  regeneration: fc.boolean(),
  squatters: fc.constantFrom(0, 0.05),
  preoccupancy: fc.boolean(),
  syncDelayMs: fc.constantFrom(0, 30),
  projection: fc.boolean(),
  guard: fc.boolean(),
  acceptProjected: fc.boolean(),
  reportMs: fc.constantFrom(0.5, 10, 200),
  broadcastMs: fc.constantFrom(0.3, 10, 150),
  degradeFactor: fc.constantFrom(1, 1.5, 20),
  silenceMs: fc.constantFrom(1, 150),
  patienceFloor: fc.constantFrom(0, 1, 100),
  maxInstances: fc.constantFrom(1, 5),
  quietMs: fc.constantFrom(0.01, 2, 150),
  deadlineMs: fc.constantFrom(0.3, 5, 500),
  price: fc.constantFrom(0.5, 18),
  seed: fc.integer({ min: 0, max: 1000 }),
});

describe("random configurations", () => {
  it("run to the end with every invariant holding", () => {
    fc.assert(
      fc.property(configs, (k) => {
        const c = applySets(defaultConfig(), [
          `cluster.nodes=${k.nodes}`, `cluster.atomsPerNode=${k.atoms}`, `cluster.zoneSize=${k.zoneSize}`,
          `cluster.zoneJitter=${k.jitter}`, `workload.rho=${k.rho}`, `workload.lAtoms=${k.lAtoms}`,
          `workload.fAtoms=${k.fAtoms}`, `workload.squatterAtoms=${Math.min(64, k.atoms)}`,
          `network.loss=${k.loss}`, `network.hopMs=${k.hopMs}`, `arbiter.windowMs=${k.windowMs}`,
          `da.candidates=${k.candidates}`, `reservation.enabled=${k.reservation}`, `reservation.ttlMs=${k.ttlMs}`,
          `regeneration.enabled=${k.regeneration}`, `workload.squatterRatio=${k.squatters}`,
          `cluster.preoccupancy.enabled=${k.preoccupancy}`, `zhaf.syncDelayMs=${k.syncDelayMs}`,
          `zhaf.projection=${k.projection}`, `zhaf.missingnessGuard=${k.guard}`, `da.acceptProjected=${k.acceptProjected}`,
          `zhaf.reportIntervalMs=${k.reportMs}`, `zhaf.broadcastMs=${k.broadcastMs}`, `zhaf.degradeFactor=${k.degradeFactor}`,
          `da.silenceTtlMs=${k.silenceMs}`, `da.patienceFloor=${k.patienceFloor}`, `regeneration.maxInstances=${k.maxInstances}`,
          `regeneration.quietMs=${k.quietMs}`, `task.deadlineMs=${k.deadlineMs}`, `workload.priceF=${k.price}`, `workload.priceL=${k.price}`,
          `sim.seed=${k.seed}`, "sim.durationS=0.15", "sim.drainS=0.6", "sim.checkInvariants=true", "sim.seriesIntervalMs=50",
        ]);
        const r = runLaminar(c);
        expect(r.arrived).toBe(r.started + r.failed + r.inFlightAtEnd);
        expect(r.completed).toBeLessThanOrEqual(r.started);
        expect(r.startSuccessRatio).toBeGreaterThanOrEqual(0);
        expect(r.startSuccessRatio).toBeLessThanOrEqual(1);
        // the drain (600 ms) outlasts the 500 ms deadline: nothing stays unresolved
        expect(r.inFlightAtEnd).toBe(0);
      }),
      { numRuns: 40, seed: 20261126 },
    );
  });
});
