// Per-row bitmap primitives shared by the bitmap and scoring kernels and the
// Zone engine (which calls them on its own rows, without the exports' checks).
// A row is `words` little-endian u64 words, bit b of word w = atom 64w + b,
// 1 = free. Not exported from the module: index.ts re-exports bitmap.ts only.

import { E_CONFLICT, E_NOFIT } from "./abi";

export const ALL: u64 = 0xffff_ffff_ffff_ffff;

// @ts-ignore: decorator
@inline export function rowFree(p: usize, words: i32): i32 {
  let c: u64 = 0;
  for (let w = 0; w < words; w++) c += popcnt<u64>(load<u64>(p + (<usize>w << 3)));
  return <i32>c;
}

/**
 * Lowest offset of a run of k contiguous 1-bits in the row, or -1.
 *
 * Walks the words once, low to high, keeping `carry` = length of the run of
 * free atoms that ends at the top of the previous word. A run either starts
 * at or below this word's bit 0 (it is `carry` atoms long plus this word's low
 * ones: ctz(~x), which is 64 for a full word) or lies strictly inside the word.
 * For k >= 64 the second case cannot happen, so the loop is a handful of
 * branch-free instructions per word (no early exit): the L-task (64-atom) hot path.
 * For k < 64, runs inside a word are found by the shift-and doubling
 * (bit i of y = AND of bits i..i+k-1), a fixed number of steps for a given k.
 * The run at or below bit 0 is checked first, which keeps the lowest offset.
 */
// @ts-ignore: decorator
@inline export function rowFirstRun(p: usize, words: i32, k: i32): i32 {
  if (k == 0) return 0;
  return k >= 64 ? rowFirstRunLong(p, words, k) : rowFirstRunShort(p, words, k);
}

/** rowFirstRun for k >= 64: only runs that start at or below a word's bit 0. */
// @ts-ignore: decorator
@inline export function rowFirstRunLong(p: usize, words: i32, k: i32): i32 {
  // No early exit: a fixed trip count and selects instead of a branch that
  // random bitmaps would mispredict once per row.
  let carry: i32 = 0;
  let res: i32 = -1;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(p + (<usize>w << 3));
    const found = carry + <i32>ctz<u64>(~x) >= k;
    res = select<i32>(res, (w << 6) - carry, res >= 0 || !found);
    carry = select<i32>(carry + 64, <i32>clz<u64>(~x), x == ALL);
  }
  return res;
}

/**
 * rowFirstRunLong for a 4-word (256-atom) row, unrolled. The carries are a
 * short chain; the four "a run reaches k here" tests are then independent,
 * and applying them from the highest word down leaves the lowest offset.
 */
// @ts-ignore: decorator
@inline export function rowFirstRunLong4(p: usize, k: i32): i32 {
  const x0 = load<u64>(p), x1 = load<u64>(p, 8), x2 = load<u64>(p, 16), x3 = load<u64>(p, 24);
  const c1 = <i32>clz<u64>(~x0); // x0 full: 64
  const c2 = select<i32>(c1 + 64, <i32>clz<u64>(~x1), x1 == ALL);
  const c3 = select<i32>(c2 + 64, <i32>clz<u64>(~x2), x2 == ALL);
  let res: i32 = select<i32>(192 - c3, -1, c3 + <i32>ctz<u64>(~x3) >= k);
  res = select<i32>(128 - c2, res, c2 + <i32>ctz<u64>(~x2) >= k);
  res = select<i32>(64 - c1, res, c1 + <i32>ctz<u64>(~x1) >= k);
  return select<i32>(0, res, <i32>ctz<u64>(~x0) >= k);
}

/** rowFirstRun for 0 < k < 64. */
// @ts-ignore: decorator
@inline export function rowFirstRunShort(p: usize, words: i32, k: i32): i32 {
  let carry: i32 = 0;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(p + (<usize>w << 3));
    if (carry + <i32>ctz<u64>(~x) >= k) return (w << 6) - carry;
    let y = x;
    let len = 1;
    while (len * 2 <= k) { y &= y >> <u64>len; len <<= 1; }
    if (len < k) y &= y >> <u64>(k - len);
    if (y != 0) return (w << 6) + <i32>ctz<u64>(y);
    carry = <i32>clz<u64>(~x); // x is not full here: a full word has 64 >= k low ones
  }
  return -1;
}

