// The choice among a DA's candidates, shared by scoreCandidates (score.ts)
// and probeCandidates (probe.ts). Not an export of the core: callers have
// checked every argument.
import { E_NOFIT } from "./abi";
import { log2Lanes4, utilityConst, utilityOf, utilityOfLanesK } from "./fastmath";
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
 * copies has its own constant, and keeps only its own test. With `aos` (a
 * constant; the Zone engine's replicas), `field` holds a record of `rec`
 * bytes per node instead (REC_* below: the five values and the row's
 * summary), and `table` is not read.
 */
// @ts-ignore: decorator
@inline export function bestCandidate(
  field: usize, nodeCount: i32, table: usize, words: i32,
  cand: usize, n: i32, now: f32, m: i32, contiguous: i32,
  gamma: f32, degradeAge: f32, noise: usize, aos: bool = false, rec: usize = 0,
): i32 {
  // a record (aos) holds its row's summary: one test for every width; in the SIMD build, the caller (probeCore)
  // has listed the candidates that count (listPlacable)
  if (aos) {
    if (ASC_FEATURE_SIMD) return bestOfRecords(field, cand, now, gamma, noise, rec);
    return bestOf(ROW_ANY, field, nodeCount, table, words, cand, n, now, m, contiguous, gamma, degradeAge, noise, aos, rec);
  }
  if (words == 4) {
    // 256-atom rows (the default), unrolled: 12% faster a call in isolation
    if (!contiguous) return bestOf(ROW4_FREE, field, nodeCount, table, words, cand, n, now, m, 0, gamma, degradeAge, noise, aos, rec);
    if (m >= 64) return bestOf(ROW4_LONG, field, nodeCount, table, words, cand, n, now, m, 1, gamma, degradeAge, noise, aos, rec);
    return bestOf(ROW4_SHORT, field, nodeCount, table, words, cand, n, now, m, 1, gamma, degradeAge, noise, aos, rec);
  }
  return bestOf(ROW_ANY, field, nodeCount, table, words, cand, n, now, m, contiguous, gamma, degradeAge, noise, aos, rec);
}

/**
 * A node's record in the Zone engine's replicas (bytes): f32 S, H, dS, dH,
 * stamp, REC_STEP apart; i32 its row's free atoms (REC_FREE) and longest run
 * of free atoms (REC_RUN), its row's summary (rowStats); REC_BYTES in all,
 * two to a cache line, whatever the row's width. The row itself is not
 * kept: the probe action reads only its summary.
 */
export const REC_STEP: usize = 4;
export const REC_S: usize = 0, REC_H: usize = 4, REC_DS: usize = 8, REC_DH: usize = 12, REC_STAMP: usize = 16;
export const REC_FREE: usize = 20, REC_RUN: usize = 24, REC_BYTES: usize = 32;

/**
 * A bitmap row (`words` words at `row`) summed up into the record at p's
 * REC_FREE and REC_RUN, so that a candidate's row test is one load:
 * popcount >= m is REC_FREE >= m, and a run of m contiguous free atoms
 * exists exactly when the longest run is at least m.
 */
export function rowStats(p: usize, row: usize, words: i32): void {
  let free = 0, best = 0, cur = 0;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(row + (<usize>w << 3));
    free += <i32>popcnt<u64>(x);
    if (x == ALL_FREE) { cur += 64; continue; }
    // the run from the words before ends in this word's low ones; the word's top ones start the next
    cur += <i32>ctz<u64>(~x);
    if (cur > best) best = cur;
    const top = <i32>clz<u64>(~x);
    // the runs inside: the low run cleared (x & (x + 1)), the top run cleared, then each lowest run in turn
    let y = (x & (x + 1)) & (ALL_FREE >> <u64>top);
    while (y != 0) {
      const s = ctz<u64>(y), len = <i32>ctz<u64>(~(y >> s));
      if (len > best) best = len;
      y &= y + (y & (0 - y)); // the lowest run cleared
    }
    cur = top;
  }
  if (cur > best) best = cur;
  store<i32>(p + REC_FREE, free);
  store<i32>(p + REC_RUN, best);
}

const ALL_FREE: u64 = 0xffff_ffff_ffff_ffff;

/**
 * Node j's values in a field: at the returned address p, S at p, H at p + fs,
 * dS at p + 2 fs, dH at p + 3 fs and the stamp at p + 4 fs, where fs is
 * fieldStep's. A record (aos) or the columns of a field of nodeCount nodes.
 */
// @ts-ignore: decorator
@inline export function nodeAt(field: usize, j: i32, aos: bool, rec: usize): usize {
  return aos ? field + <usize>j * rec : field + (<usize>j << 2);
}

/** The step between a node's values: REC_STEP in a record (aos), a column's bytes (4 nodeCount) in a field. */
// @ts-ignore: decorator
@inline export function fieldStep(nodeCount: i32, aos: bool): usize {
  return aos ? REC_STEP : <usize>nodeCount << 2;
}

