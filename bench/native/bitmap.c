/* C twins of bmCountAtLeast and bmFirstRun (assembly/bitmap.ts). */
#include "bitmap.h"

int32_t bm_row_free(const uint64_t *row, int32_t words) {
  int32_t c = 0;
  for (int32_t w = 0; w < words; w++) c += __builtin_popcountll(row[w]);
  return c;
}

/* The same algorithm as assembly/row.ts (rowFirstRun): one pass over the
 * words, low to high, carrying the length of the free run that ends at the top
 * of the previous word. A run either starts at or below this word's bit 0
 * (carry + this word's low ones >= k) or lies inside it: bit i of y is the AND
 * of bits i..i+k-1 (shift-and doubling), so ctz(y) is its offset. For k >= 64
 * only the first case exists: a branch-free pass with selects. */
static inline int32_t ctz_or64(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
static inline int32_t clz_or64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

static inline int32_t row_first_run_long(const uint64_t *row, int32_t words, int32_t k) {
  int32_t carry = 0, res = -1;
  for (int32_t w = 0; w < words; w++) {
    uint64_t x = row[w];
    int found = carry + ctz_or64(~x) >= k;
    res = (res >= 0 || !found) ? res : (w << 6) - carry;
    carry = x == ~0ull ? carry + 64 : clz_or64(~x);
  }
  return res;
}

static inline int32_t row_first_run_long4(const uint64_t *r, int32_t k) {
  uint64_t x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  int32_t c1 = clz_or64(~x0);
  int32_t c2 = x1 == ~0ull ? c1 + 64 : clz_or64(~x1);
  int32_t c3 = x2 == ~0ull ? c2 + 64 : clz_or64(~x2);
  int32_t res = c3 + ctz_or64(~x3) >= k ? 192 - c3 : -1;
  res = c2 + ctz_or64(~x2) >= k ? 128 - c2 : res;
  res = c1 + ctz_or64(~x1) >= k ? 64 - c1 : res;
  return ctz_or64(~x0) >= k ? 0 : res;
}

static inline int32_t row_first_run_short(const uint64_t *row, int32_t words, int32_t k) {
  int32_t carry = 0;
  for (int32_t w = 0; w < words; w++) {
    uint64_t x = row[w];
    if (carry + ctz_or64(~x) >= k) return (w << 6) - carry;
    uint64_t y = x;
    int32_t len = 1;
    while (len * 2 <= k) { y &= y >> len; len <<= 1; }
    if (len < k) y &= y >> (k - len);
    if (y != 0) return (w << 6) + __builtin_ctzll(y);
    carry = clz_or64(~x);
  }
  return -1;
}

int32_t bm_row_first_run(const uint64_t *row, int32_t words, int32_t k) {
  if (k == 0) return 0;
  return k >= 64 ? row_first_run_long(row, words, k) : row_first_run_short(row, words, k);
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
  if (k >= 64 && words == 4) { /* the common width, unrolled, as the wasm */
    for (int32_t i = 0; i < count; i++) {
      int32_t off = row_first_run_long4(table + (size_t)i * 4, k);
      out[i] = off;
      n += off >= 0;
    }
    return n;
  }
  for (int32_t i = 0; i < count; i++) {
    int32_t off = bm_row_first_run(table + (size_t)i * words, words, k);
    out[i] = off;
    n += off >= 0;
  }
  return n;
}
