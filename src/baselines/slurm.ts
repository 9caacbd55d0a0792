// The Slurm-like baseline (paper §Baseline modeling, model notes): one global
// FIFO served by one controller, one decision at a time, over the single
// authoritative view of every node's real bitmap.
//
//   arrival --msg--> global FIFO --decision--> first-fit over all nodes
//     fit:  atoms taken --msg--> start --service--> completion (atoms released)
//     miss (a lost contention: no node of the whole cluster has room for the
//           task when its decision ends): retry r (r = 1..retries) re-enters
//           the FIFO after backoffMs * 2^(r-1); after the last retry the task
//           fails (retriesExhausted)
//   decision time = baseMatchUs + scanPerNodeUs * N + lockUs * convoy(q),
//   q = tasks in the FIFO when the decision starts: the lock convoy,
//   convoy = 1 + min(convoyCap, (max(0, q - convoyQueue) / convoyQueue)^2)
//   [convoy=threshold] or 1 + q / convoyQueue [linear]
//
// Messages cross the shared network (network.ts): the submission to the
// controller and the launch to the chosen node. A lost submission reaches the
// FIFO lossRecoveryMs later per lost transmission (resend FIFOs, one per
// count of losses, each in time order). The controller's view is the single
// authoritative one (the real bitmaps), so no heartbeat feeds it. The entry
// node plays no part: every submission goes to the one controller. The OS
// jitter is on the launch, the hop to the chosen node, as on Laminar's.
// Crash rule (baselines.crashDecisionMs): one decision longer than that and
// every queued and later task fails (crashed).
//
// No deadline by default (unboundedQueue: the paper's concession to the
// baseline): tasks wait as long as it takes. With unboundedQueue=false a task
// reached after baselines.deadlineMs fails (deadline) without a decision.
//
// The FIFO can hold tens of millions of tasks at paper scale, so it is not
// stored: it is the arrival sequence itself, walked by two lazy iterators of
// the same seed (one counts submissions, one serves them), plus small FIFOs of
// retried tasks, one per retry round (each in time order, as its backoff is
// constant), and the resend FIFOs. Memory stays proportional to running,
// retrying and resent tasks.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { Engine } from "../sim/engine.js";
import { NS_PER_MS } from "../sim/time.js";
import { growRing } from "../sim/slot-store.js";
import { makeArrivals } from "../workload/sources.js";
import type { ArrivalSource } from "../workload/source.js";
import { CLASS_F } from "../workload/bimodal.js";
import { CAUSE_CRASHED, CAUSE_DEADLINE, CAUSE_RETRIES, RunMetrics } from "../metrics/run-metrics.js";
import { Cluster } from "../cluster/cluster.js";
import { TaskTable } from "./tasks.js";
import type { CommonResult } from "../metrics/result.js";
import { BaselineNet, type NetCounters } from "./network.js";

const K_WAKE = 1, K_DECIDED = 2, K_START = 3, K_COMPLETE = 4, K_SERIES = 5;

/** Retried (or resent) tasks of one round, in re-entry order. */
class RetryFifo {
  size = 0;
  private head = 0;
  /** Entries from the head that had re-entered by the last countBy. */
  private seen = 0;
  private cap = 256;
  at = new Float64Array(this.cap);
  arrival = new Float64Array(this.cap);
  service = new Float64Array(this.cap);
  cls = new Uint8Array(this.cap);

  push(at: number, arrival: number, service: number, cls: number): void {
    if (this.size === this.cap) this.grow();
    const j = (this.head + this.size++) % this.cap;
    this.at[j] = at; this.arrival[j] = arrival; this.service[j] = service; this.cls[j] = cls;
  }

  /** Re-entry time of the first, Infinity when empty. */
  peek(): number {
    return this.size > 0 ? this.at[this.head] : Infinity;
  }

  /** Index of the first (read its fields), then drop it. */
  shift(): number {
    const j = this.head;
    this.head = (this.head + 1) % this.cap;
    this.size--;
    if (this.seen > 0) this.seen--;
    return j;
  }

