// The Ray-like baseline (paper §Baseline modeling, model notes): local-first
// scheduling at each node's raylet, global spillback through a sharded GCS
// whose view is only as fresh as the heartbeat.
//
//   arrival --msg--> the raylet of the task's entry node (workload entry
//   skew; FIFO of at most rayletQueueCap tasks, a task at a full raylet
//   fails at once; per-node commit lock: one localUs decision at a time)
//     the task fits on this node's real bitmap: atoms taken, it starts here
//     else [spillback=gcs] spill back to the GCS (one message)
//          [spillback=peers] first redirect to one of localCandidates - 1
//          sampled nodes whose heartbeat view shows m free atoms, the GCS
//          only when none does
//   GCS shard (FIFO of at most shardQueueCap tasks, one decision at a time;
//   shardRouting=skew: the hot shard 0 takes shardSkew of the spillbacks on
//   top of its uniform share; =entry: shard = entry node mod shards):
//     decision = (gcsUs + gcsPerNodeUs * N) * min(uslCap, 1 + uslAlpha*n + uslBeta*n^2),
//     n = shard queue / uslQueue (the Universal-Scalability-Law penalty);
//     it samples gcsCandidates nodes, picks the one with the most free atoms
//     in its view [gcsView=heartbeat: as of the last heartbeat; =booked: less
//     what it assigned since], and redirects the task there
//   every redirect (raylet to raylet, to the GCS, GCS to raylet) is one
//   message and one spillback; after maxSpillbacks a task gives up
//   (spillbacksExhausted); a task not started baselines.deadlineMs after
//   arrival fails (deadline).
//
// Views: every heartbeat each node reports its free-atom count (a scalar,
// like Ray's resource tables: an L-task can be sent to a node whose atoms are
// not contiguous); a lost report leaves that node's row stale. Control work:
// every raylet and GCS decision's time.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { CLASS_F } from "../workload/bimodal.js";
import { CAUSE_SPILLBACKS } from "../metrics/run-metrics.js";
import type { CommonResult } from "../metrics/result.js";
import type { NetCounters } from "./network.js";
import { Queues } from "./tasks.js";
import { K_OWN, TaskModel } from "./task-model.js";

const K_AT_RAYLET = K_OWN, K_RAYLET_DONE = K_OWN + 1, K_AT_GCS = K_OWN + 2, K_GCS_DONE = K_OWN + 3;

export class RayModel extends TaskModel {
  private readonly rng: Rng;
  private readonly localNs: number;
  private readonly raylets: Queues;
  private readonly shards: Queues;
  /** Free atoms per node as the heartbeat reported them; the GCS's copy (differs with gcsView=booked). */
  private readonly rayletView: Int32Array;
  private readonly gcsView: Int32Array;
  private readonly r: Config["baselines"]["ray"];

  /** Tasks started on their entry node's raylet, with no spillback. */
  localStarts = 0;
  redirects = 0;
  rayletDecisions = 0;
  gcsDecisions = 0;
  maxShardQueue = 0;
  maxRayletQueue = 0;

  constructor(core: Core, c: Config) {
    super(core, c, "ray");
    this.r = c.baselines.ray;
    this.localNs = this.r.localUs * 1000;
    this.rng = streamRng(c.sim.seed, "ray");
    this.raylets = new Queues(c.cluster.nodes);
    this.shards = new Queues(this.r.shards);
    this.rayletView = Int32Array.from(this.cluster.free);
    this.gcsView = Int32Array.from(this.cluster.free);
  }

  protected handle(kind: number, s: number): void {
    switch (kind) {
      case K_AT_RAYLET: this.atRaylet(s); break;
      case K_RAYLET_DONE: this.rayletDone(s); break;
      case K_AT_GCS: this.atGcs(s); break;
      case K_GCS_DONE: this.gcsDone(s); break;
      default: throw new Error(`ray: unknown event kind ${kind}`);
    }
  }

  protected queues(): Queues[] {
    return [this.raylets, this.shards];
  }

  /** A new task goes to its entry node's raylet (T.at[t], set on arrival). */
  protected admit(t: number): void {
    this.engine.post(this.net.delay(), K_AT_RAYLET, t);
  }

  /** Each node's report refreshes its row of the views, unless the report is lost. */
  protected heartbeat(): void {
    const free = this.cluster.free;
    if (!this.net.lossy) {
      this.rayletView.set(free);
      this.gcsView.set(free);
      return;
    }
    for (let n = 0; n < free.length; n++) {
      if (this.net.reportLost()) continue;
      this.rayletView[n] = free[n];
      this.gcsView[n] = free[n];
    }
  }

