// The baselines on the shared network (paper §Baseline modeling: "all three
// baselines share the same network ground rules as Laminar"): a lost control
// message is resent after baselines.lossRecoveryMs (TCP's retransmission
// timeout), so it delays its task by that much; the counters report it; entry
// skew moves where tasks enter; the crash rule ends a run as the artifact's
// did; the run profiles are sets of values that --set still overrides.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig, resolveConfig } from "../../src/config/params-config.js";
import type { RayResult } from "../../src/baselines/ray.js";
import type { FluxResult } from "../../src/baselines/flux.js";
import type { SlurmResult } from "../../src/baselines/slurm.js";
import { Arrivals, hotNodeCount } from "../../src/workload/arrivals.js";
import { PROFILES, profileSets } from "../../src/config/profiles.js";
import type { Config } from "../../src/config/params.js";
import { runFlux, runRay, runSlurm } from "../../src/run/baselines.js";

type Net = RayResult | FluxResult | SlurmResult;
const RUNS = { ray: runRay, flux: runFlux, slurm: runSlurm } as const;

function run(scheduler: keyof typeof RUNS, ...sets: string[]): Net {
  const c = applySets(defaultConfig(), [`sim.scheduler=${scheduler}`, "sim.durationS=0.3", "sim.drainS=1", "network.osJitterMs=0", ...sets]);
  return RUNS[scheduler](c);
}

describe("loss and recovery", () => {
  // low load, so nothing queues: a task's latency is its messages' hops (and, for a lost one, the resend)
  const cases = [
    { scheduler: "ray", sets: ["cluster.nodes=200", "workload.rho=0.2"], hops: 1 }, // submission to the entry raylet; it starts there
    { scheduler: "slurm", sets: ["cluster.nodes=100", "workload.rho=0.2"], hops: 2 }, // submission to the controller, launch to the node
    { scheduler: "flux", sets: ["cluster.nodes=512", "workload.rho=0.2"], hops: 3 }, // to the root, to a leaf, launch to the node
  ] as const;

  for (const { scheduler, sets, hops } of cases) {
    it(`${scheduler}-like: a lost message delays its task by lossRecoveryMs, and is counted`, () => {
      const clean = run(scheduler, ...sets, "network.loss=0");
      expect(clean.messagesLost).toBe(0);
      expect(clean.messagesRecovered).toBe(0);
      expect(clean.messagesSent).toBeGreaterThanOrEqual(clean.started * hops);
      expect(clean.p99StartedMs!).toBeLessThan(hops * 0.5 + 0.1);
      for (const recovery of [40, 70]) {
        const lossy = run(scheduler, ...sets, "network.loss=0.03", `baselines.lossRecoveryMs=${recovery}`);
        expect(lossy.startSuccessRatio).toBe(1);
        expect(lossy.messagesLost).toBeGreaterThan(0.02 * lossy.messagesSent);
        expect(lossy.messagesRecovered).toBeGreaterThan(0);
        expect(lossy.messagesRecovered).toBeLessThanOrEqual(lossy.messagesLost);
        // about 3% of tasks per message lose one: the p99 is a task whose message was resent once
        expect(lossy.p99StartedMs!).toBeGreaterThanOrEqual(recovery + hops * 0.5);
        expect(lossy.p99StartedMs!).toBeLessThan(recovery + hops * 0.5 + 0.1);
      }
    });
  }

  it("a lost heartbeat report leaves that view stale (counted)", () => {
    const r = run("flux", "cluster.nodes=512", "workload.rho=0.5", "network.loss=0.2");
    expect(r.reportsLost).toBeGreaterThan(0);
    const y = run("ray", "cluster.nodes=200", "workload.rho=0.5", "network.loss=0.2");
    expect(y.reportsLost).toBeGreaterThan(0.15 * 200 * 130); // 200 nodes x 130 heartbeats (1.3 s), 20% lost
  });

  it("the paper profile's 1% loss reaches every baseline, and its JSON counts lost and recovered messages", () => {
    for (const scheduler of ["ray", "flux", "slurm"] as const) {
      const c = resolveConfig(undefined, [`sim.scheduler=${scheduler}`, "cluster.nodes=512", "sim.durationS=0.2", "sim.drainS=1"], "paper");
      const r = RUNS[scheduler](c);
      expect(r.messagesLost).toBeGreaterThan(0);
      expect(r.messagesRecovered).toBeGreaterThan(0);
      expect(r.messagesLost / r.messagesSent).toBeGreaterThan(0.005);
      expect(r.messagesLost / r.messagesSent).toBeLessThan(0.02);
    }
  });

  it("the network draws on its own stream: without loss or jitter the model decides as before", () => {
    const a = run("ray", "cluster.nodes=200", "workload.rho=0.9", "network.loss=0");
    const b = run("ray", "cluster.nodes=200", "workload.rho=0.9", "network.loss=0", "baselines.lossRecoveryMs=999");
    expect(b.started).toBe(a.started);
    expect(b.p99StartedMs).toBe(a.p99StartedMs);
  });
});

