// What the Ray- and Flux-like models share: the workload's arrivals, one task
// table, the cluster, the heartbeat and series ticks, and the task lifecycle
// (arrive -> routed by the model -> start on a node -> complete, or fail). A
// model supplies where an arriving task goes (admit), its own events
// (handle, kinds from K_OWN up) and what a heartbeat refreshes. Every control
// message crosses the shared network (net: hop, jitter, loss and resend);
// queues may be bounded (admitTo); the crash rule (decisionCost) fails every queued
// and later task once one decision would take longer than
// baselines.crashDecisionMs.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { Engine } from "../sim/engine.js";
import { NS_PER_MS } from "../sim/time.js";
import { makeArrivals } from "../workload/sources.js";
import type { ArrivalSource } from "../workload/source.js";
import { CAUSE_CRASHED, CAUSE_DEADLINE, CAUSE_QUEUE_FULL, RunMetrics } from "../metrics/run-metrics.js";
import { Cluster } from "../cluster/cluster.js";
import { BaselineNet } from "./network.js";
import { TaskTable, type Queues } from "./tasks.js";

const K_ARRIVE = 1, K_COMPLETE = 2, K_HEARTBEAT = 3, K_SERIES = 4;
/** The first event kind a model may use for its own events. */
export const K_OWN = 10;

export abstract class TaskModel {
  readonly engine = new Engine();
  readonly metrics: RunMetrics;
  readonly cluster: Cluster;
  readonly endArrivalsNs: number;
  protected readonly arrivals: ArrivalSource;
  protected readonly T: TaskTable;
  readonly net: BaselineNet;
  protected readonly deadlineNs: number;
  protected readonly heartbeatNs: number;
  private readonly crashNs: number;
  /** fullQueue=retry: the wait before a refused task is sent again; -1 with fullQueue=fail. */
  private readonly fullRetryNs: number;
  inFlight = 0;
  /** Tasks refused by a full queue and sent again (fullQueue=retry). */
  fullQueueRetries = 0;
  running = 0;
  /** The crash rule has fired: every queued and later task fails. */
  crashed = false;

  constructor(core: Core, protected readonly c: Config, scheduler: string) {
    this.net = new BaselineNet(c, scheduler);
    this.crashNs = c.baselines.crashDecisionMs > 0 ? c.baselines.crashDecisionMs * NS_PER_MS : Infinity;
    this.fullRetryNs = c.baselines.fullQueue === "retry" ? Math.round(c.baselines.fullQueueRetryMs * NS_PER_MS) : -1;
    this.deadlineNs = Math.round(c.baselines.deadlineMs * NS_PER_MS);
    this.heartbeatNs = Math.max(1, Math.round(c.baselines.heartbeatMs * NS_PER_MS));
    this.endArrivalsNs = Math.round(c.sim.durationS * 1e9);
    this.metrics = new RunMetrics(this.deadlineNs);
    this.cluster = new Cluster(core, c, Int32Array.of(0, c.cluster.nodes));
    this.arrivals = makeArrivals(c, this.endArrivalsNs, true, true);
    this.T = new TaskTable(core, this.cluster.rowBytes);
  }

  /** Send the newly arrived task t on its way (its fields are set). */
  protected abstract admit(t: number): void;
  /** The model's own events (kind >= K_OWN). */
  protected abstract handle(kind: number, subject: number): void;
  /** Refresh whatever views the heartbeat refreshes. */
  protected abstract heartbeat(): void;
  /** Every queue of the model (emptied when the control plane crashes). */
  protected abstract queues(): Queues[];

  start(): void {
    const t = this.arrivals.peek();
    if (t < Infinity) this.engine.post(t, K_ARRIVE, 0);
    this.engine.post(this.heartbeatNs, K_HEARTBEAT, 0);
    this.engine.post(this.seriesNs(), K_SERIES, 0);
  }

  runUntil(until: number): void {
    this.engine.run(until, this.dispatch);
  }

  quiescent(): boolean {
    return this.arrivals.peek() === Infinity && this.inFlight === 0 && this.running === 0;
  }

  /** End of the run: tasks still queued past their deadline count as failed (deadline), as the client has given up. */
  finish(): void {
    const late = this.T.countWaiting(this.engine.now - this.deadlineNs);
    for (let i = 0; i < late; i++) {
      this.inFlight--;
      this.metrics.onFail(CAUSE_DEADLINE);
    }
  }

