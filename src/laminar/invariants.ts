// The invariant checker (sim.checkInvariants, `laminar sim --check-invariants`,
// always on in the tests). It keeps its own records (an owner map of every
// atom, which task runs where, each task slot's start, each ledger entry's
// T_surv deadline) and checks every transition against them and against the
// node's state; the run stops at the first violation with an InvariantError
// naming the invariant, the node or task, and the simulated time. Every check
// below has a test that injects the fault it guards against
// (test/laminar/invariants.test.ts, test/laminar/airlock.test.ts).
//
// Checked:
// * no atom is allocated twice (take: every atom of the mask unowned) and only
//   its owner releases it (so TTL expiry restores exactly the reserved atoms);
// * per node, the bitmap's popcount equals the free count, and
//   free + held (reservations and running tasks) + rigid = capacity;
// * every node's queue list holds only DAs queued at that node, its tail is
//   its last DA, and it has no cycle;
// * a node's arbitration considers its batch in descending E_v,init (ties:
//   earlier arrival at the node first);
// * a logical task starts at most once (the checker remembers each task
//   slot's start, whatever the model's own state says);
// * a task runs in at most one place: no execution epoch opens while another
//   DA of the task runs or its image is still in an Airlock ledger;
// * at every series tick: arrived = started + failed + in flight, and the held
//   atoms equal the demands of the DAs holding atoms;
// * at the end, when nothing is in flight or running, every atom is free
//   except rigid jobs and squatters' holdings;
// * Airlock, before each transition: only a running resident is suspended,
//   never while a lower-priority resident still runs on its node (the
//   absolute priority guarantee) and, with airlock.suspensionScope=lower,
//   never a task with no higher-priority task on its node to protect (a
//   runner, or the entry a preemption resumes); only a ledger
//   entry resumes in place, into the atoms it still owns, and (except when
//   preemption made its room, checked before the preemption) not ahead of a
//   higher-ranked entry of its node that has room too; only a ledger entry is
//   reactivated or reclaimed, and never while its node has room for it, as
//   things stand or once its lower-priority runners are suspended (computed
//   here, not by the model); the source hands a suspended image to a
//   secondary probe only for a reactivated entry and no later than T_surv
//   after the reactivation the checker saw (the execution epoch opens at the
//   destination a state pull later);
// * memory, at every series tick: each node's use equals its images plus its
//   records, the images equal its ledger's, the running and suspended counts
//   match the DAs' states, and no suspended DA has a running record.
import type { LaminarState } from "./state.js";
import type { TransitionChecks } from "./checks.js";
import type { Config } from "../config/params.js";
import { D_PENDING, D_QUEUED, D_RESIDENT, D_SQUATTING, D_SUSPENDED, T_STARTED } from "./store.js";
import { NS_PER_MS } from "../sim/time.js";
import { kib } from "./memory.js";
import { overtaken, useAfterLocalRecovery } from "./invariants-airlock.js";
import { growTyped } from "../sim/slot-store.js";
import { InvariantError } from "../sim/invariant-error.js";

export { InvariantError };

export class Invariants implements TransitionChecks {
  private readonly owner: Int32Array;
  private readonly A: number;
  private readonly safeKiB: number;
  private readonly ratio: number;
  private readonly survivalNs: number;
  private readonly scopeAll: boolean;
  /** Per task slot: the key of the task that started in it (-1: none yet). */
  private startedKey = new Float64Array(0);
  /** The DA running each task now, by the task's key (a started task's slot may hold another task by then: task-table.ts). */
  private readonly runningDa = new Map<number, number>();
  /** Per DA slot: T_surv deadline of its last reactivation, as the checker saw it. */
  private survivalEnd = new Float64Array(0);
  /** The arbitration window being checked: node, and the last DA's E_v,init and arrival. */
  private arbNode = -1;
  private arbEv = 0;
  private arbArrive = 0;
  checks = 0;

