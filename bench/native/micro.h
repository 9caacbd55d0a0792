/* C twins of the core's micro-kernels (assembly/micro.ts): same arithmetic,
 * same results, native instruction set. Pointers are real pointers here. */
#ifndef LAMINAR_BENCH_MICRO_H
#define LAMINAR_BENCH_MICRO_H
#include <stddef.h>
#include <stdint.h>

#define MICRO_MASK_RECORDS 16384  /* x 64 B = 1 MiB */
#define MICRO_SCORE_WORDS 262144  /* x 4 B = 1 MiB */
#define MICRO_ZONE_NODES 256

/* ln(v) for a u32 by bit scan + 256-entry table (fastLnU32 of assembly/fastmath.ts); v = 0 counts as 1. */
float fast_ln_u32(uint32_t v);
/* log2(x), x >= 1 (fastLog2 of assembly/fastmath.ts). */
float fast_log2(float x);
/* 2^x, x <= 0 (fastExp2Neg of assembly/fastmath.ts). */
float fast_exp2_neg(float x);

/* base: 16,384 records of 64 bytes (R: 4 u64, D: 4 u64), 32-byte aligned.
 * Returns lo32 of the last dependency value (as the wasm export's i32). */
int32_t micro_mask_update(uint64_t *base, int32_t iters, int32_t start, uint32_t seed);
/* table: 262,144 u32. Returns the xor of all score bit patterns. */
uint32_t micro_fastlog_score(const uint32_t *table, int32_t iters, int32_t start, float gamma);
/* o, h, s: f32[256], 32-byte aligned, not overlapping. */
int32_t micro_zone_update(float *o, float *h, const float *s, int32_t iters, float gamma, float beta, float eps);

#endif
