// Airlock on hand-built nodes, where every suspension, resume, reactivation,
// landing and reclamation time is known in advance; the illegal transitions
// the invariant checker refuses; the absolute priority guarantee over random
// node states; and the memory model's two regimes (kernel OOM vs Airlock).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { InvariantError } from "../../src/laminar/invariants.js";
import { D_RESIDENT, D_SUSPENDED } from "../../src/laminar/store.js";
import { runLaminar } from "../../src/run/laminar.js";
import { CLASS_F, CLASS_L } from "../../src/workload/bimodal.js";
import { at, handBuilt, MS } from "./hand-built.js";

const GIB = 1048576; // KiB

const survival = (m: LaminarModel) => m.metrics.survival!;
const useGiB = (m: LaminarModel, n: number) => m.mem!.use(n) / GIB;

describe("Airlock on a hand-built node", () => {
  it("suspends the lowest-priority, then largest resident first, stops at the safe watermark, and resumes in place once pressure clears", () => {
    const m = handBuilt(1);
    const l1 = m.inject(0, CLASS_L, 64, 100 * MS, 80);
    const l2 = m.inject(0, CLASS_L, 64, 100 * MS, 80);
    const l3 = m.inject(0, CLASS_L, 64, 5 * MS, 80);
    expect([l1, l2, l3].every((d) => d >= 0)).toBe(true);
    at(m, 0.5);
    expect(survival(m).suspensions).toBe(0); // declared 192 GiB until the first tick
    at(m, 1.5);
    // tick at 1 ms: 240 GiB > 230.4: one suspension (equal E_v and footprint: earliest arrival) brings it to 160 + 80/3
    expect(survival(m).suspensions).toBe(1);
    expect(m.das.state[l1]).toBe(D_SUSPENDED);
    expect(m.das.state[l2]).toBe(D_RESIDENT);
    expect(useGiB(m, 0)).toBeCloseTo(160 + 80 / 3, 4);
    expect(m.cluster.free[0]).toBe(64); // a suspended task keeps its atoms
    at(m, 4.9);
    expect(survival(m).resumedInPlace).toBe(0); // 186.7 + 53.3 > 204.8
    at(m, 5.5);
    // L3 completed at 5 ms: 106.7 + 53.3 = 160 <= 204.8, so L1 resumes at that tick
    expect(survival(m).resumedInPlace).toBe(1);
    expect(m.das.state[l1]).toBe(D_RESIDENT);
    expect(m.suspended).toBe(0);
    // L1 ran 1 ms before its 4 ms in Airlock: it completes at 104 ms, not 100
    at(m, 103.9);
    expect(m.metrics.completed).toBe(2);
    at(m, 104.1);
    expect(m.metrics.completed).toBe(3);
    expect(survival(m).reclaimed + survival(m).oomKillsL + survival(m).oomKillsF).toBe(0);
  });

  it("with no room anywhere, reactivates at T_susp and reclaims task and DA exactly at T_surv; the room a reclamation frees lets the next entry resume in place", () => {
    const m = handBuilt(1);
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    // 262 GiB: the largest footprint goes first (70), then the earliest arrival: 128 + 70/3 + 64/3 <= 204.8
    expect(survival(m).suspensions).toBe(2);
    expect(m.das.state[ds[3]]).toBe(D_SUSPENDED);
    expect(m.das.state[ds[0]]).toBe(D_SUSPENDED);
    expect(useGiB(m, 0)).toBeCloseTo(128 + 70 / 3 + 64 / 3, 4);
    at(m, 20.9);
    expect(survival(m).secondaryReactivations).toBe(0);
    at(m, 21.1); // T_susp = 20 ms after the suspension at 1 ms
    expect(survival(m).secondaryReactivations).toBe(2);
    at(m, 170.9);
    expect(m.suspended).toBe(2);
    expect(survival(m).reclaimed).toBe(0);
    at(m, 171.1); // T_surv = 150 ms after reactivation
    // the 70 GiB entry (suspended first) is reclaimed: 128 + 64/3; the other then fits (128 + 64 <= 204.8) and resumes in place
    expect(survival(m).reclaimed).toBe(1);
    expect(m.das.slots.isLive(ds[3])).toBe(false);
    expect(survival(m).resumedInPlace).toBe(1);
    expect(survival(m).preemptions).toBe(0);
    expect(m.das.state[ds[0]]).toBe(D_RESIDENT);
    expect(m.suspended).toBe(0);
    expect(m.cluster.free[0]).toBe(64);
    expect(useGiB(m, 0)).toBeCloseTo(192, 4);
    expect(survival(m).secondaryLandings).toBe(0);
  });

  it("lands a reactivated DA on a node with room: reservation-free win, state pull, new epoch, source released", () => {
    const m = handBuilt(2, "cluster.zoneSize=2");
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    expect(ds.every((d) => d >= 0)).toBe(true);
    at(m, 21.1);
    expect(survival(m).secondaryReactivations).toBe(2);
    at(m, 30); // the state pull alone takes 10 ms after the win
    expect(survival(m).secondaryLandings).toBe(0);
    at(m, 170);
    expect(survival(m).secondaryLandings).toBe(2);
    expect(m.suspended).toBe(0);
    expect(m.running).toBe(4);
    expect(m.cluster.free[0]).toBe(128);
    expect(m.cluster.free[1]).toBe(128);
    m.runUntil(3000 * MS);
    expect(m.metrics.completed).toBe(4);
    expect(survival(m).reclaimed).toBe(0);
  });

  it("at T_susp, suspends lower-priority runners to resume a task in place when that makes room (the absolute priority guarantee)", () => {
    const m = handBuilt(1);
    const l1 = m.inject(0, CLASS_L, 64, 1000 * MS, 150);
    m.inject(0, CLASS_L, 64, 4 * MS, 90);
    at(m, 1.5);
    // 240 GiB: L1 (the larger) is suspended: 90 + 150/3 = 140
    expect(m.das.state[l1]).toBe(D_SUSPENDED);
    at(m, 2);
    const fs = [0, 1, 2].map(() => m.inject(0, CLASS_F, 4, 1000 * MS, 20));
    at(m, 20.9);
    // L2 completed at 4 ms: 50 + 60 = 110, and resuming L1 would make it 210 > 204.8: no in-situ resume
    expect(m.metrics.completed).toBe(1);
    expect(survival(m).resumedInPlace).toBe(0);
    at(m, 21.1);
    // at T_susp: one F suspended (110 - 13.3 + 100 <= 204.8) and L1 resumed in place instead of reactivated
    expect(survival(m).preemptions).toBe(1);
    expect(survival(m).resumedInPlace).toBe(1);
    expect(survival(m).secondaryReactivations).toBe(0);
    expect(m.das.state[l1]).toBe(D_RESIDENT);
    expect(fs.map((d) => m.das.state[d])).toEqual([D_SUSPENDED, D_RESIDENT, D_RESIDENT]);
    expect(useGiB(m, 0)).toBeCloseTo(150 + 20 / 3 + 40, 4);
  });

  it("at T_surv, resumes an entry in place when its node has room, with no lower-priority runner to suspend (not reclaimed)", () => {
    const m = handBuilt(1);
    const ds = [64, 64, 64, 70].map((target, i) => m.inject(0, CLASS_L, 64, (i === 1 || i === 2 ? 50 : 1000) * MS, target));
    at(m, 21.1);
    // as above: 70 and the earliest 64 suspended at 1 ms, both reactivated at 21 ms (172.7 + 42.7 > 204.8)
    expect(survival(m).secondaryReactivations).toBe(2);
    at(m, 50.001);
    // the two runners completed at 50 ms; two tasks of the same class take their atoms (nothing lower to preempt,
    // and no atoms for a secondary landing) and use 5 GiB each: 23.3 + 21.3 + 10 = 54.7 GiB
    const fresh = [5, 5].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    expect(fresh.every((d) => d >= 0)).toBe(true);
    at(m, 170.9);
    expect(m.suspended).toBe(2);
    at(m, 171.1);
    // at T_surv both fit at the safe watermark (54.7 + 46.7 + 42.7 = 144 GiB): they resume, nobody is reclaimed
    expect(survival(m).reclaimed).toBe(0);
    expect(survival(m).resumedInPlace).toBe(2);
    expect(survival(m).preemptions).toBe(0);
    expect(survival(m).secondaryLandings).toBe(0);
    expect([ds[0], ds[3]].map((d) => m.das.state[d])).toEqual([D_RESIDENT, D_RESIDENT]);
    expect(useGiB(m, 0)).toBeCloseTo(64 + 70 + 10, 4);
  });

  it("at T_susp, resumes an entry in place when its node has room, even behind a higher-priority entry that has none", () => {
    const m = handBuilt(1);
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 40);
    const l1 = m.inject(0, CLASS_L, 64, 1000 * MS, 150);
    m.inject(0, CLASS_L, 64, 1000 * MS, 60);
    at(m, 1.5);
    // 250 GiB: F first (lowest E_v: 223.3), then the largest L (L1: 60 + 40/3 + 50 = 123.3)
    expect([f, l1].map((d) => m.das.state[d])).toEqual([D_SUSPENDED, D_SUSPENDED]);
    at(m, 20.9);
    // the in-situ pass stops at L1 (123.3 + 100 > 204.8), so F, which would fit, waits behind it
    expect(survival(m).resumedInPlace).toBe(0);
    at(m, 21.1);
    // at T_susp F fits (123.3 + 26.7 = 150 <= 204.8) and resumes in place; L1 has no room, even by suspending F again, and is reactivated
    expect(m.das.state[f]).toBe(D_RESIDENT);
    expect(survival(m).resumedInPlace).toBe(1);
    expect(survival(m).preemptions).toBe(0);
    expect(survival(m).secondaryReactivations).toBe(1);
  });

  it("suspensionScope=lower suspends only below the node's top priority; the kernel OOM rule still guards the top", () => {
    const m = handBuilt(1, "airlock.suspensionScope=lower");
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 10);
    const ls = [90, 90, 90].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    // 280 GiB: F is suspended (273.3); the L-tasks share the top E_v: nothing lower protects them, the kernel kills one (183.3)
    expect(m.das.state[f]).toBe(D_SUSPENDED);
    expect(survival(m).suspensions).toBe(1);
    expect(survival(m).oomKillsL).toBe(1);
    expect(ls.filter((d) => m.das.slots.isLive(d) && m.das.state[d] === D_RESIDENT).length).toBe(2);
    expect(useGiB(m, 0)).toBeCloseTo(180 + 10 / 3, 4);
    // with `all`, the same node suspends an L-task instead and nobody dies
    const all = handBuilt(1, "airlock.suspensionScope=all");
    all.inject(0, CLASS_F, 4, 1000 * MS, 10);
    [90, 90, 90].map((target) => all.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(all, 1.5);
    expect(survival(all).suspensions).toBe(3); // F, then two L-tasks (213.3, then 153.3)
    expect(survival(all).oomKillsL).toBe(0);
  });

  it("suspensionScope=lower still preempts for a suspended task: the entry it resumes is the higher priority the suspension protects", () => {
    const m = handBuilt(1, "airlock.suspensionScope=lower");
    // X: the node's top priority (100 atoms) until 4.6 ms; L: 64 atoms, 140 GiB
    m.inject(0, CLASS_L, 100, 4.6 * MS, 100);
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 140);
    at(m, 1.5);
    // 240 GiB: L (below X) is suspended: 100 + 140/3 = 146.7
    expect(m.das.state[l]).toBe(D_SUSPENDED);
    at(m, 4.5);
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 100);
    at(m, 20.9);
    // X completed; F uses 100 GiB: 146.7, and resuming L would make it 240 > 204.8
    expect(survival(m).resumedInPlace).toBe(0);
    at(m, 21.1);
    // at T_susp, suspending F (the only runner, below L) and resuming L gives 46.7 + 33.3 + 93.3 = 173.3: L resumes in place
    expect(survival(m).preemptions).toBe(1);
    expect(m.das.state[l]).toBe(D_RESIDENT);
    expect(m.das.state[f]).toBe(D_SUSPENDED);
    expect(useGiB(m, 0)).toBeCloseTo(140 + 100 / 3, 4);
  });

  it("lands through a two-phase reservation at the destination when reservations are on", () => {
    const m = handBuilt(2, "cluster.zoneSize=2", "reservation.enabled=true");
    [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 170);
    expect(survival(m).secondaryLandings).toBe(2);
    expect(m.metrics.reservations).toBe(2);
    expect(m.metrics.reservationsExpired).toBe(0);
  });

  it("a state-pull request that reaches the source after T_surv finds the task reclaimed: the late winner releases its atoms", () => {
    // a secondary probe needs a gateway batch, two hops and an arbitration window before its request leaves: more than 2 ms
    // 288 GiB: two suspended (216 + 24, then 144 + 48); after the first reclamation the second still has no room (168 + 48 > 204.8)
    const m = handBuilt(2, "cluster.zoneSize=2", "airlock.survivalMs=2", "airlock.statePullMs=1");
    [72, 72, 72, 72].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 200);
    expect(survival(m).secondaryReactivations).toBe(2);
    expect(survival(m).reclaimed).toBe(2);
    expect(survival(m).secondaryLandings).toBe(0);
    expect(m.metrics.daEnds[5]).toBe(2); // lateWinner
    expect(m.cluster.free[1]).toBe(256);
    expect(m.cluster.free[0]).toBe(128);
  });

  it("the random kernel OOM rule also brings use under capacity", () => {
    const m = handBuilt(1, "airlock.enabled=false", "memory.oomRule=random");
    m.inject(0, CLASS_F, 4, 1000 * MS, 10);
    [80, 90, 80].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    const v = survival(m);
    expect(v.oomKillsL + v.oomKillsF).toBeGreaterThan(0);
    expect(useGiB(m, 0)).toBeLessThanOrEqual(256);
  });

  it("without Airlock the kernel kills the largest resident once use exceeds capacity", () => {
    const m = handBuilt(1, "airlock.enabled=false");
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 10);
    const [a, big, b] = [80, 90, 80].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    // 10 + 80 + 90 + 80 = 260 > 256: the 90 GiB task dies (170 <= 256); 240 is above the high watermark, but nobody acts on it
    expect(survival(m).oomKillsL).toBe(1);
    expect(survival(m).oomKillsF).toBe(0);
    expect(m.das.slots.isLive(big)).toBe(false);
    expect([f, a, b].every((d) => m.das.state[d] === D_RESIDENT)).toBe(true);
    expect(useGiB(m, 0)).toBeCloseTo(170, 4);
    expect(m.cluster.free[0]).toBe(256 - 4 - 2 * 64);
    expect(survival(m).suspensions).toBe(0);
  });

  it("drops every probe at a node above the high watermark, and reports the pressure to Z-HAF", () => {
    // images as large as the tasks (compression 1): suspension cannot relieve the node, so it stays above 230.4 GiB
    const m = handBuilt(1, "workload.rho=0.8", "sim.durationS=0.2", "airlock.compressionRatio=1");
    for (let i = 0; i < 3; i++) m.inject(0, CLASS_L, 64, 1000 * MS, 80);
    m.runUntil(100 * MS);
    expect(survival(m).suspensions).toBe(3);
    expect(m.pressured[0]).toBe(1);
    expect(m.metrics.arrived).toBeGreaterThan(8);
    expect(survival(m).probeDrops).toBeGreaterThan(0);
    expect(m.metrics.failedBy[8]).toBeGreaterThan(0); // probeDrop: with regeneration off the task fails
    expect(m.metrics.started).toBe(3); // only the injected ones: the node admitted nothing
    // once its pressure reports arrive, DAs see no free atoms there and stop coming: not every arrival is dropped
    expect(survival(m).probeDrops).toBeLessThan(m.metrics.arrived - 3);
    // the suspended tasks' DAs are reactivated at 21 ms and find nowhere to go; at 171 ms the first is reclaimed,
    // which brings the node to 160 GiB: the other two (whose resume adds nothing at compression 1) resume in place
    m.runUntil(171.5 * MS);
    expect(survival(m).reclaimed).toBe(1);
    expect(survival(m).resumedInPlace).toBe(2);
    expect(m.suspended).toBe(0);
    expect(m.pressured[0]).toBe(0);
  });
});

