// The gateway side's ingress (paper §Design, TEG): the two Poisson arrival
// streams, merged and materialised at their exact times by the gateway batch
// (or series sample) that needs them; a task's DA instances, emitted on
// arrival, on regeneration (a task still not started quietMs after its last
// emission) and on an Airlock reactivation; and the TEG micro-batch that
// sends the waiting DAs to Zones (teg.ts's weights), one lossy hop away.
import { CLASS_SQUATTER } from "../workload/bimodal.js";
import { CAUSE_LOST, END_LOST } from "../metrics/run-metrics.js";
import { growTyped } from "../sim/slot-store.js";
import { D_MOVING, T_PENDING } from "./store.js";
import { regenerationDue } from "./decisions.js";
import type { TaskTable } from "./task-table.js";
import { EXACT_DEADLINE, EXACT_REGEN, FLAG_SECONDARY, K_ADDRESS, K_DEADLINE, K_REGEN, K_TEG, REGEN_ARMED, type LaminarState } from "./state.js";

/** Arrivals, DA emission and the gateway's micro-batches. */
export class Ingress {
  // the DAs waiting for the next gateway batch: their task, emission time, secondary or not
  private tegQueue = new Int32Array(4096);
  private tegAt0 = new Float64Array(4096);
  private tegSec = new Uint8Array(4096);
  private tegCount = 0;
  private tegOut = new Int32Array(4096);
  /** Time of the pending gateway batch event (Infinity: none). */
  private tegAt = Infinity;
  /** Arrivals materialised ahead whose regeneration checks wait (materialiseQuietly): task, emission time. */
  private deferRegen = false;
  private deferred = new Int32Array(1024);
  private deferredAt = new Float64Array(1024);
  private nDeferred = 0;

  constructor(private readonly s: LaminarState, private readonly taskTable: TaskTable) {}

  /** Materialise every arrival at or before `limit`, in time order (src/workload/arrivals.ts). */
  flushArrivals(limit: number): void {
    if (this.nDeferred > 0) this.armDeferred();
    const a = this.s.arrivals;
    while (a.peek() <= limit) {
      a.next();
      this.arrive(a.cls, a.time, a.service, a.atoms, a.price, a.memGiB);
    }
  }

  /**
   * The gateway run once (gateway-log.ts), at a window's end: materialise the
   * arrivals up to `limit` now rather than at the next batch, as long as
   * none of them posts an event (its deadline and regeneration timers go
   * into rings that already hold one, in order). What they do is then the
   * same as at the batch, and the posts' order is untouched; the work is
   * spread over the windows instead of falling on the batch's.
   */
  materialiseQuietly(limit: number): void {
    const a = this.s.arrivals;
    this.deferRegen = true;
    while (a.peek() <= limit && this.s.deadlines.ringsQuietly(a.peek() + this.s.deadlineNs)) {
      a.next();
      this.arrive(a.cls, a.time, a.service, a.atoms, a.price, a.memGiB);
    }
    this.deferRegen = false;
  }

  /**
   * Arm the regeneration checks that materialiseQuietly deferred (a check
   * may come before the ring's last one, which makes an exact event): first
   * thing wherever arrivals are materialised, as they would have been.
   */
  private armDeferred(): void {
    const q = this.deferred;
    for (let i = 0; i < this.nDeferred; i++) this.armRegen(q[i], this.deferredAt[i]);
    this.nDeferred = 0;
  }

  /** A task of class `stream` arrives at time tA (<= now); a share of arrivals are squatters instead. */
  arrive(stream: number, tA: number, service: number, atoms: number, price: number, memGiB: number): void {
    const w = this.s.c.workload;
    const squat = w.squatterRatio > 0 && this.s.rSquat.float() < w.squatterRatio;
    const cls = squat ? CLASS_SQUATTER : stream;
    const T = this.s.tasks, t = squat ? this.taskTable.newTask(cls, w.squatterAtoms, 0, tA) : this.taskTable.newTask(cls, atoms, service, tA, price, memGiB);
    if (squat) T.ev[t] = T.budget[t] = Infinity;
    this.s.inFlight++;
    this.s.gatewayMetrics.onArrive(cls);
    const dl = tA + this.s.deadlineNs;
    if (!this.s.deadlines.push(dl, t, T.slots.generation(t))) this.taskTable.exact(t, dl, K_DEADLINE, EXACT_DEADLINE);
    this.emit(t, tA);
  }

  /** Emit a new DA instance of task t at time `at` (<= now): it waits for the gateway's next micro-batch. */
  emit(t: number, at: number, secondary = false): void {
    const T = this.s.tasks;
    T.instances[t]++;
    T.live[t]++;
    T.lastEmit[t] = at;
    if (this.tegCount === this.tegQueue.length) {
      const n = this.tegCount * 2;
      this.tegQueue = growTyped(this.tegQueue, n);
      this.tegAt0 = growTyped(this.tegAt0, n);
      this.tegSec = growTyped(this.tegSec, n);
      this.tegOut = new Int32Array(n);
    }
    this.tegAt0[this.tegCount] = at;
    this.tegSec[this.tegCount] = secondary ? 1 : 0;
    this.tegQueue[this.tegCount++] = t;
    if (secondary || this.s.regens === null || T.cls[t] === CLASS_SQUATTER) return;
    if (!this.deferRegen) return this.armRegen(t, at);
    if (this.nDeferred === this.deferred.length) {
      this.deferred = growTyped(this.deferred, this.nDeferred * 2);
      this.deferredAt = growTyped(this.deferredAt, this.nDeferred * 2);
    }
    this.deferred[this.nDeferred] = t;
    this.deferredAt[this.nDeferred++] = at;
  }

