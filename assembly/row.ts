// Per-row bitmap primitives shared by the bitmap and scoring kernels.
// A row is `words` little-endian u64 words, bit b of word w = atom 64w + b,
// 1 = free. Not exported from the module: index.ts re-exports bitmap.ts only.

export const ALL: u64 = 0xffff_ffff_ffff_ffff;

// @ts-ignore: decorator
@inline export function rowFree(p: usize, words: i32): i32 {
  let c: u64 = 0;
  for (let w = 0; w < words; w++) c += popcnt<u64>(load<u64>(p + (<usize>w << 3)));
  return <i32>c;
}

/**
 * Lowest offset of a run of k contiguous 1-bits in the row, or -1.
 * Walks the words once, low to high, keeping `carry` = length of the run of
 * free atoms that ends at the top of the previous word. A run either crosses
 * into this word (carry + the word's low ones >= k) or lies inside it (found
 * by the shift-and doubling: bit i of y = AND of bits i..i+k-1). Checking the
 * crossing run first keeps the lowest offset.
 */
// @ts-ignore: decorator
@inline export function rowFirstRun(p: usize, words: i32, k: i32): i32 {
  if (k == 0) return 0;
  let carry: i32 = 0;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(p + (<usize>w << 3));
    if (x == ALL) {
      if (carry + 64 >= k) return (w << 6) - carry;
      carry += 64;
      continue;
    }
    const low = <i32>ctz<u64>(~x);
    if (carry > 0 && carry + low >= k) return (w << 6) - carry;
    if (k <= 64) {
      let y = x;
      let len = 1;
      while (len * 2 <= k) { y &= y >> <u64>len; len <<= 1; }
      if (len < k) y &= y >> <u64>(k - len);
      if (y != 0) return (w << 6) + <i32>ctz<u64>(y);
    }
    carry = <i32>clz<u64>(~x);
  }
  return -1;
}