describe("illegal Airlock transitions are refused by the invariant checker", () => {
  it("suspending a task while a lower-priority one still runs on its node", () => {
    const m = handBuilt(1);
    m.inject(0, CLASS_F, 4, 1000 * MS, 4);
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => m.invariants!.suspending(0, l)).toThrow(InvariantError);
    expect(() => m.invariants!.suspending(0, l)).toThrow(/lower priority/);
  });

  it("suspending what is not a running resident, resuming or reactivating what is not in the ledger", () => {
    const m = handBuilt(1);
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => m.invariants!.suspending(0, l + 1)).toThrow(/not a running resident/);
    expect(() => m.invariants!.resuming(0, l)).toThrow(/not in its Airlock ledger/);
    expect(() => m.invariants!.reactivating(0, l)).toThrow(/not in its Airlock ledger/);
  });

  it("resuming into atoms another task holds, and landing after T_surv", () => {
    const m = handBuilt(1);
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    const a = ds[3];
    expect(m.das.state[a]).toBe(D_SUSPENDED);
    expect(() => m.invariants!.resuming(0, a)).not.toThrow();
    // corrupt the owner map: another DA now holds one of the entry's atoms
    const owner = (m.invariants as unknown as { owner: Int32Array }).owner;
    const i = owner.indexOf(a);
    owner[i] = ds[1];
    expect(() => m.invariants!.resuming(0, a)).toThrow(/resumes into atom/);
    owner[i] = a;
  });

  it("a landing after T_surv: a model that fails to reclaim at T_surv is caught when the late probe lands", () => {
    // as in the late-winner test above, but the first entry's T_surv timer is cancelled (the injected fault)
    const m = handBuilt(2, "cluster.zoneSize=2", "airlock.survivalMs=2", "airlock.statePullMs=1");
    const ds = [72, 72, 72, 72].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 21.1);
    expect(survival(m).secondaryReactivations).toBe(2);
    m.engine.cancelIn(m.das.timerHandle, ds[0]);
    expect(() => at(m, 200)).toThrow(/secondary landing of DA \d+'s task at \d+ after T_surv expired/);
  });
});

