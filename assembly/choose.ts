// The choice among a DA's candidates, shared by scoreCandidates (score.ts)
// and probeCandidates (probe.ts). Not an export of the core: callers have
// checked every argument.
import { E_NOFIT } from "./abi";
import { utilityOf } from "./fastmath";
import { rowFirstRun, rowFirstRunLong4, rowFree } from "./row";

// @ts-ignore: decorator
@inline export function pos(x: f32): f32 {
  return x > 0 ? x : 0; // NaN -> 0, the same in every build and in TypeScript
}

/** bestOf's test of a candidate's row: 4 words, dispersed (popcounts); 4 words, a run of 64 or more; 4 words, a shorter run; any width. */
const ROW4_FREE = 0, ROW4_LONG = 1, ROW4_SHORT = 2, ROW_ANY = 3;

/**
 * The index into cand of the best placable candidate by U + noise[i], ties to
 * the lowest index; E_NOFIT when none is placable. Arguments already checked.
 * The row test is chosen once, outside the loop: each of bestOf's inlined
 * copies has its own constant, and keeps only its own test.
 */
// @ts-ignore: decorator
@inline export function bestCandidate(
  field: usize, nodeCount: i32, table: usize, words: i32,
  cand: usize, n: i32, now: f32, m: i32, contiguous: i32,
  gamma: f32, degradeAge: f32, noise: usize,
): i32 {
  if (words == 4) {
    // 256-atom rows (the default), unrolled: 12% faster a call in isolation
    if (!contiguous) return bestOf(ROW4_FREE, field, nodeCount, table, words, cand, n, now, m, 0, gamma, degradeAge, noise);
    if (m >= 64) return bestOf(ROW4_LONG, field, nodeCount, table, words, cand, n, now, m, 1, gamma, degradeAge, noise);
    return bestOf(ROW4_SHORT, field, nodeCount, table, words, cand, n, now, m, 1, gamma, degradeAge, noise);
  }
  return bestOf(ROW_ANY, field, nodeCount, table, words, cand, n, now, m, contiguous, gamma, degradeAge, noise);
}

/** bestCandidate's loop with the row test `test` (a constant at each call). */
// @ts-ignore: decorator
@inline function bestOf(
  test: i32, field: usize, nodeCount: i32, table: usize, words: i32,
  cand: usize, n: i32, now: f32, m: i32, contiguous: i32,
  gamma: f32, degradeAge: f32, noise: usize,
): i32 {
  const nn = <usize>nodeCount << 2;
  const stride = <usize>words << 3;
  let best: f32 = -Infinity;
  let bi: i32 = E_NOFIT;
  for (let i = 0; i < n; i++) {
    const j = load<i32>(cand + (<usize>i << 2));
    const jo = <usize>j << 2;
    const age = pos(now - load<f32>(field + 4 * nn + jo));
    if (age > degradeAge) continue; // long-degrade: out of the candidate set
    const row = table + <usize>j * stride;
    let placable: bool;
    if (test == ROW4_FREE) {
      placable = <i32>(popcnt<u64>(load<u64>(row)) + popcnt<u64>(load<u64>(row, 8)) + popcnt<u64>(load<u64>(row, 16)) + popcnt<u64>(load<u64>(row, 24))) >= m;
    } else if (test == ROW4_LONG) placable = rowFirstRunLong4(row, m) >= 0;
    else if (test == ROW4_SHORT) placable = rowFirstRun(row, 4, m) >= 0;
    else placable = contiguous ? rowFirstRun(row, words, m) >= 0 : rowFree(row, words) >= m;
    if (!placable) continue;
    const sp = pos(load<f32>(field + jo) + age * load<f32>(field + 2 * nn + jo));
    const hp = pos(load<f32>(field + nn + jo) + age * load<f32>(field + 3 * nn + jo));
    const u = utilityOf(sp, hp, gamma) + load<f32>(noise + (<usize>i << 2));
    if (bi < 0 || u > best) { best = u; bi = i; } // the first placable wins even at U = -Infinity
  }
  return bi;
}
