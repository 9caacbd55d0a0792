/* C twin of a DA's probe action; see probe.h. The same draws as the core and
 * its host: two candidates per 32-bit word (16-bit halves, Lemire's
 * multiply-and-reject), then one normal per candidate. */
#include "probe.h"
#include "score.h"

int32_t lm_probe(lm_xo *g, const float *field, int32_t nodeCount, const uint64_t *table, int32_t atoms, int32_t k,
                 float now, int32_t m, int32_t contiguous, float gamma, float degradeAge, double sigma,
                 uint32_t *seen, int32_t *cand, float *noise) {
  const uint32_t nz = (uint32_t)nodeCount, reject = 65536u % nz;
  uint32_t bits = 0;
  int have = 0;
  for (int32_t i = 0; i < k;) {
    if (have == 0) { bits = lm_xo_next(g); have = 2; }
    const uint32_t u = have == 2 ? bits >> 16 : bits & 0xffff;
    have--;
    const uint32_t p = u * nz;
    if ((p & 0xffff) < reject) continue;
    const uint32_t j = p >> 16, bit = 1u << (j & 31);
    if (seen[j >> 5] & bit) continue;
    seen[j >> 5] |= bit;
    cand[i++] = (int32_t)j;
  }
  for (int32_t i = 0; i < k; i++) seen[(uint32_t)cand[i] >> 5] = 0;
  for (int32_t i = 0; i < k; i++) noise[i] = sigma > 0 ? (float)(sigma * lm_zig_normal(g)) : 0.0f;
  const int32_t r = lm_score_candidates(field, nodeCount, table, atoms, cand, k, now, m, contiguous, gamma, degradeAge, noise);
  return r < 0 ? r : cand[r];
}
