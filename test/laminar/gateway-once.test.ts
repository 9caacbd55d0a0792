// The gateway side run once for all partitions (src/laminar/gateway-log.ts,
// docs/parallel.md "The gateway once"): one instance without Zones runs it
// and records its effects on the Zones; the Zone partitions replay them. The
// result is the same, field for field, as with a replica of the gateway in
// every partition; the Zone partitions really run no gateway of their own;
// and a log that is not the gateway's is caught, not silently replayed.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { smallCluster, smallSets } from "./small-configs.js";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { Config } from "../../src/config/params.js";
import { loadCore } from "../../src/core/wasm.js";
import { runSlices } from "../../src/run/slices.js";
import { gatewayOnceOk, PartitionSet } from "../../src/run/partitions.js";
import { laminarResult, type SimResult } from "../../src/laminar/result.js";
import { EMIT_WORDS, GatewayLog, OP_BATCH, OP_EVENT, OP_POST, opWords } from "../../src/laminar/gateway-log.js";
import { LogReplay } from "../../src/laminar/log-replay.js";
import { halfPhases } from "../../src/run/thread-once.js";
import { EF } from "../../src/core/engine-layout.js";
import { join } from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/core/paths.js";

/** The result without the fields that measure the run itself or count its partitions' work. */
function outcome(r: SimResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, eventsProcessed, invariantChecks, ...rest } = r;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB; void eventsProcessed; void invariantChecks;
  return JSON.stringify(rest);
}

function run(c: Config, P: number, once: boolean, tamper?: (set: PartitionSet) => void): { result: SimResult; set: PartitionSet } {
  const cores = Array.from({ length: P + (once ? 1 : 0) }, () => loadCore("auto"));
  const set = new PartitionSet(c, cores, once);
  tamper?.(set);
  set.start();
  runSlices(set, c.sim.drainS, {});
  set.finish();
  return { result: laminarResult(c, set.reports(), cores[0].flavor, 0), set };
}

const base = ["cluster.nodes=700", "sim.durationS=0.25", "sim.drainS=0.5", "sim.engine=core"];
const cases: [string, string[]][] = [
  ["admission path (the paper's network)", base],
  ["heavy loss and regeneration", [...base, "network.loss=0.25", "workload.rho=0.95"]],
  ["two-phase reservations with squatters", [...base, "reservation.enabled=true", "workload.squatterRatio=0.08"]],
  ["no loss, no jitter, no noise, no regeneration", [...base, "network.loss=0", "network.osJitterMs=0", "da.noiseSigma=0", "zhaf.reportJitter=0", "regeneration.enabled=false"]],
  ["short deadlines and quiet intervals, hotspots", [...base, "workload.hotspotShare=0.3", "task.deadlineMs=20", "regeneration.quietMs=5"]],
  ["1,024 atoms per node, the artifact's wider acceptance", [...base, "cluster.atomsPerNode=1024", "da.acceptProjected=true", "workload.rho=0.9"]],
];

describe("the gateway once gives the replicas' result", () => {
  for (const [name, sets] of cases) {
    it(name, () => {
      const c = applySets(defaultConfig(), sets);
      expect(gatewayOnceOk(c)).toBe(true);
      const ref = run(c, 1, false).result;
      expect(ref.started).toBeGreaterThan(5000);
      for (const P of [1, 2, 4]) {
        const { result, set } = run(c, P, true);
        expect(outcome(result)).toBe(outcome(ref));
        // the Zone partitions created no task: every one came from the gateway's run
        for (const m of set.models.slice(1)) expect(m.tasks.slots.live + m.inFlight + m.metrics.arrived).toBe(0);
        expect(set.models[0].z1 - set.models[0].z0).toBe(0);
      }
    });
  }
});

describe("the gateway once gives the replicas' result", () => {
  it("with the Zone engines' sequence numbers rebased every few hundred posts (a long run's, early)", () => {
    const c = applySets(defaultConfig(), cases[2][1]);
    const ref = outcome(run(c, 1, false).result);
    const was = LogReplay.rebaseAbove;
    LogReplay.rebaseAbove = 2 ** 30; // some 500 posts between rebases instead of some 4 billion
    try {
      const { result, set } = run(c, 2, true);
      expect(outcome(result)).toBe(ref);
      for (const m of set.models.slice(1)) expect(m.zoneEngine!.getf(EF.SEQ)).toBeLessThan(2 ** 31); // without rebases some 2^39
    } finally {
      LogReplay.rebaseAbove = was;
    }
  });

  it("on random small configurations, in 1 to 3 partitions", () => {
    fc.assert(fc.property(
      fc.record({
        ...smallCluster,
        batchMs: fc.constantFrom(0.1, 1, 2.5),
        deadlineMs: fc.constantFrom(3, 500),
        quietMs: fc.constantFrom(0.5, 150),
        regen: fc.boolean(),
        // the Zones replay the log a message delay (half a hop) behind: short and long hops, exact ties without
        // jitter, a series sample every millisecond (no closer than the delay here) or every second
        hopMs: fc.constantFrom(0.05, 0.5, 2),
        jitterMs: fc.constantFrom(0, 0.01),
        seriesMs: fc.constantFrom(1, 1000),
        P: fc.integer({ min: 1, max: 3 }),
      }),
      (p) => {
        const c = applySets(defaultConfig(), [
          ...smallSets(p), `teg.batchMs=${p.batchMs}`, `task.deadlineMs=${p.deadlineMs}`, `regeneration.quietMs=${p.quietMs}`,
          `regeneration.enabled=${p.regen}`, `network.hopMs=${p.hopMs}`, `network.osJitterMs=${p.jitterMs}`,
          `sim.seriesIntervalMs=${p.seriesMs}`, "sim.engine=core",
        ]);
        expect(outcome(run(c, p.P, true).result)).toBe(outcome(run(c, 1, false).result));
      },
    ), { numRuns: Number(process.env.LAMINAR_PROPERTY_RUNS ?? 30) }); // LAMINAR_PROPERTY_RUNS=400 for a deeper search by hand
  });
});

