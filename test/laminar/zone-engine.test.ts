// The core's Zone admission engine (sim.engine=core) against its twin, the
// TypeScript model (sim.engine=ts): the same seed and configuration give
// the same events in the same order (the two event traces' fingerprints are
// equal; on worker threads, the results only) and the same result, field
// for field, on a fixed
// set of configurations and on random small ones (the memory model, the
// kernel OOM rule and Airlock among them); on 1, 2 and 4 partitions and on
// worker threads. What the engine does not run (the invariant checker,
// which watches the model) is refused by sim.engine=core with one clear
// line, and run on the model by auto.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { smallCluster, smallSets } from "./small-configs.js";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { tracedRun } from "./traced-run.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/core/paths.js";
import type { SimResult } from "../../src/laminar/result.js";
import { engineUnsupported } from "../../src/config/params-rules.js";
import { firstCapacity, usesEngine, ZoneEngine } from "../../src/laminar/zone-engine.js";

// worker threads load the built files
const { runLaminarParallel } = (await import(pathToFileURL(join(packageRoot(), "dist", "src", "run", "threads.js")).href)) as typeof import("../../src/run/threads.js");

/** The result without the fields that measure the run itself, and without the engine's own name. */
function outcome(r: SimResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, config, ...rest } = r;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB;
  return JSON.stringify({ ...rest, config: { ...config, sim: { ...config.sim, engine: "-" } } });
}

/** The run on each engine; their event traces must be equal, event for event (test/laminar/traced-run.ts). */
function both(sets: string[], partitions = 1): [SimResult, SimResult] {
  const ts = tracedRun(applySets(defaultConfig(), [...sets, "sim.engine=ts"]), partitions);
  const core = tracedRun(applySets(defaultConfig(), [...sets, "sim.engine=core"]), partitions);
  expect(core.traces).toEqual(ts.traces);
  return [ts.result, core.result];
}

const base = ["cluster.nodes=700", "sim.durationS=0.25", "sim.drainS=0.5"];
const cases: [string, string[]][] = [
  ["admission path (the paper's network: 1% loss, regeneration)", base],
  ["heavy loss and regeneration", [...base, "network.loss=0.25", "workload.rho=0.95"]],
  ["two-phase reservations with squatters", [...base, "reservation.enabled=true", "workload.squatterRatio=0.08"]],
  ["reservations whose TTL is shorter than a pull", [...base, "reservation.enabled=true", "reservation.ttlMs=0.6"]],
  ["no loss, no jitter, no noise, no regeneration", [...base, "network.loss=0", "network.osJitterMs=0", "da.noiseSigma=0", "zhaf.reportJitter=0", "regeneration.enabled=false"]],
  ["Z-HAF synchronisation delay, projection and guard off", [...base, "zhaf.syncDelayMs=30", "zhaf.projection=false", "zhaf.missingnessGuard=false"]],
  ["64 atoms per node", [...base, "cluster.atomsPerNode=64"]],
  ["1,024 atoms per node", [...base, "cluster.atomsPerNode=1024", "workload.rho=0.9"]],
  ["the artifact's network and deposit", [...base, "network.hopMs=0.1", "network.loss=0", "reservation.deposit=20"]],
  ["the artifact's wider acceptance (projected Slack or a fitting replica row)", [...base, "da.acceptProjected=true", "cluster.preoccupancy.enabled=true"]],
  ["the artifact's wider acceptance for contiguous and dispersed demands under load", [...base, "da.acceptProjected=true", "workload.rho=1", "da.noiseSigma=0"]],
];

