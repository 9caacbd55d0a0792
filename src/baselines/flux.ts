// The Flux-like baseline (paper §Baseline modeling, model notes): a broker
// tree whose brokers decide from isolated, heartbeat-refreshed views, with
// congestion at the root and rollback on leaf collisions. The choices the
// paper leaves open are parameters (docs/baselines.md); defaults in brackets.
//
// Tree: leaf brokers own `leafNodes` consecutive nodes each; every level
// above groups `fanout` brokers under one parent, up to a single root.
//
//   arrival --msg--> the root broker's FIFO [entry=root], or the FIFO of the
//     leaf broker over the task's entry node [entry=leaf]; a broker holds at
//     most brokerQueueCap tasks: one sent to a full broker fails at once
//   broker decision, one at a time, takes (dispatchUs + scanUs * units) * congestion
//     (units: children examined, or nodes for a leaf; congestion at the root
//      exp(min(max(0, q - rootOnset) / rootQueue, rootCap)) with q its queue
//      [rootLoad=queue] or every task not yet started [inFlight]; elsewhere
//      1 + brokerSlope * min(q / brokerQueue, brokerCap), q the broker's queue);
//     the root may instead decide every task at once after its decision time
//     [rootService=serial | pipelined]
//   an inner broker sends the task (one message) to a child whose view shows a
//     node with m free atoms and m free in all, picked by childPick [mostFree];
//     with booking=total it also books m against that child's total [none]
//   a leaf first-fits the task on its own nodes' real bitmaps: atoms taken,
//     the task starts one message later
//   no fit (a leaf collision, or no child fits in an inner broker's view): the
//     task rolls back to the parent [rollbackTo=parent] or to the root, one
//     message plus backoffMs per level climbed, and the parent marks that child full
//     until the next heartbeat; the root retries itself after the backoff;
//     after maxRetries rollbacks the task fails (retriesExhausted); a task not
//     started baselines.deadlineMs after arrival fails (deadline) at its next
//     decision.
// Views (per child: the most free atoms on one node of its subtree, and the
// free atoms in all) are refreshed from the real state every heartbeat, each
// broker's report to its parent lost with network.loss (its row stays stale).
// Every message crosses the shared network (network.ts). Control work: every
// broker decision's time.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { NS_PER_MS } from "../sim/time.js";
import { CLASS_F } from "../workload/bimodal.js";
import { CAUSE_RETRIES } from "../metrics/run-metrics.js";
import type { CommonResult } from "../metrics/result.js";
import { streamRng, type Rng } from "../sim/rng.js";
import type { NetCounters } from "./network.js";
import { Queues } from "./tasks.js";
import { K_OWN, TaskModel } from "./task-model.js";
import { brokerCongestion, pickChild, rootCongestion } from "./flux-policy.js";

const K_AT_BROKER = K_OWN, K_BROKER_DONE = K_OWN + 1, K_START = K_OWN + 2, K_ROOT_DONE = K_OWN + 3;

/** The broker tree: brokers 0..leaves-1 are leaves, the last one is the root. */
export class BrokerTree {
  readonly brokers: number;
  readonly leaves: number;
  readonly root: number;
  readonly parent: Int32Array;
  /** Children of broker b: brokers (or, for a leaf, nodes) first[b] .. last[b]-1. */
  readonly first: Int32Array;
  readonly last: Int32Array;
  /** Levels from broker b up to the root (0 for the root). */
  readonly depth: Int32Array;

  constructor(nodes: number, readonly leafNodes: number, fanout: number) {
    const firsts: number[] = [], lasts: number[] = [], parents: number[] = [];
    let level: number[] = [];
    for (let n = 0; n < nodes; n += leafNodes) {
      level.push(firsts.length);
      firsts.push(n);
      lasts.push(Math.min(nodes, n + leafNodes));
      parents.push(-1);
    }
    this.leaves = level.length;
    while (level.length > 1) {
      const up: number[] = [];
      for (let i = 0; i < level.length; i += fanout) {
        const b = firsts.length;
        up.push(b);
        firsts.push(level[i]);
        lasts.push(level[Math.min(level.length, i + fanout) - 1] + 1);
        parents.push(-1);
        for (let j = i; j < Math.min(level.length, i + fanout); j++) parents[level[j]] = b;
      }
      level = up;
    }
    this.brokers = firsts.length;
    this.root = level[0];
    this.first = Int32Array.from(firsts);
    this.last = Int32Array.from(lasts);
    this.parent = Int32Array.from(parents);
    this.depth = new Int32Array(this.brokers);
    for (let b = this.brokers - 1; b >= 0; b--) if (this.parent[b] >= 0) this.depth[b] = this.depth[this.parent[b]] + 1;
  }

