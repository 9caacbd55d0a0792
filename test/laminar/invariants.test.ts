// Every check of the invariant checker can fail: each test injects the fault
// the check guards against (by corrupting the model's state behind its back,
// or by replaying a transition the model would not make) and sees the checker
// fire. The Airlock-specific landing fault (a model that does not reclaim at
// T_surv) and the hand-built reclaim cases live in airlock.test.ts.
import { describe, expect, it } from "vitest";
import { LaminarModel } from "../../src/laminar/model.js";
import { InvariantError, type Invariants } from "../../src/laminar/invariants.js";
import { D_PENDING, D_QUEUED, D_SUSPENDED } from "../../src/laminar/store.js";
import { CLASS_F, CLASS_L } from "../../src/workload/bimodal.js";
import { at, handBuilt, MS } from "./hand-built.js";


/** A one-node cluster whose memory is exactly what the test says (hand-built.ts). */
const oneNode = (...sets: string[]): LaminarModel => handBuilt(1, ...sets);
const inv = (m: LaminarModel): Invariants => m.invariants!;
/** The model's private parts a fault is injected into. */
const guts = (m: LaminarModel) => m as unknown as { qHead: Int32Array; qTail: Int32Array; inFlight: number; running: number; suspended: number; squatting: number };

describe("atoms", () => {
  it("double allocation: atoms the bitmap wrongly shows free are taken a second time", () => {
    const m = oneNode();
    const a = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    const row = m.cluster.row(0) >> 2, mask = m.mask(a) >> 2;
    // the fault: the bitmap forgets that DA a holds its atoms
    for (let w = 0; w < 8; w++) m.views.u32[row + w] |= m.views.u32[mask + w];
    m.cluster.free[0] += 64;
    expect(() => m.inject(0, CLASS_L, 256 - 64, 1000 * MS, 64)).toThrow(/allocated twice/);
  });

  it("a release by a DA that does not own the atoms", () => {
    const m = oneNode();
    const a = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    const b = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).releasing(0, b, 64)).not.toThrow();
    inv(m).took(0, b, 64);
    // the fault: b's mask names a's atoms
    const u32 = m.views.u32, ma = m.mask(a) >> 2, mb = m.mask(b) >> 2;
    for (let w = 0; w < 8; w++) u32[mb + w] = u32[ma + w];
    expect(() => inv(m).releasing(0, b, 64)).toThrow(/owned by/);
  });

  it("free + held + rigid != capacity", () => {
    const m = oneNode();
    m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).node(0)).not.toThrow();
    m.held[0] += 1;
    expect(() => inv(m).node(0)).toThrow(/!= capacity/);
  });

  it("held atoms that no DA accounts for (series tick)", () => {
    const m = oneNode();
    m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    // the fault: 4 atoms leave the bitmap and are counted as held, but no DA holds them
    const row = m.cluster.row(0) >> 2;
    const w = m.views.u32[row + 7];
    m.views.u32[row + 7] = w & ~0xf0000000;
    m.cluster.free[0] -= 4;
    m.held[0] += 4;
    expect(() => inv(m).all()).toThrow(/DAs holding atoms account for/);
  });

  it("a drained cluster that still holds atoms besides squatters (end of run)", () => {
    const m = oneNode();
    // the fault: a DA holds atoms in its pending stage while the model counts it as a squatter, so the run looks drained
    const d = m.das.alloc();
    const t = m.inject(0, CLASS_F, 4, 1000 * MS, 4);
    m.das.task[d] = m.das.task[t];
    m.das.m[d] = 4;
    expect(m.cluster.take(0, 4, false, m.mask(d))).toBe(true);
    m.held[0] += 4;
    inv(m).took(0, d, 4);
    m.das.state[d] = D_PENDING;
    at(m, 2000); // the injected F-task completes; d stays
    guts(m).squatting = 1;
    expect(m.quiescent()).toBe(true);
    expect(() => inv(m).end()).toThrow(/drained cluster still holds 4 atoms/);
  });
});