// the memory model (Exp5's settings, and harsher ones): what each must exercise, by its survival counters
const mem = [...base, "memory.enabled=true", "reservation.enabled=false", "regeneration.enabled=false"];
const memCases: [string, string[], (r: SimResult) => boolean][] = [
  ["the kernel OOM rule (largest) without Airlock", [...mem, "airlock.enabled=false"], (r) => r.lTaskOomKills! > 50],
  ["the kernel OOM rule (random) without Airlock", [...mem, "airlock.enabled=false", "memory.oomRule=random"], (r) => r.fTaskOomKills! > 10],
  ["Airlock (Exp5's settings): suspension, in-situ resume, reactivation, secondary landing, probe drops", mem,
    (r) => r.suspensions! > 500 && r.resumedInPlace! > 500 && r.secondaryLandings! > 50 && r.probeDrops! > 100],
  ["Airlock, scope all, short T_susp: preemption and reclaim", [...mem, "workload.rho=1.1", "airlock.suspendMs=1", "memory.burstRate=0.05", "memory.burstScale=0.5", "airlock.suspensionScope=all"],
    (r) => r.preemptions! > 0 && r.reclaimed! > 100],
  ["Airlock with the current-use check, reservations, squatters, loss and regeneration", [...base, "memory.enabled=true", "airlock.admitCheck=current",
    "reservation.enabled=true", "workload.squatterRatio=0.05", "network.loss=0.1", "airlock.suspendMs=2", "airlock.survivalMs=5", "airlock.statePullMs=1"],
    (r) => r.secondaryLandings! > 100 && r.reclaimed! > 0 && r.lTaskOomKills! > 0],
];

