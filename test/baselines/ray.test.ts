// The Ray-like baseline's defining behaviour (paper §Baseline modeling):
// local-first placement at the raylet; spillback through the sharded GCS when
// the local node is exhausted; the USL penalty on a loaded GCS shard; a
// bounded number of spillbacks; the 5 s deadline.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { RayResult } from "../../src/baselines/ray.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { runRay } from "../../src/run/baselines.js";

// a clean network (no loss, no jitter), so hop counts show in the latencies; test/baselines/network.test.ts covers the lossy one
function run(...sets: string[]): RayResult {
  return runRay(applySets(defaultConfig(), ["sim.scheduler=ray", "cluster.nodes=200", "sim.durationS=0.5", "sim.drainS=1", "network.loss=0", "network.osJitterMs=0", ...sets]));
}

describe("Ray-like", () => {
  it("places locally at low load: one hop and one raylet decision, the GCS only for a rare miss", () => {
    const r = run("workload.rho=0.2");
    expect(r.startSuccessRatio).toBeGreaterThan(0.999);
    expect(r.localStarts).toBeGreaterThan(0.95 * r.started);
    expect(r.gcsDecisions).toBeLessThan(0.005 * r.arrived);
    expect(r.gcsDecisions).toBe(r.redirects / 2); // every miss goes to the GCS and back to a raylet (spillback=gcs)
    expect(r.p50StartedMs!).toBeGreaterThanOrEqual(0.52);
    expect(r.p50StartedMs!).toBeLessThan(0.6);
  });

  it("spills back through the GCS when local nodes are exhausted", () => {
    const r = run("workload.rho=0.95");
    expect(r.redirects).toBeGreaterThan(r.arrived * 0.3);
    expect(r.gcsDecisions).toBeGreaterThan(0);
    expect(r.p99StartedMs!).toBeGreaterThan(1);
  });

  it("charges the USL penalty when a shard's queue builds up", () => {
    const busy = run("workload.rho=0.95", "baselines.ray.uslQueue=1", "baselines.ray.shards=1");
    // control work counts the raylets' decisions (localUs each) and the GCS's
    const meanUs = (x: RayResult) => (x.controlWorkPerSuccessUs! * x.started - 20 * x.rayletDecisions) / x.gcsDecisions;
    expect(busy.maxShardQueue).toBeGreaterThan(1);
    expect(meanUs(busy)).toBeGreaterThan(50);
    const flat = run("workload.rho=0.95", "baselines.ray.uslQueue=1", "baselines.ray.shards=1", "baselines.ray.uslAlpha=0", "baselines.ray.uslBeta=0");
    expect(meanUs(flat)).toBeCloseTo(50, 6);
  });

  it("gives up after maxSpillbacks redirects", () => {
    const r = run("workload.rho=0.95", "baselines.ray.maxSpillbacks=0");
    expect(r.redirects).toBe(0);
    expect(r.failedBy.spillbacksExhausted).toBe(r.arrived - r.localStarts - r.inFlightAtEnd);
  });

  it("fails tasks not started within the deadline", () => {
    const r = run("workload.rho=1.5", "baselines.deadlineMs=2", "baselines.ray.maxSpillbacks=1000");
    expect(r.failedBy.deadline).toBeGreaterThan(0);
    expect(r.p99StartedMs!).toBeLessThan(2.05);
  });

  it("is deterministic", () => {
    const strip = (x: RayResult) => {
      const o: Record<string, unknown> = { ...x };
      for (const k of TIMING_FIELDS) delete o[k];
      return JSON.stringify(o);
    };
    expect(strip(run("workload.rho=0.9"))).toBe(strip(run("workload.rho=0.9")));
  });
});