/** Node j's bitmap row in the table of rows of `stride` bytes (a field's; a record, aos, holds only its row's summary). */
// @ts-ignore: decorator
@inline export function rowOf(table: usize, j: i32, stride: usize): usize {
  return table + <usize>j * stride;
}

/**
 * The utility of node p's projected slack and heat (age ms after its
 * stamp; p and fs as nodeAt's and fieldStep's). In the SIMD build a
 * record's (aos) S, H, dS and dH are one vector: both projections at once,
 * pmax(0, x) being pos(x) lane by lane, the same f32 operations as below.
 */
// @ts-ignore: decorator
@inline function projectedUtility(p: usize, fs: usize, age: f32, gamma: f32, aos: bool): f32 {
  if (ASC_FEATURE_SIMD) {
    if (aos) return recordUtility(p, age, gamma, utilityConst(0), utilityConst(1), utilityConst(2), utilityConst(3), utilityConst(4));
  }
  const sp = pos(load<f32>(p) + age * load<f32>(p + 2 * fs));
  const hp = pos(load<f32>(p + fs) + age * load<f32>(p + 3 * fs));
  return utilityOf(sp, hp, gamma);
}

/** The utility of the record at p, age ms after its stamp, with utilityOfLanes' constants given (SIMD build only). */
// @ts-ignore: decorator
@inline function recordUtility(p: usize, age: f32, gamma: f32, k0: v128, k1: v128, k2: v128, k3: v128, k4: v128): f32 {
  const v = v128.load(p);
  return utilityOfLanesK(f32x4.pmax(f32x4.splat(0), f32x4.add(v, f32x4.mul(f32x4.splat(age), v128.shuffle<f32>(v, v, 2, 3, 2, 3)))), gamma, k0, k1, k2, k3, k4);
}

/**
 * The candidates of a probe action on records (aos) that count, in order,
 * into PLACABLE: not long-degraded, and placable (the record's summary of
 * its row, rowStats); their number in `placable`. Each record's line is
 * read here, right after the sampling (probeCore, SIMD build), so that the
 * candidates' misses overlap each other and the noise draws, which need
 * none of them; bestOfRecords then scores only these.
 */
// @ts-ignore: decorator
@inline export function listPlacable(field: usize, cand: usize, n: i32, now: f32, m: i32, contiguous: i32, degradeAge: f32, rec: usize): void {
  const stat = contiguous ? REC_RUN : REC_FREE, list = PLACABLE;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const p = field + <usize>load<i32>(cand + (<usize>i << 2)) * rec;
    // written at the list's end whatever the test says; kept only when it holds
    store<i32>(list + (<usize>c << 2), i);
    c += <i32>!(pos(now - load<f32>(p + REC_STAMP)) > degradeAge) & <i32>(load<i32>(p + stat) >= m);
  }
  placable = c;
}

/** listPlacable's list (indices into cand; k <= 4096) and its length. */
const PLACABLE: usize = memory.data(4096 << 2, 16);
let placable: i32 = 0;

/**
 * bestOf on records (aos) in the SIMD build, over listPlacable's list (the
 * candidates that count, listed without a branch: which are placable is not
 * predictable): the same choice, two candidates a step. Their records' S
 * and H share one vector (lanes [S, H] of each), so the log2 of the utility
 * runs once for both. Each lane does recordUtility's f32 operations in the
 * same order, and the choice goes through the list in order, so the result
 * is the same. The utility's vector constants are loaded once before the
 * loop (V8 would build each again at every use, three instructions apiece).
 */
