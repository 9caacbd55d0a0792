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
import type { CoreArrivals } from "./core-arrivals.js";
import { EXACT_DEADLINE, EXACT_REGEN, FLAG_SECONDARY, K_ADDRESS, K_DEADLINE, K_REGEN, K_TEG, REGEN_ARMED, type LaminarState } from "./state.js";

/** Doubles per waiting DA in the batch's staging (Ingress.tegRec). */
const STAGE = 8;

/** Arrivals, DA emission and the gateway's micro-batches. */
export class Ingress {
  // the DAs waiting for the next gateway batch: their task, emission time, secondary or not
  private tegQueue = new Int32Array(4096);
  private tegAt0 = new Float64Array(4096);
  private tegSec = new Uint8Array(4096);
  private tegCount = 0;
  private tegOut = new Int32Array(4096);
  /**
   * What the batch hands on of each waiting DA's task, copied at emission
   * while the task's entry is in cache (the batch reads it in order instead
   * of from the task table's columns; none of it changes after arrival):
   * STAGE doubles each, class, atoms, arrival, E_v,init, budget, service,
   * key, declared GiB.
   */
  private tegRec = new Float64Array(4096 * STAGE);
  /** Time of the pending gateway batch event (Infinity: none). */
  private tegAt = Infinity;
  /** Arrivals materialised ahead whose regeneration checks wait (materialiseQuietly): task, emission time, slot generation. */
  private deferRegen = false;
  private deferred = new Int32Array(1024);
  private deferredAt = new Float64Array(1024);
  private deferredGen = new Int32Array(1024);
  private nDeferred = 0;

  /**
   * The Zone engine materialises the arrivals on the task table (arriveInCore):
   * the core's arrival batches, and the slots and their generations handed
   * to it (here, and at idsAt in core memory).
   */
  private coreArrivals: CoreArrivals | null = null;
  private ids = new Int32Array(0);
  private idsAt = 0;

  constructor(private readonly s: LaminarState, private readonly taskTable: TaskTable) {}

  /**
   * From now on the Zone engine materialises the arrivals (engineArrive,
   * with its tasks block laid out; one partition on the engine without the
   * memory model or the gateway's log): the core's arrival batches, taken
   * where they lie.
   */
  arriveInCore(a: CoreArrivals): void {
    this.coreArrivals = a;
    this.ids = new Int32Array(2 * a.batch);
    this.idsAt = this.s.core.arena.alloc(8 * a.batch, 16);
  }

  /** Materialise every arrival at or before `limit`, in time order (src/workload/arrivals.ts). */
  flushArrivals(limit: number): void {
    if (this.nDeferred > 0) this.armDeferred();
    if (this.coreArrivals !== null) return this.flushInCore(this.coreArrivals, limit);
    const a = this.s.arrivals;
    while (a.peek() <= limit) {
      a.next();
      this.arrive(a.cls, a.time, a.service, a.atoms, a.price, a.memGiB);
    }
  }