/** The k lowest-numbered free atoms of a row of `words` words taken, their mask to outMask: k, or E_NOFIT (nothing changed). Arguments checked by the caller. */
// @ts-ignore: decorator
@inline export function rowTakeAny(row: usize, words: i32, k: i32, outMask: usize): i32 {
  if (rowFree(row, words) < k) return E_NOFIT;
  let rem = k;
  for (let w = 0; w < words; w++) {
    const p = row + (<usize>w << 3);
    const x = load<u64>(p);
    let m: u64 = 0;
    if (rem > 0) {
      if (<i32>popcnt<u64>(x) <= rem) {
        m = x;
      } else {
        let y = x;
        for (let j = 0; j < rem; j++) { m |= y & (~y + 1); y &= y - 1; }
      }
      rem -= <i32>popcnt<u64>(m);
    }
    store<u64>(p, x & ~m);
    store<u64>(outMask + (<usize>w << 3), m);
  }
  return k;
}

/** The mask of atoms [offset, offset + k) into out. */
// @ts-ignore: decorator
@inline export function writeRunMask(words: i32, offset: i32, k: i32, out: usize): void {
  const end = offset + k;
  for (let w = 0; w < words; w++) {
    const a = max(offset, w << 6), b = min(end, (w + 1) << 6);
    let m: u64 = 0;
    if (a < b) {
      const len = b - a;
      m = (len == 64 ? ALL : ((<u64>1 << <u64>len) - 1)) << <u64>(a & 63);
    }
    store<u64>(out + (<usize>w << 3), m);
  }
}

/** The lowest run of k contiguous free atoms taken, its mask to outMask: its offset, or E_NOFIT (nothing changed). Arguments checked by the caller. */
// @ts-ignore: decorator
@inline export function rowTakeRun(row: usize, words: i32, k: i32, outMask: usize): i32 {
  const off = rowFirstRun(row, words, k);
  if (off < 0) return E_NOFIT;
  writeRunMask(words, off, k, outMask);
  for (let w = 0; w < words; w++) {
    const p = row + (<usize>w << 3);
    store<u64>(p, load<u64>(p) & ~load<u64>(outMask + (<usize>w << 3)));
  }
  return off;
}

/**
 * Take (release = false) or release (release = true) every atom of `mask`:
 * the atoms moved, or E_CONFLICT, the row unchanged, when one is not in the
 * required state (a double allocation or a double free). Arguments checked
 * by the caller.
 */
// @ts-ignore: decorator
@inline export function rowApply(row: usize, words: i32, mask: usize, release: bool): i32 {
  // Rows of an odd number of words (64, 192, ... atoms) end with one scalar word.
  const pairs = ASC_FEATURE_SIMD ? words & ~1 : 0;
  let acc: u64 = 0;
  if (ASC_FEATURE_SIMD) {
    let vacc = i64x2.splat(0);
    for (let w = 0; w < pairs; w += 2) {
      const o = <usize>w << 3;
      const r = v128.load(row + o), m = v128.load(mask + o);
      // take: conflict where m & ~r; release: conflict where m & r
      vacc = v128.or(vacc, release ? v128.and(m, r) : v128.andnot(m, r));
    }
    acc = <u64>i64x2.extract_lane(vacc, 0) | <u64>i64x2.extract_lane(vacc, 1);
  }
  for (let w = pairs; w < words; w++) {
    const o = <usize>w << 3;
    const r = load<u64>(row + o), m = load<u64>(mask + o);
    acc |= release ? (m & r) : (m & ~r);
  }
  if (acc != 0) return E_CONFLICT;
  let c: u64 = 0;
  if (ASC_FEATURE_SIMD) {
    for (let w = 0; w < pairs; w += 2) {
      const o = <usize>w << 3;
      const r = v128.load(row + o), m = v128.load(mask + o);
      v128.store(row + o, release ? v128.or(r, m) : v128.andnot(r, m));
      c += popcnt<u64>(<u64>i64x2.extract_lane(m, 0)) + popcnt<u64>(<u64>i64x2.extract_lane(m, 1));
    }
  }
  for (let w = pairs; w < words; w++) {
    const o = <usize>w << 3;
    const r = load<u64>(row + o), m = load<u64>(mask + o);
    store<u64>(row + o, release ? (r | m) : (r & ~m));
    c += popcnt<u64>(m);
  }
  return <i32>c;
}
