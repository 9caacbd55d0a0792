// TypeScript twin of assembly/bitmap.ts, written independently over 32-bit
// words: a row of `atoms` bits is atoms/32 u32 words (the same bytes as
// atoms/64 little-endian u64 words), bit b of word w = atom 32w + b, 1 = free.
// It returns the same results and status codes as the WASM builds (pointer
// checks aside: arrays cannot dangle), and serves as test oracle and fallback.
import { Status } from "../status.js";

export function checkAtoms(atoms: number): number {
  return Number.isInteger(atoms) && atoms >= 64 && atoms <= 1024 && atoms % 64 === 0 ? Status.OK : Status.E_ATOMS;
}

/** The batch kernels' argument checks, in the WASM builds' order: atoms, count, k. */
function checkBatch(count: number, atoms: number, k: number): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (count < 0) return Status.E_COUNT;
  return k < 0 || k > atoms ? Status.E_K : Status.OK;
}

export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Trailing zeros of a non-zero u32. */
export function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Free atoms of the row starting at word `p`. */
export function rowFree(t: Uint32Array, p: number, words32: number): number {
  let c = 0;
  for (let w = 0; w < words32; w++) c += popcount32(t[p + w]);
  return c;
}

/** Lowest offset of k contiguous free atoms in the row at word `p`, or -1. */
export function rowFirstRun(t: Uint32Array, p: number, words32: number, k: number): number {
  if (k === 0) return 0;
  let carry = 0;
  for (let w = 0; w < words32; w++) {
    const x = t[p + w] >>> 0;
    if (x === 0xffffffff) {
      if (carry + 32 >= k) return w * 32 - carry;
      carry += 32;
      continue;
    }
    const low = ctz32(~x);
    if (carry > 0 && carry + low >= k) return w * 32 - carry;
    if (k <= 32) {
      let y = x;
      let len = 1;
      while (len * 2 <= k) { y &= y >>> len; len *= 2; }
      if (len < k) y &= y >>> (k - len);
      if (y !== 0) return w * 32 + ctz32(y);
    }
    carry = Math.clz32(~x);
  }
  return -1;
}

function isFree(t: Uint32Array, p: number, atom: number): boolean {
  return ((t[p + (atom >>> 5)] >>> (atom & 31)) & 1) === 1;
}

/** Smallest shift s at which the demand atoms (sorted list) fit the row, or -1. */
export function rowFitsAt(t: Uint32Array, p: number, atoms: number, demandAtoms: number[]): number {
  if (demandAtoms.length === 0) return 0;
  const lo = demandAtoms[0];
  const hi = demandAtoms[demandAtoms.length - 1];
  for (let s = 0; s + hi < atoms; s++) {
    if (!isFree(t, p, lo + s)) continue;
    let ok = true;
    for (const b of demandAtoms) if (!isFree(t, p, b + s)) { ok = false; break; }
    if (ok) return s;
  }
  return -1;
}

export function bmFreeCount(table: Uint32Array, count: number, atoms: number, out: Int32Array): number {
  const e = checkBatch(count, atoms, 0); if (e) return e;
  const w = atoms / 32;
  for (let i = 0; i < count; i++) out[i] = rowFree(table, i * w, w);
  return count;
}

export function bmCountAtLeast(table: Uint32Array, count: number, atoms: number, k: number, out: Uint8Array): number {
  const e = checkBatch(count, atoms, k); if (e) return e;
  const w = atoms / 32;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const ok = rowFree(table, i * w, w) >= k ? 1 : 0;
    out[i] = ok;
    n += ok;
  }
  return n;
}

export function bmFirstRun(table: Uint32Array, count: number, atoms: number, k: number, out: Int32Array): number {
  const e = checkBatch(count, atoms, k); if (e) return e;
  const w = atoms / 32;
  let n = 0;
  for (let i = 0; i < count; i++) {
    out[i] = rowFirstRun(table, i * w, w, k);
    if (out[i] >= 0) n++;
  }
  return n;
}

export function bmFitsAt(table: Uint32Array, count: number, atoms: number, demand: Uint32Array, out: Int32Array): number {
  const e = checkBatch(count, atoms, 0); if (e) return e;
  const w = atoms / 32;
  const list: number[] = [];
  for (let a = 0; a < atoms; a++) if (isFree(demand, 0, a)) list.push(a);
  let n = 0;
  for (let i = 0; i < count; i++) {
    out[i] = rowFitsAt(table, i * w, atoms, list);
    if (out[i] >= 0) n++;
  }
  return n;
}

export function bmRunMask(atoms: number, offset: number, k: number, outMask: Uint32Array): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (k < 0 || offset < 0 || offset > atoms || k > atoms - offset) return Status.E_K;
  outMask.fill(0, 0, atoms / 32);
  for (let a = offset; a < offset + k; a++) outMask[a >>> 5] |= 1 << (a & 31);
  return k;
}

export function bmTakeAny(row: Uint32Array, atoms: number, k: number, outMask: Uint32Array): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (k < 0 || k > atoms) return Status.E_K;
  const w = atoms / 32;
  if (rowFree(row, 0, w) < k) return Status.E_NOFIT;
  outMask.fill(0, 0, w);
  let rem = k;
  for (let a = 0; a < atoms && rem > 0; a++) {
    if (isFree(row, 0, a)) {
      outMask[a >>> 5] |= 1 << (a & 31);
      row[a >>> 5] &= ~(1 << (a & 31));
      rem--;
    }
  }
  return k;
}

export function bmTakeRun(row: Uint32Array, atoms: number, k: number, outMask: Uint32Array): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (k < 0 || k > atoms) return Status.E_K;
  const off = rowFirstRun(row, 0, atoms / 32, k);
  if (off < 0) return Status.E_NOFIT;
  bmRunMask(atoms, off, k, outMask);
  for (let i = 0; i < atoms / 32; i++) row[i] &= ~outMask[i];
  return off;
}

function applyMask(row: Uint32Array, atoms: number, mask: Uint32Array, release: boolean): number {
  const e = checkAtoms(atoms); if (e) return e;
  const w = atoms / 32;
  for (let i = 0; i < w; i++) {
    const bad = release ? mask[i] & row[i] : mask[i] & ~row[i];
    if (bad !== 0) return Status.E_CONFLICT;
  }
  let c = 0;
  for (let i = 0; i < w; i++) {
    row[i] = release ? row[i] | mask[i] : row[i] & ~mask[i];
    c += popcount32(mask[i]);
  }
  return c;
}

export function bmTake(row: Uint32Array, atoms: number, mask: Uint32Array): number {
  return applyMask(row, atoms, mask, false);
}

export function bmRelease(row: Uint32Array, atoms: number, mask: Uint32Array): number {
  return applyMask(row, atoms, mask, true);
}