describe("queues, arbitration and starts", () => {
  it("a queue list whose tail is not its last DA", () => {
    const m = oneNode();
    expect(() => inv(m).queue(0)).not.toThrow();
    guts(m).qTail[0] = 3;
    expect(() => inv(m).queue(0)).toThrow(/queue tail 3 is not its last DA/);
    // a running DA linked into the queue list
    const r = oneNode();
    const l = r.inject(0, CLASS_L, 64, 1000 * MS, 64);
    guts(r).qHead[0] = l;
    r.das.next[l] = -1;
    expect(() => inv(r).queue(0)).toThrow(/DA \d+ in its queue is not a DA queued there/);
    // a queue list that loops
    r.das.state[l] = D_QUEUED;
    r.das.next[l] = l;
    expect(() => inv(r).queue(0)).toThrow(/queue list has a cycle/);
  });

  it("arbitration out of E_v,init order", () => {
    const m = oneNode();
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 4);
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => { inv(m).arbitrating(0, l, 0); inv(m).arbitrating(0, f, 1); }).not.toThrow();
    // the fault: the F-task's DA is considered before the L-task's in the same window
    inv(m).arbitrating(0, f, 0);
    expect(() => inv(m).arbitrating(0, l, 1)).toThrow(/arbitration considers DA/);
  });

  it("a logical task started twice", () => {
    const m = oneNode();
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64); // its start was recorded
    expect(() => inv(m).started(m.das.task[l])).toThrow(/starts a second time/);
  });

  it("arrivals not accounted for as started, failed or in flight", () => {
    const m = oneNode();
    m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).all()).not.toThrow();
    guts(m).inFlight += 1;
    expect(() => inv(m).all()).toThrow(/arrived 1 != started 1/);
  });
});

describe("a task in at most one place", () => {
  it("an execution epoch opens while the task already runs", () => {
    const m = oneNode();
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).executing(l)).toThrow(/two places/);
  });

  it("an execution epoch opens elsewhere while the task's image is still in a ledger", () => {
    const m = oneNode();
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    expect(m.das.state[ds[3]]).toBe(D_SUSPENDED);
    const other = m.das.alloc();
    m.das.task[other] = m.das.task[ds[3]];
    m.das.key[other] = m.das.key[ds[3]];
    expect(() => inv(m).executing(other)).toThrow(/ledger entry \d+ still holds its image: two places/);
  });

  it("an epoch that ends without having run", () => {
    const m = oneNode();
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    expect(() => inv(m).stopped(ds[3])).toThrow(/does not run/);
  });
});

