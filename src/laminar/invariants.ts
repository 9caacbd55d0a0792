// The invariant checker (sim.checkInvariants, `laminar sim --check-invariants`,
// always on in the tests). It keeps its own owner map of every atom and checks
// every transition against it; the run stops at the first violation with an
// InvariantError naming the invariant, the node or task, and the simulated time.
//
// Checked:
// * no atom is allocated twice (take: every atom of the mask unowned) and only
//   its owner releases it (so TTL expiry restores exactly the reserved atoms);
// * per node, the bitmap's popcount equals the free count, and
//   free + held (reservations and running tasks) + rigid = capacity;
// * every node's queue list holds only DAs queued at that node, and Heat (as
//   reported to Z-HAF) equals the queue the node settles;
// * a logical task starts at most once;
// * at every series tick: arrived = started + failed + in flight, and the held
//   atoms equal the demands of the DAs holding atoms;
// * at the end, when nothing is in flight or running, every atom is free
//   except rigid jobs and squatters' holdings;
// * Airlock (before every transition): only a running resident is suspended,
//   and never while a lower-priority resident still runs on its node (the
//   absolute priority guarantee); only a ledger entry before T_susp resumes
//   in place, into the atoms it still owns; only a ledger entry is
//   reactivated; a secondary landing completes within T_surv (a destination
//   window never extends it) and the task it lands is suspended, not running.
import type { LaminarModel } from "./model.js";
import { D_PENDING, D_QUEUED, D_RESIDENT, D_SQUATTING, D_SUSPENDED, T_PENDING, T_STARTED } from "./store.js";
import { NS_PER_MS } from "../sim/time.js";
import { kib } from "./memory.js";

export class InvariantError extends Error {
  override name = "InvariantError";
}

export class Invariants {
  private readonly owner: Int32Array;
  private readonly A: number;
  checks = 0;

  constructor(private readonly m: LaminarModel) {
    this.A = m.cluster.atoms;
    this.owner = new Int32Array(m.cluster.nodes * this.A).fill(-1);
  }

  private fail(what: string): never {
    throw new InvariantError(`invariant violated at t=${(this.m.engine.now / NS_PER_MS).toFixed(6)} ms: ${what}`);
  }

  private forEachAtom(d: number, f: (a: number) => void): number {
    const u32 = this.u32();
    const base = this.m.mask(d) >> 2, words = this.A / 32;
    let count = 0;
    for (let w = 0; w < words; w++) {
      let x = u32[base + w];
      while (x !== 0) {
        const low = x & -x;
        f(32 * w + (31 - Math.clz32(low)));
        x ^= low;
        count++;
      }
    }
    return count;
  }

  private u32(): Uint32Array {
    return this.m.views.u32;
  }

  took(n: number, d: number, m: number): void {
    this.checks++;
    const base = n * this.A;
    const got = this.forEachAtom(d, (a) => {
      if (this.owner[base + a] !== -1) this.fail(`atom ${a} of node ${n} allocated twice (DA ${this.owner[base + a]} and DA ${d})`);
      this.owner[base + a] = d;
    });
    if (got !== m) this.fail(`DA ${d} took ${got} atoms on node ${n}, its task demands ${m}`);
  }

  releasing(n: number, d: number, m: number): void {
    this.checks++;
    const base = n * this.A;
    const got = this.forEachAtom(d, (a) => {
      if (this.owner[base + a] !== d) this.fail(`DA ${d} releases atom ${a} of node ${n} owned by ${this.owner[base + a]}`);
      this.owner[base + a] = -1;
    });
    if (got !== m) this.fail(`DA ${d} releases ${got} atoms on node ${n}, it holds ${m}`);
  }

