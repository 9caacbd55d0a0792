// Airlock's pure decisions (paper §The Airlock Protocol, §Absolute Priority
// Guarantee): in which order a node under pressure suspends its running
// tasks, in which order it resumes suspended ones in place, and whom the
// kernel's OOM rule kills when Airlock does not act. The model gathers a
// node's candidates into (id, key) arrays; these functions only order them.
// Last ties go to the task's identity (its arrival order), never to a slot
// number, so that the order does not depend on how slots were recycled.

/**
 * Sort ids[0..n) (with their keys) by `primary` ascending, then `secondary`
 * descending, then `tie` ascending; in place, without allocation (a node
 * holds at most a few dozen running tasks, so insertion sort is the right tool).
 */
export function orderBy(ids: Int32Array, primary: Float64Array, secondary: Float64Array, tie: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const id = ids[i], p = primary[i], s = secondary[i], t = tie[i];
    let j = i - 1;
    while (j >= 0 && before(p, s, t, primary[j], secondary[j], tie[j])) {
      ids[j + 1] = ids[j];
      primary[j + 1] = primary[j];
      secondary[j + 1] = secondary[j];
      tie[j + 1] = tie[j];
      j--;
    }
    ids[j + 1] = id;
    primary[j + 1] = p;
    secondary[j + 1] = s;
    tie[j + 1] = t;
  }
}

function before(p: number, s: number, t: number, p2: number, s2: number, t2: number): boolean {
  if (p !== p2) return p < p2;
  if (s !== s2) return s > s2;
  return t < t2;
}

/**
 * Reverse-recursive suspension order: ascending static priority E_v,init, so
 * no task is suspended while a lower-priority one still runs; among equals,
 * the largest resident footprint first (the most relief per suspension),
 * then the earliest arrival. Keys: ev[i] = E_v,init, resident[i] = resident
 * memory, arrival[i] = the task's arrival order.
 */
export function suspensionOrder(ids: Int32Array, ev: Float64Array, resident: Float64Array, arrival: Float64Array, n: number): void {
  orderBy(ids, ev, resident, arrival, n);
}

/**
 * In-situ resume order: descending E_v,init (negated into `negEv`), then the
 * earliest suspended first (`negSince` = -suspension time), then the
 * earliest arrival.
 */
export function resumeOrder(ids: Int32Array, negEv: Float64Array, negSince: Float64Array, arrival: Float64Array, n: number): void {
  orderBy(ids, negEv, negSince, arrival, n);
}

/** The kernel OOM rule "largest": the index in [0, n) of the largest resident footprint (earliest arrival among equals); -1 when n = 0. */
export function largestResident(resident: Float64Array, arrival: Float64Array, n: number): number {
  let best = -1;
  for (let i = 0; i < n; i++) {
    if (best < 0 || resident[i] > resident[best] || (resident[i] === resident[best] && arrival[i] < arrival[best])) best = i;
  }
  return best;
}
