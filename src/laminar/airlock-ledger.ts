// Airlock (paper §The Airlock Protocol; docs/airlock.md): at each runtime
// tick, a node above the high watermark suspends running tasks in ascending
// E_v,init into its ledger (frozen, compressed, atoms kept) until use is at
// the safe watermark (airlock.suspensionScope: all tasks, or only those below
// the node's top priority); suspended tasks resume in place while the node
// has room; at T_susp a ledger entry still waiting resumes if the node has,
// or can make, room (preempting lower-priority runners), or else its DA is
// reactivated as a secondary probe (landing.ts); at T_surv it is reclaimed.
// Without Airlock the tick applies the kernel OOM rule (runtime.ts) alone.
import { resumeOrder, suspensionOrder } from "./airlock.js";
import { kib } from "./memory.js";
import { D_RESIDENT, D_SUSPENDED } from "./store.js";
import { TO_GATEWAY } from "./mailbox.js";
import type { NodeQueues } from "./queue.js";
import type { NodeRuntime } from "./runtime.js";
import { FLAG_REACTIVATED, K_AIRLOCK, K_MEM, M_CLOSED, M_REACTIVATE, R_CLOSED, R_KILLED, type LaminarState } from "./state.js";

/** The runtime tick, and Airlock's ledgers on this instance's nodes. */
export class AirlockLedger {
  /** Per node: ledger entries still hoping for in-situ resume; the nodes with any, as a list. */
  private readonly waiting: Int32Array;
  private readonly waitList: Int32Array;
  private readonly inWaitList: Uint8Array;
  private waitCount = 0;
  /** The nodes a tick found over the line (a copy: handling them may detach the core's view). */
  private readonly overList: Int32Array;
  /** airlock.compressionRatio: a suspended image is the resident memory over this. */
  private readonly compressionRatio: number;

  constructor(private readonly s: LaminarState, private readonly queues: NodeQueues, private readonly runtime: NodeRuntime) {
    this.compressionRatio = s.c.airlock.compressionRatio;
    const memN = s.mem !== null ? s.cluster.nodes : 0;
    this.waiting = new Int32Array(memN);
    this.waitList = new Int32Array(memN);
    this.inWaitList = new Uint8Array(memN);
    this.overList = new Int32Array(memN);
  }

  /** Runtime tick: every running task's memory moves (core memTick); nodes over the line are relieved; suspended tasks may resume. */
  memTick(): void {
    const now = this.s.engine.now, mem = this.s.mem!;
    this.s.engine.post(this.s.tickNs, K_MEM, 0);
    const tick = Math.round(now / this.s.tickNs) % 4294967296;
    const over = mem.tick(tick, this.s.airlockOn ? this.s.highKiB : this.s.capKiB);
    const count = over.length, list = this.overList;
    list.set(over); // handling may grow core memory, which detaches the view
    if (this.s.airlockOn) {
      // pressure flags: nodes that left pressure, then those over the line now
      for (let n = 0; n < this.s.pressured.length; n++) if (this.s.pressured[n] === 1 && mem.use(n) <= this.s.highKiB) this.runtime.updatePressure(n);
      for (let i = 0; i < count; i++) {
        this.runtime.updatePressure(list[i]);
        this.relieve(list[i]);
      }
      this.resumeWaiting();
    } else {
      for (let i = 0; i < count; i++) this.runtime.oom(list[i]);
    }
  }

  /**
   * Node n is above the high watermark: suspend residents in ascending
   * E_v,init until use is at the safe watermark. With
   * airlock.suspensionScope=lower only tasks below the node's highest running
   * E_v,init are suspended (the top ones are never frozen to protect no one);
   * with `all`, every running task, the top ones last.
   */
  relieve(n: number): void {
    const mem = this.s.mem!;
    const k = this.runtime.gatherRunning(n);
    suspensionOrder(this.s.pickIds, this.s.pickA, this.s.pickB, this.s.pickK, k);
    const top = this.s.scopeAll || k === 0 ? Infinity : this.s.pickA[k - 1];
    for (let i = 0; i < k && this.s.pickA[i] < top && mem.use(n) > this.s.safeKiB; i++) this.suspend(this.s.pickIds[i], n);
    this.runtime.updatePressure(n);
    // what Airlock could not relieve, the kernel still kills
    if (mem.use(n) > this.s.capKiB) this.runtime.oom(n);
  }

