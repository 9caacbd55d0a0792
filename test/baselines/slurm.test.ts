// The Slurm-like baseline's defining behaviour (paper §Baseline modeling):
// one serialized decision at a time, whose cost grows with the cluster and
// the queue (lock convoy), so at paper scale the global FIFO only grows; on a
// small cluster it keeps up; first-fit misses retry with backoff and then fail.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { SlurmResult } from "../../src/baselines/slurm.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { runLaminar } from "../../src/run/laminar.js";
import { runSlurm } from "../../src/run/baselines.js";

function run(...sets: string[]): SlurmResult {
  return runSlurm(applySets(defaultConfig(), ["sim.scheduler=slurm", ...sets]));
}

describe("Slurm-like at 5,000 nodes, rho = 0.8", () => {
  const r = run("cluster.nodes=5000", "sim.durationS=0.5", "sim.drainS=0");
  it("is bound by its decision rate: starts at most one task per decision time", () => {
    const minDecisionUs = 0.1 + 0.01 * 5000 + 0.5;
    expect(r.decisions).toBeLessThanOrEqual(Math.ceil((r.simulatedSeconds * 1e6) / minDecisionUs));
    expect(r.decisions).toBeGreaterThan(0.9 * (r.simulatedSeconds * 1e6) / r.meanDecisionUs!);
    expect(r.started).toBeLessThanOrEqual(r.decisions);
    expect(r.startSuccessRatio).toBeLessThan(0.1);
  });
  it("lets its global FIFO grow with the arrivals, and pays the lock convoy for it", () => {
    expect(r.maxQueue).toBeGreaterThan(0.8 * (r.arrived - r.started));
    expect(r.meanDecisionUs!).toBeGreaterThan(0.1 + 0.01 * 5000 + 0.5);
    expect(r.inFlightAtEnd).toBe(r.arrived - r.started - r.failed);
    const half = r.series.length > 1 ? r.series : null;
    if (half) expect(half[half.length - 1].inFlight).toBeGreaterThan(half[0].inFlight);
  });
  it("serves in arrival order: the median wait grows with the run", () => {
    const longer = run("cluster.nodes=5000", "sim.durationS=1", "sim.drainS=0");
    expect(longer.p50StartedMs!).toBeGreaterThan(r.p50StartedMs!);
  });
});

describe("Slurm-like on a small cluster", () => {
  it("keeps up at low load: everything starts after two hops and a decision", () => {
    const r = run("cluster.nodes=40", "workload.rho=0.4", "sim.durationS=0.5", "sim.drainS=1");
    expect(r.startSuccessRatio).toBeGreaterThan(0.999);
    expect(r.p50StartedMs!).toBeGreaterThanOrEqual(1);
    expect(r.p50StartedMs!).toBeLessThan(1.2);
  });
  it("retries first-fit misses with backoff and fails a task once its retries are spent", () => {
    const r = run("cluster.nodes=10", "workload.rho=2", "sim.durationS=0.5", "sim.drainS=0.5");
    expect(r.failedBy.retriesExhausted).toBeGreaterThan(0);
    const none = run("cluster.nodes=10", "workload.rho=2", "sim.durationS=0.5", "sim.drainS=0.5", "baselines.slurm.retries=0");
    expect(none.failedBy.retriesExhausted).toBeGreaterThan(r.failedBy.retriesExhausted);
  });
  it("applies baselines.deadlineMs when its queue is bounded", () => {
    const r = run("cluster.nodes=5000", "sim.durationS=0.3", "sim.drainS=0.3", "baselines.slurm.unboundedQueue=false", "baselines.deadlineMs=100");
    expect(r.failedBy.deadline).toBeGreaterThan(0);
    expect(r.p99StartedMs!).toBeLessThanOrEqual(101);
  });
});

describe("determinism", () => {
  it("same seed, same result; the arrivals are Laminar's", () => {
    const strip = (x: SlurmResult) => {
      const o: Record<string, unknown> = { ...x };
      for (const k of TIMING_FIELDS) delete o[k];
      return JSON.stringify(o);
    };
    const a = run("cluster.nodes=200", "sim.durationS=0.2"), b = run("cluster.nodes=200", "sim.durationS=0.2");
    expect(strip(a)).toBe(strip(b));
    const lam = runLaminar(applySets(defaultConfig(), ["cluster.nodes=200", "sim.durationS=0.2"]));
    expect([a.arrived, a.arrivedF, a.arrivedL]).toEqual([lam.arrived, lam.arrivedF, lam.arrivedL]);
  });
});