describe("entry skew", () => {
  it("draws entry nodes with the hotspot share among the first hotNodeShare of node ids", () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=1000", "sim.durationS=0.05", "workload.hotspotShare=0.2", "workload.hotNodeShare=0.05"]);
    expect(hotNodeCount(c)).toBe(50);
    const a = new Arrivals(c, 0.05e9, false, true);
    let n = 0, hot = 0;
    while (a.peek() < Infinity) {
      a.next();
      n++;
      expect(a.entry).toBeGreaterThanOrEqual(0);
      expect(a.entry).toBeLessThan(1000);
      if (a.entry < 50) hot++;
    }
    // 20% at a hot node, plus the hot nodes' 5% share of the other 80%
    expect(hot / n).toBeGreaterThan(0.24 - 0.01);
    expect(hot / n).toBeLessThan(0.24 + 0.01);
    expect(hotNodeCount(applySets(c, ["cluster.nodes=10"]))).toBe(1);
  });

  it("Ray-like: tasks queue at their entry node's raylet, bounded by rayletQueueCap", () => {
    // 200 us a local decision: 4 raylets decide 20,000 tasks/s, half of what 400 nodes receive at rho 0.6
    const base = ["cluster.nodes=400", "workload.rho=0.6", "network.loss=0", "baselines.ray.rayletQueueCap=3", "baselines.ray.localUs=200"];
    const even = run("ray", ...base) as RayResult;
    const hot = run("ray", ...base, "workload.hotspotShare=1", "workload.hotNodeShare=0.01") as RayResult;
    expect(even.failedBy.queueFull).toBe(0);
    expect(hot.maxRayletQueue).toBe(3);
    expect(hot.failedBy.queueFull).toBeGreaterThan(0.3 * hot.arrived);
    expect(hot.localStarts).toBeLessThan(0.5 * even.localStarts);
  });

  it("a task refused by a full queue fails at once, or is sent again until its deadline (fullQueue)", () => {
    const base = ["cluster.nodes=400", "workload.rho=0.6", "network.loss=0", "baselines.ray.rayletQueueCap=3", "baselines.ray.localUs=200",
      "workload.hotspotShare=1", "workload.hotNodeShare=0.01", "baselines.deadlineMs=50"];
    const fail = run("ray", ...base) as RayResult;
    expect(fail.failedBy.queueFull).toBeGreaterThan(0);
    expect(fail.fullQueueRetries).toBe(0);
    const retry = run("ray", ...base, "baselines.fullQueue=retry", "baselines.fullQueueRetryMs=5") as RayResult;
    expect(retry.failedBy.queueFull).toBe(0);
    expect(retry.fullQueueRetries).toBeGreaterThan(fail.failedBy.queueFull);
    expect(retry.failedBy.deadline).toBeGreaterThan(0); // sent again and again until the deadline
    expect(retry.arrived).toBe(retry.started + retry.failed + retry.inFlightAtEnd);
    expect(retry.p99StartedMs!).toBeLessThan(50.1);
  });

  it("Flux-like: entry=leaf puts tasks on the leaf over their entry node; a hotspot there makes it collide and roll back", () => {
    const base = ["cluster.nodes=1024", "workload.rho=0.5", "network.loss=0", "baselines.flux.entry=leaf"];
    const even = run("flux", ...base) as FluxResult;
    const hot = run("flux", ...base, "workload.hotspotShare=0.5", "workload.hotNodeShare=0.03") as FluxResult;
    expect(even.startSuccessRatio).toBeGreaterThan(0.999);
    expect(hot.rollbacks).toBeGreaterThan(3 * even.rollbacks + 100);
    // entering at a leaf skips the walk down from the root: two hops fewer at low load
    const low = (entry: string) => run("flux", "cluster.nodes=1024", "workload.rho=0.1", "network.loss=0", `baselines.flux.entry=${entry}`);
    expect(low("root").p50StartedMs! - low("leaf").p50StartedMs!).toBeCloseTo(1.0, 1);
  });

  it("Slurm-like: the entry node plays no part (one global controller)", () => {
    const a = run("slurm", "cluster.nodes=200", "workload.rho=0.5");
    const b = run("slurm", "cluster.nodes=200", "workload.rho=0.5", "workload.hotspotShare=1");
    expect({ ...b, config: null, wallSeconds: 0, tasksPerWallSecond: 0, peakRssMiB: 0 }).toEqual({ ...a, config: null, wallSeconds: 0, tasksPerWallSecond: 0, peakRssMiB: 0 });
  });
});