  /** Entries that have re-entered by `t` (t never decreases between calls: amortised O(1)). */
  countBy(t: number): number {
    while (this.seen < this.size && this.at[(this.head + this.seen) % this.cap] <= t) this.seen++;
    return this.seen;
  }

  /** Double the ring (it is full: push grows it only then), its entries from the head on. */
  private grow(): void {
    const h = this.head;
    Object.assign(this, { cap: this.cap * 2, head: 0, at: growRing(this.at, h), arrival: growRing(this.arrival, h), service: growRing(this.service, h), cls: growRing(this.cls, h) });
  }
}

export class SlurmModel {
  readonly engine = new Engine();
  readonly metrics: RunMetrics;
  readonly cluster: Cluster;
  readonly endArrivalsNs: number;
  /** Counts arrivals (metrics) and submissions (FIFO length). */
  private readonly front: ArrivalSource;
  /** Serves the FIFO in order. */
  private readonly head: ArrivalSource;
  private readonly retries: RetryFifo[] = [];
  /** Submissions lost k times wait in resends[k - 1] (created as needed). */
  private readonly resends: RetryFifo[] = [];
  /** The launch messages, and the submissions as the front counts them; the head's copy walks the same loss draws. */
  readonly net: BaselineNet;
  private readonly submitNet: BaselineNet;
  get submitCounters(): NetCounters { return this.submitNet.counters; }
  private readonly headNet: BaselineNet;
  private readonly crashNs: number;
  private readonly recent: Float64Array;
  private recentHead = 0;
  private recentSize = 0;
  /** Arrivals that have reached the FIFO, and those the controller has taken from it. */
  private submitted = 0;
  private taken = 0;

  private readonly hopNs: number;
  private readonly fixedUs: number;
  private readonly deadlineNs: number;

  // the decision in progress
  private busy = false;
  private wakeAt = Infinity;
  private dArrival = 0;
  private dService = 0;
  private dCls = 0;
  private dAttempt = 0;

  // running tasks: node, atoms, mask (in core memory), arrival, service
  /** Running tasks: node (at), atoms (m), class, arrival, service, and the atoms' mask. */
  private readonly run: TaskTable;

  inFlight = 0;
  running = 0;
  decisions = 0;
  maxQueue = 0;
  crashed = false;

  constructor(core: Core, private readonly c: Config) {
    this.net = new BaselineNet(c, "slurm");
    this.submitNet = new BaselineNet(c, "slurm:submit");
    this.headNet = new BaselineNet(c, "slurm:submit");
    this.hopNs = this.net.hopNs;
    this.crashNs = c.baselines.crashDecisionMs > 0 ? c.baselines.crashDecisionMs * NS_PER_MS : Infinity;
    this.endArrivalsNs = Math.round(c.sim.durationS * 1e9);
    this.metrics = new RunMetrics(Math.round(c.baselines.deadlineMs * NS_PER_MS));
    this.cluster = new Cluster(core, c, Int32Array.of(0, c.cluster.nodes));
    this.front = makeArrivals(c, this.endArrivalsNs, false);
    this.head = makeArrivals(c, this.endArrivalsNs, true);
    for (let r = 0; r < c.baselines.slurm.retries; r++) this.retries.push(new RetryFifo());
    this.recent = new Float64Array(1 << 20);
    const s = c.baselines.slurm;
    this.fixedUs = s.baseMatchUs + s.scanPerNodeUs * c.cluster.nodes;
    this.deadlineNs = s.unboundedQueue ? Infinity : Math.round(c.baselines.deadlineMs * NS_PER_MS);
    this.run = new TaskTable(core, this.cluster.rowBytes);
  }

  start(): void {
    this.wake(this.nextEntry());
    this.engine.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
  }

  runUntil(until: number): void {
    this.engine.run(until, this.dispatch);
  }

  finish(): void {
    this.advance(this.engine.now - 1);
  }

  /** Each task's atoms, from placement (running, or the launch on its way to the node) until completion (the invariant checker's view, invariants.ts). */
  holdings(visit: (node: number, atoms: number, running: boolean) => void): void {
    const R = this.run;
    for (let s = 0; s < R.arrival.length; s++) if (R.slots.isLive(s)) visit(R.at[s], R.m[s], R.started[s] === 1);
  }