// @ts-ignore: decorator
@inline function bestOfRecords(field: usize, cand: usize, now: f32, gamma: f32, noise: usize, rec: usize): i32 {
  const c = placable, list = PLACABLE;
  // none counts; or one, which wins whatever its utility
  if (c <= 1) return c == 0 ? E_NOFIT : load<i32>(list);
  const k0 = utilityConst(0), k1 = utilityConst(1), k2 = utilityConst(2), k3 = utilityConst(3), k4 = utilityConst(4);
  const zero = f32x4.splat(0);
  let best: f32 = -Infinity;
  let bi: i32 = E_NOFIT;
  let j = 0;
  for (; j + 2 <= c; j += 2) {
    const i0 = load<i32>(list + (<usize>j << 2)), i1 = load<i32>(list + (<usize>j << 2), 4);
    const p0 = field + <usize>load<i32>(cand + (<usize>i0 << 2)) * rec, p1 = field + <usize>load<i32>(cand + (<usize>i1 << 2)) * rec;
    const a0 = pos(now - load<f32>(p0 + REC_STAMP)), a1 = pos(now - load<f32>(p1 + REC_STAMP));
    const v0 = v128.load(p0), v1 = v128.load(p1);
    const sh = v128.shuffle<f32>(v0, v1, 0, 1, 4, 5), d = v128.shuffle<f32>(v0, v1, 2, 3, 6, 7);
    const age = f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(a0), 2, a1), 3, a1);
    const r = log2Lanes4(f32x4.pmax(zero, f32x4.add(sh, f32x4.mul(age, d))), k0, k1, k2, k3, k4);
    const u0 = (f32x4.extract_lane(r, 0) - gamma * f32x4.extract_lane(r, 1)) + load<f32>(noise + (<usize>i0 << 2));
    const u1 = (f32x4.extract_lane(r, 2) - gamma * f32x4.extract_lane(r, 3)) + load<f32>(noise + (<usize>i1 << 2));
    // the first that counts wins even at U = -Infinity, a later one only when strictly better; chosen without a
    // branch (the best kept as its bits, which the integer select takes), as which is better is not predictable
    const take0 = <i32>(bi < 0) | <i32>(u0 > best);
    bi = select<i32>(i0, bi, take0 != 0);
    best = reinterpret<f32>(select<i32>(reinterpret<i32>(u0), reinterpret<i32>(best), take0 != 0));
    const take1 = <i32>(u1 > best);
    bi = select<i32>(i1, bi, take1 != 0);
    best = reinterpret<f32>(select<i32>(reinterpret<i32>(u1), reinterpret<i32>(best), take1 != 0));
  }
  if (j < c) {
    const i = load<i32>(list + (<usize>j << 2)), p = field + <usize>load<i32>(cand + (<usize>i << 2)) * rec;
    const u = recordUtility(p, pos(now - load<f32>(p + REC_STAMP)), gamma, k0, k1, k2, k3, k4) + load<f32>(noise + (<usize>i << 2));
    if (bi < 0 || u > best) bi = i;
  }
  return bi;
}

/** bestCandidate's loop with the row test `test` (a constant at each call). */
// @ts-ignore: decorator
@inline function bestOf(
  test: i32, field: usize, nodeCount: i32, table: usize, words: i32,
  cand: usize, n: i32, now: f32, m: i32, contiguous: i32,
  gamma: f32, degradeAge: f32, noise: usize, aos: bool, rec: usize,
): i32 {
  const fs = fieldStep(nodeCount, aos);
  const stride = <usize>words << 3;
  // a record's test (aos): its free atoms, or its longest run for a contiguous demand
  const stat = contiguous ? REC_RUN : REC_FREE;
  let best: f32 = -Infinity;
  let bi: i32 = E_NOFIT;
  for (let i = 0; i < n; i++) {
    const j = load<i32>(cand + (<usize>i << 2));
    const p = nodeAt(field, j, aos, rec);
    const age = pos(now - load<f32>(p + 4 * fs));
    if (age > degradeAge) continue; // long-degrade: out of the candidate set
    let placable: bool;
    if (aos) placable = load<i32>(p + stat) >= m; // the record's summary of its row (rowStats)
    else {
      const row = rowOf(table, j, stride);
      if (test == ROW4_FREE) {
        placable = <i32>(popcnt<u64>(load<u64>(row)) + popcnt<u64>(load<u64>(row, 8)) + popcnt<u64>(load<u64>(row, 16)) + popcnt<u64>(load<u64>(row, 24))) >= m;
      } else if (test == ROW4_LONG) placable = rowFirstRunLong4(row, m) >= 0;
      else if (test == ROW4_SHORT) placable = rowFirstRun(row, 4, m) >= 0;
      else placable = contiguous ? rowFirstRun(row, words, m) >= 0 : rowFree(row, words) >= m;
    }
    if (!placable) continue;
    const u = projectedUtility(p, fs, age, gamma, aos) + load<f32>(noise + (<usize>i << 2));
    // the first placable wins even at U = -Infinity; chosen without a branch (the best kept as its bits, which
    // the integer select takes), as which candidate is better is not predictable
    const take = <i32>(bi < 0) | <i32>(u > best);
    bi = select<i32>(i, bi, take != 0);
    best = reinterpret<f32>(select<i32>(reinterpret<i32>(u), reinterpret<i32>(best), take != 0));
  }
  return bi;
}

/**
 * Projected slack of the row at p (p = field + 4 * node; nn = 4 * nodeCount,
 * the step between a node's values; REC_STEP in the Zone engine's
 * records): 0 when degraded. zoneAggregate's (score.ts) and the engine's.
 */
// @ts-ignore: decorator
@inline export function projS(p: usize, nn: usize, now: f32, degradeAge: f32): f32 {
  const age = pos(now - load<f32>(p + 4 * nn));
  return select<f32>(0, pos(load<f32>(p) + age * load<f32>(p + 2 * nn)), age > degradeAge);
}

/** Projected heat of the row at p (nn as projS's): H + degradeHeat when degraded. */
// @ts-ignore: decorator
@inline export function projH(p: usize, nn: usize, now: f32, degradeAge: f32, degradeHeat: f32): f32 {
  const age = pos(now - load<f32>(p + 4 * nn));
  const H = load<f32>(p + nn);
  return select<f32>(H + degradeHeat, pos(H + age * load<f32>(p + 3 * nn)), age > degradeAge);
}