  constructor(private readonly m: LaminarState, c: Config) {
    this.A = m.cluster.atoms;
    this.owner = new Int32Array(m.cluster.nodes * this.A).fill(-1);
    const cap = kib(c.memory.nodeCapacityGiB);
    this.safeKiB = Math.floor(c.airlock.safeWatermark * cap);
    this.ratio = c.airlock.compressionRatio;
    this.survivalNs = c.airlock.survivalMs * NS_PER_MS;
    this.scopeAll = c.airlock.suspensionScope === "all";
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

  /** Node n's queue list: every DA in it is live, queued, at n, the tail is the last one, and it has no cycle. */
  queue(n: number): void {
    this.checks++;
    const D = this.m.das;
    let last = -1, count = 0;
    for (let d = this.m.queueHead(n); d >= 0; d = D.next[d]) {
      if (++count > D.slots.capacity) this.fail(`node ${n}: queue list has a cycle`);
      if (!D.slots.isLive(d) || D.state[d] !== D_QUEUED || D.node[d] !== n) this.fail(`node ${n}: DA ${d} in its queue is not a DA queued there`);
      last = d;
    }
    if (last !== this.m.queueTail(n)) this.fail(`node ${n}: queue tail ${this.m.queueTail(n)} is not its last DA ${last}`);
  }

  /** Node n's arbitration considers DA d, the i-th of its batch: never ahead of a higher E_v,init (or, equal, an earlier arrival). */
  arbitrating(n: number, d: number, i: number): void {
    this.checks++;
    const D = this.m.das, ev = this.m.tasks.ev[D.task[d]], arrive = D.arrive[d];
    if (i > 0 && this.arbNode === n && (ev > this.arbEv || (ev === this.arbEv && arrive < this.arbArrive))) {
      this.fail(`node ${n}: arbitration considers DA ${d} (E_v ${ev}, arrived ${arrive}) after one of E_v ${this.arbEv}, arrived ${this.arbArrive}`);
    }
    this.arbNode = n;
    this.arbEv = ev;
    this.arbArrive = arrive;
  }

  /** Task slot t's task starts (the proxy's first start verdict, or a task placed by hand): it has not started before. */
  started(t: number): void {
    this.checks++;
    if (t >= this.startedKey.length) this.startedKey = growTyped(this.startedKey, this.m.tasks.slots.capacity, -1);
    const key = this.m.tasks.key[t];
    if (this.startedKey[t] === key) this.fail(`task ${key} (slot ${t}) starts a second time`);
    this.startedKey[t] = key;
  }

  /** DA d opens an execution epoch of its task: the task runs nowhere else, and no ledger holds its image. */
  executing(d: number): void {
    this.checks++;
    const t = this.m.das.task[d], key = this.m.das.key[d], other = this.runningDa.get(key);
    if (other !== undefined) this.fail(`task ${key} starts running at DA ${d} while it runs at DA ${other}: two places`);
    // only the memory model anchors images (without it the entry may be gone: task-table.ts)
    const a = this.m.mem !== null ? this.m.tasks.anchor[t] : -1;
    if (a >= 0 && a !== d) this.fail(`task slot ${t} starts running at DA ${d} while ledger entry ${a} still holds its image: two places`);
    this.runningDa.set(key, d);
  }

  /** DA d's execution epoch ends (completed, killed or suspended). */
  stopped(d: number): void {
    this.checks++;
    const key = this.m.das.key[d];
    if (this.runningDa.get(key) !== d) this.fail(`DA ${d} stops running a task (${key}) it does not run`);
    this.runningDa.delete(key);
  }

  /**
   * Airlock is about to suspend DA d's task on node n, to relieve pressure
   * or (forEntry >= 0) to make room for that ledger entry, which then counts
   * as the higher-priority task the suspension protects.
   */
  suspending(n: number, d: number, forEntry = -1): void {
    this.checks++;
    const D = this.m.das, T = this.m.tasks, t = D.task[d];
    if (!D.slots.isLive(d) || D.state[d] !== D_RESIDENT || D.node[d] !== n || T.state[t] !== T_STARTED) {
      this.fail(`node ${n}: suspension of DA ${d}, which is not a running resident there`);
    }
    let higher = forEntry >= 0 && T.ev[D.task[forEntry]] > T.ev[t];
    for (let r = this.m.residentHead(n); r >= 0; r = D.resNext[r]) {
      if (T.ev[D.task[r]] < T.ev[t]) this.fail(`node ${n}: DA ${d} (E_v ${T.ev[t]}) suspended while DA ${r} of lower priority (E_v ${T.ev[D.task[r]]}) still runs`);
      if (T.ev[D.task[r]] > T.ev[t]) higher = true;
    }
    if (!this.scopeAll && !higher) this.fail(`node ${n}: DA ${d} (E_v ${T.ev[t]}) suspended with no higher-priority task running there (suspensionScope=lower)`);
  }

  /**
   * Ledger entry d resumes in place on node n, into the atoms it still owns;
   * `ordered`: not ahead of a higher-ranked entry with room (a preemption's
   * resume was checked by resumeOrder before its suspensions).
   */
  resuming(n: number, d: number, ordered = true): void {
    this.checks++;
    this.ledgerEntry(n, d);
    const base = n * this.A;
    const got = this.forEachAtom(d, (a) => {
      if (this.owner[base + a] !== d) this.fail(`node ${n}: DA ${d} resumes into atom ${a}, owned by ${this.owner[base + a]}`);
    });
    if (got !== this.m.tasks.m[this.m.das.task[d]]) this.fail(`node ${n}: DA ${d} resumes with ${got} atoms`);
    if (ordered) this.resumeOrder(n, d);
  }

  /** Resuming ledger entry e in place now would not overtake a higher-ranked entry of node n that has room too. */
  resumeOrder(n: number, e: number): void {
    this.checks++;
    const f = overtaken(this.m, n, e, this.safeKiB);
    if (f >= 0) this.fail(`node ${n}: DA ${e} resumes out of order, ahead of ledger entry ${f} which ranks higher and has room`);
  }

  /** Ledger entry d's DA is reactivated (T_susp passed): its node has no room for it, even by suspending lower-priority runners. */
  reactivating(n: number, d: number): void {
    this.checks++;
    this.ledgerEntry(n, d);
    this.noRoom(n, d, "reactivated");
    if (d >= this.survivalEnd.length) this.survivalEnd = growTyped(this.survivalEnd, this.m.das.slots.capacity, 0);
    this.survivalEnd[d] = this.m.engine.now + this.survivalNs;
  }

  /** Ledger entry d is reclaimed at T_surv: its node has no room for it, even by suspending lower-priority runners. */
  reclaiming(n: number, d: number): void {
    this.checks++;
    this.ledgerEntry(n, d);
    this.noRoom(n, d, "reclaimed");
  }

  private noRoom(n: number, d: number, what: string): void {
    const use = useAfterLocalRecovery(this.m, n, d, this.ratio);
    if (use <= this.safeKiB) this.fail(`node ${n}: DA ${d} ${what} although resuming it in place (after suspending its lower-priority runners, if any) leaves ${use} KiB <= safe ${this.safeKiB} KiB`);
  }

  /** The source hands ledger entry a's image to a secondary probe: a reactivated entry, within T_surv of its reactivation. */
  landing(a: number): void {
    this.checks++;
    const D = this.m.das, now = this.m.engine.now;
    this.ledgerEntry(D.node[a], a);
    if (!this.m.reactivated(a)) this.fail(`DA ${a}'s image handed to a secondary probe before its reactivation`);
    const end = a < this.survivalEnd.length ? this.survivalEnd[a] : 0;
    if (now > end) this.fail(`secondary landing of DA ${a}'s task at ${now} after T_surv expired at ${end}`);
  }

  private ledgerEntry(n: number, d: number): void {
    const D = this.m.das, T = this.m.tasks, t = D.task[d];
    if (!D.slots.isLive(d) || D.state[d] !== D_SUSPENDED || D.node[d] !== n) this.fail(`node ${n}: DA ${d} is not in its Airlock ledger`);
    if (T.state[t] !== T_STARTED || T.anchor[t] !== d) this.fail(`node ${n}: ledger entry ${d}'s task is not a suspended task anchored there`);
  }

  all(): void {
    const m = this.m, met = m.gatewayMetrics;
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
      if (s === D_PENDING || s === D_RESIDENT || s === D_SQUATTING || s === D_SUSPENDED) heldByDas += D.m[d];
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
    for (let d = 0; d < D.slots.capacity; d++) if (D.slots.isLive(d) && D.state[d] === D_SQUATTING) squat += D.m[d];
    if (held !== squat) this.fail(`drained cluster still holds ${held - squat} atoms besides squatters`);
  }
}