  /**
   * flushArrivals on the engine: each run of a batch's arrivals up to
   * `limit` gets its slots, in order (in the engine, where their
   * generations lie, unless the task table must grow), and the engine does
   * with them what arrive() and emit() do, timers included.
   */
  private flushInCore(a: CoreArrivals, limit: number): void {
    const T = this.s.tasks, tt = this.taskTable, ze = this.s.zoneEngine!, ids = this.ids, s = this.s;
    const squat = s.c.workload.squatterRatio > 0 ? s.rSquat : null;
    for (let k = a.upTo(limit); k > 0; k = a.upTo(limit)) {
      // the engine takes the slots where their generations lie, unless the table grows on the way: then here
      let at = 0;
      if (2 * (T.slots.live + k) > T.capacity) {
        for (let i = 0; i < k; i++) {
          const t = T.alloc();
          ids[2 * i] = t;
          ids[2 * i + 1] = T.slots.generation(t);
        }
        s.core.arena.i32.set(ids.subarray(0, 2 * k), this.idsAt >> 2);
        at = this.idsAt;
      }
      tt.nextKey = ze.arrive(T.columnsAt, T.capacity, a.at(), k, at, tt.nextKey, squat, s.deadlines, s.regens, s.gatewayLog, T.slots, T.genAt);
      a.skip(k);
      s.gatewayMetrics.onArrivals(ze.arrived(0), ze.arrived(1), ze.arrived(2));
      s.inFlight += k;
      this.tegCount += k;
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
    if (this.coreArrivals !== null) return; // the engine's arrivals cost little at the batch
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
    const q = this.deferred, at = this.deferredAt, gen = this.deferredGen;
    // each a fresh arrival's first emission, its slot unchanged since (it is pending and has a DA waiting)
    for (let i = 0; i < this.nDeferred; i++) this.armRegenAt(q[i], at[i], 1, at[i], gen[i]);
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
    const T = this.s.tasks, ze = this.s.zoneEngine;
    T.instances[t]++;
    T.live[t]++;
    if (ze !== null) {
      // the engine's batch (gatewayBatch): staged where it reads it, its launchpad drawn there
      ze.emit(t, -1, T.cls[t], T.m[t], at, T.arrival[t], T.ev[t], T.budget[t], T.service[t], T.key[t], secondary ? FLAG_SECONDARY : 0, this.s.mem !== null ? this.s.declaredGiB(t) : 0);
      this.tegCount++;
    } else this.stage(t, at, secondary);
    if (secondary || this.s.regens === null || T.cls[t] === CLASS_SQUATTER) return;
    if (!this.deferRegen) return this.armRegenAt(t, at, T.instances[t], T.arrival[t], T.slots.generation(t));
    if (this.nDeferred === this.deferred.length) {
      this.deferred = growTyped(this.deferred, this.nDeferred * 2);
      this.deferredAt = growTyped(this.deferredAt, this.nDeferred * 2);
      this.deferredGen = growTyped(this.deferredGen, this.nDeferred * 2);
    }
    this.deferred[this.nDeferred] = t;
    this.deferredGen[this.nDeferred] = T.slots.generation(t);
    this.deferredAt[this.nDeferred++] = at;
  }

  /** A DA of task t, emitted at `at`, waits for the batch in the staging the batch reads in TypeScript (no Zone engine). */
  private stage(t: number, at: number, secondary: boolean): void {
    const T = this.s.tasks;
    if (this.tegCount === this.tegQueue.length) {
      const n = this.tegCount * 2;
      this.tegQueue = growTyped(this.tegQueue, n);
      this.tegAt0 = growTyped(this.tegAt0, n);
      this.tegSec = growTyped(this.tegSec, n);
      this.tegRec = growTyped(this.tegRec, n * STAGE);
      this.tegOut = new Int32Array(n);
    }
    const rec = this.tegRec, r = this.tegCount * STAGE;
    rec[r] = T.cls[t]; rec[r + 1] = T.m[t]; rec[r + 2] = T.arrival[t]; rec[r + 3] = T.ev[t];
    rec[r + 4] = T.budget[t]; rec[r + 5] = T.service[t]; rec[r + 6] = T.key[t];
    rec[r + 7] = this.s.mem !== null ? this.s.declaredGiB(t) : 0;
    this.tegAt0[this.tegCount] = at;
    this.tegSec[this.tegCount] = secondary ? 1 : 0;
    this.tegQueue[this.tegCount++] = t;
  }

  /** Task t's regeneration check, quietMs after its emission at `at` (its instances, arrival and slot generation given), while it may still regenerate. */
  private armRegenAt(t: number, at: number, instances: number, arrival: number, gen: number): void {
    const check = at + this.s.quietNs;
    if (regenerationDue(instances, this.s.c.regeneration.maxInstances, check, arrival + this.s.deadlineNs)) {
      this.s.tasks.timers[t] |= REGEN_ARMED;
      if (!this.s.regens!.push(check, t, gen)) this.taskTable.exact(t, check, K_REGEN, EXACT_REGEN);
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
    const cl = this.s.cluster, D = this.s.das, r = this.s.rGate, loss = this.s.c.network.loss, ze = this.s.zoneEngine;
    const log = this.s.gatewayLog, rec = this.tegRec;
    this.s.gatewayMetrics.aggOps += n;
    if (ze !== null) {
      // the engine draws the Zones, launchpads and losses from the gateway's stream, as the loop below does; the
      // gateway run once for all partitions hands the batch to its log for the partitions that hold their Zones
      // (gateway-log.ts), else the DAs of this engine's Zones are taken
      this.s.teg.weigh(now);
      const lost = ze.dispatch(this.s.teg.cum, r, log);
      for (let i = 0; i < lost; i++) this.lostOnHop(ze.lostTask(i));
      return;
    }
    this.s.teg.dispatch(n, now, r, this.tegOut);
    for (let i = 0; i < n; i++) {
      const t = this.tegQueue[i], z = this.tegOut[i];
      const off = cl.offsets[z];
      const node = off + r.int(cl.offsets[z + 1] - off);
      if (loss > 0 && r.float() < loss) {
        this.lostOnHop(t);
        continue;
      }
      const q = i * STAGE, flags = this.tegSec[i] === 1 ? FLAG_SECONDARY : 0;
      // every partition runs the gateway; the DA itself exists only where its Zone is simulated
      if (!this.s.ownsZone(z)) continue;
      const d = D.alloc();
      D.task[d] = t;
      D.state[d] = D_MOVING;
      D.flags[d] = flags;
      D.patience[d] = rec[q + 4];
      D.emitted[d] = this.tegAt0[i];
      D.deposit[d] = 0;
      D.node[d] = node;
      D.m[d] = rec[q + 1];
      D.service[d] = rec[q + 5];
      D.key[d] = rec[q + 6];
      this.s.engine.post(this.s.hopNs, K_ADDRESS, d);
    }
  }

  /** A DA of task t was lost on its hop from the gateway. */
  private lostOnHop(t: number): void {
    this.s.gatewayMetrics.packetsLost++;
    this.s.gatewayMetrics.onDaEnd(END_LOST);
    this.taskTable.taskLost(t, CAUSE_LOST);
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