  /** Task t reaches the raylet of node T.at[t]: it queues for the node's commit lock (or fails at a full raylet). */
  private atRaylet(t: number): void {
    const n = this.T.at[t], q = this.raylets;
    if (!this.admitTo(q, n, t, this.r.rayletQueueCap, K_AT_RAYLET)) return;
    if (q.len[n] > this.maxRayletQueue) this.maxRayletQueue = q.len[n];
    if (q.busy[n] === 0) {
      q.busy[n] = 1;
      this.engine.post(this.decisionCost(this.localNs), K_RAYLET_DONE, n);
    }
  }

  /** The raylet of node n finishes a decision for its first queued task. */
  private rayletDone(n: number): void {
    if (this.crashed) return;
    const q = this.raylets, t = q.shift(n, this.T.next);
    this.rayletDecisions++;
    if (q.len[n] > 0) this.engine.post(this.decisionCost(this.localNs), K_RAYLET_DONE, n);
    else q.busy[n] = 0;
    if (this.expired(t)) return;
    const m = this.T.m[t], contiguous = this.T.cls[t] !== CLASS_F;
    if (this.cluster.take(n, m, contiguous, this.T.mask(t))) {
      if (this.T.hops[t] === 0) this.localStarts++;
      this.startTask(t, n);
      return;
    }
    if (this.r.spillback === "peers") {
      // other sampled nodes that look free in the heartbeat view
      const N = this.cluster.nodes, k = this.r.localCandidates;
      for (let i = 1; i < k && N > 1; i++) {
        const j = this.rng.int(N);
        if (j !== n && this.rayletView[j] >= m) return this.redirect(t, j);
      }
    }
    this.spill(t);
  }

  /** To the raylet of the node chosen for task t (by the GCS, or a peer): one message, with the OS jitter. */
  private redirect(t: number, node: number): void {
    if (this.T.hops[t]++ >= this.r.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    this.T.at[t] = node;
    this.engine.post(this.net.toNode(), K_AT_RAYLET, t);
  }

  /** Spill back to a GCS shard (shardRouting), one message. */
  private spill(t: number): void {
    if (this.T.hops[t]++ >= this.r.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    const r = this.r;
    this.T.at[t] = r.shardRouting === "entry" ? this.T.entry[t] % r.shards : this.rng.float() < r.shardSkew ? 0 : this.rng.int(r.shards);
    this.engine.post(this.net.delay(), K_AT_GCS, t);
  }

  private atGcs(t: number): void {
    const s = this.T.at[t], q = this.shards;
    if (!this.admitTo(q, s, t, this.r.shardQueueCap, K_AT_GCS)) return;
    if (q.len[s] > this.maxShardQueue) this.maxShardQueue = q.len[s];
    if (q.busy[s] === 0) {
      q.busy[s] = 1;
      this.engine.post(this.gcsDecisionNs(s), K_GCS_DONE, s);
    }
  }

  /** (gcsUs + beta N) times the USL penalty of the shard's queue. */
  private gcsDecisionNs(s: number): number {
    const r = this.r;
    const n = this.shards.len[s] / r.uslQueue;
    const us = (r.gcsUs + r.gcsPerNodeUs * this.cluster.nodes) * Math.min(r.uslCap, 1 + r.uslAlpha * n + r.uslBeta * n * n);
    return this.decisionCost(us * 1000);
  }

  private gcsDone(s: number): void {
    if (this.crashed) return;
    const q = this.shards, t = q.shift(s, this.T.next);
    this.gcsDecisions++;
    if (q.len[s] > 0) this.engine.post(this.gcsDecisionNs(s), K_GCS_DONE, s);
    else q.busy[s] = 0;
    if (this.expired(t)) return;
    const N = this.cluster.nodes, k = this.r.gcsCandidates, view = this.gcsView;
    let best = this.rng.int(N);
    for (let i = 1; i < k; i++) {
      const j = this.rng.int(N);
      if (view[j] > view[best]) best = j;
    }
    if (this.r.gcsView === "booked") view[best] -= this.T.m[t];
    this.redirect(t, best);
  }
}

export interface RayResult extends CommonResult, NetCounters {
  scheduler: "ray";
  localStarts: number;
  redirects: number;
  rayletDecisions: number;
  gcsDecisions: number;
  maxRayletQueue: number;
  maxShardQueue: number;
  fullQueueRetries: number;
  crashed: boolean;
}

/** The result record of a finished Ray-like run: the common fields and the model's own counters (the run itself: src/run/baselines.ts). */
export function rayResult(model: RayModel, common: CommonResult): RayResult {
  return {
    ...common,
    scheduler: "ray",
    localStarts: model.localStarts,
    redirects: model.redirects,
    rayletDecisions: model.rayletDecisions,
    gcsDecisions: model.gcsDecisions,
    maxRayletQueue: model.maxRayletQueue,
    maxShardQueue: model.maxShardQueue,
    fullQueueRetries: model.fullQueueRetries,
    crashed: model.crashed,
    ...model.net.counters,
  };
}
