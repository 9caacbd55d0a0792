// The one check of the buffers a call names: each is in bounds and aligned
// (checkBuf's rules and codes), and no buffer the call writes shares a byte
// with any other buffer of the call (E_ARG; docs/abi.md, "No overlap").
//
// A call lists its buffers with region() after regionsReset(), then calls
// regionsCheck() once, before it reads or writes any of them. The list lives
// in the module's static data (no allocator, and a call never re-enters
// another export), so listing costs a few stores.
//
// Checking every pair is quadratic, but a call names at most MAX_REGIONS
// buffers (probeCandidates names 8: 28 pairs), and the cost of a
// forgotten pair, a kernel reading its own results and the two builds
// disagreeing, is what this file exists to rule out.
import { checkBuf, E_ARG, OK } from "./abi";

/** The most buffers one call names. */
const MAX_REGIONS: i32 = 10;
/** One entry: u32 pointer, i32 alignment | WRITTEN, i64 element count, i32 element size, 4 spare. */
const ENTRY: usize = 24;
const WRITTEN: i32 = 1 << 16;
const REGS = memory.data(<i32>ENTRY * MAX_REGIONS, 8);
let count: i32 = 0;

/**
 * True when [a, a + aBytes) and [b, b + bBytes) share a byte; an empty buffer
 * overlaps nothing. Sizes are u64 so nothing wraps.
 */
// @ts-ignore: decorator
@inline export function overlaps(a: usize, aBytes: u64, b: usize, bBytes: u64): bool {
  return <u64>a < <u64>b + bBytes && <u64>b < <u64>a + aBytes && aBytes > 0 && bBytes > 0;
}

/** Start a new list. */
// @ts-ignore: decorator
@inline export function regionsReset(): void {
  count = 0;
}

/**
 * Add a buffer of `n` elements of `elem` bytes at `ptr`, aligned to `align`
 * (0: the element size); `written` when the call writes it (in/out included).
 * n is an i64 so that products of i32 arguments do not wrap; a negative n is
 * E_BOUNDS, as in checkBuf.
 */
// @ts-ignore: decorator
@inline export function region(ptr: usize, n: i64, elem: i32, align: i32, written: bool): void {
  const r = REGS + <usize>count * ENTRY;
  store<u32>(r, <u32>ptr);
  store<i32>(r, (align > 0 ? align : elem) | (written ? WRITTEN : 0), 4);
  store<i64>(r, n, 8);
  store<i32>(r, elem, 16);
  count++;
}

/**
 * Check the listed buffers, in the order listed: the first that is null, in
 * static data, misaligned or out of bounds gives its code; then E_ARG when a
 * written buffer overlaps any other one. OK otherwise.
 */
export function regionsCheck(): i32 {
  const c = count;
  for (let i = 0; i < c; i++) {
    const r = REGS + <usize>i * ENTRY;
    const e = checkBuf(<usize>load<u32>(r), load<i64>(r, 8), load<i32>(r, 16), load<i32>(r, 4) & 0xffff);
    if (e != OK) return e;
  }
  for (let i = 0; i < c; i++) {
    const r = REGS + <usize>i * ENTRY;
    const a = <usize>load<u32>(r), aw = (load<i32>(r, 4) & WRITTEN) != 0;
    const ab = <u64>load<i64>(r, 8) * <u64>load<i32>(r, 16);
    for (let j = i + 1; j < c; j++) {
      const q = REGS + <usize>j * ENTRY;
      if (!aw && (load<i32>(q, 4) & WRITTEN) == 0) continue; // two inputs may share bytes
      if (overlaps(a, ab, <usize>load<u32>(q), <u64>load<i64>(q, 8) * <u64>load<i32>(q, 16))) return E_ARG;
    }
  }
  return OK;
}
