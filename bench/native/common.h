/* Shared helpers of the native reference kernels (bench/native/).
 * The deterministic generator and the checksum hash are defined in README.md
 * so that the JavaScript bench can reproduce every input and every checksum. */
#ifndef LAMINAR_BENCH_COMMON_H
#define LAMINAR_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014): state += golden gamma, then mix. */
typedef struct { uint64_t s; } sm64_t;

static inline void sm64_seed(sm64_t *g, uint64_t seed) { g->s = seed; }

static inline uint64_t sm64_next(sm64_t *g) {
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Checksum accumulator: h = (h * 31 + v) mod 2^32 over a sequence of u32. */
static inline uint32_t hash31(uint32_t h, uint32_t v) { return h * 31u + v; }

static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* The core's status codes (docs/abi.md). */
enum {
  LMN_OK = 0, LMN_E_NULL = -1, LMN_E_BOUNDS = -2, LMN_E_ALIGN = -3, LMN_E_ATOMS = -4,
  LMN_E_COUNT = -5, LMN_E_K = -6, LMN_E_CONFLICT = -7, LMN_E_FULL = -8, LMN_E_ID = -9,
  LMN_E_HORIZON = -10, LMN_E_ARG = -11, LMN_E_NOFIT = -12
};

#endif