describe("crash rule", () => {
  it("Ray-like: a GCS decision longer than crashDecisionMs fails every queued and later task", () => {
    // one shard with a steep USL penalty: decisions grow past 0.2 ms as its queue builds
    const sets = ["cluster.nodes=1000", "workload.rho=0.95", "network.loss=0", "baselines.ray.shards=1", "baselines.ray.uslQueue=5", "sim.seriesIntervalMs=10"];
    const off = run("ray", ...sets) as RayResult;
    expect(off.crashed).toBe(false);
    expect(off.failedBy.crashed).toBe(0);
    const on = run("ray", ...sets, "baselines.crashDecisionMs=0.2") as RayResult;
    expect(on.crashed).toBe(true);
    expect(on.failedBy.crashed).toBeGreaterThan(0);
    expect(on.arrived).toBe(on.started + on.failed + on.inFlightAtEnd);
    // after the interval in which it crashed, nothing starts
    const first = on.series.findIndex((p) => p.failed > 0);
    expect(first).toBeGreaterThanOrEqual(0);
    for (const p of on.series.slice(first + 1)) expect(p.started).toBe(0);
    expect(on.series.slice(first + 1).reduce((a, p) => a + p.failed, 0)).toBeGreaterThan(0);
  });

  it("Slurm-like: once one decision takes too long, every later task fails", () => {
    // 1,000 nodes: a 10.6 us decision, below the arrival rate, so the FIFO (and the linear convoy) grows
    const sets = ["cluster.nodes=1000", "workload.rho=0.8", "sim.drainS=0", "baselines.slurm.convoy=linear", "baselines.slurm.convoyQueue=1000"];
    const off = run("slurm", ...sets) as SlurmResult;
    expect(off.crashed).toBe(false);
    const on = run("slurm", ...sets, "baselines.crashDecisionMs=0.015") as SlurmResult;
    expect(on.crashed).toBe(true);
    expect(on.started).toBeLessThan(off.started);
    expect(on.failedBy.crashed).toBeGreaterThan(0);
  });

  it("Flux-like: a congested root's decision past the limit crashes the tree", () => {
    const sets = ["cluster.nodes=512", "workload.rho=0.8", "network.loss=0", "baselines.flux.dispatchUs=20", "baselines.flux.rootOnset=0", "baselines.flux.rootQueue=200"];
    const on = run("flux", ...sets, "baselines.crashDecisionMs=0.5") as FluxResult;
    expect(run("flux", ...sets).crashed).toBe(false);
    expect(on.crashed).toBe(true);
    expect(on.failedBy.crashed).toBeGreaterThan(0);
  });
});

describe("run profiles", () => {
  it("paper is the registry's defaults written out; artifact sets the authors' sweep values", () => {
    const d = defaultConfig();
    expect(applySets(d, profileSets("paper"))).toEqual(d);
    const a: Config = resolveConfig(undefined, [], "artifact");
    expect(a.network.loss).toBe(0);
    expect(a.network.hopMs).toBe(0.1);
    expect(a.baselines.hopMs).toBe(0.5);
    expect(a.workload.hotspotShare).toBe(0.2);
    expect(a.sim.durationS).toBe(5);
    expect(a.baselines.crashDecisionMs).toBe(5000);
    expect(a.baselines.flux.entry).toBe("leaf");
    for (const p of Object.values(PROFILES)) for (const v of Object.values(p.values)) expect(v.source.length).toBeGreaterThan(10);
  });

  it("--set overrides a profile", () => {
    const a = resolveConfig(undefined, ["network.loss=0.3"], "artifact");
    expect(a.network.loss).toBe(0.3);
    expect(a.workload.hotspotShare).toBe(0.2);
  });
});
