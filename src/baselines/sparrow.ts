// The Sparrow-like baseline (Ousterhout, Wendell, Zaharia, Stoica, "Sparrow:
// Distributed, Low Latency Scheduling", SOSP 2013): batch sampling with late
// binding, on the network every scheduler shares (network.ts).
//
//   arrival: the task joins its class's open job at the scheduler (jobs:
//   jobSize consecutive tasks of one class and demand; a job is sent once
//   full, or jobWindowMs after its first task: the workload's tasks are
//   single, Sparrow schedules jobs)
//   job of m tasks sent: batch sampling, ceil(probeRatio * m) distinct nodes
//   drawn uniformly (all nodes when that is more), one reservation message
//   to each (a hop, loss and resend)
//   node: reservations wait in one FIFO per node; when the head one's demand
//   fits the node's real bitmap, the node holds those atoms and asks the
//   scheduler for a task (late binding: one message); the next reservation
//   is looked at only once the head one has been asked for (FIFO, so a large
//   demand at the head blocks the smaller ones behind it)
//   scheduler, on a request: the job's next task not past its deadline goes
//   to the node (one message with the OS jitter, as every message that
//   carries a task to its chosen node), or, when the job has none left, a
//   cancel (one message)
//   node, on a task: the held atoms become the task's, it starts; on a
//   cancel: the held atoms are freed; either way the node looks at its next
//   reservation, as it does when a task completes.
//
// The node idles its held atoms for the round trip of the request: the cost
// of late binding that Sparrow's paper names; a job's surplus reservations
// ((probeRatio - 1) * m of them) each cost a round trip and a cancel. A task
// not started baselines.deadlineMs after its arrival fails (deadline) when
// the scheduler would bind it or the node would start it; the wait to fill a
// job counts, as it is part of arrival-to-start. Not modelled: Sparrow's
// proactive cancellation of surplus reservations, its per-job placement
// constraints, and any decision cost (its schedulers are stateless and the
// paper gives no per-decision figure), so control work is 0.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { growTyped, SlotStore } from "../sim/slot-store.js";
import { NS_PER_MS } from "../sim/time.js";
import { CLASS_F } from "../workload/bimodal.js";
import type { CommonResult } from "../metrics/result.js";
import type { NetCounters } from "./network.js";
import { Queues } from "./tasks.js";
import { K_OWN, TaskModel } from "./task-model.js";

const K_RESERVE = K_OWN, K_REQUEST = K_OWN + 1, K_LAUNCH = K_OWN + 2, K_CANCEL = K_OWN + 3, K_DONE = K_OWN + 4, K_WINDOW = K_OWN + 5;

/** Jobs at the scheduler: their tasks not yet bound (a list through the task table's next[]), demand, reservations outstanding. */
class Jobs {
  readonly slots = new SlotStore(1024);
  head = new Int32Array(1024);
  tail = new Int32Array(1024);
  /** Tasks not yet bound to a node. */
  left = new Int32Array(1024);
  /** Reservations sent and not yet answered. */
  out = new Int32Array(1024);
  m = new Int32Array(1024);
  cls = new Uint8Array(1024);
  openedAt = new Float64Array(1024);

  alloc(): number {
    const j = this.slots.alloc();
    if (j >= this.head.length) {
      const n = this.slots.capacity;
      this.head = growTyped(this.head, n); this.tail = growTyped(this.tail, n); this.left = growTyped(this.left, n);
      this.out = growTyped(this.out, n); this.m = growTyped(this.m, n); this.cls = growTyped(this.cls, n); this.openedAt = growTyped(this.openedAt, n);
    }
    this.head[j] = this.tail[j] = -1;
    this.left[j] = this.out[j] = 0;
    return j;
  }
}

/** Reservations: the job, the node, the atoms held for it while the node asks (row and count: the job may be gone when a cancel comes), the task bound to it. */
class Reservations {
  readonly slots = new SlotStore(4096);
  job = new Int32Array(4096);
  node = new Int32Array(4096);
  hold = new Int32Array(4096);
  held = new Int32Array(4096);
  task = new Int32Array(4096);
  next = new Int32Array(4096);

  alloc(job: number, node: number): number {
    const r = this.slots.alloc();
    if (r >= this.job.length) {
      const n = this.slots.capacity;
      this.job = growTyped(this.job, n); this.node = growTyped(this.node, n); this.hold = growTyped(this.hold, n); this.held = growTyped(this.held, n);
      this.task = growTyped(this.task, n); this.next = growTyped(this.next, n);
    }
    this.job[r] = job; this.node[r] = node; this.hold[r] = -1; this.task[r] = -1;
    return r;
  }
}

