/* C twins of the bitmap batch kernels (assembly/bitmap.ts, docs/abi.md):
 * atoms/64 little-endian u64 words per node, bit b of word w = atom 64w+b,
 * 1 = free. Arguments are assumed valid (atoms a multiple of 64 in
 * [64, 1024], 0 <= k <= atoms); the bench only times the kernels. */
#ifndef LAMINAR_BENCH_BITMAP_H
#define LAMINAR_BENCH_BITMAP_H
#include <stddef.h>
#include <stdint.h>

/* Free atoms of one row. */
int32_t bm_row_free(const uint64_t *row, int32_t words);
/* Lowest offset of k contiguous free atoms in one row (runs may cross words), or -1; k = 0 gives 0. */
int32_t bm_row_first_run(const uint64_t *row, int32_t words, int32_t k);

/* out[i] = 1 where node i has >= k free atoms; returns how many do. */
int32_t bm_count_at_least(const uint64_t *table, int32_t count, int32_t atoms, int32_t k, uint8_t *out);
/* out[i] = lowest offset of a run of k free atoms, or -1; returns how many have one. */
int32_t bm_first_run(const uint64_t *table, int32_t count, int32_t atoms, int32_t k, int32_t *out);

#endif
