// End-to-end behaviour of the Laminar model on small clusters, with the
// invariant checker on: what the paper predicts, and that each mechanism's
// switch really changes the run.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { runLaminar } from "../../src/run/laminar.js";
import { TIMING_FIELDS, type SimResult } from "../../src/laminar/result.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { InvariantError } from "../../src/laminar/invariants.js";
import { loadCore } from "../../src/core/wasm.js";

const BASE = ["cluster.nodes=400", "sim.durationS=0.5", "sim.checkInvariants=true"];

function run(...sets: string[]): SimResult {
  return runLaminar(applySets(defaultConfig(), [...BASE, ...sets]));
}

function stable(r: SimResult): string {
  const o: Record<string, unknown> = { ...r };
  for (const k of TIMING_FIELDS) delete o[k];
  return JSON.stringify(o);
}

describe("Laminar at rho = 0.8 (paper: 99.99% start success)", () => {
  const r = run();
  it("starts at least 99.9% of arrivals and accounts for every one", () => {
    expect(r.arrived).toBeGreaterThan(20_000);
    expect(r.startSuccessRatio).toBeGreaterThanOrEqual(0.999);
    expect(r.arrived).toBe(r.started + r.failed + r.inFlightAtEnd);
    expect(r.inFlightAtEnd).toBe(0);
    expect(r.invariantChecks).toBeGreaterThan(r.started);
  });
  it("keeps the median arrival-to-start near the hop budget", () => {
    // batch wait (<= 1 ms) + 3 hops of 0.5 ms + a 1 ms arbitration window
    expect(r.p50StartedMs!).toBeGreaterThan(2);
    expect(r.p50StartedMs!).toBeLessThan(5);
    expect(r.p99StartMs!).toBeGreaterThanOrEqual(r.p99StartedMs!);
  });
  it("charges control work per start in the paper's range (tens of ns)", () => {
    expect(r.controlWorkPerSuccessUs!).toBeGreaterThan(0.04);
    expect(r.controlWorkPerSuccessUs!).toBeLessThan(0.15);
  });
  it("samples a per-second series that sums to the totals", () => {
    const sum = (k: "arrived" | "started") => r.series.reduce((a, p) => a + p[k], 0);
    expect(sum("arrived")).toBe(r.arrived);
    expect(sum("started")).toBeLessThanOrEqual(r.started);
  });
});

describe("determinism", () => {
  it("gives byte-identical results for the same seed and config", () => {
    expect(stable(run("sim.durationS=0.2"))).toBe(stable(run("sim.durationS=0.2")));
  });
  it("gives different counts for a different seed", () => {
    const a = run("sim.durationS=0.2"), b = run("sim.durationS=0.2", "sim.seed=2");
    expect(a.arrived).not.toBe(b.arrived);
  });
});

describe("regeneration under packet loss (Exp4b)", () => {
  it("turning regeneration off under 20% loss lowers start success", () => {
    const on = run("network.loss=0.2", "sim.durationS=0.3");
    const off = run("network.loss=0.2", "sim.durationS=0.3", "regeneration.enabled=false");
    expect(on.regenerations).toBeGreaterThan(0);
    expect(off.regenerations).toBe(0);
    expect(on.startSuccessRatio).toBeGreaterThan(off.startSuccessRatio + 0.05);
    expect(off.failedBy.lost).toBeGreaterThan(0);
  });
});

describe("two-phase reservation against squatters (Exp4a)", () => {
  const sets = ["workload.rho=0.5", "workload.squatterRatio=0.05", "regeneration.enabled=false", "sim.durationS=1.5"];
  const off = run(...sets);
  const on = run(...sets, "reservation.enabled=true");
  it("without the TTL squatters drain capacity and success falls", () => {
    const last = off.series[off.series.length - 1];
    expect(off.squatters).toBeGreaterThan(0);
    expect(off.reservationsExpired).toBe(0);
    expect(on.startSuccessRatio).toBeGreaterThan(off.startSuccessRatio + 0.02);
    expect(last.arrived === 0 || last.started / Math.max(1, last.arrived) < 0.95).toBe(true);
  });
  it("with it, squatters' reservations expire and forfeit their deposits", () => {
    expect(on.reservations).toBeGreaterThan(on.started);
    expect(on.reservationsExpired).toBeGreaterThan(0);
    expect(on.depositsForfeited).toBe(on.reservationsExpired * 50);
  });
});

describe("reservation expiry", () => {
  it("a TTL shorter than the pull expires every reservation, counted as such", () => {
    const r = run("reservation.enabled=true", "reservation.ttlMs=0.3", "regeneration.enabled=false", "sim.durationS=0.1", "sim.drainS=0");
    expect(r.started).toBe(0);
    expect(r.reservationsExpired).toBeGreaterThan(1000);
    expect(r.failedBy.reservationExpired).toBe(r.reservationsExpired);
    expect(r.failedBy.deadline).toBe(0);
  });
});

