// The Flux-like model's decision rules as pure functions (docs/baselines.md):
// the congestion factors of a broker's decision time, and how an inner broker
// picks the child it sends a task to from its view of its children.
import { fdExp } from "../sim/fdlibm.js";

/** How an inner broker picks a child among those whose view fits the task (baselines.flux.childPick). */
export type ChildPick = "mostFree" | "first" | "roundRobin" | "random";

/**
 * The root's congestion factor: exp(min(max(0, q - onset) / scale, cap)).
 * onset 0 is the model notes' exp(min(q / 4000, 10)); a positive onset keeps
 * the factor at 1 up to onset tasks (the paper's "above 4,000 concurrent tasks").
 */
export function rootCongestion(q: number, scale: number, cap: number, onset: number): number {
  return fdExp(Math.min(Math.max(0, q - onset) / scale, cap));
}

/** A non-root broker's congestion factor: 1 + slope * min(q / scale, cap), q its queue. */
export function brokerCongestion(q: number, scale: number, slope: number, cap: number): number {
  return 1 + slope * Math.min(q / scale, cap);
}

/** True when the view of child c shows room for m atoms: a node with m free and m free in all. */
export function fits(c: number, m: number, viewMax: ArrayLike<number>, viewSum: ArrayLike<number>): boolean {
  return viewMax[c] >= m && viewSum[c] >= m;
}

/**
 * The child, among first .. last-1, a broker sends a task of m atoms to, or -1
 * when no child's view fits it.
 *   mostFree:   the fitting child with the most free atoms in its view (ties: the lowest index)
 *   first:      the lowest-indexed fitting child
 *   roundRobin: the first fitting child at or after `cursor`, cyclically
 *   random:     a uniformly random fitting child; draw(k) returns an integer in [0, k)
 */
export function pickChild(
  rule: ChildPick, first: number, last: number, m: number,
  viewMax: ArrayLike<number>, viewSum: ArrayLike<number>,
  cursor: number, draw: (k: number) => number,
): number {
  switch (rule) {
    case "mostFree": {
      let best = -1;
      for (let c = first; c < last; c++) {
        if (fits(c, m, viewMax, viewSum) && (best < 0 || viewSum[c] > viewSum[best])) best = c;
      }
      return best;
    }
    case "first": {
      for (let c = first; c < last; c++) if (fits(c, m, viewMax, viewSum)) return c;
      return -1;
    }
    case "roundRobin": {
      const n = last - first;
      const start = cursor >= first && cursor < last ? cursor - first : 0;
      for (let i = 0; i < n; i++) {
        const c = first + ((start + i) % n);
        if (fits(c, m, viewMax, viewSum)) return c;
      }
      return -1;
    }
    case "random": {
      let k = 0;
      for (let c = first; c < last; c++) if (fits(c, m, viewMax, viewSum)) k++;
      if (k === 0) return -1;
      let j = draw(k);
      for (let c = first; c < last; c++) {
        if (fits(c, m, viewMax, viewSum) && j-- === 0) return c;
      }
      return -1; // unreachable
    }
  }
}
