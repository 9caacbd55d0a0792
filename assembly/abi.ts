// Shared ABI conventions of the Laminar core.
//
// Every export takes plain numbers: pointers are byte offsets into the exported
// memory (u32), counts are i32, real values are f32/f64. Every export validates
// its arguments before touching memory and returns a negative error code on bad
// input; it never traps, never loops without bound, never writes outside the
// buffers it was given. Non-negative returns are results.
//
// The region [0, __heap_base) holds the module's static data (lookup tables);
// a pointer into it (including the null pointer 0) is rejected with E_NULL, so
// a host can never overwrite the tables by mistake.

export const OK: i32 = 0;
/** Pointer is 0 or points into the module's static data. */
export const E_NULL: i32 = -1;
/** Buffer extends past the end of memory (or its size overflows). */
export const E_BOUNDS: i32 = -2;
/** Pointer not aligned to its element size. */
export const E_ALIGN: i32 = -3;
/** Atoms per node not a multiple of 64 in [64, 1024]. */
export const E_ATOMS: i32 = -4;
/** Negative count or length. */
export const E_COUNT: i32 = -5;
/** k (atoms requested) out of range [0, atoms]. */
export const E_K: i32 = -6;
/** Take of an atom that is not free, or release of an atom that is free. */
export const E_CONFLICT: i32 = -7;
/** Reserved: not returned by ABI version 2. */
export const E_FULL: i32 = -8;
/** An id or index outside its table. */
export const E_ID: i32 = -9;
/** A deadline beyond the timing wheel's horizon. */
export const E_HORIZON: i32 = -10;
/** Any other invalid argument (NaN, non-positive temperature, overlapping buffers, bad state). */
export const E_ARG: i32 = -11;
/** Expected outcome, not a bad argument: nothing fits; nothing was changed. */
export const E_NOFIT: i32 = -12;
/**
 * Expected outcome, not a bad argument: a step is left to the host, which then
 * calls again (probeCandidates: a normal draw off the ziggurat's fast path).
 */
export const E_DEFER: i32 = -13;

export const MIN_ATOMS: i32 = 64;
export const MAX_ATOMS: i32 = 1024;

/** Bytes of linear memory currently available. */
// @ts-ignore: decorator
@inline export function memBytes(): u64 {
  return (<u64>memory.size()) << 16;
}

/**
 * Check that [ptr, ptr + count * elem) is a valid buffer outside static data,
 * aligned to `align` (default: the element size). The count is an i64 so that
 * callers pass products of i32 arguments (nodes x words) without wrapping:
 * write `<i64>a * b`. A negative count is out of bounds. A zero-length buffer
 * is valid only for a non-null pointer, so that a host bug (passing 0) is
 * reported even when nothing would be read.
 */
// @ts-ignore: decorator
@inline export function checkBuf(ptr: usize, count: i64, elem: i32, align: i32 = 0): i32 {
  if (ptr < __heap_base) return E_NULL;
  const a = align > 0 ? align : elem;
  if ((ptr & <usize>(a - 1)) != 0) return E_ALIGN;
  if (count < 0) return E_BOUNDS;
  const end: u64 = <u64>ptr + <u64>count * <u64>elem;
  if (end > memBytes()) return E_BOUNDS;
  return OK;
}

/** Check an atoms-per-node width. */
// @ts-ignore: decorator
@inline export function checkAtoms(atoms: i32): i32 {
  if (atoms < MIN_ATOMS || atoms > MAX_ATOMS || (atoms & 63) != 0) return E_ATOMS;
  return OK;
}
