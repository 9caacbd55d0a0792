// Each baseline's failure mode from the paper (§Baseline modeling) arises
// where the paper puts it, and goes away when its cause is switched off:
//   Ray-like:   the hot GCS shard (0.5 skew) queues past the USL onset and
//               collapses; uniform shards, or no USL penalty, do not;
//   Flux-like:  above 4,000 concurrent tasks the root congests exponentially;
//               without the penalty the same load is served;
//   Slurm-like: above its threshold the lock convoy lengthens each decision;
//               with no lock cost, or below the threshold, it does not.
// And every baseline parameter changes some result when moved far enough.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { RayResult } from "../../src/baselines/ray.js";
import type { FluxResult } from "../../src/baselines/flux.js";
import { type SlurmResult, convoyFactor } from "../../src/baselines/slurm.js";
import { PARAMS } from "../../src/config/params.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { runFlux, runRay, runSlurm } from "../../src/run/baselines.js";
import sparrowImpl from "../../src/schedulers/run/sparrow.js";

const RUNS = { ray: runRay, flux: runFlux, slurm: runSlurm, sparrow: sparrowImpl.run } as const;
type Sched = keyof typeof RUNS;

function run<S extends Sched>(scheduler: S, ...sets: string[]): ReturnType<(typeof RUNS)[S]> {
  const c = applySets(defaultConfig(), [`sim.scheduler=${scheduler}`, "sim.drainS=1", "network.loss=0", ...sets]);
  return RUNS[scheduler](c) as ReturnType<(typeof RUNS)[S]>;
}

describe("failure modes, at 5,000 nodes (paper Exp1's size)", () => {
  const exp1 = (rho: number) => ["cluster.nodes=5000", `workload.rho=${rho}`, "sim.durationS=0.3"];

  it("Ray-like: the hot shard collapses under spillback at rho 0.8, not with uniform shards or without the USL penalty", () => {
    const hot: RayResult = run("ray", ...exp1(0.8));
    expect(hot.maxShardQueue).toBeGreaterThan(4 * 500); // far past the USL onset (uslQueue)
    expect(hot.startSuccessRatio).toBeLessThan(0.99);
    const uniform: RayResult = run("ray", ...exp1(0.8), "baselines.ray.shardSkew=0");
    expect(uniform.maxShardQueue).toBeLessThan(50);
    expect(uniform.startSuccessRatio).toBeGreaterThan(0.9999);
    const noUsl: RayResult = run("ray", ...exp1(0.8), "baselines.ray.uslAlpha=0", "baselines.ray.uslBeta=0");
    expect(noUsl.startSuccessRatio).toBeGreaterThan(0.9999);
    // at rho 0.4 the hot shard keeps up
    expect(run("ray", ...exp1(0.4)).startSuccessRatio).toBeGreaterThan(0.9999);
  });

  it("Flux-like: the root congests above 4,000 concurrent tasks at rho 0.8, not at 0.4, nor without the penalty", () => {
    const busy: FluxResult = run("flux", ...exp1(0.8));
    expect(busy.maxRootQueue).toBeGreaterThan(1000);
    expect(busy.startSuccessRatio).toBeLessThan(0.9);
    const off: FluxResult = run("flux", ...exp1(0.8), "baselines.flux.rootQueue=1000000000");
    expect(off.startSuccessRatio).toBeGreaterThan(0.9999);
    expect(off.maxRootQueue).toBeLessThan(100);
    expect(run("flux", ...exp1(0.4)).startSuccessRatio).toBeGreaterThan(0.9999);
  });

  it("Slurm-like: the lock convoy activates above its threshold, non-linearly, and not without the lock cost", () => {
    const s = defaultConfig().baselines.slurm;
    expect(convoyFactor(10_000, s)).toBe(1);
    expect(convoyFactor(20_000, s)).toBe(2);
    expect(convoyFactor(30_000, s)).toBe(5);
    expect(convoyFactor(1e9, s)).toBe(1 + s.convoyCap);
    expect(convoyFactor(20_000, { ...s, convoy: "linear" })).toBe(3);
    // 1,000 nodes: decisions (10.6 us) slower than arrivals, so the FIFO grows past a threshold of 1,000
    const sets = ["cluster.nodes=1000", "workload.rho=0.8", "sim.durationS=0.3", "sim.drainS=0", "baselines.slurm.convoyQueue=1000"];
    const convoy: SlurmResult = run("slurm", ...sets);
    const fixed = 0.1 + 0.01 * 1000;
    expect(convoy.maxQueue).toBeGreaterThan(10_000);
    expect(convoy.meanDecisionUs!).toBeGreaterThan(fixed + 2 * 0.5);
    const noLock: SlurmResult = run("slurm", ...sets, "baselines.slurm.lockUs=0");
    expect(noLock.meanDecisionUs!).toBeCloseTo(fixed, 9);
    expect(noLock.started).toBeGreaterThan(convoy.started);
    const below: SlurmResult = run("slurm", ...sets, "baselines.slurm.convoyQueue=1000000");
    expect(below.meanDecisionUs!).toBeCloseTo(fixed + 0.5, 9);
  });

  it("Slurm-like: a lost contention (no room anywhere) retries with backoff, then fails", () => {
    // 20 nodes at rho 1.5: the cluster fills, so decisions miss
    const sets = ["cluster.nodes=20", "workload.rho=1.5", "sim.durationS=0.5", "sim.drainS=0"];
    const r: SlurmResult = run("slurm", ...sets);
    expect(r.failedBy.retriesExhausted).toBeGreaterThan(0);
    const none: SlurmResult = run("slurm", ...sets, "baselines.slurm.retries=0");
    expect(none.failedBy.retriesExhausted).toBeGreaterThan(r.failedBy.retriesExhausted);
  });
});