  /**
   * Suspend DA d's task on node n into the Airlock ledger: frozen,
   * compressed, atoms kept, T_susp armed; `forEntry`: the ledger entry this
   * preemption makes room for (-1: the node is relieving pressure).
   */
  suspend(d: number, n: number, forEntry = -1): void {
    const D = this.s.das, mem = this.s.mem!, now = this.s.engine.now, t = D.task[d];
    this.s.invariants?.suspending(n, d, forEntry);
    this.s.engine.cancelIn(D.doneHandle, d);
    D.remaining[d] = D.epochEnd[d] - now;
    D.drift[d] = mem.drift(d);
    D.target[d] = mem.target(d);
    const image = mem.resident(d) / this.compressionRatio;
    this.runtime.stopExecution(d, n);
    D.frozen[d] = image;
    mem.addImage(n, image);
    D.state[d] = D_SUSPENDED;
    D.flags[d] &= ~FLAG_REACTIVATED;
    D.suspendedAt[d] = now;
    this.runtime.link(this.s.ledgers, n, d);
    this.s.tasks.anchor[t] = d;
    this.s.engine.scheduleInto(this.s.suspendNs, K_AIRLOCK, d, D.timerHandle, d);
    this.s.running--;
    this.s.suspended++;
    this.s.survival!.suspensions++;
    this.waiting[n]++;
    if (this.inWaitList[n] === 0) {
      this.inWaitList[n] = 1;
      this.waitList[this.waitCount++] = n;
    }
  }

  /** In-situ resume: on each node with entries before T_susp, highest E_v,init first, while resuming keeps use at or below the safe watermark. */
  resumeWaiting(): void {
    let keep = 0;
    for (let w = 0; w < this.waitCount; w++) {
      const n = this.waitList[w];
      this.resumePass(n);
      if (this.waiting[n] > 0) this.waitList[keep++] = n;
      else this.inWaitList[n] = 0;
    }
    this.waitCount = keep;
  }

  /**
   * Node n's in-situ pass over its entries not yet reactivated: highest
   * E_v,init first (earliest suspended among equals), each while resuming it
   * keeps use at or below the safe watermark; the first that does not fit
   * stops the pass (nobody resumes ahead of a higher-priority entry).
   */
  resumePass(n: number): void {
    const D = this.s.das, T = this.s.tasks, mem = this.s.mem!, now = this.s.engine.now;
    let k = 0;
    for (let d = this.s.ledgers[n]; d >= 0; d = D.resNext[d]) {
      if (D.flags[d] & FLAG_REACTIVATED) continue;
      this.s.pickIds[k] = d;
      this.s.pickA[k] = -T.ev[D.task[d]];
      this.s.pickB[k] = -D.suspendedAt[d];
      this.s.pickK[k] = T.key[D.task[d]];
      k++;
    }
    resumeOrder(this.s.pickIds, this.s.pickA, this.s.pickB, this.s.pickK, k);
    for (let i = 0; i < k; i++) {
      const d = this.s.pickIds[i];
      if (D.suspendedAt[d] === now) break; // suspended this very tick: not yet
      if (mem.use(n) + this.resumeGrowth(d) > this.s.safeKiB) break;
      this.resumeInPlace(d, n);
    }
  }

  /** Resume in place, in resume order, every entry of node n not yet reactivated that ranks ahead of e and has room now. */
  resumeAhead(n: number, e: number): void {
    const D = this.s.das, T = this.s.tasks, mem = this.s.mem!, now = this.s.engine.now;
    const evE = T.ev[D.task[e]], sinceE = D.suspendedAt[e], keyE = T.key[D.task[e]];
    let k = 0;
    for (let d = this.s.ledgers[n]; d >= 0; d = D.resNext[d]) {
      if (d === e || (D.flags[d] & FLAG_REACTIVATED) || D.suspendedAt[d] === now) continue;
      const ev = T.ev[D.task[d]], key = T.key[D.task[d]];
      if (ev < evE || (ev === evE && (D.suspendedAt[d] > sinceE || (D.suspendedAt[d] === sinceE && key > keyE)))) continue;
      this.s.pickIds[k] = d;
      this.s.pickA[k] = -ev;
      this.s.pickB[k] = -D.suspendedAt[d];
      this.s.pickK[k] = key;
      k++;
    }
    resumeOrder(this.s.pickIds, this.s.pickA, this.s.pickB, this.s.pickK, k);
    for (let i = 0; i < k; i++) {
      const d = this.s.pickIds[i];
      if (mem.use(n) + this.resumeGrowth(d) <= this.s.safeKiB) this.resumeInPlace(d, n);
    }
  }

  resumeInPlace(d: number, n: number, preempted = false): void {
    const D = this.s.das, t = D.task[d];
    this.s.invariants?.resuming(n, d, !preempted);
    this.s.engine.cancelIn(D.timerHandle, d);
    this.leaveLedger(d, n);
    if ((D.flags[d] & FLAG_REACTIVATED) === 0) this.waiting[n]--;
    // a reactivated entry resumed here: its secondary probes have nothing to land any more
    else this.s.send(this.s.cluster.zoneOf[n], M_CLOSED, TO_GATEWAY, t);
    D.flags[d] &= ~FLAG_REACTIVATED;
    D.state[d] = D_RESIDENT;
    this.s.running++;
    this.s.survival!.resumedInPlace++;
    this.runtime.execute(d, n, D.remaining[d], this.s.declaredGiB(t), D.target[d], D.drift[d]);
  }

  /** Ledger entry d leaves node n's ledger: its image is dropped (resumed, pulled elsewhere or reclaimed). */
  leaveLedger(d: number, n: number): void {
    this.runtime.unlink(this.s.ledgers, n, d);
    this.s.mem!.removeImage(n, this.s.das.frozen[d]);
    this.s.tasks.anchor[this.s.das.task[d]] = -1;
    this.s.suspended--;
  }