describe("absolute priority over random node states", () => {
  it("no task is ever suspended while a lower-priority task runs on its node, and Airlock never lets the kernel kill", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ l: fc.boolean(), over: fc.double({ min: 0.8, max: 1.6, noNaN: true }), ms: fc.integer({ min: 2, max: 60 }) }), { minLength: 1, maxLength: 12 }),
      (tasks) => {
        const m = handBuilt(1);
        for (const t of tasks) m.inject(0, t.l ? CLASS_L : CLASS_F, t.l ? 64 : 4, t.ms * MS, (t.l ? 64 : 4) * t.over);
        at(m, 80); // every suspension passes the checker's priority test, or it throws
        at(m, 2000); // and once everything has ended, every task completed or was reclaimed
        const v = survival(m);
        expect(v.oomKillsL + v.oomKillsF).toBe(0);
        expect(m.running + m.suspended).toBe(0);
        expect(m.metrics.completed + v.reclaimed).toBe(m.metrics.started);
      },
    ), { numRuns: 25 });
  });

  it("with suspensionScope=lower, the top priority is never suspended, and every task completes, is reclaimed or is OOM-killed", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ l: fc.boolean(), over: fc.double({ min: 0.8, max: 1.6, noNaN: true }), ms: fc.integer({ min: 2, max: 60 }) }), { minLength: 1, maxLength: 12 }),
      (tasks) => {
        const m = handBuilt(1, "airlock.suspensionScope=lower");
        for (const t of tasks) m.inject(0, t.l ? CLASS_L : CLASS_F, t.l ? 64 : 4, t.ms * MS, (t.l ? 64 : 4) * t.over);
        at(m, 2000); // every suspension passes the checker's scope test, or it throws
        const v = survival(m);
        expect(m.running + m.suspended).toBe(0);
        expect(m.metrics.completed + v.reclaimed + v.oomKillsL + v.oomKillsF).toBe(m.metrics.started);
      },
    ), { numRuns: 25 });
  });
});

