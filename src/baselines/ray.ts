// The Ray-like baseline (paper §Baseline modeling, model notes): local-first
// scheduling at each node's raylet, global spillback through a sharded GCS
// whose view is only as fresh as the heartbeat.
//
//   arrival --hop--> a uniformly random node's raylet (FIFO, per-node commit
//   lock: one localUs decision at a time)
//     the task fits on this node's real bitmap: atoms taken, it starts here
//     else, among localCandidates - 1 other sampled nodes, the first whose
//       heartbeat view shows m free atoms: redirect there (one hop)
//     else: spill back to the GCS (one hop)
//   GCS shard (FIFO, one decision at a time; the hot shard takes shardSkew of
//   the spillbacks on top of its uniform share):
//     decision = (gcsUs + gcsPerNodeUs * N) * min(uslCap, 1 + uslAlpha*n + uslBeta*n^2),
//     n = shard queue / uslQueue (the Universal-Scalability-Law penalty);
//     it samples localCandidates nodes, picks the one with the most free atoms
//     in its view, books the atoms in that view, and redirects the task there
//   every redirect (raylet to raylet, to the GCS, GCS to raylet) is one hop and
//   one spillback; after maxSpillbacks a task gives up (spillbacksExhausted);
//   a task not started baselines.deadlineMs after arrival fails (deadline).
//
// Views: the raylets and the GCS see every node's free-atom count as of the
// last heartbeat (baselines.heartbeatMs), a scalar, like Ray's resource
// tables: an L-task can be sent to a node whose atoms are not contiguous.
// The GCS also subtracts what it assigns until the next heartbeat.
import { performance } from "node:perf_hooks";
import type { Config } from "../model/params.js";
import { loadCore, type Core } from "../core/wasm.js";
import { Engine } from "../sim/engine.js";
import { NS_PER_MS } from "../sim/time.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { growTyped, SlotStore } from "../sim/slot-store.js";
import { Arrivals } from "../workload/arrivals.js";
import { CLASS_F } from "../workload/bimodal.js";
import { CAUSE_DEADLINE, CAUSE_SPILLBACKS, RunMetrics } from "../metrics/run-metrics.js";
import { commonResult, type CommonResult } from "../metrics/result.js";
import { Cluster } from "../model/cluster.js";
import { Views } from "../core/views.js";
import { runSlices, type RunOptions } from "../model/run-options.js";

const K_ARRIVE = 1, K_AT_RAYLET = 2, K_RAYLET_DONE = 3, K_AT_GCS = 4, K_GCS_DONE = 5, K_COMPLETE = 6, K_HEARTBEAT = 7, K_SERIES = 8;

/** FIFO queues of task slots, one per server, linked through a shared next[] column. */
class Queues {
  readonly head: Int32Array;
  readonly tail: Int32Array;
  readonly len: Int32Array;
  readonly busy: Uint8Array;
  constructor(n: number) {
    this.head = new Int32Array(n).fill(-1);
    this.tail = new Int32Array(n).fill(-1);
    this.len = new Int32Array(n);
    this.busy = new Uint8Array(n);
  }
  push(q: number, t: number, next: Int32Array): void {
    next[t] = -1;
    if (this.tail[q] < 0) this.head[q] = t;
    else next[this.tail[q]] = t;
    this.tail[q] = t;
    this.len[q]++;
  }
  shift(q: number, next: Int32Array): number {
    const t = this.head[q];
    this.head[q] = next[t];
    if (this.head[q] < 0) this.tail[q] = -1;
    this.len[q]--;
    return t;
  }
}

export class RayModel {
  readonly engine = new Engine();
  readonly metrics: RunMetrics;
  readonly cluster: Cluster;
  readonly endArrivalsNs: number;
  private readonly arrivals: Arrivals;
  private readonly rng: Rng;
  private readonly views: Views;
  private readonly hopNs: number;
  private readonly localNs: number;
  private readonly deadlineNs: number;
  private readonly heartbeatNs: number;
  private readonly raylets: Queues;
  private readonly shards: Queues;
  /** Free atoms per node as the raylets see them (last heartbeat), and as the GCS does (plus its own bookings). */
  private readonly rayletView: Int32Array;
  private readonly gcsView: Int32Array;

  private readonly tasks = new SlotStore(1 << 14);
  private tArrival = new Float64Array(1 << 14);
  private tService = new Float64Array(1 << 14);
  private tCls = new Uint8Array(1 << 14);
  private tM = new Int32Array(1 << 14);
  private tHops = new Int32Array(1 << 14);
  private tNext = new Int32Array(1 << 14);
  private tNode = new Int32Array(1 << 14);
  private maskBase: number;
  private readonly rowBytes: number;

  inFlight = 0;
  running = 0;
  localStarts = 0;
  redirects = 0;
  gcsDecisions = 0;
  maxShardQueue = 0;