  /** An Airlock timer of ledger entry d: T_susp (reactivate its DA) or T_surv (reclaim). */
  airlockTimer(d: number): void {
    const D = this.s.das;
    if (D.state[d] !== D_SUSPENDED) throw new Error(`airlock: timer of DA ${d}, which is not suspended`);
    const n = D.node[d], t = D.task[d];
    // before moving the task on or killing it, the node resumes it in place if it has room, or can make room
    if (this.recoverLocally(n, d)) return;
    if (D.flags[d] & FLAG_REACTIVATED) return this.reclaim(d);
    this.s.invariants?.reactivating(n, d);
    D.flags[d] |= FLAG_REACTIVATED;
    this.waiting[n]--;
    this.s.engine.scheduleInto(this.s.survivalNs, K_AIRLOCK, d, D.timerHandle, d);
    this.s.survival!.secondaryReactivations++;
    // the reactivated DA re-enters through the gateway (half a hop away) with a fresh patience budget
    this.s.send(this.s.cluster.zoneOf[n], M_REACTIVATE, TO_GATEWAY, t);
  }

  /**
   * Ledger entry e reaches T_susp or T_surv on node n: first every entry of
   * the node still hoping for in-situ resume that ranks ahead of e and has
   * room resumes (in resume order), so e takes no room from a higher-priority
   * entry; then e resumes in place if the node has room for it at the safe
   * watermark, or if suspending lower-priority runners makes that room
   * (preemptFor). Whether e moves on or dies is decided only when neither
   * holds.
   */
  recoverLocally(n: number, e: number): boolean {
    if (this.waiting[n] > 0) this.resumeAhead(n, e);
    if (this.s.mem!.use(n) + this.resumeGrowth(e) <= this.s.safeKiB) {
      this.resumeInPlace(e, n);
      return true;
    }
    return this.preemptFor(n, e);
  }

  /**
   * Ledger entry e has no room on node n as things stand: if suspending every running task
   * of lower E_v,init on its node would leave room to resume e at or below the
   * safe watermark, suspend them (ascending, only as many as needed) and
   * resume e in place. The absolute priority guarantee: no task moves on or
   * dies while lower-priority state it could displace still runs.
   */
  preemptFor(n: number, e: number): boolean {
    const k = this.canMakeRoom(n, e);
    if (k === 0) return false;
    const mem = this.s.mem!, grow = this.resumeGrowth(e);
    this.s.invariants?.resumeOrder(n, e);
    suspensionOrder(this.s.pickIds, this.s.pickA, this.s.pickB, this.s.pickK, k);
    for (let i = 0; i < k && mem.use(n) + grow > this.s.safeKiB; i++) this.suspend(this.s.pickIds[i], n, e);
    this.s.survival!.preemptions++;
    this.resumeInPlace(e, n, true);
    return true;
  }

  /**
   * Whether suspending node n's lower-priority runners would make room for
   * ledger entry e: how many there are, left in the pick arrays, or 0 when
   * none or not enough. (The invariant checker asks the same question its
   * own way, without this function.)
   */
  canMakeRoom(n: number, e: number): number {
    const k = this.gatherLower(n, this.s.tasks.ev[this.s.das.task[e]]);
    let relief = 0;
    for (let i = 0; i < k; i++) relief += this.suspensionRelief(this.s.pickIds[i]);
    return k > 0 && this.s.mem!.use(n) - relief + this.resumeGrowth(e) <= this.s.safeKiB ? k : 0;
  }

  /** Node n's running tasks with E_v,init below ev, into the pick arrays; returns how many. */
  gatherLower(n: number, ev: number): number {
    const k = this.runtime.gatherRunning(n);
    let j = 0;
    for (let i = 0; i < k; i++) {
      if (this.s.pickA[i] >= ev) continue;
      this.s.pickIds[j] = this.s.pickIds[i]; this.s.pickA[j] = this.s.pickA[i]; this.s.pickB[j] = this.s.pickB[i]; this.s.pickK[j] = this.s.pickK[i];
      j++;
    }
    return j;
  }

  /** KiB that suspending running DA d frees (its resident use, less the image that stays). */
  suspensionRelief(d: number): number {
    const r = this.s.mem!.resident(d);
    return kib(r) - kib(r / this.compressionRatio);
  }

  /** KiB that resuming ledger entry e adds (its drifting footprint, less its image). */
  resumeGrowth(e: number): number {
    const D = this.s.das;
    return kib(D.drift[e]) - kib(D.frozen[e]);
  }

  /** T_surv expired before a secondary landing: the suspended task and its DA are reclaimed. */
  reclaim(d: number): void {
    const D = this.s.das, n = D.node[d];
    this.s.invariants?.reclaiming(n, d);
    this.leaveLedger(d, n);
    this.queues.releaseAtoms(d, n);
    this.runtime.updatePressure(n);
    this.s.survival!.reclaimed++;
    this.s.retire(d, R_KILLED | R_CLOSED);
  }
}