describe("the gateway once", () => {
  it("is refused where it cannot run: the TypeScript Zones, the memory model, the invariant checker, series samples closer than a message delay", () => {
    const close = ["sim.engine=auto", "network.hopMs=4", "sim.seriesIntervalMs=1"]; // a delay of 2 ms, a sample each 1 ms
    for (const extra of [["sim.engine=ts"], ["sim.engine=auto", "memory.enabled=true"], ["sim.engine=auto", "sim.checkInvariants=true"], close]) {
      const c = applySets(defaultConfig(), [...base.filter((s) => !s.startsWith("sim.engine")), ...extra]);
      expect(gatewayOnceOk(c)).toBe(false);
      expect(() => new PartitionSet(c, [loadCore("auto"), loadCore("auto")], true)).toThrow(/gateway once/);
    }
  });

  it("stops with a clear error when a partition's queue and the log disagree", () => {
    const c = applySets(defaultConfig(), base);
    // a DA handed over to a node outside the cluster: the Zone partitions say so
    expect(() => run(c, 2, true, (set) => {
      const log = set.models[0].gatewayLog!, batch = log.batch.bind(log);
      let k = 0;
      log.batch = (src, at, n) => {
        const to = log.n + 2;
        batch(src, at, n);
        const i32 = new Int32Array(log.ops.buffer, log.ops.byteOffset, 2 * log.n);
        for (let i = 0; i < n; i++) if (++k === 500) i32[2 * (to + EMIT_WORDS * i) + 1] = c.cluster.nodes;
      };
    })).toThrow(/gateway log: a DA handed over to node/);
    // a record dropped: the next event's record is not where the partition's queue says
    expect(() => run(c, 2, true, (set) => {
      const log = set.models[0].gatewayLog!, event = log.event.bind(log);
      let k = 0;
      log.event = (t, kind, s) => { if (++k !== 30) event(t, kind, s); };
    })).toThrow(/gateway log out of step/);
  });

  it("keeps every record when the log grows at any of them", () => {
    // one of each kind, many times over, across every growth of the arrays
    const log = new GatewayLog(), want: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const k = i % 4;
      if (k === 0) { log.event(i, 3, i); want.push(OP_EVENT, i, 3, i); }
      if (k === 1) { log.post(i + 1, 9, i); want.push(OP_POST, i + 1, 9, i); }
      if (k === 2) {
        // a batch of i % 7 records, each 8 words
        const src = Float64Array.from({ length: 8 * (i % 7) }, (_, j) => i + j);
        log.batch(src, 0, i % 7);
        want.push(OP_BATCH, i % 7, ...src);
      }
      if (k === 3) { log.post(i, 4, 0); want.push(OP_POST, i, 4, 0); }
      log.verdictsFrom(Float64Array.of(i, 2, 1), 0, 1);
    }
    expect(Array.from(log.ops.subarray(0, log.n))).toEqual(want);
    let n = 0;
    for (let at = 0; at < log.n; at += opWords(log.ops, at)) n++;
    expect(n).toBe(3000);
    expect(log.nv).toBe(9000);
    expect(log.verdicts[8997]).toBe(2999);
  });
});

// the worker threads load the built module (dist/, built by `npm test`'s pretest), as the CLI does
const { runLaminarParallel, threadsTakeGatewayOnce } = (await import(pathToFileURL(join(packageRoot(), "dist", "src", "run", "threads.js")).href)) as typeof import("../../src/run/threads.js");

