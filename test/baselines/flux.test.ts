// The Flux-like baseline's defining behaviour (paper §Baseline modeling): a
// broker tree (fanout 16, leaves of 32 nodes); placement walks down it on
// views only the heartbeat refreshes; leaf collisions roll back up with a hop
// and a backoff per level; the root's exponential congestion on its queue.
// The decision rules (src/baselines/flux-policy.ts) are tested on their own,
// then the model's choices one by one against their alternatives.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { BrokerTree, type FluxResult } from "../../src/baselines/flux.js";
import { brokerCongestion, pickChild, rootCongestion, type ChildPick } from "../../src/baselines/flux-policy.js";
import { streamRng } from "../../src/sim/rng.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { runFlux } from "../../src/run/baselines.js";

// a clean network (no loss, no jitter), so hop counts show in the latencies; test/baselines/network.test.ts covers the lossy one
function run(...sets: string[]): FluxResult {
  return runFlux(applySets(defaultConfig(), ["sim.scheduler=flux", "cluster.nodes=512", "sim.durationS=0.3", "sim.drainS=1", "network.loss=0", "network.osJitterMs=0", ...sets]));
}

const perDecisionUs = (x: FluxResult) => (x.controlWorkPerSuccessUs! * x.started) / x.decisions;

describe("BrokerTree", () => {
  it("builds leaves of leafNodes nodes and levels of fanout brokers up to one root", () => {
    const t = new BrokerTree(5000, 32, 16);
    expect(t.leaves).toBe(157);
    expect(t.brokers).toBe(157 + 10 + 1);
    expect(t.parent[t.root]).toBe(-1);
    let covered = 0;
    for (let b = 0; b < t.leaves; b++) {
      expect(t.first[b]).toBe(covered);
      covered = t.last[b];
      expect(t.last[b] - t.first[b]).toBeLessThanOrEqual(32);
    }
    expect(covered).toBe(5000);
    for (let b = 0; b < t.brokers; b++) {
      if (b === t.root) continue;
      const p = t.parent[b];
      expect(b >= t.first[p] && b < t.last[p]).toBe(true);
      expect(t.last[p] - t.first[p]).toBeLessThanOrEqual(16);
      expect(t.depth[b]).toBe(t.depth[p] + 1);
    }
    expect(t.depth[t.root]).toBe(0);
    expect(t.depth[0]).toBe(2); // leaf -> one of 10 brokers -> root
    const single = new BrokerTree(20, 32, 16);
    expect(single.brokers).toBe(1);
    expect(single.isLeaf(single.root)).toBe(true);
  });
});

describe("flux-policy", () => {
  it("congests the root as exp(min(max(0, q - onset) / scale, cap))", () => {
    expect(rootCongestion(0, 4000, 10, 0)).toBe(1);
    expect(rootCongestion(4000, 4000, 10, 0)).toBeCloseTo(Math.E, 12);
    expect(rootCongestion(1e9, 4000, 10, 0)).toBeCloseTo(Math.exp(10), 6);
    expect(rootCongestion(4000, 4000, 10, 4000)).toBe(1);
    expect(rootCongestion(8000, 4000, 10, 4000)).toBeCloseTo(Math.E, 12);
  });

  it("congests other brokers linearly up to a cap", () => {
    expect(brokerCongestion(0, 256, 0.1, 5)).toBe(1);
    expect(brokerCongestion(256, 256, 0.1, 5)).toBeCloseTo(1.1, 12);
    expect(brokerCongestion(1e9, 256, 0.1, 5)).toBeCloseTo(1.5, 12);
  });

  // children 4..7 of some broker; child 5's largest node is too small for 32 atoms
  const viewMax = [0, 0, 0, 0, 64, 10, 64, 64];
  const viewSum = [0, 0, 0, 0, 100, 500, 300, 200];
  const pick = (rule: ChildPick, m: number, cursor = 0, draw = (_k: number) => 0) => pickChild(rule, 4, 8, m, viewMax, viewSum, cursor, draw);

  it("picks a child among those whose view fits, by each rule", () => {
    expect(pick("mostFree", 32)).toBe(6);
    expect(pick("first", 32)).toBe(4);
    expect(pick("roundRobin", 32, 5)).toBe(6);
    expect(pick("roundRobin", 32, 7)).toBe(7);
    expect(pick("roundRobin", 32, 8)).toBe(4); // past the last child: wraps to the first
    expect(pick("random", 32, 0, (k) => k - 1)).toBe(7);
    expect(pick("random", 32, 0, () => 1)).toBe(6);
    expect(pick("mostFree", 8)).toBe(5); // small enough for child 5, which has the most free atoms
    for (const rule of ["mostFree", "first", "roundRobin", "random"] as const) expect(pick(rule, 65)).toBe(-1);
  });

  it("draws a random child uniformly among the fitting ones only", () => {
    const rng = streamRng(7, "test"), counts = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const c = pick("random", 32, 0, (k) => rng.int(k));
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([4, 6, 7]);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(120);
  });
});

