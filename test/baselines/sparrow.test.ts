// The Sparrow-like model (src/baselines/sparrow.ts): batch sampling with
// late binding on the shared network. Small fixed-seed runs check its
// accounting, that each of its parameters and the network's ground rules
// change what they should, and that it is deterministic per seed.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { schedulerRun } from "../../src/run/schedulers.js";
import type { SparrowResult } from "../../src/baselines/sparrow.js";
import { outcomeDigest } from "./digest.js";

const run = (sets: string[] = []): Promise<SparrowResult> =>
  schedulerRun("sparrow").then((f) => f(applySets(defaultConfig(), ["sim.scheduler=sparrow", "cluster.nodes=300", "sim.durationS=0.2", "sim.drainS=1", "network.loss=0", "network.osJitterMs=0", ...sets])) as SparrowResult);

describe("Sparrow-like model", () => {
  it("accounts for every task and answers every reservation (no loss, light load)", async () => {
    const r = await run();
    expect(r.arrived).toBeGreaterThan(3000);
    expect(r.started + r.failed + r.inFlightAtEnd).toBe(r.arrived);
    expect(r.started).toBe(r.arrived);
    expect(r.requests).toBe(r.reservationsSent);
    // each reservation ends in a task or a cancel
    expect(r.cancels).toBe(r.requests - r.started);
    expect(r.controlWorkPerSuccessUs).toBe(0);
    expect(r.messagesLost).toBe(0);
    // a reservation, a request and a task or cancel per reservation
    expect(r.messagesSent).toBe(3 * r.reservationsSent);
  });

  it("probes ceil(d*m) nodes per job: d = 1 leaves no surplus reservation to cancel", async () => {
    const d1 = await run(["baselines.sparrow.probeRatio=1"]), d2 = await run(), d3 = await run(["baselines.sparrow.probeRatio=3"]);
    expect(d1.cancels).toBe(0);
    expect(d1.reservationsSent).toBe(d1.arrived);
    expect(d2.reservationsSent).toBeGreaterThanOrEqual(2 * d2.arrived - d2.jobsSent);
    expect(d3.reservationsSent).toBeGreaterThan(d2.reservationsSent * 1.4);
  });

  it("jobSize and jobWindowMs decide how tasks form jobs", async () => {
    const one = await run(["baselines.sparrow.jobSize=1"]);
    expect(one.jobsSent).toBe(one.arrived);
    const ten = await run();
    expect(ten.jobsSent).toBeLessThan(ten.arrived / 5);
    const noWait = await run(["baselines.sparrow.jobWindowMs=0"]);
    expect(noWait.jobsSent).toBe(noWait.arrived);
    const longWait = await run(["baselines.sparrow.jobSize=1000", "baselines.sparrow.jobWindowMs=5"]);
    // jobs are the arrivals of a 5 ms window: the wait shows in arrival-to-start
    expect(longWait.jobsSent).toBeLessThan(ten.jobsSent / 5);
    expect(longWait.p50StartedMs!).toBeGreaterThan(ten.p50StartedMs! + 1);
  });

  it("a job larger than the cluster samples again for the tasks its reservations did not take", async () => {
    const r = await run(["cluster.nodes=3", "workload.rho=0.3", "sim.durationS=1", "baselines.sparrow.jobSize=20", "baselines.sparrow.jobWindowMs=20"]);
    expect(r.arrived).toBeGreaterThan(100);
    expect(r.started).toBe(r.arrived);
  });

  it("follows the shared network: hop delay, loss with resend, jitter on the hop to the node", async () => {
    const base = await run();
    const slow = await run(["network.hopMs=2"]);
    expect(slow.p50StartedMs!).toBeGreaterThan(base.p50StartedMs! + 3); // three hops of 1.5 ms more per start
    const lossy = await run(["network.loss=0.05"]);
    expect(lossy.messagesLost).toBeGreaterThan(0);
    expect(lossy.messagesRecovered).toBeGreaterThan(0);
    expect(lossy.p99StartedMs!).toBeGreaterThanOrEqual(200); // baselines.lossRecoveryMs
    const jitter = await run(["network.osJitterMs=1"]);
    expect(jitter.meanStartedMs!).toBeGreaterThan(base.meanStartedMs! + 0.5);
  });

  it("fails tasks at the deadline when overloaded", async () => {
    const r = await run(["workload.rho=1.6", "baselines.deadlineMs=20"]);
    expect(r.failedBy.deadline).toBeGreaterThan(0);
    expect(r.started + r.failed + r.inFlightAtEnd).toBe(r.arrived);
  });

  it("is deterministic per seed", async () => {
    const a = await run(["network.loss=0.02", "sim.seed=7"]), b = await run(["network.loss=0.02", "sim.seed=7"]), c = await run(["network.loss=0.02", "sim.seed=8"]);
    expect(outcomeDigest(a)).toBe(outcomeDigest(b));
    expect(outcomeDigest(a)).not.toBe(outcomeDigest(c));
  });
});