describe("Exp5 in small: the memory model's two regimes", () => {
  const sets = ["cluster.nodes=500", "sim.durationS=0.3", "sim.drainS=0.5", "sim.checkInvariants=true", "memory.enabled=true",
    "reservation.enabled=false", "regeneration.enabled=false", "network.loss=0"];
  const off = runLaminar(applySets(defaultConfig(), [...sets, "airlock.enabled=false"]));
  const on = runLaminar(applySets(defaultConfig(), [...sets, "airlock.enabled=true", "airlock.suspensionScope=all"]));
  const paperScope = runLaminar(applySets(defaultConfig(), [...sets, "airlock.enabled=true", "airlock.suspensionScope=lower"]));
  it("without Airlock the kernel OOM rule kills L-tasks", () => {
    expect(off.lTaskOomKills!).toBeGreaterThan(0);
    expect(off.suspensions).toBe(0);
    expect(off.probeDrops).toBe(0);
  });
  it("with the paper's suspension scope, L-tasks left with nothing below them can still be OOM-killed, far fewer than without Airlock", () => {
    expect(paperScope.suspensions!).toBeGreaterThan(0);
    expect(paperScope.lTaskOomKills!).toBeLessThan(off.lTaskOomKills!);
    expect(paperScope.executionSurvival!).toBeGreaterThan(off.executionSurvival!);
  });
  it("with Airlock suspending down to the top, no L-task is OOM-killed; pressure goes to suspension, resumes, secondary landings and reclamation", () => {
    expect(on.lTaskOomKills).toBe(0);
    expect(on.suspensions!).toBeGreaterThan(0);
    expect(on.resumedInPlace!).toBeGreaterThan(0);
    expect(on.secondaryReactivations!).toBeGreaterThan(0);
    expect(on.secondaryLandings!).toBeGreaterThan(0);
    expect(on.executionSurvival!).toBeGreaterThan(off.executionSurvival!);
  });
  it("observing does not change the run: another series interval gives the same outcome", () => {
    const again = runLaminar(applySets(defaultConfig(), [...sets, "airlock.enabled=true", "airlock.suspensionScope=all", "sim.seriesIntervalMs=7"]));
    for (const k of ["completed", "suspensions", "resumedInPlace", "secondaryLandings", "reclaimed", "probeDrops", "p99StartedMs"] as const) {
      expect(again[k], k).toBe(on[k]);
    }
  });
  it("accounts for every started task", () => {
    for (const r of [off, on, paperScope]) {
      expect(r.completed + r.lTaskOomKills! + r.fTaskOomKills! + r.reclaimed! + r.runningAtEnd + r.suspendedAtEnd!).toBe(r.started);
      expect(r.completedSuccessRatio).toBeCloseTo(r.completed / r.arrived, 12);
    }
  });
});
