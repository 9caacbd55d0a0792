/* xoshiro128** streams and the 128-layer ziggurat normal (Marsaglia & Tsang
 * 2000), as src/sim/rng.ts and src/sim/ziggurat.ts define them: the draws of
 * a DA's probe action. Shared by the native bench (probe.c) and the wasm2c
 * embedding test, which finishes the draws the core defers to its host. */
#ifndef LAMINAR_BENCH_ZIGGURAT_H
#define LAMINAR_BENCH_ZIGGURAT_H
#include <stdint.h>

/* xoshiro128** state (never all zero). */
typedef struct { uint32_t s[4]; } lm_xo;

/* The next 32-bit word (src/sim/rng.ts nextU32). */
static inline uint32_t lm_xo_next(lm_xo *g) {
  uint32_t *s = g->s;
  const uint32_t x = s[1] * 5u, r = ((x << 7) | (x >> 25)) * 9u;
  const uint32_t t2 = s[2] ^ s[0], t3 = s[3] ^ s[1];
  s[2] = t2 ^ (s[1] << 9);
  s[0] ^= t3;
  s[1] ^= t2;
  s[3] = (t3 << 11) | (t3 >> 21);
  return r;
}

/* The fast path's tables (the layout the core reads: KN u32[128], WN f64[128]), filled by lm_ziggurat_init. */
extern uint32_t lm_zig_kn[128];
extern double lm_zig_wn[128];

/* Build the tables (libm's exp, log and sqrt); once, before any draw. */
void lm_ziggurat_init(void);

/* The rest of a draw whose first word, as an i32 hz, missed the fast path (zigguratFinish). */
double lm_zig_finish(lm_xo *g, int32_t hz);

/* One standard normal: one word on the fast path (|hz| < KN[hz & 127]), lm_zig_finish otherwise. */
static inline double lm_zig_normal(lm_xo *g) {
  const int32_t hz = (int32_t)lm_xo_next(g), iz = hz & 127;
  const int64_t a = hz < 0 ? -(int64_t)hz : (int64_t)hz;
  return a < (int64_t)lm_zig_kn[iz] ? (double)hz * lm_zig_wn[iz] : lm_zig_finish(g, hz);
}

#endif