  node(n: number): void {
    this.checks++;
    const cl = this.m.cluster, u32 = this.u32(), base = cl.row(n) >> 2;
    let pop = 0;
    for (let w = 0; w < this.A / 32; w++) {
      let x = u32[base + w];
      x = x - ((x >>> 1) & 0x55555555);
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      pop += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
    }
    if (pop !== cl.free[n]) this.fail(`node ${n}: bitmap has ${pop} free atoms, free count says ${cl.free[n]}`);
    const sum = cl.free[n] + this.m.held[n] + cl.rigid[n];
    if (sum !== this.A) this.fail(`node ${n}: free ${cl.free[n]} + held ${this.m.held[n]} + rigid ${cl.rigid[n]} != capacity ${this.A}`);
  }

  /** Node n's queue list: every DA in it is live, queued, at n, and the tail is the last one. */
  queue(n: number): void {
    this.checks++;
    const D = this.m.das;
    let last = -1, count = 0;
    for (let d = this.m.queueHead(n); d >= 0; d = D.next[d]) {
      if (!D.slots.isLive(d) || D.state[d] !== D_QUEUED || D.node[d] !== n) this.fail(`node ${n}: DA ${d} in its queue is not a DA queued there`);
      last = d;
      if (++count > D.slots.capacity) this.fail(`node ${n}: queue list has a cycle`);
    }
    if (last !== this.m.queueTail(n)) this.fail(`node ${n}: queue tail ${this.m.queueTail(n)} is not its last DA ${last}`);
  }

  /** Heat as reported (heatAt) when node n settles its window, against the DAs it actually settles. */
  heat(n: number, heat: number, settled: number): void {
    this.checks++;
    if (heat !== settled) this.fail(`node ${n}: Heat ${heat} != queue length ${settled}`);
  }

  starting(t: number): void {
    this.checks++;
    if (this.m.tasks.state[t] !== T_PENDING) this.fail(`task slot ${t} starts a second time`);
  }

  /** Airlock is about to suspend DA d's task on node n. */
  suspending(n: number, d: number): void {
    this.checks++;
    const D = this.m.das, T = this.m.tasks, t = D.task[d];
    if (!D.slots.isLive(d) || D.state[d] !== D_RESIDENT || D.node[d] !== n || T.state[t] !== T_STARTED) {
      this.fail(`node ${n}: suspension of DA ${d}, which is not a running resident there`);
    }
    for (let r = this.m.residentHead(n); r >= 0; r = D.resNext[r]) {
      if (T.ev[D.task[r]] < T.ev[t]) this.fail(`node ${n}: DA ${d} (E_v ${T.ev[t]}) suspended while DA ${r} of lower priority (E_v ${T.ev[D.task[r]]}) still runs`);
    }
  }

  /** Ledger entry d resumes in place on node n: it is suspended, before T_susp, and still owns its atoms. */
  resuming(n: number, d: number): void {
    this.checks++;
    this.ledgerEntry(n, d);
    const base = n * this.A;
    const got = this.forEachAtom(d, (a) => {
      if (this.owner[base + a] !== d) this.fail(`node ${n}: DA ${d} resumes into atom ${a}, owned by ${this.owner[base + a]}`);
    });
    if (got !== this.m.tasks.m[this.m.das.task[d]]) this.fail(`node ${n}: DA ${d} resumes with ${got} atoms`);
  }

  /** Ledger entry d's DA is reactivated (T_susp passed): nothing of lower priority runs on its node. */
  reactivating(n: number, d: number): void {
    this.checks++;
    this.ledgerEntry(n, d);
    this.nothingLowerRuns(n, d, "reactivated");
  }

  /** Ledger entry d is reclaimed at T_surv: nothing of lower priority runs on its node. */
  reclaiming(n: number, d: number): void {
    this.checks++;
    this.ledgerEntry(n, d);
    this.nothingLowerRuns(n, d, "reclaimed");
  }

  /** The absolute priority guarantee at a ledger entry's T_susp or T_surv: lower-priority runners could not have made room for it. */
  private nothingLowerRuns(n: number, d: number, what: string): void {
    if (this.m.canMakeRoom(n, d) > 0) this.fail(`node ${n}: DA ${d} ${what} while suspending lower-priority runners there would have made room for it`);
  }

