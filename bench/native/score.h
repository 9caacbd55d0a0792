/* C twins of the utility-field kernels (assembly/score.ts, docs/abi.md).
 * field: f32 S[n] | H[n] | dS[n] | dH[n] | stamp[n] back to back (n = nodeCount).
 * Arguments are assumed valid; the bench only times the kernels. */
#ifndef LAMINAR_BENCH_SCORE_H
#define LAMINAR_BENCH_SCORE_H
#include <stddef.h>
#include <stdint.h>

float lm_utility(float s, float h, float gamma);
/* Index into cand of the best placable candidate by U + noise[i] (ties: lowest i), or -12 (E_NOFIT). */
int32_t lm_score_candidates(const float *field, int32_t nodeCount, const uint64_t *table, int32_t atoms,
                            const int32_t *cand, int32_t n, float now, int32_t m, int32_t contiguous,
                            float gamma, float degradeAge, const float *noise);
/* Mean projected slack and total projected heat of each Zone; returns zones. 16-byte aligned field. */
int32_t lm_zone_aggregate(const float *field, int32_t nodeCount, const int32_t *offsets, int32_t zones,
                          float now, float degradeAge, float degradeHeat, float *outSlack, float *outHeat);

#endif