describe("Airlock", () => {
  it("suspending the node's top priority under suspensionScope=lower", () => {
    const m = oneNode("airlock.suspensionScope=lower");
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 4);
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).suspending(0, f)).not.toThrow();
    expect(() => inv(m).suspending(0, l)).toThrow(/lower priority/);
    const top = oneNode("airlock.suspensionScope=lower");
    const l1 = top.inject(0, CLASS_L, 64, 1000 * MS, 64);
    top.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(top).suspending(0, l1)).toThrow(/no higher-priority task running there/);
  });

  it("a resume out of order: a lower entry resumes while a higher-ranked one has room", () => {
    const m = oneNode();
    const f = m.inject(0, CLASS_F, 4, 1000 * MS, 40);
    const l1 = m.inject(0, CLASS_L, 64, 1000 * MS, 80);
    m.inject(0, CLASS_L, 64, 1000 * MS, 80);
    m.inject(0, CLASS_L, 64, 1.2 * MS, 70);
    at(m, 1.1);
    // 270 GiB at 1 ms: F (243.3), then L1 (190); the 70 GiB task completes at 1.2 ms: 120
    expect([f, l1].map((d) => m.das.state[d])).toEqual([D_SUSPENDED, D_SUSPENDED]);
    at(m, 1.5);
    // both fit now (120 + 53.3, 120 + 26.7): L1 ranks first; F resuming ahead of it is out of order
    expect(() => inv(m).resuming(0, l1)).not.toThrow();
    expect(() => inv(m).resuming(0, f)).toThrow(/out of order, ahead of ledger entry/);
    at(m, 2.5); // the model's own pass resumes them in order
    expect(m.suspended).toBe(0);
  });

  it("a reactivation or a reclamation while the node has room, as things stand or by suspending lower-priority runners", () => {
    const m = oneNode();
    const ds = [64, 64, 64, 70].map((target, i) => m.inject(0, CLASS_L, 64, (i === 1 ? 30 : 1000) * MS, target));
    at(m, 21.1);
    // no room: 172.7 + 46.7 > 204.8; reactivated legally
    expect(() => inv(m).reclaiming(0, ds[3])).not.toThrow();
    at(m, 30.5);
    // one runner completed: 108.7 + 46.7 <= 204.8: reclaiming now would kill a task that fits
    expect(() => inv(m).reclaiming(0, ds[3])).toThrow(/reclaimed although resuming it in place/);
    // room by preemption: an F-task runs below the entry; with it suspended the entry fits
    const p = oneNode();
    const big = p.inject(0, CLASS_L, 64, 1000 * MS, 150);
    p.inject(0, CLASS_L, 64, 4 * MS, 90);
    at(p, 1.5);
    expect(p.das.state[big]).toBe(D_SUSPENDED);
    at(p, 2);
    [0, 1, 2].map(() => p.inject(0, CLASS_F, 4, 1000 * MS, 20));
    at(p, 10);
    // 50 + 60 = 110 GiB; 110 + 100 > 204.8, but suspending one F brings it to 196.7
    expect(() => inv(p).reactivating(0, big)).toThrow(/reactivated although resuming it in place \(after suspending its lower-priority runners/);
  });

  it("an image handed to a secondary probe before its entry was reactivated", () => {
    const m = oneNode();
    const ds = [64, 64, 64, 70].map((target) => m.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(m, 1.5);
    expect(m.das.state[ds[3]]).toBe(D_SUSPENDED);
    expect(() => inv(m).landing(ds[3])).toThrow(/before its reactivation/);
  });

  it("an image on a node that its ledger does not hold, and a use that its records and images do not sum to", () => {
    const m = oneNode();
    m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    at(m, 1.5);
    expect(() => inv(m).all()).not.toThrow();
    m.mem!.addImage(0, 5); // the fault: 5 GiB of image that no ledger entry owns
    expect(() => inv(m).all()).toThrow(/node 0 holds \d+ KiB of images, its ledger 0/);
    const u = oneNode();
    u.inject(0, CLASS_L, 64, 1000 * MS, 64);
    at(u, 1.5);
    const f64 = u.views.f64 as Float64Array;
    const at0 = (u.mem as unknown as { usage: number }).usage >> 3;
    f64[at0] += 1024; // the fault: node 0's use drifts from what its records say
    expect(() => inv(u).all()).toThrow(/memory: node 0: use \d+ KiB, records and images sum to/);
  });

  it("a running DA without a memory record, and a suspended one with a record", () => {
    const m = oneNode();
    const l = m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    m.mem!.remove(l); // the fault: its memory record is dropped while it still runs
    expect(() => inv(m).all()).toThrow(/running DA \d+ has no memory record/);
    const s = oneNode();
    const ds = [64, 64, 64, 70].map((target) => s.inject(0, CLASS_L, 64, 1000 * MS, target));
    at(s, 1.5);
    s.mem!.recOf[ds[3]] = 0;
    expect(() => inv(s).all()).toThrow(/suspended DA \d+ still has a memory record/);
  });

  it("memory counters that disagree with the DAs' states", () => {
    const m = oneNode();
    m.inject(0, CLASS_L, 64, 1000 * MS, 64);
    expect(() => inv(m).all()).not.toThrow();
    guts(m).suspended += 1;
    expect(() => inv(m).all()).toThrow(InvariantError);
    expect(() => inv(m).all()).toThrow(/0 suspended DAs, suspended count 1/);
  });
});