  /** A secondary probe gets the image of ledger entry a: within T_surv, and the task is suspended (not running anywhere). */
  landing(a: number): void {
    this.checks++;
    const D = this.m.das, now = this.m.engine.now;
    this.ledgerEntry(D.node[a], a);
    if (now > D.survivalAt[a]) this.fail(`secondary landing of DA ${a}'s task at ${now} after T_surv expired at ${D.survivalAt[a]}`);
  }

  private ledgerEntry(n: number, d: number): void {
    const D = this.m.das, T = this.m.tasks, t = D.task[d];
    if (!D.slots.isLive(d) || D.state[d] !== D_SUSPENDED || D.node[d] !== n) this.fail(`node ${n}: DA ${d} is not in its Airlock ledger`);
    if (T.state[t] !== T_STARTED || T.anchor[t] !== d) this.fail(`node ${n}: ledger entry ${d}'s task is not a suspended task anchored there`);
  }

  all(): void {
    const m = this.m, met = m.fmet;
    for (let n = m.n0; n < m.n1; n++) this.node(n);
    if (met.arrived !== met.started + met.failed + m.inFlight) {
      this.fail(`arrived ${met.arrived} != started ${met.started} + failed ${met.failed} + in flight ${m.inFlight}`);
    }
    let held = 0, heldByDas = 0;
    for (let n = 0; n < m.cluster.nodes; n++) held += m.held[n];
    const D = m.das;
    for (let d = 0; d < D.slots.capacity; d++) {
      if (!D.slots.isLive(d)) continue;
      const s = D.state[d];
      if (s === D_PENDING || s === D_RESIDENT || s === D_SQUATTING || s === D_SUSPENDED) heldByDas += m.tasks.m[D.task[d]];
    }
    if (held !== heldByDas) this.fail(`nodes hold ${held} atoms, DAs holding atoms account for ${heldByDas}`);
    if (m.mem !== null) this.memory();
  }

  /** Memory model: use = images + records on every node; counters and images match the DAs' states. */
  private memory(): void {
    this.checks++;
    const m = this.m, mem = m.mem!, D = m.das;
    const bad = mem.audit();
    if (bad !== null) this.fail(`memory: ${bad}`);
    let running = 0, suspended = 0;
    const images = new Float64Array(m.cluster.nodes);
    for (let d = 0; d < D.slots.capacity; d++) {
      if (!D.slots.isLive(d)) continue;
      if (D.state[d] === D_RESIDENT) {
        running++;
        if (mem.recOf[d] < 0) this.fail(`memory: running DA ${d} has no memory record`);
      } else if (D.state[d] === D_SUSPENDED) {
        suspended++;
        images[D.node[d]] += kib(D.frozen[d]);
        if (mem.recOf[d] >= 0) this.fail(`memory: suspended DA ${d} still has a memory record (suspended and running)`);
      }
    }
    if (running !== m.running || running !== mem.count) this.fail(`memory: ${running} running DAs, running count ${m.running}, ${mem.count} records`);
    if (suspended !== m.suspended) this.fail(`memory: ${suspended} suspended DAs, suspended count ${m.suspended}`);
    for (let n = 0; n < m.cluster.nodes; n++) {
      if (images[n] !== mem.baseOf(n)) this.fail(`memory: node ${n} holds ${mem.baseOf(n)} KiB of images, its ledger ${images[n]}`);
    }
  }

  /** End of run: the checks of all(), and a drained cluster holds nothing but rigid jobs and squatters. */
  end(): void {
    this.all();
    const m = this.m;
    if (!m.quiescent()) return;
    let held = 0;
    for (let n = 0; n < m.cluster.nodes; n++) held += m.held[n];
    let squat = 0;
    const D = m.das;
    for (let d = 0; d < D.slots.capacity; d++) if (D.slots.isLive(d) && D.state[d] === D_SQUATTING) squat += m.tasks.m[D.task[d]];
    if (held !== squat) this.fail(`drained cluster still holds ${held - squat} atoms besides squatters`);
  }
}