  private readonly dispatch = (kind: number, s: number): void => {
    switch (kind) {
      case K_ARRIVE: this.arrive(); break;
      case K_COMPLETE: this.complete(s); break;
      case K_HEARTBEAT: this.heartbeat(); this.engine.post(this.heartbeatNs, K_HEARTBEAT, 0); break;
      case K_SERIES: this.metrics.sample(this.engine.now, this.inFlight, this.running); this.engine.post(this.seriesNs(), K_SERIES, 0); break;
      default: this.handle(kind, s);
    }
  };

  private seriesNs(): number {
    return Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS));
  }

  private arrive(): void {
    const a = this.arrivals, T = this.T;
    a.next();
    const t = T.alloc();
    T.arrival[t] = a.time; T.service[t] = a.service; T.cls[t] = a.cls; T.m[t] = a.atoms; T.hops[t] = 0; T.at[t] = a.entry; T.entry[t] = a.entry;
    this.inFlight++;
    this.metrics.onArrive(a.cls);
    if (this.crashed) this.fail(t, CAUSE_CRASHED);
    else this.admit(t);
    const next = a.peek();
    if (next < Infinity) this.engine.post(next - this.engine.now, K_ARRIVE, 0);
  }

  /** True (and the task failed) when task t is past its deadline, or the control plane has crashed. */
  protected expired(t: number): boolean {
    if (this.crashed) {
      this.fail(t, CAUSE_CRASHED);
      return true;
    }
    if (this.engine.now - this.T.arrival[t] < this.deadlineNs) return false;
    this.fail(t, CAUSE_DEADLINE);
    return true;
  }

  /**
   * Queue task t at server s of q and return true, unless the control plane
   * has crashed (t fails) or that queue already holds `cap` tasks (cap 0:
   * unbounded): then t fails at once (fullQueue=fail, queueFull), or its
   * sender sends it again as event `kind` after fullQueueRetryMs and the
   * message's delay (fullQueue=retry; past its deadline it fails).
   */
  protected admitTo(q: Queues, s: number, t: number, cap: number, kind: number): boolean {
    if (this.crashed) {
      this.fail(t, CAUSE_CRASHED);
      return false;
    }
    if (cap > 0 && q.len[s] >= cap) {
      if (this.fullRetryNs < 0) this.fail(t, CAUSE_QUEUE_FULL);
      else if (!this.expired(t)) {
        this.fullQueueRetries++;
        this.engine.post(this.fullRetryNs + this.net.delay(), kind, t);
      }
      return false;
    }
    q.push(s, t, this.T.next);
    return true;
  }

  /**
   * A decision of `ns` is about to start: account it as control work, and
   * apply the crash rule (one decision longer than crashDecisionMs: every
   * queued task fails now, and every later one on arrival).
   */
  protected decisionCost(ns: number): number {
    this.metrics.controlWorkNs += ns;
    if (ns > this.crashNs && !this.crashed) {
      this.crashed = true;
      for (const q of this.queues()) {
        for (let s = 0; s < q.len.length; s++) {
          while (q.len[s] > 0) this.fail(q.shift(s, this.T.next), CAUSE_CRASHED);
          q.busy[s] = 0;
        }
      }
    }
    return Math.max(1, Math.round(ns));
  }

  protected fail(t: number, cause: number): void {
    this.inFlight--;
    this.metrics.onFail(cause);
    this.T.release(t);
  }

  /** Task t, holding its atoms on node n, starts now and completes after its service time. */
  protected startTask(t: number, n: number): void {
    this.T.at[t] = n;
    this.T.running[t] = 1;
    this.T.started[t] = 1;
    this.inFlight--;
    this.running++;
    this.metrics.onStart(this.engine.now - this.T.arrival[t], this.T.cls[t]);
    this.engine.post(this.T.service[t], K_COMPLETE, t);
  }

  /**
   * Every task-table row that holds atoms, from placement until completion
   * (started: running on its node; not: on its way there, or, in the
   * Sparrow-like model, atoms a node holds while it asks for a task): the
   * invariant checker's view (invariants.ts).
   */
  holdings(visit: (node: number, atoms: number, running: boolean) => void): void {
    const T = this.T;
    for (let t = 0; t < T.arrival.length; t++) {
      if (T.slots.isLive(t) && T.running[t] === 1) visit(T.at[t], T.m[t], T.started[t] === 1);
    }
  }

  private complete(t: number): void {
    const T = this.T;
    this.cluster.release(T.at[t], T.m[t], T.mask(t));
    this.running--;
    this.metrics.completed++;
    T.release(t);
  }
}
