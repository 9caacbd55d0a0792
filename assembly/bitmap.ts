// Node resource bitmaps: `atoms` bits per node as atoms/64 little-endian u64
// words, bit b of word w = atom 64w + b, 1 = free. See docs/abi.md.
//
// The per-word work is popcount, count-trailing/leading-zeros and shifts; a
// 256-atom row is four words, so scalar i64 ops are already the shortest code
// for counts and runs. The SIMD build uses 128-bit lanes where whole rows are
// combined (take/release conflict checks and updates).
import { checkAtoms, checkBuf, E_ARG, E_CONFLICT, E_COUNT, E_K, E_NOFIT, OK } from "./abi";
import { overlaps, region, regionsCheck, regionsReset } from "./regions";
import { ALL, rowApply, rowFirstRun, rowFirstRunLong, rowFirstRunLong4, rowFirstRunShort, rowFree, rowTakeAny, rowTakeRun, writeRunMask } from "./row";

/**
 * Validate a batch: table of `count` rows, an output of `count` items of
 * `elem` bytes. Two buffers: one overlaps() test, not the region list
 * (regions.ts), which costs more than these hot single-row calls.
 */
// @ts-ignore: decorator
@inline function checkBatch(table: usize, count: i32, atoms: i32, out: usize, elem: i32): i32 {
  let e = checkAtoms(atoms); if (e != OK) return e;
  if (count < 0) return E_COUNT;
  e = checkBuf(table, <i64>count * (atoms >> 6), 8); if (e != OK) return e;
  e = checkBuf(out, count, elem); if (e != OK) return e;
  return overlaps(out, <u64>count * elem, table, <u64>count * (atoms >> 3)) ? E_ARG : OK;
}

/** Free atoms of each of `count` nodes into out: i32[count]. Returns count. */
export function bmFreeCount(table: usize, count: i32, atoms: i32, out: usize): i32 {
  const e = checkBatch(table, count, atoms, out, 4); if (e != OK) return e;
  const words = atoms >> 6;
  const stride = <usize>words << 3;
  for (let i = 0; i < count; i++) {
    store<i32>(out + (<usize>i << 2), rowFree(table + <usize>i * stride, words));
  }
  return count;
}

/** out: u8[count] = 1 where a node has at least k free atoms. Returns how many do. */
export function bmCountAtLeast(table: usize, count: i32, atoms: i32, k: i32, out: usize): i32 {
  const e = checkBatch(table, count, atoms, out, 1); if (e != OK) return e;
  if (k < 0 || k > atoms) return E_K;
  const words = atoms >> 6;
  const stride = <usize>words << 3;
  let n = 0;
  if (words == 4) {
    // 256 atoms, the default width: four popcounts, no inner loop.
    for (let i = 0; i < count; i++) {
      const p = table + (<usize>i << 5);
      const c = popcnt<u64>(load<u64>(p)) + popcnt<u64>(load<u64>(p, 8)) + popcnt<u64>(load<u64>(p, 16)) + popcnt<u64>(load<u64>(p, 24));
      const ok = <i32>(<i32>c >= k);
      store<u8>(out + <usize>i, <u8>ok);
      n += ok;
    }
    return n;
  }
  for (let i = 0; i < count; i++) {
    const ok = <i32>(rowFree(table + <usize>i * stride, words) >= k);
    store<u8>(out + <usize>i, <u8>ok);
    n += ok;
  }
  return n;
}

/** out: i32[count] = lowest offset of k contiguous free atoms, or -1. Returns how many have one. */
export function bmFirstRun(table: usize, count: i32, atoms: i32, k: i32, out: usize): i32 {
  const e = checkBatch(table, count, atoms, out, 4); if (e != OK) return e;
  if (k < 0 || k > atoms) return E_K;
  const words = atoms >> 6;
  const stride = <usize>words << 3;
  let n = 0;
  // One tight loop per case, so each keeps its state in registers.
  if (k == 0) {
    for (let i = 0; i < count; i++) store<i32>(out + (<usize>i << 2), 0);
    return count;
  }
  if (k >= 64 && words == 4) {
    // 256 atoms, the default width: the word loop fully unrolled.
    for (let i = 0; i < count; i++) {
      const off = rowFirstRunLong4(table + <usize>i * stride, k);
      store<i32>(out + (<usize>i << 2), off);
      n += <i32>(off >= 0);
    }
  } else if (k >= 64) {
    for (let i = 0; i < count; i++) {
      const off = rowFirstRunLong(table + <usize>i * stride, words, k);
      store<i32>(out + (<usize>i << 2), off);
      n += <i32>(off >= 0);
    }
  } else {
    for (let i = 0; i < count; i++) {
      const off = rowFirstRunShort(table + <usize>i * stride, words, k);
      store<i32>(out + (<usize>i << 2), off);
      n += <i32>(off >= 0);
    }
  }
  return n;
}

/** Word w of the demand mask shifted up by s atoms (q = s / 64 words, r = s % 64 bits). */
// @ts-ignore: decorator
@inline function shiftedWord(d: usize, w: i32, q: i32, r: i32): u64 {
  const src = w - q;
  if (src < 0) return 0;
  const a = load<u64>(d + (<usize>src << 3));
  if (r == 0) return a;
  const lo: u64 = src > 0 ? load<u64>(d + (<usize>(src - 1) << 3)) >> <u64>(64 - r) : 0;
  return (a << <u64>r) | lo;
}

