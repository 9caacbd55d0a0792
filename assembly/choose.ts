// The choice among a DA's candidates, shared by scoreCandidates (score.ts)
// and probeCandidates (probe.ts). Not an export of the core: callers have
// checked every argument.
import { E_NOFIT } from "./abi";
import { fastLog2 } from "./fastmath";
import { rowFirstRun, rowFirstRunLong4, rowFree } from "./row";

// @ts-ignore: decorator
@inline export function pos(x: f32): f32 {
  return x > 0 ? x : 0; // NaN -> 0, the same in every build and in TypeScript
}

/**
 * The index into cand of the best placable candidate by U + noise[i], ties to
 * the lowest index; E_NOFIT when none is placable. Arguments already checked.
 */
// @ts-ignore: decorator
@inline export function bestCandidate(
  field: usize, nodeCount: i32, table: usize, words: i32,
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
    if (words == 4) {
      // 256-atom rows (the default), unrolled: 12% faster a call in isolation
      placable = contiguous
        ? (m >= 64 ? rowFirstRunLong4(row, m) : rowFirstRun(row, 4, m)) >= 0
        : <i32>(popcnt<u64>(load<u64>(row)) + popcnt<u64>(load<u64>(row, 8)) + popcnt<u64>(load<u64>(row, 16)) + popcnt<u64>(load<u64>(row, 24))) >= m;
    } else placable = contiguous ? rowFirstRun(row, words, m) >= 0 : rowFree(row, words) >= m;
    if (!placable) continue;
    const sp = pos(load<f32>(field + jo) + age * load<f32>(field + 2 * nn + jo));
    const hp = pos(load<f32>(field + nn + jo) + age * load<f32>(field + 3 * nn + jo));
    const u = (fastLog2(<f32>1.0 + sp) - gamma * fastLog2(<f32>1.0 + hp)) + load<f32>(noise + (<usize>i << 2));
    if (bi < 0 || u > best) { best = u; bi = i; } // the first placable wins even at U = -Infinity
  }
  return bi;
}
