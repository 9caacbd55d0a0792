/* C twins of bmCountAtLeast and bmFirstRun (assembly/bitmap.ts). */
#include "bitmap.h"

int32_t bm_row_free(const uint64_t *row, int32_t words) {
  int32_t c = 0;
  for (int32_t w = 0; w < words; w++) c += __builtin_popcountll(row[w]);
  return c;
}

/* One pass over the words, low to high, carrying the length of the free run
 * that ends at the top of the previous word. A run either crosses into this
 * word (carry + this word's low ones >= k) or lies inside it: bit i of y is
 * the AND of bits i..i+k-1 (shift-and doubling), so ctz(y) is its offset. */
int32_t bm_row_first_run(const uint64_t *row, int32_t words, int32_t k) {
  if (k == 0) return 0;
  int32_t carry = 0;
  for (int32_t w = 0; w < words; w++) {
    uint64_t x = row[w];
    if (x == ~0ull) {
      if (carry + 64 >= k) return (w << 6) - carry;
      carry += 64;
      continue;
    }
    int32_t low = __builtin_ctzll(~x);
    if (carry > 0 && carry + low >= k) return (w << 6) - carry;
    if (k <= 64) {
      uint64_t y = x;
      int32_t len = 1;
      while (len * 2 <= k) { y &= y >> len; len <<= 1; }
      if (len < k) y &= y >> (k - len);
      if (y != 0) return (w << 6) + __builtin_ctzll(y);
    }
    carry = __builtin_clzll(~x);
  }
  return -1;
}

int32_t bm_count_at_least(const uint64_t *table, int32_t count, int32_t atoms, int32_t k, uint8_t *out) {
  const int32_t words = atoms >> 6;
  int32_t n = 0;
  if (words == 4) { /* the common width, fully unrolled */
    for (int32_t i = 0; i < count; i++) {
      const uint64_t *r = table + (size_t)i * 4;
      int32_t c = __builtin_popcountll(r[0]) + __builtin_popcountll(r[1]) +
                  __builtin_popcountll(r[2]) + __builtin_popcountll(r[3]);
      int32_t ok = c >= k;
      out[i] = (uint8_t)ok;
      n += ok;
    }
    return n;
  }
  for (int32_t i = 0; i < count; i++) {
    int32_t ok = bm_row_free(table + (size_t)i * words, words) >= k;
    out[i] = (uint8_t)ok;
    n += ok;
  }
  return n;
}

int32_t bm_first_run(const uint64_t *table, int32_t count, int32_t atoms, int32_t k, int32_t *out) {
  const int32_t words = atoms >> 6;
  int32_t n = 0;
  for (int32_t i = 0; i < count; i++) {
    int32_t off = bm_row_first_run(table + (size_t)i * words, words, k);
    out[i] = off;
    n += off >= 0;
  }
  return n;
}