  constructor(private readonly core: Core, private readonly c: Config) {
    this.hopNs = Math.round(c.network.hopMs * NS_PER_MS);
    this.localNs = Math.max(1, Math.round(c.baselines.ray.localUs * 1000));
    this.deadlineNs = Math.round(c.baselines.deadlineMs * NS_PER_MS);
    this.heartbeatNs = Math.max(1, Math.round(c.baselines.heartbeatMs * NS_PER_MS));
    this.endArrivalsNs = Math.round(c.sim.durationS * 1e9);
    this.metrics = new RunMetrics(this.deadlineNs);
    this.cluster = new Cluster(core, c, Int32Array.of(0, c.cluster.nodes));
    this.rowBytes = this.cluster.rowBytes;
    this.arrivals = new Arrivals(c, this.endArrivalsNs, true);
    this.rng = streamRng(c.sim.seed, "ray");
    this.raylets = new Queues(c.cluster.nodes);
    this.shards = new Queues(c.baselines.ray.shards);
    this.rayletView = Int32Array.from(this.cluster.free);
    this.gcsView = Int32Array.from(this.cluster.free);
    this.maskBase = core.arena.alloc(this.tasks.capacity * this.rowBytes, 16);
    this.views = new Views(core.exports.memory);
  }

  start(): void {
    const t = this.arrivals.peek();
    if (t < Infinity) this.engine.post(t, K_ARRIVE, 0);
    this.engine.post(this.heartbeatNs, K_HEARTBEAT, 0);
    this.engine.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
  }

  runUntil(until: number): void {
    this.engine.run(until, this.dispatch);
  }

  quiescent(): boolean {
    return this.arrivals.peek() === Infinity && this.inFlight === 0 && this.running === 0;
  }

  private readonly dispatch = (kind: number, s: number): void => {
    switch (kind) {
      case K_ARRIVE: this.arrive(); break;
      case K_AT_RAYLET: this.atRaylet(s); break;
      case K_RAYLET_DONE: this.rayletDone(s); break;
      case K_AT_GCS: this.atGcs(s); break;
      case K_GCS_DONE: this.gcsDone(s); break;
      case K_COMPLETE: this.complete(s); break;
      case K_HEARTBEAT: this.heartbeat(); break;
      case K_SERIES: this.series(); break;
      default: throw new Error(`ray: unknown event kind ${kind}`);
    }
  };

  private arrive(): void {
    const a = this.arrivals, now = this.engine.now;
    a.next();
    const t = this.tasks.alloc();
    if (t >= this.tArrival.length) this.grow();
    this.tArrival[t] = a.time; this.tService[t] = a.service; this.tCls[t] = a.cls; this.tM[t] = a.atoms; this.tHops[t] = 0;
    this.tNode[t] = this.rng.int(this.cluster.nodes);
    this.inFlight++;
    this.metrics.onArrive(a.cls);
    this.engine.post(this.hopNs, K_AT_RAYLET, t);
    const next = a.peek();
    if (next < Infinity) this.engine.post(next - now, K_ARRIVE, 0);
  }

  /** Task t reaches the raylet of tNode[t]: it queues for the node's commit lock. */
  private atRaylet(t: number): void {
    const n = this.tNode[t], q = this.raylets;
    q.push(n, t, this.tNext);
    if (q.busy[n] === 0) {
      q.busy[n] = 1;
      this.engine.post(this.localNs, K_RAYLET_DONE, n);
    }
  }

  /** The raylet of node n finishes a decision for its first queued task. */
  private rayletDone(n: number): void {
    const q = this.raylets, t = q.shift(n, this.tNext);
    if (q.len[n] > 0) this.engine.post(this.localNs, K_RAYLET_DONE, n);
    else q.busy[n] = 0;
    if (this.expired(t)) return;
    const m = this.tM[t], contiguous = this.tCls[t] !== CLASS_F;
    if (this.cluster.take(n, m, contiguous, this.mask(t))) {
      this.localStarts++;
      this.startTask(t, n);
      return;
    }
    // local-first failed: other sampled nodes that look free in the heartbeat view
    const N = this.cluster.nodes, k = this.c.baselines.ray.localCandidates;
    for (let i = 1; i < k && N > 1; i++) {
      const j = this.rng.int(N);
      if (j !== n && this.rayletView[j] >= m) return this.redirect(t, j);
    }
    this.spill(t);
  }