  /** Nothing more can happen: arrivals over, FIFO and retries empty, nothing deciding or running. */
  quiescent(): boolean {
    return this.head.peek() === Infinity && !this.busy && this.running === 0 && this.retries.every((f) => f.size === 0) && this.resends.every((f) => f.size === 0);
  }

  private readonly dispatch = (kind: number, s: number): void => {
    switch (kind) {
      case K_WAKE: if (this.engine.now === this.wakeAt) { this.wakeAt = Infinity; this.decide(); } break;
      case K_DECIDED: this.decided(); break;
      case K_START: this.started(s); break;
      case K_COMPLETE: this.completed(s); break;
      case K_SERIES: this.series(); break;
      default: throw new Error(`slurm: unknown event kind ${kind}`);
    }
  };

  /** Credit arrivals up to t (metrics) and submissions up to t (FIFO length). */
  private advance(t: number): void {
    const f = this.front;
    while (f.peek() <= t) {
      f.next();
      this.metrics.onArrive(f.cls);
      this.inFlight++;
      if (this.submitNet.losses() > 0) continue; // reaches the FIFO later, through a resend FIFO
      if (this.recentSize === this.recent.length) throw new Error("slurm: more than 2^20 arrivals within one hop");
      this.recent[(this.recentHead + this.recentSize++) % this.recent.length] = f.time;
    }
    while (this.recentSize > 0 && this.recent[this.recentHead] + this.hopNs <= t) {
      this.recentHead = (this.recentHead + 1) % this.recent.length;
      this.recentSize--;
      this.submitted++;
    }
  }

  /** Entry time of the FIFO's next task (main sequence or a retry), Infinity when none is left. */
  private nextEntry(): number {
    let t = this.head.peek() + this.hopNs;
    for (const f of this.retries) t = Math.min(t, f.peek());
    for (const f of this.resends) t = Math.min(t, f.peek());
    return t;
  }

  private wake(at: number): void {
    if (at === Infinity || at >= this.wakeAt) return;
    this.wakeAt = at;
    this.engine.post(Math.max(0, at - this.engine.now), K_WAKE, 0);
  }

  /** The controller is free: take the FIFO's first task (if one has arrived) and start its decision. */
  private decide(): void {
    const now = this.engine.now;
    this.advance(now);
    for (;;) {
      // the earliest entry among the main sequence, the retry rounds and the resends
      let src: RetryFifo | null = null, attempt = 0, best = this.head.peek() + this.hopNs;
      for (let r = 0; r < this.retries.length; r++) {
        const t = this.retries[r].peek();
        if (t < best) { best = t; src = this.retries[r]; attempt = r + 1; }
      }
      for (const f of this.resends) {
        const t = f.peek();
        if (t < best) { best = t; src = f; attempt = 0; }
      }
      if (best > now) {
        this.busy = false;
        this.wake(best);
        return;
      }
      // the FIFO's length as this decision starts (the task it takes included)
      let q = this.submitted - this.taken;
      for (const f of this.retries) q += f.countBy(now);
      for (const f of this.resends) q += f.countBy(now);
      if (src === null) {
        this.head.next();
        const k = this.headNet.losses();
        if (k > 0) {
          // a lost submission: it enters the FIFO k recovery timeouts later
          while (this.resends.length < k) this.resends.push(new RetryFifo());
          this.resends[k - 1].push(this.head.time + this.hopNs + k * this.submitNet.recoveryNs, this.head.time, this.head.service, this.head.cls);
          continue;
        }
        if (q > this.maxQueue) this.maxQueue = q;
        this.taken++;
        this.dArrival = this.head.time; this.dService = this.head.service; this.dCls = this.head.cls; this.dAttempt = 0;
      } else {
        if (q > this.maxQueue) this.maxQueue = q;
        const j = src.shift();
        this.dArrival = src.arrival[j]; this.dService = src.service[j]; this.dCls = src.cls[j]; this.dAttempt = attempt;
      }
      if (this.crashed) {
        this.fail(CAUSE_CRASHED);
        continue;
      }
      if (now - this.dArrival >= this.deadlineNs) {
        this.fail(CAUSE_DEADLINE);
        continue;
      }
      const s = this.c.baselines.slurm;
      const ns = (this.fixedUs + s.lockUs * convoyFactor(q, s)) * 1000;
      this.metrics.controlWorkNs += ns;
      if (ns > this.crashNs) {
        this.crashed = true; // the control plane has crashed: this and every later task fails
        this.fail(CAUSE_CRASHED);
        continue;
      }
      this.busy = true;
      this.decisions++;
      this.engine.post(Math.max(1, Math.round(ns)), K_DECIDED, 0);
      return;
    }
  }

