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
import type { Config } from "../model/params.js";
import type { Core } from "../core/wasm.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { CLASS_F } from "../workload/bimodal.js";
import { CAUSE_SPILLBACKS } from "../metrics/run-metrics.js";
import { runModel, type CommonResult } from "../metrics/result.js";
import type { RunOptions } from "../model/run-options.js";
import { Queues } from "./tasks.js";
import { K_OWN, TaskModel } from "./task-model.js";

const K_AT_RAYLET = K_OWN, K_RAYLET_DONE = K_OWN + 1, K_AT_GCS = K_OWN + 2, K_GCS_DONE = K_OWN + 3;

export class RayModel extends TaskModel {
  private readonly rng: Rng;
  private readonly localNs: number;
  private readonly raylets: Queues;
  private readonly shards: Queues;
  /** Free atoms per node as the raylets see them (last heartbeat), and as the GCS does (plus its own bookings). */
  private readonly rayletView: Int32Array;
  private readonly gcsView: Int32Array;

  localStarts = 0;
  redirects = 0;
  gcsDecisions = 0;
  maxShardQueue = 0;

  constructor(core: Core, c: Config) {
    super(core, c);
    this.localNs = Math.max(1, Math.round(c.baselines.ray.localUs * 1000));
    this.rng = streamRng(c.sim.seed, "ray");
    this.raylets = new Queues(c.cluster.nodes);
    this.shards = new Queues(c.baselines.ray.shards);
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

  /** A new task goes to a uniformly random node's raylet. */
  protected admit(t: number): void {
    this.T.at[t] = this.rng.int(this.cluster.nodes);
    this.engine.post(this.hopNs, K_AT_RAYLET, t);
  }

  protected heartbeat(): void {
    this.rayletView.set(this.cluster.free);
    this.gcsView.set(this.cluster.free);
  }

  /** Task t reaches the raylet of node T.at[t]: it queues for the node's commit lock. */
  private atRaylet(t: number): void {
    const n = this.T.at[t], q = this.raylets;
    q.push(n, t, this.T.next);
    if (q.busy[n] === 0) {
      q.busy[n] = 1;
      this.engine.post(this.localNs, K_RAYLET_DONE, n);
    }
  }

  /** The raylet of node n finishes a decision for its first queued task. */
  private rayletDone(n: number): void {
    const q = this.raylets, t = q.shift(n, this.T.next);
    if (q.len[n] > 0) this.engine.post(this.localNs, K_RAYLET_DONE, n);
    else q.busy[n] = 0;
    if (this.expired(t)) return;
    const m = this.T.m[t], contiguous = this.T.cls[t] !== CLASS_F;
    if (this.cluster.take(n, m, contiguous, this.T.mask(t))) {
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
    if (this.T.hops[t]++ >= this.c.baselines.ray.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    this.T.at[t] = node;
    this.engine.post(this.hopNs, K_AT_RAYLET, t);
  }

  /** Spill back to the GCS: one hop to a shard (the hot shard takes shardSkew on top of its share). */
  private spill(t: number): void {
    if (this.T.hops[t]++ >= this.c.baselines.ray.maxSpillbacks) return this.fail(t, CAUSE_SPILLBACKS);
    this.redirects++;
    const r = this.c.baselines.ray;
    this.T.at[t] = this.rng.float() < r.shardSkew ? 0 : this.rng.int(r.shards);
    this.engine.post(this.hopNs, K_AT_GCS, t);
  }

  private atGcs(t: number): void {
    const s = this.T.at[t], q = this.shards;
    q.push(s, t, this.T.next);
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
    const q = this.shards, t = q.shift(s, this.T.next);
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
    view[best] -= this.T.m[t];
    this.redirect(t, best);
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
  const { model, common } = runModel("ray", config, opts, (core) => new RayModel(core, config));
  return {
    ...common,
    scheduler: "ray",
    localStarts: model.localStarts,
    redirects: model.redirects,
    gcsDecisions: model.gcsDecisions,
    maxShardQueue: model.maxShardQueue,
  };
}