  private redirect(t: number, node: number): void {
    if (this.tHops[t]++ >= this.c.baselines.ray.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    this.tNode[t] = node;
    this.engine.post(this.hopNs, K_AT_RAYLET, t);
  }

  /** Spill back to the GCS: one hop to a shard (the hot shard takes shardSkew on top of its share). */
  private spill(t: number): void {
    if (this.tHops[t]++ >= this.c.baselines.ray.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    const r = this.c.baselines.ray;
    this.tNode[t] = this.rng.float() < r.shardSkew ? 0 : this.rng.int(r.shards);
    this.engine.post(this.hopNs, K_AT_GCS, t);
  }

  private atGcs(t: number): void {
    const s = this.tNode[t], q = this.shards;
    q.push(s, t, this.tNext);
    if (q.len[s] > this.maxShardQueue) this.maxShardQueue = q.len[s];
    if (q.busy[s] === 0) {
      q.busy[s] = 1;
      this.engine.post(this.gcsDecisionNs(s), K_GCS_DONE, s);
    }
  }

  /** (gcsUs + beta N) times the USL penalty of the shard's queue. */
  private gcsDecisionNs(s: number): number {
    const r = this.c.baselines.ray;
    const n = this.shards.len[s] / r.uslQueue;
    const us = (r.gcsUs + r.gcsPerNodeUs * this.cluster.nodes) * Math.min(r.uslCap, 1 + r.uslAlpha * n + r.uslBeta * n * n);
    this.metrics.controlWorkNs += us * 1000;
    return Math.max(1, Math.round(us * 1000));
  }

  private gcsDone(s: number): void {
    const q = this.shards, t = q.shift(s, this.tNext);
    this.gcsDecisions++;
    if (q.len[s] > 0) this.engine.post(this.gcsDecisionNs(s), K_GCS_DONE, s);
    else q.busy[s] = 0;
    if (this.expired(t)) return;
    const N = this.cluster.nodes, k = this.c.baselines.ray.localCandidates, view = this.gcsView;
    let best = this.rng.int(N);
    for (let i = 1; i < k; i++) {
      const j = this.rng.int(N);
      if (view[j] > view[best]) best = j;
    }
    view[best] -= this.tM[t];
    this.redirect(t, best);
  }

  private expired(t: number): boolean {
    if (this.engine.now - this.tArrival[t] < this.deadlineNs) return false;
    this.fail(t, CAUSE_DEADLINE);
    return true;
  }

  private fail(t: number, cause: number): void {
    this.inFlight--;
    this.metrics.onFail(cause);
    this.tasks.release(t);
  }

  private startTask(t: number, n: number): void {
    this.tNode[t] = n;
    this.inFlight--;
    this.running++;
    this.metrics.onStart(this.engine.now - this.tArrival[t], this.tCls[t]);
    this.engine.post(this.tService[t], K_COMPLETE, t);
  }

  private complete(t: number): void {
    this.cluster.release(this.tNode[t], this.tM[t], this.mask(t));
    this.running--;
    this.metrics.completed++;
    this.tasks.release(t);
  }

  private heartbeat(): void {
    this.rayletView.set(this.cluster.free);
    this.gcsView.set(this.cluster.free);
    this.engine.post(this.heartbeatNs, K_HEARTBEAT, 0);
  }

  private series(): void {
    this.metrics.sample(this.engine.now, this.inFlight, this.running);
    this.engine.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
  }

  private mask(t: number): number {
    return this.maskBase + t * this.rowBytes;
  }

  private grow(): void {
    const n = this.tasks.capacity, old = this.tArrival.length;
    this.tArrival = growTyped(this.tArrival, n);
    this.tService = growTyped(this.tService, n);
    this.tCls = growTyped(this.tCls, n);
    this.tM = growTyped(this.tM, n);
    this.tHops = growTyped(this.tHops, n);
    this.tNext = growTyped(this.tNext, n);
    this.tNode = growTyped(this.tNode, n);
    const fresh = this.core.arena.alloc(n * this.rowBytes, 16);
    this.views.sync();
    this.views.u8.copyWithin(fresh, this.maskBase, this.maskBase + old * this.rowBytes);
    this.maskBase = fresh;
  }
}

export interface RayResult extends CommonResult {
  scheduler: "ray";
  localStarts: number;
  redirects: number;
  gcsDecisions: number;
  maxShardQueue: number;
}

/** One Ray-like run (see runLaminar for the shape of a run). */
export function runRay(config: Config, opts: RunOptions = {}): RayResult {
  const wall0 = performance.now();
  const core = opts.core ?? loadCore("auto");
  const model = new RayModel(core, config);
  model.start();
  runSlices(model, config.sim.drainS, opts);
  const common = commonResult({
    scheduler: "ray", config, metrics: model.metrics, inFlight: model.inFlight, running: model.running,
    simulatedNs: model.engine.now, events: model.engine.processed, coreBuild: core.flavor,
    wallSeconds: (performance.now() - wall0) / 1000,
  });
  return {
    ...common,
    scheduler: "ray",
    localStarts: model.localStarts,
    redirects: model.redirects,
    gcsDecisions: model.gcsDecisions,
    maxShardQueue: model.maxShardQueue,
  };
}
