// The one check of the buffers a call names: each is in bounds and aligned
// (checkBuf's rules and codes), and no buffer the call writes shares a byte
// with any other buffer of the call (E_ARG; docs/abi.md, "No overlap").
//
// A call lists its buffers with region() after regionsReset(), then calls
// regionsCheck() once, before it reads or writes any of them. region() is
// inlined at each call site, where the element size, alignment and whether
// the buffer is written are constants, so its bounds check costs what a
// hand-written checkBuf did; it records the first failure (so codes follow
// the order of listing) and the buffer's byte range. regionsCheck() then
// compares every written buffer with every other buffer. The lists live in
// the module's static data (no allocator; a call never re-enters another
// export).
//
// Checking every pair is quadratic, but a call names at most MAX_REGIONS
// buffers (probeCandidates: 4 written, 4 read, 22 pairs, branch-free), and
// the cost of a forgotten pair, a kernel reading its own results and the two
// builds disagreeing, is what this file exists to rule out.
import { E_ALIGN, E_ARG, E_BOUNDS, E_NULL, memBytes, OK } from "./abi";

/** The most buffers of each kind (written, read) one call names (engineArrive: 9 written); one more is E_ARG, not a write past the list. */
const MAX_REGIONS: i32 = 12;
// [begin, end) byte ranges as u64 pairs; an empty buffer is stored as [0, 0),
// which overlaps nothing (no u64 is below 0)
const WRITTEN = memory.data(MAX_REGIONS * 16, 8);
const READ = memory.data(MAX_REGIONS * 16, 8);
let nWritten: i32 = 0;
let nRead: i32 = 0;
let firstError: i32 = OK;
let limit: u64 = 0;

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
  nWritten = 0;
  nRead = 0;
  firstError = OK;
  limit = memBytes();
}

/**
 * Add a buffer of `n` elements of `elem` bytes at `ptr`, aligned to `align`
 * (0: the element size); `written` when the call writes it (in/out included).
 * Codes as checkBuf: E_NULL below the heap, then E_ALIGN, then E_BOUNDS (a
 * negative n, or an end past memory). n is an i64 so that products of i32
 * arguments do not wrap.
 */
// @ts-ignore: decorator
@inline export function region(ptr: usize, n: i64, elem: i32, align: i32, written: bool): void {
  const a = align > 0 ? align : elem;
  const bytes: u64 = <u64>n * <u64>elem;
  const end: u64 = <u64>ptr + bytes;
  let e = OK;
  if (ptr < __heap_base) e = E_NULL;
  else if ((ptr & <usize>(a - 1)) != 0) e = E_ALIGN;
  else if (n < 0 || end > limit) e = E_BOUNDS;
  if (firstError == OK) firstError = e;
  const used = n > 0;
  if ((written ? nWritten : nRead) == MAX_REGIONS) {
    if (firstError == OK) firstError = E_ARG;
    return;
  }
  let r: usize;
  if (written) {
    r = WRITTEN + (<usize>nWritten << 4);
    nWritten++;
  } else {
    r = READ + (<usize>nRead << 4);
    nRead++;
  }
  store<u64>(r, used ? <u64>ptr : 0);
  store<u64>(r, used ? end : 0, 8);
}

/**
 * The first failure of the listed buffers in the order listed, else E_ARG
 * when a written buffer overlaps any other one, else OK.
 */
export function regionsCheck(): i32 {
  if (firstError != OK) return firstError;
  const nw = nWritten, nr = nRead;
  let bad: i32 = 0; // no early exit: the pairs are few, and a branch per pair costs more than it saves
  for (let i = 0; i < nw; i++) {
    const p = WRITTEN + (<usize>i << 4);
    const b = load<u64>(p), e = load<u64>(p, 8);
    for (let j = i + 1; j < nw; j++) {
      const q = WRITTEN + (<usize>j << 4);
      bad |= <i32>(b < load<u64>(q, 8)) & <i32>(load<u64>(q) < e);
    }
    for (let j = 0; j < nr; j++) {
      const q = READ + (<usize>j << 4);
      bad |= <i32>(b < load<u64>(q, 8)) & <i32>(load<u64>(q) < e);
    }
  }
  return bad != 0 ? E_ARG : OK;
}