/**
 * For every baseline parameter: the run it is tested on, and a value far
 * enough from the default to change the result (with any settings it needs).
 */
const SMALL: Record<Sched, string[]> = {
  ray: ["cluster.nodes=300", "workload.rho=0.9", "sim.durationS=0.2", "network.loss=0.01"],
  flux: ["cluster.nodes=1024", "workload.rho=0.6", "sim.durationS=0.2", "network.loss=0.01"],
  slurm: ["cluster.nodes=200", "workload.rho=0.9", "sim.durationS=0.2", "sim.drainS=0", "network.loss=0.01"],
  sparrow: ["cluster.nodes=300", "workload.rho=0.9", "sim.durationS=0.2", "network.loss=0.01"],
};
const FULL = ["cluster.nodes=20", "workload.rho=1.5"]; // the cluster fills: decisions miss
const BACKLOG = ["baselines.slurm.convoyQueue=1"]; // the convoy counts from the first queued task
const EFFECT: Record<string, [Sched, string, ...string[]]> = {
  "baselines.hopMs": ["ray", "2"],
  "baselines.lossRecoveryMs": ["ray", "50"],
  "baselines.crashDecisionMs": ["ray", "0.01"],
  "baselines.deadlineMs": ["ray", "1"],
  "baselines.fullQueue": ["ray", "retry", "baselines.ray.rayletQueueCap=1"],
  "baselines.fullQueueRetryMs": ["ray", "50", "baselines.fullQueue=retry", "baselines.ray.rayletQueueCap=1"],
  "baselines.heartbeatMs": ["ray", "1000"],
  "baselines.slurm.baseMatchUs": ["slurm", "100"],
  "baselines.slurm.scanPerNodeUs": ["slurm", "1"],
  "baselines.slurm.lockUs": ["slurm", "10"],
  "baselines.slurm.convoy": ["slurm", "linear"],
  "baselines.slurm.convoyQueue": ["slurm", "1"],
  "baselines.slurm.convoyCap": ["slurm", "0", ...BACKLOG],
  "baselines.slurm.retries": ["slurm", "0", ...FULL],
  "baselines.slurm.backoffMs": ["slurm", "50", ...FULL],
  "baselines.slurm.unboundedQueue": ["slurm", "false", "baselines.deadlineMs=1", "baselines.slurm.scanPerNodeUs=1"],
  "baselines.ray.localUs": ["ray", "100"],
  "baselines.ray.spillback": ["ray", "peers"],
  "baselines.ray.localCandidates": ["ray", "1", "baselines.ray.spillback=peers"],
  "baselines.ray.gcsCandidates": ["ray", "1"],
  "baselines.ray.gcsView": ["ray", "booked"],
  "baselines.ray.shardRouting": ["ray", "entry"],
  "baselines.ray.rayletQueueCap": ["ray", "1"],
  "baselines.ray.shardQueueCap": ["ray", "1"],
  "baselines.ray.gcsUs": ["ray", "500"],
  "baselines.ray.gcsPerNodeUs": ["ray", "1"],
  "baselines.ray.shards": ["ray", "1"],
  "baselines.ray.shardSkew": ["ray", "0"],
  "baselines.ray.uslQueue": ["ray", "1"],
  "baselines.ray.uslAlpha": ["ray", "100", "baselines.ray.uslQueue=1"],
  "baselines.ray.uslBeta": ["ray", "100", "baselines.ray.uslQueue=1"],
  "baselines.ray.uslCap": ["ray", "1", "baselines.ray.uslQueue=1"],
  "baselines.ray.maxSpillbacks": ["ray", "0"],
  "baselines.flux.fanout": ["flux", "4"],
  "baselines.flux.leafNodes": ["flux", "8"],
  "baselines.flux.dispatchUs": ["flux", "20"],
  "baselines.flux.scanUs": ["flux", "1"],
  "baselines.flux.entry": ["flux", "leaf"],
  "baselines.flux.brokerQueueCap": ["flux", "1"],
  "baselines.flux.rootQueue": ["flux", "1", "baselines.flux.rootOnset=0"],
  "baselines.flux.rootLoad": ["flux", "queue", "baselines.flux.rootOnset=0"],
  "baselines.flux.rootOnset": ["flux", "0"],
  "baselines.flux.rootService": ["flux", "pipelined"],
  "baselines.flux.childPick": ["flux", "first"],
  "baselines.flux.booking": ["flux", "total"],
  "baselines.flux.rollbackTo": ["flux", "root"],
  "baselines.flux.rootCap": ["flux", "0", "baselines.flux.rootOnset=0"],
  "baselines.flux.brokerQueue": ["flux", "1"],
  "baselines.flux.brokerSlope": ["flux", "10"],
  "baselines.flux.brokerCap": ["flux", "0"],
  "baselines.flux.backoffMs": ["flux", "50"],
  "baselines.flux.maxRetries": ["flux", "0"],
  "baselines.sparrow.probeRatio": ["sparrow", "1"],
  "baselines.sparrow.jobSize": ["sparrow", "1"],
  "baselines.sparrow.jobWindowMs": ["sparrow", "0"],
};

/** A result without what differs between identical runs (timings) or merely restates the settings (config). */
function outcome(r: object): string {
  const o: Record<string, unknown> = { ...r };
  for (const k of [...TIMING_FIELDS, "config"]) delete o[k];
  return JSON.stringify(o);
}

describe("every baseline parameter has an effect", () => {
  const names = PARAMS.filter((p) => p.name.startsWith("baselines.")).map((p) => p.name);

  it("each one is listed here", () => {
    expect(Object.keys(EFFECT).sort()).toEqual([...names].sort());
  });

  const cache = new Map<string, string>();
  it.each(names)("%s", (name) => {
    const [scheduler, value, ...extra] = EFFECT[name];
    const sets = [...SMALL[scheduler], ...extra];
    const key = `${scheduler} ${sets.join(" ")}`;
    if (!cache.has(key)) cache.set(key, outcome(run(scheduler, ...sets)));
    expect(outcome(run(scheduler, ...sets, `${name}=${value}`))).not.toBe(cache.get(key));
  });
});
