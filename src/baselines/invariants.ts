// The baselines' invariant checker (`--check-invariants`), run after every
// 10 ms slice of simulated time and once at the end. The baselines share one
// physical model (the cluster's bitmap rows in core memory, a free count per
// node beside them) and one task lifecycle, so one checker serves them all:
//
// - every node's free count equals the number of free atoms in its bitmap
//   row (one batched popcount over all rows);
// - every node's used atoms (atoms - free) equal what rigid jobs hold plus
//   what the model says its tasks hold there (running tasks, tasks placed
//   and on their way to the node, and atoms a node holds for a task not yet
//   bound, as the Sparrow-like late binding does);
// - the running tasks the model lists are as many as it counts;
// - every arrival is started, failed or still in flight, and every start
//   has completed or is still running.
//
// A violation stops the run with an InvariantError naming the first broken
// rule, the node, and the simulated time.
import type { Core } from "../core/wasm.js";
import type { Cluster } from "../cluster/cluster.js";
import type { RunMetrics } from "../metrics/run-metrics.js";
import { InvariantError } from "../sim/invariant-error.js";

/** What a baseline model shows its checker. */
export interface CheckedModel {
  readonly cluster: Cluster;
  readonly metrics: RunMetrics;
  readonly inFlight: number;
  readonly running: number;
  /**
   * Every holding of atoms by the model's tasks: visit(node, atoms, running)
   * once per task that holds atoms (running true once it has started on its
   * node; false while placed and on its way there) and once per set of
   * atoms a node holds for a task not yet bound (running false).
   */
  holdings(visit: (node: number, atoms: number, running: boolean) => void): void;
}

export class BaselineInvariants {
  /** Checks passed so far. */
  checks = 0;
  private readonly used: Int32Array;
  private readonly counts: number;
  private readonly i32: () => Int32Array;

  constructor(private readonly core: Core, cluster: Cluster) {
    this.used = new Int32Array(cluster.nodes);
    this.counts = core.arena.alloc(cluster.nodes * 4, 4);
    this.i32 = () => core.arena.i32;
  }

  /** Check every rule now (at simulated time `nowNs`); throws an InvariantError on the first broken one. */
  check(m: CheckedModel, nowNs: number): void {
    const cl = m.cluster, at = `at ${(nowNs / 1e6).toFixed(3)} ms`;
    const fail = (what: string): never => {
      throw new InvariantError(`${what} ${at}`);
    };
    const st = this.core.exports.bmFreeCount(cl.bitmaps, cl.nodes, cl.atoms, this.counts);
    if (st < 0) fail(`bmFreeCount over the cluster's rows failed with status ${st}`);
    const counts = this.i32(), base = this.counts >> 2;
    for (let n = 0; n < cl.nodes; n++) {
      if (counts[base + n] !== cl.free[n]) fail(`node ${n}: free count ${cl.free[n]}, but its bitmap row has ${counts[base + n]} free atoms`);
    }
    const used = this.used;
    used.set(cl.rigid);
    let running = 0;
    m.holdings((n, atoms, isRunning) => {
      if (n < 0 || n >= cl.nodes) fail(`a task holds ${atoms} atoms on node ${n}, which does not exist`);
      used[n] += atoms;
      if (isRunning) running++;
    });
    for (let n = 0; n < cl.nodes; n++) {
      if (used[n] !== cl.atoms - cl.free[n]) fail(`node ${n}: ${cl.atoms - cl.free[n]} atoms in use, but rigid jobs and tasks hold ${used[n]}`);
    }
    if (running !== m.running) fail(`${m.running} tasks counted running, but ${running} hold atoms as running tasks`);
    const met = m.metrics;
    if (met.arrived !== met.started + met.failed + m.inFlight) fail(`${met.arrived} arrivals, but ${met.started} started + ${met.failed} failed + ${m.inFlight} in flight`);
    if (met.started !== met.completed + m.running) fail(`${met.started} starts, but ${met.completed} completed + ${m.running} running`);
    this.checks++;
  }
}
