// The Flux-like baseline's defining behaviour (paper §Baseline modeling): a
// broker tree (fanout 16, leaves of 32 nodes); placement walks down it on
// stale views; leaf collisions roll back up with a hop and a backoff per
// level; the root's exponential congestion.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/model/params-config.js";
import { BrokerTree, runFlux, type FluxResult } from "../../src/baselines/flux.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";

function run(...sets: string[]): FluxResult {
  return runFlux(applySets(defaultConfig(), ["sim.scheduler=flux", "cluster.nodes=512", "sim.durationS=0.3", "sim.drainS=1", ...sets]));
}

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
    }
    const single = new BrokerTree(20, 32, 16);
    expect(single.brokers).toBe(1);
    expect(single.isLeaf(single.root)).toBe(true);
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

  it("rolls back on leaf collisions when views are stale, paying a hop and the backoff per level", () => {
    // L-tasks only, at a load the tree cannot hold, with views refreshed every 50 ms
    const stale = ["cluster.nodes=256", "sim.durationS=1", "workload.fShare=0", "workload.rho=0.9", "baselines.heartbeatMs=50"];
    const r = run(...stale);
    expect(r.rollbacks).toBeGreaterThan(0.05 * r.arrived);
    expect(r.p99StartedMs!).toBeGreaterThan(10.5); // at least one rollback: a hop and a 10 ms backoff
    const none = run(...stale, "baselines.flux.maxRetries=0");
    expect(none.rollbacks).toBe(0);
    expect(none.failedBy.retriesExhausted).toBeGreaterThan(0);
  });

  it("congests the root exponentially with the tasks in flight", () => {
    const light = run("workload.rho=0.3");
    const perDecision = (x: FluxResult) => (x.controlWorkPerSuccessUs! * x.started) / x.decisions;
    const heavy = run("workload.rho=1.5", "baselines.flux.rootQueue=50", "baselines.deadlineMs=200");
    expect(perDecision(heavy)).toBeGreaterThan(5 * perDecision(light));
    expect(heavy.failedBy.deadline).toBeGreaterThan(0);
    expect(heavy.arrived).toBe(heavy.started + heavy.failed + heavy.inFlightAtEnd);
  });

  it("is deterministic", () => {
    const strip = (x: FluxResult) => {
      const o: Record<string, unknown> = { ...x };
      for (const k of TIMING_FIELDS) delete o[k];
      return JSON.stringify(o);
    };
    expect(strip(run("workload.rho=0.9"))).toBe(strip(run("workload.rho=0.9")));
  });
});
