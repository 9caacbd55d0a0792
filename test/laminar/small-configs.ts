// Random small Laminar configurations for property tests that hold two ways
// of running a model equal (zone-engine.test.ts: the core's Zone engine
// against its twin; gateway-once.test.ts: the gateway once against its
// replicas): the cluster, the load and the network, each test adding the
// mechanisms it exercises.
import fc from "fast-check";

/** The common part: seed, cluster, load, loss, reservations, squatters. */
export const smallCluster = {
  seed: fc.integer({ min: 0, max: 1e6 }),
  nodes: fc.integer({ min: 20, max: 300 }),
  zoneSize: fc.integer({ min: 8, max: 128 }),
  atoms: fc.constantFrom(64, 128, 256),
  rho: fc.double({ min: 0.2, max: 1.1, noNaN: true }),
  loss: fc.constantFrom(0, 0.01, 0.2),
  reserve: fc.boolean(),
  squat: fc.constantFrom(0, 0.05),
};

/** Its --set list: the drawn values, 0.1 s of arrivals and 0.3 s of drain. */
export function smallSets(p: { seed: number; nodes: number; zoneSize: number; atoms: number; rho: number; loss: number; reserve: boolean; squat: number }): string[] {
  return [
    `sim.seed=${p.seed}`, `cluster.nodes=${p.nodes}`, `cluster.zoneSize=${p.zoneSize}`, `cluster.atomsPerNode=${p.atoms}`,
    `workload.rho=${p.rho}`, `network.loss=${p.loss}`, `reservation.enabled=${p.reserve}`, `workload.squatterRatio=${p.squat}`,
    "sim.durationS=0.1", "sim.drainS=0.3",
  ];
}
