// Small pure decisions of the admission path, kept out of the event loop so
// tests can call them directly.
import type { Rng } from "../sim/rng.js";

/**
 * Order a node's arbitration batch: descending static priority E_v,init of
 * each DA's task (paper §Node Arbitration); ties by arrival time at the
 * node, then by position in batch. In place over batch[0..q); insertion
 * sort, as batches are short.
 */
export function byPriority(batch: Int32Array, q: number, taskOf: Int32Array, ev: Float64Array, arrive: Float64Array): void {
  for (let i = 1; i < q; i++) {
    const d = batch[i], e = ev[taskOf[d]], a = arrive[d];
    let j = i - 1;
    while (j >= 0 && (ev[taskOf[batch[j]]] < e || (ev[taskOf[batch[j]]] === e && arrive[batch[j]] > a))) {
      batch[j + 1] = batch[j];
      j--;
    }
    batch[j + 1] = d;
  }
}

/**
 * Whether a task that has just emitted its `instances`-th DA will need a
 * regeneration check at `checkAt`: only while the instance cap allows
 * another DA and the check comes before the task's deadline.
 */
export function regenerationDue(instances: number, maxInstances: number, checkAt: number, deadline: number): boolean {
  return instances < maxInstances && checkAt < deadline;
}

/**
 * Bounded candidate sampling: k distinct Zone-local node indices drawn
 * uniformly from [0, nz) into out[0..k) (all of them, in order, when k >= nz,
 * with no draw). `seen` (length >= nz) marks drawn indices with generation
 * gen + 1, which is returned: the caller keeps it for the next call, so
 * nothing is cleared between calls.
 *
 * Zones below 2^16 nodes take two indices from each 32-bit draw: Lemire's
 * multiply-and-reject on each 16-bit half, exactly uniform (a half is
 * rejected with probability (2^16 mod nz) / 2^16, under 0.4% for nz <= 256).
 */
export function sampleDistinct(rng: Rng, nz: number, k: number, out: Int32Array, seen: Int32Array, gen: number): number {
  if (k >= nz) {
    for (let i = 0; i < nz; i++) out[i] = i;
    return gen;
  }
  const g = (gen + 1) | 0 || 1;
  if (g === 1) seen.fill(0);
  if (nz > 65536) {
    for (let i = 0; i < k; ) {
      const j = rng.int(nz);
      if (seen[j] === g) continue;
      seen[j] = g;
      out[i++] = j;
    }
    return g;
  }
  const reject = 65536 % nz; // (2^16 - nz) mod nz, the low products that would bias
  let bits = 0, have = 0;
  for (let i = 0; i < k; ) {
    if (have === 0) {
      bits = rng.nextU32();
      have = 2;
    }
    const u = have === 2 ? bits >>> 16 : bits & 0xffff;
    have--;
    const m = u * nz;
    if ((m & 0xffff) < reject) continue;
    const j = m >>> 16;
    if (seen[j] === g) continue;
    seen[j] = g;
    out[i++] = j;
  }
  return g;
}
