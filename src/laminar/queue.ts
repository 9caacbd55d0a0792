// A node's queue (paper §Node Arbitration): a DA sent to node n joins its
// queue list at once, with its arrival time; it counts in the node's Heat
// from then on, and the first arrival after a settled window opens the next
// one (the arbitration itself is arbitration.ts). Atoms a winner holds go
// back to the node's bitmap here too, whoever releases them.
import type { ZoneReports } from "./reports.js";
import { D_QUEUED } from "./store.js";
import { K_ARBITRATE, type LaminarState } from "./state.js";

/** The queues of this instance's nodes, and the release of the atoms their winners hold. */
export class NodeQueues {
  /** Time of each node's pending arbitration (its window's close; Infinity: none). */
  readonly windowAt: Float64Array;

  constructor(private readonly s: LaminarState, private readonly reports: ZoneReports) {
    this.windowAt = new Float64Array(s.cluster.nodes).fill(Infinity);
  }

  /**
   * The DA is sent to node n's queue, where it arrives at `arriveAt` (>= now):
   * it joins the node's list now, counts in Heat from `arriveAt`, and the
   * first arrival after a settled window opens the next one.
   */
  enqueue(d: number, n: number, arriveAt: number): void {
    const D = this.s.das;
    D.state[d] = D_QUEUED;
    D.node[d] = n;
    D.arrive[d] = arriveAt;
    D.next[d] = -1;
    if (this.s.qTail[n] < 0) this.s.qHead[n] = d;
    else D.next[this.s.qTail[n]] = d;
    this.s.qTail[n] = d;
    // the first arrival opens the window: a DA that arrives before the one that opened it opens an earlier one
    if (arriveAt + this.s.windowNs < this.windowAt[n]) this.openWindow(n, arriveAt + this.s.windowNs);
  }

  /** Node n's next window closes at `close`: its arbitration is scheduled then. */
  openWindow(n: number, close: number): void {
    this.windowAt[n] = close;
    this.s.engine.post(close - this.s.engine.now, K_ARBITRATE, n);
  }

  /** DA d's atoms on node n return to the bitmap (reports due before the change go out first). */
  releaseAtoms(d: number, n: number): void {
    const m = this.s.das.m[d];
    this.reports.touch(n);
    this.s.invariants?.releasing(n, d, m);
    this.s.cluster.release(n, m, this.s.mask(d));
    this.s.held[n] -= m;
    this.s.invariants?.node(n);
  }
}