export class SparrowModel extends TaskModel {
  private readonly p: Config["baselines"]["sparrow"];
  private readonly rng: Rng;
  private readonly windowNs: number;
  private readonly jobs = new Jobs();
  private readonly res = new Reservations();
  /** Per node: the FIFO of reservations waiting there. */
  private readonly queue: Queues;
  /** The job each class is filling (-1: none), and whether its window timer is pending. */
  private readonly open = Int32Array.of(-1, -1);
  private readonly timer = Uint8Array.of(0, 0);
  private readonly picked = new Set<number>();

  jobsSent = 0;
  reservationsSent = 0;
  requests = 0;
  cancels = 0;
  maxNodeQueue = 0;

  constructor(core: Core, c: Config) {
    super(core, c, "sparrow");
    this.p = c.baselines.sparrow;
    this.rng = streamRng(c.sim.seed, "sparrow");
    this.windowNs = Math.round(this.p.jobWindowMs * NS_PER_MS);
    this.queue = new Queues(c.cluster.nodes);
  }

  protected handle(kind: number, s: number): void {
    switch (kind) {
      case K_RESERVE: this.reserve(s); break;
      case K_REQUEST: this.request(s); break;
      case K_LAUNCH: this.launch(s); break;
      case K_CANCEL: this.cancel(s); break;
      case K_DONE: this.done(s); break;
      case K_WINDOW: this.window(s); break;
      default: throw new Error(`sparrow: unknown event kind ${kind}`);
    }
  }

  /** No heartbeat: Sparrow's schedulers keep no view of the nodes; the probes are the view. */
  protected heartbeat(): void {}

  /** Its queues hold reservations, not tasks, and it has no decision cost for the crash rule to see. */
  protected queues(): Queues[] {
    return [];
  }

  /** A new task joins its class's open job (a new one if none, or if its demand differs); a full job is sent at once. */
  protected admit(t: number): void {
    const T = this.T, J = this.jobs, cls = T.cls[t] === CLASS_F ? 0 : 1;
    let j = this.open[cls];
    if (j >= 0 && J.m[j] !== T.m[t]) {
      this.send(j);
      j = -1;
    }
    if (j < 0) {
      j = J.alloc();
      J.m[j] = T.m[t];
      J.cls[j] = T.cls[t];
      J.openedAt[j] = this.engine.now;
      this.open[cls] = j;
    }
    T.next[t] = -1;
    if (J.tail[j] < 0) J.head[j] = t;
    else T.next[J.tail[j]] = t;
    J.tail[j] = t;
    J.left[j]++;
    if (J.left[j] >= this.p.jobSize || this.windowNs === 0) this.send(j);
    else if (this.timer[cls] === 0) {
      this.timer[cls] = 1;
      this.engine.post(this.windowNs, K_WINDOW, cls);
    }
  }

  /** A class's window timer: send its open job if it has waited jobWindowMs, else wait for the rest of that. */
  private window(cls: number): void {
    this.timer[cls] = 0;
    const j = this.open[cls];
    if (j < 0) return;
    const due = this.jobs.openedAt[j] + this.windowNs;
    if (due <= this.engine.now) this.send(j);
    else {
      this.timer[cls] = 1;
      this.engine.post(due - this.engine.now, K_WINDOW, cls);
    }
  }

  /** Batch sampling: one reservation to each of ceil(probeRatio * m) distinct nodes drawn uniformly. */
  private send(j: number): void {
    const J = this.jobs, N = this.cluster.nodes;
    if (this.open[J.cls[j] === CLASS_F ? 0 : 1] === j) this.open[J.cls[j] === CLASS_F ? 0 : 1] = -1;
    this.jobsSent++;
    const k = Math.min(N, Math.ceil(this.p.probeRatio * J.left[j]));
    const picked = this.picked;
    picked.clear();
    if (k === N) for (let n = 0; n < N; n++) picked.add(n);
    // rejection: k is at most N, and a draw repeats with probability < k/N
    else while (picked.size < k) picked.add(this.rng.int(N));
    for (const n of picked) {
      const r = this.res.alloc(j, n);
      J.out[j]++;
      this.reservationsSent++;
      this.engine.post(this.net.delay(), K_RESERVE, r);
    }
  }