  isLeaf(b: number): boolean {
    return b < this.leaves;
  }

  /** The leaf broker whose node range holds node n. */
  leafOf(n: number): number {
    return Math.floor(n / this.leafNodes);
  }
}

export class FluxModel extends TaskModel {
  readonly tree: BrokerTree;
  private readonly brokerQueues: Queues;
  /** Per broker, as its parent sees it: the most free atoms on one node below it, and the free atoms in all. */
  private readonly viewMax: Float64Array;
  private readonly viewSum: Float64Array;
  /** Per inner broker: the child its round-robin turn starts at. */
  private readonly cursor: Int32Array;
  private readonly backoffNs: number;
  private readonly rng: Rng;
  private readonly draw = (k: number): number => this.rng.int(k);
  /** Tasks in the root's decision pipeline (rootService=pipelined). */
  private rootPipeline = 0;

  decisions = 0;
  rollbacks = 0;
  maxRootQueue = 0;

  constructor(core: Core, c: Config) {
    super(core, c, "flux");
    const f = c.baselines.flux;
    this.backoffNs = Math.round(f.backoffMs * NS_PER_MS);
    this.tree = new BrokerTree(c.cluster.nodes, f.leafNodes, f.fanout);
    this.brokerQueues = new Queues(this.tree.brokers);
    this.viewMax = new Float64Array(this.tree.brokers);
    this.viewSum = new Float64Array(this.tree.brokers);
    this.cursor = new Int32Array(this.tree.brokers);
    this.rng = streamRng(c.sim.seed, "flux");
    this.heartbeat();
  }

  protected handle(kind: number, s: number): void {
    switch (kind) {
      case K_AT_BROKER: this.atBroker(s); break;
      case K_BROKER_DONE: this.brokerDone(s); break;
      case K_ROOT_DONE: this.rootPipeline--; this.decided(s, this.tree.root); break;
      case K_START: this.startTask(s, this.T.at[s]); break;
      default: throw new Error(`flux: unknown event kind ${kind}`);
    }
  }

  protected queues(): Queues[] {
    return [this.brokerQueues];
  }

  /** A new task goes to the root broker, or to the leaf over its entry node (entry). */
  protected admit(t: number): void {
    this.T.at[t] = this.c.baselines.flux.entry === "leaf" ? this.tree.leafOf(this.T.entry[t]) : this.tree.root;
    this.engine.post(this.net.delay(), K_AT_BROKER, t);
  }

  private atBroker(t: number): void {
    const b = this.T.at[t], q = this.brokerQueues, root = this.tree.root;
    if (this.crashed) return void this.expired(t);
    if (b === root && this.c.baselines.flux.rootService === "pipelined") {
      this.rootPipeline++;
      if (this.rootPipeline > this.maxRootQueue) this.maxRootQueue = this.rootPipeline;
      this.engine.post(this.decisionNs(b, this.rootPipeline), K_ROOT_DONE, t);
      return;
    }
    if (!this.admitTo(q, b, t, this.c.baselines.flux.brokerQueueCap, K_AT_BROKER)) return;
    if (b === root && q.len[b] > this.maxRootQueue) this.maxRootQueue = q.len[b];
    if (q.busy[b] === 0) {
      q.busy[b] = 1;
      this.engine.post(this.decisionNs(b, q.len[b]), K_BROKER_DONE, b);
    }
  }

  /** (dispatchUs + scanUs * units) * congestion, for broker b holding q tasks. */
  private decisionNs(b: number, q: number): number {
    const f = this.c.baselines.flux, tree = this.tree;
    const units = tree.last[b] - tree.first[b];
    // the root's load (rootLoad): every task in flight in the tree, all of whose dispatches and retries pass through it, or its own queue
    const congestion = b === tree.root
      ? rootCongestion(f.rootLoad === "inFlight" ? this.inFlight : q, f.rootQueue, f.rootCap, f.rootOnset)
      : brokerCongestion(q, f.brokerQueue, f.brokerSlope, f.brokerCap);
    return this.decisionCost((f.dispatchUs + f.scanUs * units) * congestion * 1000);
  }