  /** Task t's regeneration check, quietMs after its emission at `at`, while it may still regenerate. */
  private armRegen(t: number, at: number): void {
    const T = this.s.tasks, check = at + this.s.quietNs;
    if (regenerationDue(T.instances[t], this.s.c.regeneration.maxInstances, check, T.arrival[t] + this.s.deadlineNs)) {
      T.timers[t] |= REGEN_ARMED;
      if (!this.s.regens!.push(check, t, T.slots.generation(t))) this.taskTable.exact(t, check, K_REGEN, EXACT_REGEN);
    }
  }

  /** Make sure a gateway batch runs at the first batch boundary at or after `time`. */
  requestBatchFor(time: number): void {
    if (time === Infinity) return;
    const at = Math.ceil(time / this.s.batchNs) * this.s.batchNs;
    if (at >= this.tegAt) return;
    this.tegAt = at;
    this.s.engine.post(at - this.s.engine.now, K_TEG, 0);
  }

  gatewayBatch(): void {
    const now = this.s.engine.now;
    if (now !== this.tegAt) return; // superseded by an earlier request
    this.tegAt = Infinity;
    this.flushArrivals(now);
    this.requestBatchFor(this.s.nextArrival());
    const n = this.tegCount;
    this.tegCount = 0;
    if (n === 0) return;
    const cl = this.s.cluster, D = this.s.das, T = this.s.tasks, r = this.s.rGate, loss = this.s.c.network.loss, ze = this.s.zoneEngine;
    const memOn = this.s.mem !== null, log = this.s.gatewayLog;
    this.s.teg.dispatch(n, now, r, this.tegOut);
    this.s.gatewayMetrics.aggOps += n;
    for (let i = 0; i < n; i++) {
      const t = this.tegQueue[i], z = this.tegOut[i];
      const off = cl.offsets[z];
      const node = off + r.int(cl.offsets[z + 1] - off);
      if (loss > 0 && r.float() < loss) {
        this.s.gatewayMetrics.packetsLost++;
        this.s.gatewayMetrics.onDaEnd(END_LOST);
        this.taskTable.taskLost(t, CAUSE_LOST);
        continue;
      }
      // the gateway run once for all partitions records the DA for the partition that holds its Zone (gateway-log.ts)
      if (log !== null) {
        log.emit(z, t, node, T.cls[t], T.m[t], this.tegAt0[i], T.arrival[t], T.ev[t], T.budget[t], T.service[t], T.key[t], this.tegSec[i] === 1 ? FLAG_SECONDARY : 0, memOn ? this.s.declaredGiB(t) : 0);
        continue;
      }
      // every partition runs the gateway; the DA itself exists only where its Zone is simulated
      if (!this.s.ownsZone(z)) continue;
      if (ze !== null) {
        ze.emit(t, node, T.cls[t], T.m[t], this.tegAt0[i], T.arrival[t], T.ev[t], T.budget[t], T.service[t], T.key[t], this.tegSec[i] === 1 ? FLAG_SECONDARY : 0, memOn ? this.s.declaredGiB(t) : 0);
        continue;
      }
      const d = D.alloc();
      D.task[d] = t;
      D.state[d] = D_MOVING;
      D.flags[d] = this.tegSec[i] === 1 ? FLAG_SECONDARY : 0;
      D.patience[d] = T.budget[t];
      D.emitted[d] = this.tegAt0[i];
      D.deposit[d] = 0;
      D.node[d] = node;
      this.s.engine.post(this.s.hopNs, K_ADDRESS, d);
    }
    if (log !== null) log.flush();
    else ze?.flushEmits();
  }

  /** Regeneration check: a task still not started quietMs after its last DA emits a new instance. */
  regenerate(t: number): void {
    const T = this.s.tasks;
    T.timers[t] &= ~(EXACT_REGEN | REGEN_ARMED);
    if (T.state[t] === T_PENDING) {
      this.s.gatewayMetrics.regenerations++;
      const now = this.s.engine.now;
      // arrivals up to now arm their timers first, so the sweeps' rings stay in time order
      this.flushArrivals(now);
      this.emit(t, now);
      this.requestBatchFor(now);
    }
    this.taskTable.maybeFree(t);
  }

  /** Gateway side: a reactivated task's secondary DA is emitted; it will pull the image from Zone `home`. */
  reactivate(t: number, home: number): void {
    const T = this.s.tasks, now = this.s.engine.now;
    T.awaiting[t] = 1;
    T.home[t] = home;
    this.s.taskStateChanged(t);
    this.flushArrivals(now);
    this.emit(t, now, true);
    this.requestBatchFor(now);
  }
}