  /** The decision ends: first fit over every node's bitmap, in node order. */
  private decided(): void {
    const cl = this.cluster, w = this.c.workload;
    const m = this.dCls === CLASS_F ? w.fAtoms : w.lAtoms, contiguous = this.dCls !== CLASS_F;
    const R = this.run, slot = R.alloc();
    const mask = R.mask(slot);
    let placed = false;
    for (let n = 0; n < cl.nodes; n++) {
      if (cl.free[n] >= m && cl.take(n, m, contiguous, mask)) {
        R.at[slot] = n; R.m[slot] = m; R.cls[slot] = this.dCls;
        R.arrival[slot] = this.dArrival; R.service[slot] = this.dService;
        this.engine.post(this.net.toNode(), K_START, slot);
        placed = true;
        break;
      }
    }
    if (!placed) {
      this.run.release(slot);
      if (this.dAttempt < this.retries.length) {
        const backoff = Math.round(this.c.baselines.slurm.backoffMs * NS_PER_MS * 2 ** this.dAttempt);
        this.retries[this.dAttempt].push(this.engine.now + backoff, this.dArrival, this.dService, this.dCls);
      } else this.fail(CAUSE_RETRIES);
    }
    this.decide();
  }

  private fail(cause: number): void {
    this.inFlight--;
    this.metrics.onFail(cause);
  }

  private started(slot: number): void {
    this.inFlight--;
    this.running++;
    const R = this.run;
    R.started[slot] = 1;
    this.metrics.onStart(this.engine.now - R.arrival[slot], R.cls[slot]);
    this.engine.post(R.service[slot], K_COMPLETE, slot);
  }

  private completed(slot: number): void {
    const R = this.run;
    this.cluster.release(R.at[slot], R.m[slot], R.mask(slot));
    this.running--;
    this.metrics.completed++;
    this.run.release(slot);
  }

  private series(): void {
    this.advance(this.engine.now - 1);
    this.metrics.sample(this.engine.now, this.inFlight, this.running);
    this.engine.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
  }

}

/** The lock-convoy factor for q queued tasks (baselines.slurm.convoy). */
export function convoyFactor(q: number, s: Config["baselines"]["slurm"]): number {
  if (s.convoy === "linear") return 1 + q / s.convoyQueue;
  const over = Math.max(0, q - s.convoyQueue) / s.convoyQueue;
  return 1 + Math.min(s.convoyCap, over * over);
}

export interface SlurmResult extends CommonResult, NetCounters {
  scheduler: "slurm";
  decisions: number;
  meanDecisionUs: number | null;
  maxQueue: number;
  crashed: boolean;
}

/** The result record of a finished Slurm-like run: the common fields and the model's own counters (the run itself: src/run/baselines.ts). */
export function slurmResult(model: SlurmModel, common: CommonResult): SlurmResult {
  return {
    ...common,
    scheduler: "slurm",
    decisions: model.decisions,
    meanDecisionUs: model.decisions > 0 ? model.metrics.controlWorkNs / model.decisions / 1000 : null,
    maxQueue: model.maxQueue,
    crashed: model.crashed,
    ...model.net.counters,
    // the submissions, as the front walks them (the head's copy draws the same)
    messagesSent: model.net.counters.messagesSent + model.submitCounters.messagesSent,
    messagesLost: model.net.counters.messagesLost + model.submitCounters.messagesLost,
    messagesRecovered: model.net.counters.messagesRecovered + model.submitCounters.messagesRecovered,
  };
}