/**
 * Smallest shift s such that the demand mask moved up by s atoms lies on free
 * atoms of the row and inside it; -1 if none. Only shifts that put the demand's
 * lowest atom on a free atom can work, so those are the only ones tried.
 */
function rowFitsAt(p: usize, words: i32, d: usize, lo: i32, hi: i32): i32 {
  if (lo < 0) return 0; // empty demand fits anywhere
  const atoms = words << 6;
  const maxS = atoms - 1 - hi;
  for (let w = lo >> 6; w < words; w++) {
    let x = load<u64>(p + (<usize>w << 3));
    if (w == lo >> 6) x &= ALL << <u64>(lo & 63);
    while (x != 0) {
      const f = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const s = f - lo;
      if (s > maxS) return -1;
      const q = s >> 6, r = s & 63;
      let fits = true;
      for (let v = (lo + s) >> 6; v <= (hi + s) >> 6; v++) {
        if ((shiftedWord(d, v, q, r) & ~load<u64>(p + (<usize>v << 3))) != 0) { fits = false; break; }
      }
      if (fits) return s;
    }
  }
  return -1;
}

/** out: i32[count] = smallest shift at which `demand` (one row) fits each node, or -1. */
export function bmFitsAt(table: usize, count: i32, atoms: i32, demand: usize, out: usize): i32 {
  let e = checkAtoms(atoms); if (e != OK) return e;
  if (count < 0) return E_COUNT;
  const words = atoms >> 6;
  regionsReset();
  region(table, <i64>count * words, 8, 0, false);
  region(out, count, 4, 0, true);
  region(demand, words, 8, 0, false);
  e = regionsCheck(); if (e != OK) return e;
  // Lowest and highest demand atoms (-1 when the demand is empty).
  let lo = -1, hi = -1;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(demand + (<usize>w << 3));
    if (x == 0) continue;
    if (lo < 0) lo = (w << 6) + <i32>ctz<u64>(x);
    hi = (w << 6) + 63 - <i32>clz<u64>(x);
  }
  const stride = <usize>words << 3;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const s = rowFitsAt(table + <usize>i * stride, words, demand, lo, hi);
    store<i32>(out + (<usize>i << 2), s);
    n += <i32>(s >= 0);
  }
  return n;
}

/** Validate a single-row call: the row and a mask buffer of the same width. */
// @ts-ignore: decorator
@inline function checkRow(row: usize, atoms: i32, mask: usize): i32 {
  let e = checkAtoms(atoms); if (e != OK) return e;
  e = checkBuf(row, atoms >> 6, 8); if (e != OK) return e;
  e = checkBuf(mask, atoms >> 6, 8); if (e != OK) return e;
  return overlaps(row, <u64>atoms >> 3, mask, <u64>atoms >> 3) ? E_ARG : OK;
}

/** Take the k lowest-numbered free atoms; the mask taken goes to outMask. */
export function bmTakeAny(row: usize, atoms: i32, k: i32, outMask: usize): i32 {
  const e = checkRow(row, atoms, outMask); if (e != OK) return e;
  if (k < 0 || k > atoms) return E_K;
  return rowTakeAny(row, atoms >> 6, k, outMask);
}

/** Mask of atoms [offset, offset + k) into outMask. */
export function bmRunMask(atoms: i32, offset: i32, k: i32, outMask: usize): i32 {
  let e = checkAtoms(atoms); if (e != OK) return e;
  e = checkBuf(outMask, atoms >> 6, 8); if (e != OK) return e;
  if (k < 0 || offset < 0 || offset > atoms || k > atoms - offset) return E_K;
  writeRunMask(atoms >> 6, offset, k, outMask);
  return k;
}

/** Take the lowest run of k contiguous free atoms; returns its offset (mask in outMask). */
export function bmTakeRun(row: usize, atoms: i32, k: i32, outMask: usize): i32 {
  const e = checkRow(row, atoms, outMask); if (e != OK) return e;
  if (k < 0 || k > atoms) return E_K;
  return rowTakeRun(row, atoms >> 6, k, outMask);
}

/**
 * Take (release = false) or release (release = true) every atom of `mask`.
 * Refuses, leaving the row unchanged, if any atom is not in the required
 * state: a take of a taken atom or a release of a free atom is a double
 * allocation / double free, a bug in the caller that must not pass silently.
 */
// @ts-ignore: decorator
@inline function applyMask(row: usize, atoms: i32, mask: usize, release: bool): i32 {
  const e = checkRow(row, atoms, mask); if (e != OK) return e;
  return rowApply(row, atoms >> 6, mask, release);
}

/** Take every atom of mask from the row; E_CONFLICT if any is not free. */
export function bmTake(row: usize, atoms: i32, mask: usize): i32 {
  return applyMask(row, atoms, mask, false);
}

/** Release every atom of mask into the row; E_CONFLICT if any is already free. */
export function bmRelease(row: usize, atoms: i32, mask: usize): i32 {
  return applyMask(row, atoms, mask, true);
}
