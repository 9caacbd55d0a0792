// The threaded runner: W worker threads give the one-thread result, field
// for field; a partition that fails ends the run with an error naming its
// Zones and the simulated time, and the other threads do not hang.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { runLaminar } from "../../src/run/laminar.js";
import type { SimResult } from "../../src/laminar/result.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/core/paths.js";

// the worker threads load the built module (dist/, built by `npm test`'s pretest), as the CLI does
const { runLaminarParallel } = (await import(pathToFileURL(join(packageRoot(), "dist", "src", "run", "threads.js")).href)) as typeof import("../../src/run/threads.js");

function outcome(r: SimResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, eventsProcessed, invariantChecks, ...rest } = r;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB; void eventsProcessed; void invariantChecks;
  return JSON.stringify(rest);
}

describe("runLaminarParallel", () => {
  it("gives the one-thread result on 2 and 4 threads (memory model and Airlock on)", async () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=800", "sim.durationS=0.3", "memory.enabled=true", "sim.checkInvariants=true"]);
    const ref = outcome(runLaminar(c));
    expect(outcome(await runLaminarParallel(c, 2))).toBe(ref);
    expect(outcome(await runLaminarParallel(c, 4))).toBe(ref);
  }, 120_000);

  it("reports each thread's setup, busy and waiting time, over Zone ranges that cover the cluster in order", async () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=1600", "sim.durationS=0.2"]);
    let timing: import("../../src/run/options.js").ThreadTiming[] = [];
    const r = await runLaminarParallel(c, 3, { onThreadTiming: (t) => { timing = t; } });
    expect(timing.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(timing[0].zones[0]).toBe(0);
    for (let i = 1; i < 3; i++) expect(timing[i].zones[0]).toBe(timing[i - 1].zones[1] + 1);
    for (const t of timing) {
      expect(t.zones[1]).toBeGreaterThanOrEqual(t.zones[0]);
      expect(t.setupS).toBeGreaterThan(0);
      expect(t.busyS).toBeGreaterThan(0);
      expect(t.waitS).toBeGreaterThanOrEqual(0);
      // a thread's time is inside the run's wall time
      expect(t.setupS + t.busyS + t.waitS).toBeLessThanOrEqual(r.wallSeconds);
    }
  }, 60_000);

  it("a failing partition ends the run with its Zone range and simulated time, without hanging the others", async () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=600", "sim.durationS=0.2"]);
    await expect(runLaminarParallel(c, 3, {}, { index: 1, ns: 50_000_000 })).rejects.toThrow(/partition 1 \(Zones \d+-\d+\) failed at simulated 50(\.\d+)? ms: injected fault/);
  }, 60_000);

  it("an invariant violation in a partition is raised again as one (the CLI's exit code 3)", async () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=600", "sim.durationS=0.2"]);
    await expect(runLaminarParallel(c, 2, {}, { index: 1, ns: 20_000_000, invariant: true }))
      .rejects.toMatchObject({ name: "InvariantError", message: expect.stringMatching(/partition 1 \(Zones \d+-\d+\) failed at simulated 20 ms: invariant violated: injected violation/) });
  }, 60_000);

  it("a partition whose thread dies ends the run with its Zone range and last simulated time", async () => {
    const c = applySets(defaultConfig(), ["cluster.nodes=600", "sim.durationS=0.2"]);
    await expect(runLaminarParallel(c, 2, {}, { index: 0, ns: 30_000_000, exit: true })).rejects.toThrow(/partition 0 \(Zones 0-\d+\) died at simulated 30 ms/);
  }, 60_000);
});