describe("Flux-like", () => {
  it("walks down the tree at low load: one hop per level, then one to the node", () => {
    const r = run("workload.rho=0.3");
    expect(r.startSuccessRatio).toBeGreaterThan(0.999);
    // 512 nodes: 16 leaves under the root; arrival -> root -> leaf -> node is 3 hops of 0.5 ms
    expect(r.p50StartedMs!).toBeGreaterThanOrEqual(1.5);
    expect(r.p50StartedMs!).toBeLessThan(1.6);
    expect(r.rollbacks).toBe(0);
  });

  // 1,024 nodes: 32 leaves under 2 brokers under the root
  const twoLevels = ["cluster.nodes=1024", "workload.rho=0.6"];

  it("herds onto the child its heartbeat view shows freest, and rolls back one level per collision", () => {
    const r = run(...twoLevels);
    expect(r.rollbacks).toBeGreaterThan(0.01 * r.arrived);
    expect(r.startSuccessRatio).toBe(1);
    // p99: 2 ms down the tree, one rollback to the parent (hop + 10 ms backoff), one hop down to another leaf
    expect(r.p99StartedMs!).toBeGreaterThanOrEqual(13);
    expect(r.p99StartedMs!).toBeLessThan(13.1);
    // a broker that books what it sent (booking=total) does not overfill a leaf between heartbeats
    const booked = run(...twoLevels, "baselines.flux.booking=total");
    expect(booked.rollbacks).toBe(0);
    expect(booked.p99StartedMs!).toBeLessThan(2.1);
    // load-oblivious picks spread the heartbeat's tasks and barely collide
    for (const rule of ["roundRobin", "random"]) expect(run(...twoLevels, `baselines.flux.childPick=${rule}`).rollbacks).toBeLessThan(0.1 * r.rollbacks);
  });

  it("climbs to the root with rollbackTo=root, paying a hop and the backoff per level", () => {
    const r = run(...twoLevels, "baselines.flux.rollbackTo=root");
    expect(r.rollbacks).toBeGreaterThan(0.01 * r.arrived);
    // 2 ms, two levels up (2 x 10.5 ms), two hops down again
    expect(r.p99StartedMs!).toBeGreaterThanOrEqual(24);
    expect(r.p99StartedMs!).toBeLessThan(24.1);
  });

  it("fails a task after maxRetries rollbacks", () => {
    const stale = ["cluster.nodes=256", "sim.durationS=1", "workload.fShare=0", "workload.rho=0.9", "baselines.heartbeatMs=50"];
    const r = run(...stale);
    expect(r.rollbacks).toBeGreaterThan(0.05 * r.arrived);
    const none = run(...stale, "baselines.flux.maxRetries=0");
    expect(none.rollbacks).toBe(0);
    expect(none.failedBy.retriesExhausted).toBeGreaterThan(0);
  });

  it("congests the root exponentially with its queue", () => {
    // 10 us per decision: the root serves about 100,000 tasks/s, below the arrival rate at rho = 1.5
    const light = run("workload.rho=0.3", "baselines.flux.dispatchUs=10");
    const heavy = run("workload.rho=1.5", "baselines.flux.dispatchUs=10", "baselines.flux.rootQueue=50", "baselines.deadlineMs=200");
    expect(perDecisionUs(heavy)).toBeGreaterThan(5 * perDecisionUs(light));
    expect(heavy.maxRootQueue).toBeGreaterThan(1000);
    expect(heavy.failedBy.deadline).toBeGreaterThan(0);
    expect(heavy.arrived).toBe(heavy.started + heavy.failed + heavy.inFlightAtEnd);
  });

  it("counts every task not yet started by default (rootLoad=inFlight), only the root's queue with rootLoad=queue", () => {
    // tasks rolling back (10 ms each) are in flight but not in the root's queue
    const queue = run(...twoLevels, "baselines.flux.rootQueue=100", "baselines.flux.rootOnset=0", "baselines.flux.rootLoad=queue");
    const inFlight = run(...twoLevels, "baselines.flux.rootQueue=100", "baselines.flux.rootOnset=0");
    expect(queue.maxRootQueue).toBeLessThan(50);
    expect(perDecisionUs(queue)).toBeLessThan(1.2);
    expect(perDecisionUs(inFlight)).toBeGreaterThan(10 * perDecisionUs(queue));
    expect(inFlight.startSuccessRatio).toBeLessThan(0.5);
  });

  it("serialises the root's decisions unless rootService=pipelined", () => {
    // 20 us per decision: a serial root handles about 50,000 tasks/s, below the arrival rate
    const serial = run("workload.rho=0.8", "baselines.flux.dispatchUs=20");
    const pipelined = run("workload.rho=0.8", "baselines.flux.dispatchUs=20", "baselines.flux.rootService=pipelined");
    expect(serial.maxRootQueue).toBeGreaterThan(1000);
    expect(serial.p99StartedMs!).toBeGreaterThan(5 * pipelined.p99StartedMs!);
    expect(pipelined.startSuccessRatio).toBe(1);
    expect(pipelined.maxRootQueue).toBeLessThan(50);
  });

  it("is deterministic", () => {
    const strip = (x: FluxResult) => {
      const o: Record<string, unknown> = { ...x };
      for (const k of TIMING_FIELDS) delete o[k];
      return JSON.stringify(o);
    };
    expect(strip(run("workload.rho=0.9"))).toBe(strip(run("workload.rho=0.9")));
    const random = [...["cluster.nodes=1024", "workload.rho=0.9"], "baselines.flux.childPick=random"];
    expect(strip(run(...random))).toBe(strip(run(...random)));
  });
});