describe("threads with the gateway once (thread-once.ts)", () => {
  it("give the one-thread result on 2 and 3 threads, with less of the Zones on the gateway's thread", async () => {
    for (const sets of [cases[0][1], cases[2][1], cases[4][1]]) {
      const c = applySets(defaultConfig(), sets);
      const ref = outcome(run(c, 1, false).result);
      for (const W of [2, 3]) {
        let timing: import("../../src/run/options.js").ThreadTiming[] = [];
        const r = await runLaminarParallel(c, W, { gatewayOnce: true, onThreadTiming: (t) => { timing = t; } });
        expect(outcome(r)).toBe(ref);
        expect(timing[0].gatewayS).toBeGreaterThan(0);
        expect(timing[1].gatewayS).toBe(0);
        // each thread's halves by their place in the batch period (1 ms of halves of 0.125 ms here), the first period left out
        for (const t of timing) {
          const p = t.phases!, sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
          expect(p.period).toBe(8);
          expect(sum(p.zonesMs)).toBeGreaterThan(0);
          expect(sum(p.zonesMs) + sum(p.gatewayMs) + sum(p.zonesWaitMs) + sum(p.gatewayWaitMs)).toBeLessThanOrEqual(1000 * (t.busyS + t.waitS) + 1);
          if (t.index === 0) expect(sum(p.gatewayMs)).toBeGreaterThan(0);
          else expect(sum(p.gatewayMs)).toBe(0);
        }
        const span = (i: number) => timing[i].zones[1] - timing[i].zones[0];
        if (W === 2) expect(span(0)).toBeLessThan(span(1));
        else expect(span(0)).toBeLessThanOrEqual(span(W - 1));
      }
    }
  }, 120_000);

  it("keep phases only for a batch period of a whole number of halves, up to 64", () => {
    expect(halfPhases(8).period).toBe(8);
    expect(halfPhases(8).zonesWaitMs).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    for (const h of [2.5, 0, 65, Infinity, NaN]) expect(halfPhases(h).period, String(h)).toBe(0);
  });

  it("are taken wherever they can run; asked for where they cannot, an error", async () => {
    const c = applySets(defaultConfig(), base);
    expect(threadsTakeGatewayOnce(c, 1)).toBe(false);
    expect(threadsTakeGatewayOnce(c, 2)).toBe(true);
    expect(threadsTakeGatewayOnce(c, 3)).toBe(true);
    expect(threadsTakeGatewayOnce(c, 2, false)).toBe(false);
    expect(threadsTakeGatewayOnce(c, 3, false)).toBe(false);
    const mem = applySets(defaultConfig(), [...base.filter((s) => !s.startsWith("sim.engine")), "memory.enabled=true"]);
    expect(threadsTakeGatewayOnce(mem, 3)).toBe(false);
    expect(() => threadsTakeGatewayOnce(mem, 3, true)).toThrow(/gateway once needs/);
    // half windows of 0.0375 ms do not divide the 10 ms slices: a replica in each thread
    expect(threadsTakeGatewayOnce(applySets(defaultConfig(), [...base, "network.hopMs=0.15"]), 3)).toBe(false);
    await expect(runLaminarParallel(mem, 2, { gatewayOnce: true })).rejects.toThrow(/gateway once needs/);
    // a trace's bursts are not known ahead, and the bimodal rate sizes the log's shared region: a replica in each
    // thread, with the one-thread result
    const dir = mkdtempSync(join(tmpdir(), "laminar-once-")), file = join(dir, "t.csv");
    try {
      let text = "arrivalMs,durationMs,atoms,contiguous\n";
      for (let i = 0; i < 3000; i++) text += `${(i * 0.05).toFixed(2)},${1 + (i % 7) * 3},${1 + (i % 13)},${i % 5 === 0}\n`;
      writeFileSync(file, text);
      const trace = applySets(defaultConfig(), [...base, "workload.kind=trace", `workload.trace.file=${file}`]);
      expect(threadsTakeGatewayOnce(trace, 2)).toBe(false);
      expect(() => threadsTakeGatewayOnce(trace, 2, true)).toThrow(/gateway once needs .*the bimodal workload/);
      // on one thread the log grows as it needs: the gateway once, its arrivals the TypeScript path's, gives the replicas' result
      const one = outcome(run(trace, 1, false).result);
      expect(JSON.parse(one).started).toBeGreaterThan(2000);
      expect(outcome(run(trace, 2, true).result)).toBe(one);
      expect(outcome(await runLaminarParallel(trace, 2))).toBe(one);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failing partition ends the run with its Zones and simulated time; an invariant violation stays one", async () => {
    const c = applySets(defaultConfig(), base);
    await expect(runLaminarParallel(c, 3, { gatewayOnce: true }, { index: 1, ns: 50_000_000 })).rejects.toThrow(/partition 1 \(Zones \d+-\d+\) failed at simulated 50(\.\d+)? ms: injected fault/);
    await expect(runLaminarParallel(c, 2, { gatewayOnce: true }, { index: 0, ns: 20_000_000, invariant: true }))
      .rejects.toMatchObject({ name: "InvariantError", message: expect.stringMatching(/partition 0 \(Zones \d+-\d+\) failed at simulated 20 ms: invariant violated: injected violation/) });
    await expect(runLaminarParallel(c, 2, { gatewayOnce: true }, { index: 0, ns: 30_000_000, exit: true })).rejects.toThrow(/partition 0 \(Zones 0-\d+\) died at simulated 30 ms/);
  }, 60_000);
});
