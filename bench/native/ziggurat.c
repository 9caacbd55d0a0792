/* See ziggurat.h. */
#include "ziggurat.h"
#include <math.h>

uint32_t lm_zig_kn[128];
double lm_zig_wn[128];
static double FN[128];
static const double ZR = 3.442619855899;

void lm_ziggurat_init(void) {
  const double m1 = 2147483648.0, vn = 9.91256303526217e-3;
  double dn = ZR, tn = dn;
  const double q = vn / exp(-0.5 * dn * dn);
  lm_zig_kn[0] = (uint32_t)floor((dn / q) * m1);
  lm_zig_kn[1] = 0;
  lm_zig_wn[0] = q / m1;
  lm_zig_wn[127] = dn / m1;
  FN[0] = 1.0;
  FN[127] = exp(-0.5 * dn * dn);
  for (int i = 126; i >= 1; i--) {
    dn = sqrt(-2.0 * log(vn / dn + exp(-0.5 * dn * dn)));
    lm_zig_kn[i + 1] = (uint32_t)floor((dn / tn) * m1);
    tn = dn;
    FN[i] = exp(-0.5 * dn * dn);
    lm_zig_wn[i] = dn / m1;
  }
}

/* A uniform double in [0, 1) from two words (src/sim/rng.ts float). */
static double xo_float(lm_xo *g) {
  const uint32_t a = lm_xo_next(g) >> 5, b = lm_xo_next(g) >> 6;
  return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

double lm_zig_finish(lm_xo *g, int32_t hz) {
  int32_t iz = hz & 127;
  for (;;) {
    if (iz == 0) {
      /* the base layer's tail beyond R (Marsaglia 1964) */
      double x, y;
      do {
        x = -log(1.0 - xo_float(g)) / ZR;
        y = -log(1.0 - xo_float(g));
      } while (y + y < x * x);
      return hz > 0 ? ZR + x : -ZR - x;
    }
    const double x = (double)hz * lm_zig_wn[iz];
    if (FN[iz] + xo_float(g) * (FN[iz - 1] - FN[iz]) < exp(-0.5 * x * x)) return x;
    hz = (int32_t)lm_xo_next(g);
    iz = hz & 127;
    const int64_t a = hz < 0 ? -(int64_t)hz : (int64_t)hz;
    if (a < (int64_t)lm_zig_kn[iz]) return (double)hz * lm_zig_wn[iz];
  }
}