describe("memory follows tasks in flight", () => {
  it("frees a task's slot once it has started and completed, before its deadline timer comes due", () => {
    const model = new LaminarModel(loadCore("auto"), applySets(defaultConfig(), BASE));
    model.start();
    model.runUntil(400_000_000); // 0.4 s: every task's 500 ms deadline is still ahead
    expect(model.metrics.arrived).toBeGreaterThan(20_000);
    expect(model.tasks.slots.live).toBeLessThanOrEqual(model.inFlight + model.running + 16);
  });

  it("without the memory model, frees a started task's entry at its start, not at its end, on either engine", () => {
    for (const sets of [BASE, [...BASE, "sim.checkInvariants=false", "sim.engine=core"]]) {
      const model = new LaminarModel(loadCore("auto"), applySets(defaultConfig(), sets));
      model.start();
      model.runUntil(400_000_000);
      // the L-tasks still running (112 ms on average) hold no entry; a task with a duplicate DA alive would
      expect(model.running).toBeGreaterThan(500);
      expect(model.tasks.slots.live).toBeLessThanOrEqual(model.inFlight + 16);
    }
  });

  it("with the memory model, keeps a running task's entry (Airlock reads it)", () => {
    const model = new LaminarModel(loadCore("auto"), applySets(defaultConfig(), [...BASE, "memory.enabled=true"]));
    model.start();
    model.runUntil(400_000_000);
    expect(model.running).toBeGreaterThan(500);
    expect(model.tasks.slots.live).toBeGreaterThanOrEqual(model.inFlight + model.running);
  });
});

describe("Z-HAF switches are wired", () => {
  const base = run("sim.durationS=0.2");
  it("a synchronisation delay makes what nodes see staler (Exp3)", () => {
    const late = run("sim.durationS=0.2", "zhaf.syncDelayMs=50");
    expect(late.falseOptimism / late.arrived).toBeGreaterThan(base.falseOptimism / base.arrived);
  });
  it("a long synchronisation delay is projected, not read as silence (no node missing at start-up)", () => {
    // the hop to j* is free here, so that a Fast-Fail can only come from DAs bouncing off nodes read as missing
    const late = run("sim.durationS=0.3", "sim.drainS=0.6", "zhaf.syncDelayMs=100", "da.redirectCost=0");
    expect(late.fastFails).toBe(0);
    expect(late.startSuccessRatio).toBeGreaterThanOrEqual(0.999);
  });
  it("projection and the missingness guard change the run", () => {
    expect(stable(run("sim.durationS=0.2", "zhaf.projection=false"))).not.toBe(stable(base));
    const noGuard = run("sim.durationS=0.2", "zhaf.missingnessGuard=false");
    expect(noGuard.zhaf.staleReplicaReads).toBe(0);
    expect(base.zhaf.staleReplicaReads).toBeGreaterThan(0);
  });
  it("under heavy loss, replicas that fall behind read as stale, never from a reused table copy", () => {
    // with the guard on, Z-HAF keeps the tables of only the versions younger than the stale age; a
    // replica older than that must read as stale (a reused copy would throw), and those reads happen
    const lossy = run("sim.durationS=0.2", "network.loss=0.5", "zhaf.broadcastMs=0.5", "regeneration.enabled=false");
    expect(lossy.zhaf.replicaCopiesLost).toBeGreaterThan(1000);
    expect(lossy.zhaf.staleReplicaReads).toBeGreaterThan(0);
  });
  it("the artifact's wider placability runs", () => {
    const r = run("sim.durationS=0.2", "da.acceptProjected=true");
    expect(r.startSuccessRatio).toBeGreaterThan(0.99);
  });
});

describe("the hop to the chosen node pays da.redirectCost", () => {
  it("a hop that costs more than any budget leaves a DA that loses its first arbitration nothing to address with", () => {
    const free = run("sim.durationS=0.2", "workload.rho=0.9", "da.redirectCost=0");
    const dear = run("sim.durationS=0.2", "workload.rho=0.9", "da.redirectCost=100000");
    expect(free.fastFails).toBe(0);
    expect(dear.fastFails).toBeGreaterThan(0);
    expect(dear.fastFails).toBeLessThanOrEqual(dear.arbitrationLosses);
  });
});

describe("drain", () => {
  it("frees every atom once all tasks have started and completed", () => {
    const r = run("sim.durationS=0.05", "sim.drainS=600", "cluster.preoccupancy.enabled=true");
    expect(r.runningAtEnd).toBe(0);
    expect(r.completed).toBe(r.started);
    expect(r.simulatedSeconds).toBeLessThan(600);
  });
});

describe("the invariant checker", () => {
  it("stops the run at a corrupted bitmap", () => {
    const core = loadCore("auto");
    const model = new LaminarModel(core, applySets(defaultConfig(), BASE));
    model.start();
    model.runUntil(5_000_000);
    const n = 7, row = model.cluster.row(n) >> 2;
    core.arena.u32[row] ^= 1; // flip an atom behind the model's back
    expect(() => model.invariants!.node(n)).toThrow(InvariantError);
    expect(() => model.runUntil(200_000_000)).toThrow(/invariant violated at t=/);
  });
});
