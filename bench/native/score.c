/* C twins of scoreCandidates and zoneAggregate (assembly/score.ts): the same
 * f32 operations in the same order (-ffp-contract=off), so the same bits. */
#include "score.h"
#include "bitmap.h"
#include "micro.h"
#include "common.h"

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float pos(float x) { return x > 0.0f ? x : 0.0f; } /* NaN -> 0 */

float lm_utility(float s, float h, float gamma) {
  return fast_log2(1.0f + s) - gamma * fast_log2(1.0f + h);
}

int32_t lm_score_candidates(const float *field, int32_t nodeCount, const uint64_t *table, int32_t atoms,
                            const int32_t *cand, int32_t n, float now, int32_t m, int32_t contiguous,
                            float gamma, float degradeAge, const float *noise) {
  const size_t nn = (size_t)nodeCount;
  const int32_t words = atoms >> 6;
  const float *S = field, *H = field + nn, *dS = field + 2 * nn, *dH = field + 3 * nn, *stamp = field + 4 * nn;
  float best = -__builtin_inff();
  int32_t bi = LMN_E_NOFIT;
  for (int32_t i = 0; i < n; i++) {
    const int32_t j = cand[i];
    if (j < 0 || j >= nodeCount) return LMN_E_ID;
    const float age = pos(now - stamp[j]);
    if (age > degradeAge) continue;
    const uint64_t *row = table + (size_t)j * words;
    const int placable = contiguous ? bm_row_first_run(row, words, m) >= 0 : bm_row_free(row, words) >= m;
    if (!placable) continue;
    const float sp = pos(S[j] + age * dS[j]);
    const float hp = pos(H[j] + age * dH[j]);
    const float u = (fast_log2(1.0f + sp) - gamma * fast_log2(1.0f + hp)) + noise[i];
    if (u > best) { best = u; bi = i; }
  }
  return bi;
}

/* Node j of a Zone adds to lane (j - a) mod 4, in order, and the lanes combine
 * as (l0 + l1) + (l2 + l3) (docs/abi.md, "Reductions"). The projections are
 * computed 8 (AVX2) or 4 (SSE) nodes at a time; the ordered sums are 4-wide
 * vector adds, low half before high half, which is exactly that order. */
int32_t lm_zone_aggregate(const float *field, int32_t nodeCount, const int32_t *offsets, int32_t zones,
                          float now, float degradeAge, float degradeHeat, float *outSlack, float *outHeat) {
  const size_t nn = (size_t)nodeCount;
  const float *S = field, *H = field + nn, *dS = field + 2 * nn, *dH = field + 3 * nn, *stamp = field + 4 * nn;
  for (int32_t z = 0; z < zones; z++) {
    const int32_t a = offsets[z], b = offsets[z + 1];
    float s[4] = {0, 0, 0, 0}, h[4] = {0, 0, 0, 0};
    int32_t j = a;
#if defined(__SSE2__)
    __m128 vs = _mm_setzero_ps(), vh = _mm_setzero_ps();
#if defined(__AVX2__)
    {
      const __m256 zero = _mm256_setzero_ps(), vnow = _mm256_set1_ps(now);
      const __m256 vda = _mm256_set1_ps(degradeAge), vdh = _mm256_set1_ps(degradeHeat);
      for (; j + 8 <= b; j += 8) {
        __m256 age = _mm256_sub_ps(vnow, _mm256_loadu_ps(stamp + j));
        age = _mm256_and_ps(age, _mm256_cmp_ps(age, zero, _CMP_GT_OQ));
        const __m256 deg = _mm256_cmp_ps(age, vda, _CMP_GT_OQ);
        const __m256 hv = _mm256_loadu_ps(H + j);
        __m256 sp = _mm256_add_ps(_mm256_loadu_ps(S + j), _mm256_mul_ps(age, _mm256_loadu_ps(dS + j)));
        sp = _mm256_andnot_ps(deg, _mm256_and_ps(sp, _mm256_cmp_ps(sp, zero, _CMP_GT_OQ)));
        __m256 hp = _mm256_add_ps(hv, _mm256_mul_ps(age, _mm256_loadu_ps(dH + j)));
        hp = _mm256_and_ps(hp, _mm256_cmp_ps(hp, zero, _CMP_GT_OQ));
        hp = _mm256_blendv_ps(hp, _mm256_add_ps(hv, vdh), deg);
        vs = _mm_add_ps(vs, _mm256_castps256_ps128(sp));
        vh = _mm_add_ps(vh, _mm256_castps256_ps128(hp));
        vs = _mm_add_ps(vs, _mm256_extractf128_ps(sp, 1));
        vh = _mm_add_ps(vh, _mm256_extractf128_ps(hp, 1));
      }
    }
#endif
    {
      const __m128 zero = _mm_setzero_ps(), vnow = _mm_set1_ps(now);
      const __m128 vda = _mm_set1_ps(degradeAge), vdh = _mm_set1_ps(degradeHeat);
      for (; j + 4 <= b; j += 4) {
        __m128 age = _mm_sub_ps(vnow, _mm_loadu_ps(stamp + j));
        age = _mm_and_ps(age, _mm_cmpgt_ps(age, zero));
        const __m128 deg = _mm_cmpgt_ps(age, vda);
        const __m128 hv = _mm_loadu_ps(H + j);
        __m128 sp = _mm_add_ps(_mm_loadu_ps(S + j), _mm_mul_ps(age, _mm_loadu_ps(dS + j)));
        sp = _mm_andnot_ps(deg, _mm_and_ps(sp, _mm_cmpgt_ps(sp, zero)));
        __m128 hp = _mm_add_ps(hv, _mm_mul_ps(age, _mm_loadu_ps(dH + j)));
        hp = _mm_and_ps(hp, _mm_cmpgt_ps(hp, zero));
        hp = _mm_or_ps(_mm_and_ps(deg, _mm_add_ps(hv, vdh)), _mm_andnot_ps(deg, hp));
        vs = _mm_add_ps(vs, sp);
        vh = _mm_add_ps(vh, hp);
      }
    }
    _mm_storeu_ps(s, vs);
    _mm_storeu_ps(h, vh);
#endif
    for (; j < b; j++) {
      const float age = pos(now - stamp[j]);
      float sp, hp;
      if (age > degradeAge) {
        sp = 0.0f;
        hp = H[j] + degradeHeat;
      } else {
        sp = pos(S[j] + age * dS[j]);
        hp = pos(H[j] + age * dH[j]);
      }
      const int lane = (j - a) & 3;
      s[lane] += sp;
      h[lane] += hp;
    }
    const int32_t cnt = b - a;
    outSlack[z] = cnt > 0 ? ((s[0] + s[1]) + (s[2] + s[3])) / (float)cnt : 0.0f;
    outHeat[z] = (h[0] + h[1]) + (h[2] + h[3]);
  }
  return zones;
}
