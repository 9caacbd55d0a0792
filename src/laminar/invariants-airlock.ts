// The invariant checker's own arithmetic for Airlock's decisions: whether a
// ledger entry has room on its node (as things stand, or once every running
// task of lower E_v,init is suspended), and which entries a resume in place
// must not overtake. Deliberately written apart from the model's own
// decisions (airlock-ledger.ts: recoverLocally, canMakeRoom, resumePass): the checker
// recomputes from the node's state (memory use, resident records, ledger),
// so a wrong decision in the model is caught rather than repeated.
import type { LaminarState } from "./state.js";
import { kib } from "./memory.js";

/** KiB that resuming ledger entry e adds to its node: its drifting footprint, less the image that stays. */
export function growthKiB(m: LaminarState, e: number): number {
  return kib(m.das.drift[e]) - kib(m.das.frozen[e]);
}

/**
 * KiB of memory node n would use if ledger entry e resumed in place after
 * every running task of lower E_v,init than e's were suspended (each leaving
 * its compressed image on the node). Without lower-priority runners this is
 * simply the node's use plus e's growth.
 */
export function useAfterLocalRecovery(m: LaminarState, n: number, e: number, compressionRatio: number): number {
  const D = m.das, T = m.tasks, mem = m.mem!, ev = T.ev[D.task[e]];
  let use = mem.use(n) + growthKiB(m, e);
  for (let r = m.residentHead(n); r >= 0; r = D.resNext[r]) {
    if (T.ev[D.task[r]] >= ev) continue;
    const res = mem.resident(r);
    use -= kib(res) - kib(res / compressionRatio);
  }
  return use;
}

/**
 * Whether ledger entry f comes before entry e in the in-situ resume order:
 * higher E_v,init, then the earlier suspension, then the earlier arrival.
 */
export function resumesBefore(m: LaminarState, f: number, e: number): boolean {
  const D = m.das, T = m.tasks, tf = D.task[f], te = D.task[e];
  if (T.ev[tf] !== T.ev[te]) return T.ev[tf] > T.ev[te];
  if (D.suspendedAt[f] !== D.suspendedAt[e]) return D.suspendedAt[f] < D.suspendedAt[e];
  return T.key[tf] < T.key[te];
}

/**
 * The first entry of node n's ledger that a resume of e in place would
 * overtake, or -1: an entry not yet reactivated, suspended before now (an
 * entry suspended at this tick may not resume yet), ahead of e in the resume
 * order, and with room to resume itself at the safe watermark (safeKiB).
 */
export function overtaken(m: LaminarState, n: number, e: number, safeKiB: number): number {
  const D = m.das, now = m.engine.now, use = m.mem!.use(n);
  for (let f = m.ledgerHead(n); f >= 0; f = D.resNext[f]) {
    if (f === e || m.reactivated(f) || D.suspendedAt[f] >= now) continue;
    if (resumesBefore(m, f, e) && use + growthKiB(m, f) <= safeKiB) return f;
  }
  return -1;
}