describe("the core's Zone engine gives the TypeScript model's result", () => {
  for (const [name, sets] of cases) {
    it(name, () => {
      const [ts, core] = both(sets);
      expect(ts.started).toBeGreaterThan(500);
      expect(outcome(core)).toBe(outcome(ts));
    });
  }

  for (const [name, sets, exercised] of memCases) {
    it(name, () => {
      const [ts, core] = both(sets);
      expect(exercised(ts)).toBe(true);
      expect(outcome(core)).toBe(outcome(ts));
    });
  }

  it("with the DA table and the event queue first sized by the engine's share of the nodes (a power of two, 16,384 at least)", () => {
    expect(ZoneEngine.initialCapacity).toBeNull();
    expect([0, 4096, 4097, 20736, 32000].map((n) => firstCapacity(n, 4))).toEqual([16384, 16384, 32768, 131072, 131072]);
    expect([2048, 2049, 20736].map((n) => firstCapacity(n, 8))).toEqual([16384, 32768, 262144]);
  });

  it("when every table starts small and grows (DAs, events, outbox, report rings, the task table)", () => {
    const before = ZoneEngine.initialCapacity;
    ZoneEngine.initialCapacity = 16;
    try {
      const [ts, core] = both([...base, "zhaf.syncDelayMs=120", "reservation.enabled=true"]);
      expect(outcome(core)).toBe(outcome(ts));
      const [mts, mcore] = both([...mem, "airlock.suspendMs=2", "airlock.survivalMs=5", "airlock.statePullMs=1"]);
      expect(mts.secondaryLandings).toBeGreaterThan(100);
      expect(outcome(mcore)).toBe(outcome(mts));
    } finally {
      ZoneEngine.initialCapacity = before;
    }
  });

  it("on 2 and 4 partitions", () => {
    // a partitioned run replicates the gateway's events in each partition: the event count is the partitioned model's
    const sets = [...base, "reservation.enabled=true", "workload.squatterRatio=0.02"];
    for (const P of [2, 4]) {
      const [ts, core] = both(sets, P);
      expect(outcome(core)).toBe(outcome(ts));
    }
  });

  it("engines that share one core instance run as they do in instances of their own (each call's block copy goes back)", () => {
    // the engine's block is copied into the core's own memory for each call and back as it returns: partitions whose
    // engines take turns in one instance, window by window, must give the same traces and result as one instance each
    const cases: [string[], boolean[]][] = [
      [[...base, "reservation.enabled=true", "workload.squatterRatio=0.02"], [false, true]],
      [[...mem, "workload.rho=1.1", "airlock.suspendMs=1"], [false]], // the gateway once: without the memory model
    ];
    for (const [sets, onces] of cases) {
      const config = applySets(defaultConfig(), [...sets, "sim.engine=core"]);
      for (const once of onces) {
        const P = 2;
        const apart = tracedRun(config, P, once), together = tracedRun(config, P, once, true);
        expect(together.traces).toEqual(apart.traces);
        expect(outcome(together.result)).toBe(outcome(apart.result));
      }
    }
  });

  it("with Airlock on 2 and 4 partitions (landing requests and answers cross partitions)", () => {
    const sets = [...mem, "workload.rho=1.1", "airlock.suspendMs=1", "memory.burstRate=0.05", "memory.burstScale=0.5", "airlock.suspensionScope=all"];
    for (const P of [2, 4]) {
      const [ts, core] = both(sets, P);
      expect(outcome(core)).toBe(outcome(ts));
    }
  });

  it("on worker threads", async () => {
    const ts = await runLaminarParallel(applySets(defaultConfig(), [...base, "sim.engine=ts"]), 2);
    const core = await runLaminarParallel(applySets(defaultConfig(), [...base, "sim.engine=core"]), 2, { gatewayOnce: false });
    expect(outcome(core)).toBe(outcome(ts));
    // the engine's threads with the gateway once (thread-once.ts; their default), the model's with a replica each: the
    // events processed count each partition's gateway events, so they differ; everything else is the same
    const once = await runLaminarParallel(applySets(defaultConfig(), [...base, "sim.engine=core"]), 2);
    expect(outcome({ ...once, eventsProcessed: 0 })).toBe(outcome({ ...ts, eventsProcessed: 0 }));
    const mts = await runLaminarParallel(applySets(defaultConfig(), [...mem, "sim.engine=ts"]), 2);
    const mcore = await runLaminarParallel(applySets(defaultConfig(), [...mem, "sim.engine=core"]), 2);
    expect(outcome(mcore)).toBe(outcome(mts));
  });

  it("on random small configurations", () => {
    fc.assert(fc.property(
      fc.record({
        ...smallCluster,
        candidates: fc.integer({ min: 1, max: 16 }),
        windowMs: fc.constantFrom(0.05, 1, 3),
        batchMs: fc.constantFrom(0.1, 1),
        memory: fc.constantFrom("off", "oom", "airlock"),
        suspendMs: fc.constantFrom(1, 20),
        scope: fc.constantFrom("lower", "all"),
      }),
      (p) => {
        const sets = [
          ...smallSets(p), `da.candidates=${p.candidates}`, `arbiter.windowMs=${p.windowMs}`, `teg.batchMs=${p.batchMs}`,
          ...(p.memory === "off" ? [] : ["memory.enabled=true", `airlock.enabled=${p.memory === "airlock"}`, `airlock.suspendMs=${p.suspendMs}`,
            "airlock.survivalMs=5", "airlock.statePullMs=1", `airlock.suspensionScope=${p.scope}`, "memory.burstRate=0.05"]),
        ];
        const [ts, core] = both(sets);
        expect(outcome(core)).toBe(outcome(ts));
      },
    ), { numRuns: Number(process.env.LAMINAR_PROPERTY_RUNS ?? 30) }); // LAMINAR_PROPERTY_RUNS=400 for a deeper search by hand
  });
});

describe("what the engine does not run", () => {
  it("sim.engine=core refuses the invariant checker in one line; auto runs it on the model; the memory model runs on the engine", () => {
    expect(engineUnsupported(applySets(defaultConfig(), ["memory.enabled=true"]))).toBe(null);
    expect(() => applySets(defaultConfig(), ["sim.checkInvariants=true", "sim.engine=core"])).toThrow(/sim\.engine: must be auto or ts with sim\.checkInvariants/);
    expect(usesEngine(applySets(defaultConfig(), ["memory.enabled=true", "sim.engine=auto"]))).toBe(true);
    expect(usesEngine(applySets(defaultConfig(), ["sim.checkInvariants=true", "sim.engine=auto"]))).toBe(false);
    expect(usesEngine(applySets(defaultConfig(), ["sim.engine=auto"]))).toBe(true);
    expect(usesEngine(applySets(defaultConfig(), ["sim.engine=ts"]))).toBe(false);
  });
});