  /** A reservation reaches its node: it queues there. */
  private reserve(r: number): void {
    const n = this.res.node[r], q = this.queue;
    q.push(n, r, this.res.next);
    if (q.len[n] > this.maxNodeQueue) this.maxNodeQueue = q.len[n];
    this.serve(n);
  }

  /** Late binding: while the head reservation's demand fits, hold its atoms and ask its scheduler for a task. */
  private serve(n: number): void {
    const q = this.queue, R = this.res, T = this.T, J = this.jobs;
    while (q.len[n] > 0) {
      const r = q.head[n], j = R.job[r];
      // the held atoms live in a task-table row of their own, marked running (not started) so the end-of-run count of
      // waiting tasks passes it by, with its node and atoms, so the invariant checker counts them where they are held
      const h = T.alloc();
      T.running[h] = 1;
      T.at[h] = n;
      T.m[h] = J.m[j];
      if (!this.cluster.take(n, J.m[j], J.cls[j] !== CLASS_F, T.mask(h))) {
        T.release(h);
        return;
      }
      q.shift(n, R.next);
      R.hold[r] = h;
      R.held[r] = J.m[j];
      this.requests++;
      this.engine.post(this.net.delay(), K_REQUEST, r);
    }
  }

  /** A node's request reaches the scheduler: bind the job's next live task to it, or cancel. */
  private request(r: number): void {
    const R = this.res, J = this.jobs, T = this.T, j = R.job[r];
    J.out[j]--;
    let t = -1;
    while (J.left[j] > 0 && t < 0) {
      const x = J.head[j];
      J.head[j] = T.next[x];
      if (J.head[j] < 0) J.tail[j] = -1;
      J.left[j]--;
      if (!this.expired(x)) t = x;
    }
    if (J.out[j] === 0) {
      // every reservation answered: a job with tasks left (fewer nodes than tasks, or none sampled yet) samples again for them
      if (J.left[j] > 0) this.send(j);
      else J.slots.release(j);
    }
    if (t < 0) {
      this.cancels++;
      this.engine.post(this.net.delay(), K_CANCEL, r);
      return;
    }
    R.task[r] = t;
    T.at[t] = R.node[r];
    this.engine.post(this.net.toNode(), K_LAUNCH, r);
  }

  /** The bound task reaches its node: the held atoms become its own and it starts (unless past its deadline). */
  private launch(r: number): void {
    const R = this.res, T = this.T, n = R.node[r], t = R.task[r], h = R.hold[r];
    this.cluster.release(n, T.m[t], T.mask(h));
    T.release(h);
    R.slots.release(r);
    if (!this.expired(t)) {
      // the atoms were free a moment ago and nothing else ran here since
      if (!this.cluster.take(n, T.m[t], T.cls[t] !== CLASS_F, T.mask(t))) throw new Error(`sparrow: node ${n} lost the atoms it held`);
      T.running[t] = 1;
      T.started[t] = 1;
      this.inFlight--;
      this.running++;
      this.metrics.onStart(this.engine.now - T.arrival[t], T.cls[t]);
      this.engine.post(T.service[t], K_DONE, t);
    }
    this.serve(n);
  }

  /** A cancel reaches the node: free what it held and look at the next reservation. */
  private cancel(r: number): void {
    const R = this.res, T = this.T, n = R.node[r], h = R.hold[r];
    this.cluster.release(n, R.held[r], T.mask(h));
    T.release(h);
    R.slots.release(r);
    this.serve(n);
  }

  /** A task completes: its atoms are free, and its node looks at its queue again. */
  private done(t: number): void {
    const T = this.T, n = T.at[t];
    this.cluster.release(n, T.m[t], T.mask(t));
    this.running--;
    this.metrics.completed++;
    T.release(t);
    this.serve(n);
  }
}

export interface SparrowResult extends CommonResult, NetCounters {
  scheduler: "sparrow";
  jobsSent: number;
  reservationsSent: number;
  requests: number;
  cancels: number;
  maxNodeQueue: number;
}

/** The result record of a finished Sparrow-like run: the common fields and the model's own counters. */
export function sparrowResult(model: SparrowModel, common: CommonResult): SparrowResult {
  return {
    ...common,
    scheduler: "sparrow",
    jobsSent: model.jobsSent,
    reservationsSent: model.reservationsSent,
    requests: model.requests,
    cancels: model.cancels,
    maxNodeQueue: model.maxNodeQueue,
    ...model.net.counters,
  };
}