  /** Broker b's decision ends: the head of its FIFO is decided, and the next decision starts. */
  private brokerDone(b: number): void {
    if (this.crashed) return;
    const q = this.brokerQueues;
    const t = q.shift(b, this.T.next);
    if (q.len[b] > 0) this.engine.post(this.decisionNs(b, q.len[b]), K_BROKER_DONE, b);
    else q.busy[b] = 0;
    this.decided(t, b);
  }

  /** Broker b has decided task t: a leaf places it on its nodes, an inner broker sends it to a child, or it rolls back. */
  private decided(t: number, b: number): void {
    const T = this.T, tree = this.tree, cl = this.cluster, f = this.c.baselines.flux;
    this.decisions++;
    if (this.expired(t)) return;
    const m = T.m[t];
    if (tree.isLeaf(b)) {
      const contiguous = T.cls[t] !== CLASS_F;
      for (let n = tree.first[b]; n < tree.last[b]; n++) {
        if (cl.free[n] >= m && cl.take(n, m, contiguous, T.mask(t))) {
          T.at[t] = n;
          T.running[t] = 1; // placed: no longer waiting, whatever the end of the run finds
          this.engine.post(this.net.toNode(), K_START, t);
          return;
        }
      }
      return this.rollback(t, b);
    }
    const c = pickChild(f.childPick, tree.first[b], tree.last[b], m, this.viewMax, this.viewSum, this.cursor[b], this.draw);
    if (c < 0) return this.rollback(t, b);
    this.cursor[b] = c + 1;
    if (f.booking === "total") this.viewSum[c] -= m; // the broker's own booking; which node takes it, only the leaf knows
    T.at[t] = c;
    this.engine.post(this.net.delay(), K_AT_BROKER, t);
  }

  /**
   * No fit below broker b: the task goes back up (rollbackTo) after one hop and
   * the backoff per level climbed; the parent marks b full until the next
   * heartbeat; the root retries itself after the backoff.
   */
  private rollback(t: number, b: number): void {
    const T = this.T, tree = this.tree, f = this.c.baselines.flux, up = tree.parent[b];
    if (T.hops[t]++ >= f.maxRetries) return this.fail(t, CAUSE_RETRIES);
    this.rollbacks++;
    if (up >= 0) this.viewMax[b] = 0; // the parent learns this child is full, until the next heartbeat
    const to = up < 0 ? b : f.rollbackTo === "root" ? tree.root : up;
    const levels = Math.max(1, tree.depth[b] - tree.depth[to]);
    T.at[t] = to;
    this.engine.post(this.net.delays(levels) + levels * this.backoffNs, K_AT_BROKER, t);
  }

  /** Every broker's view of its children, from the real state (leaves first, then upwards); a lost report leaves the broker's row as it was. */
  protected heartbeat(): void {
    const tree = this.tree, free = this.cluster.free, lossy = this.net.lossy;
    for (let b = 0; b < tree.brokers; b++) {
      if (lossy && b !== tree.root && this.net.reportLost()) continue;
      let mx = 0, sum = 0;
      if (tree.isLeaf(b)) {
        for (let n = tree.first[b]; n < tree.last[b]; n++) { if (free[n] > mx) mx = free[n]; sum += free[n]; }
      } else {
        for (let c = tree.first[b]; c < tree.last[b]; c++) { if (this.viewMax[c] > mx) mx = this.viewMax[c]; sum += this.viewSum[c]; }
      }
      this.viewMax[b] = mx;
      this.viewSum[b] = sum;
    }
  }
}

export interface FluxResult extends CommonResult, NetCounters {
  scheduler: "flux";
  brokers: number;
  decisions: number;
  rollbacks: number;
  maxRootQueue: number;
  fullQueueRetries: number;
  crashed: boolean;
}

/** The result record of a finished Flux-like run: the common fields and the model's own counters (the run itself: src/run/baselines.ts). */
export function fluxResult(model: FluxModel, common: CommonResult): FluxResult {
  return {
    ...common,
    scheduler: "flux",
    brokers: model.tree.brokers,
    decisions: model.decisions,
    rollbacks: model.rollbacks,
    maxRootQueue: model.maxRootQueue,
    fullQueueRetries: model.fullQueueRetries,
    crashed: model.crashed,
    ...model.net.counters,
  };
}
