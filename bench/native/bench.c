/* Native reference bench of the Laminar core kernels.
 *
 *   bench-native <impl> [--check]
 *
 * Times each kernel (median of REPS = 9 samples, CLOCK_MONOTONIC) and prints ONE
 * JSON object on stdout:
 *   {"impl": "<impl>", "kernels": [{"name", "nsPerOp", "checksum"}, ...]}
 * Inputs, the unit of one "op" and each checksum are defined in README.md, so
 * the JavaScript bench can reproduce them exactly. --check skips the timing
 * (nsPerOp = 0) and prints the checksums only. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitmap.h"
#include "common.h"
#include "micro.h"
#include "probe.h"
#include "score.h"
#include "wheel.h"

#define REPS 9

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return n & 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *xalloc(size_t bytes) {
  void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  if (!p) { fprintf(stderr, "bench-native: out of memory\n"); exit(2); }
  memset(p, 0, bytes);
  return p;
}

static volatile uint32_t sink;
static int timing = 1;

typedef struct { const char *name; double ns; uint32_t checksum; } row_t;
static row_t rows[16];
static int nrows;

static void report(const char *name, double *samples, uint32_t checksum) {
  rows[nrows].name = name;
  rows[nrows].ns = timing ? median(samples, REPS) : 0.0;
  rows[nrows].checksum = checksum;
  nrows++;
}

/* ---- mask-update ------------------------------------------------------- */
#define MASK_CHECK_ITERS 1000000
#define MASK_TIME_ITERS 4000000

static void bench_mask_update(void) {
  uint64_t *base = xalloc((size_t)MICRO_MASK_RECORDS * 64);
  sm64_t g; sm64_seed(&g, 42);
  for (size_t k = 0; k < (size_t)MICRO_MASK_RECORDS * 8; k++) base[k] = sm64_next(&g);
  uint32_t checksum = (uint32_t)micro_mask_update(base, MASK_CHECK_ITERS, 0, 42);
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    sink = (uint32_t)micro_mask_update(base, MASK_TIME_ITERS, 0, 42);
    t[r] = (now_ns() - t0) / MASK_TIME_ITERS;
  }
  report("mask-update", t, checksum);
  free(base);
}

/* ---- fastlog-score ----------------------------------------------------- */
#define SCORE_CHECK_ITERS 1000000
#define SCORE_TIME_ITERS 4000000

static void bench_fastlog_score(void) {
  uint32_t *table = xalloc((size_t)MICRO_SCORE_WORDS * 4);
  sm64_t g; sm64_seed(&g, 42);
  for (size_t k = 0; k < MICRO_SCORE_WORDS; k++) table[k] = (uint32_t)(sm64_next(&g) >> 32);
  uint32_t checksum = micro_fastlog_score(table, SCORE_CHECK_ITERS, 0, 0.5f);
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    sink = micro_fastlog_score(table, SCORE_TIME_ITERS, 0, 0.5f);
    t[r] = (now_ns() - t0) / SCORE_TIME_ITERS;
  }
  report("fastlog-score", t, checksum);
  free(table);
}

/* ---- zone-update ------------------------------------------------------- */
#define ZONE_CHECK_ITERS 1000
#define ZONE_TIME_ITERS 400000
#define ZONE_GAMMA 0.25f
#define ZONE_BETA 0.5f
#define ZONE_EPS (1.0f / 1048576.0f)

static void bench_zone_update(void) {
  float *o = xalloc(256 * 4), *h = xalloc(256 * 4), *s = xalloc(256 * 4);
  sm64_t g; sm64_seed(&g, 42);
  for (int j = 0; j < 256; j++) {
    h[j] = (float)(sm64_next(&g) >> 40) * (1.0f / 16777216.0f);
    s[j] = (float)(sm64_next(&g) >> 40) * (1.0f / 16777216.0f);
  }
  micro_zone_update(o, h, s, ZONE_CHECK_ITERS, ZONE_GAMMA, ZONE_BETA, ZONE_EPS);
  uint32_t checksum = 0;
  for (int j = 0; j < 256; j++) checksum = hash31(checksum, f32_bits(o[j]));
  for (int j = 0; j < 256; j++) checksum = hash31(checksum, f32_bits(h[j]));
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    micro_zone_update(o, h, s, ZONE_TIME_ITERS, ZONE_GAMMA, ZONE_BETA, ZONE_EPS);
    t[r] = (now_ns() - t0) / ZONE_TIME_ITERS;
    sink = f32_bits(o[r]);
  }
  report("zone-update", t, checksum);
  free(o); free(h); free(s);
}

/* ---- bitmaps and the utility field share one table --------------------- */
#define NODES 4096
#define ATOMS 256
#define WORDS (ATOMS / 64)
#define K 64

/* Alternating runs of free and taken atoms, lengths 1 + next() % 128. */
static void gen_bitmaps(sm64_t *g, uint64_t *table) {
  memset(table, 0, (size_t)NODES * WORDS * 8);
  for (int i = 0; i < NODES; i++) {
    uint64_t *row = table + (size_t)i * WORDS;
    int free_run = (int)(sm64_next(g) & 1);
    int a = 0;
    while (a < ATOMS) {
      int len = 1 + (int)(sm64_next(g) % 128);
      int end = a + len < ATOMS ? a + len : ATOMS;
      if (free_run)
        for (int b = a; b < end; b++) row[b >> 6] |= 1ull << (b & 63);
      a += len;
      free_run ^= 1;
    }
  }
}

#define FC_CALLS 2000
#define CR_CALLS 400

static void bench_bitmaps(void) {
  uint64_t *table = xalloc((size_t)NODES * WORDS * 8);
  uint8_t *out8 = xalloc(NODES);
  int32_t *out32 = xalloc(NODES * 4);
  sm64_t g; sm64_seed(&g, 42);
  gen_bitmaps(&g, table);

  int32_t n = bm_count_at_least(table, NODES, ATOMS, K, out8);
  uint32_t checksum = hash31(0, (uint32_t)n);
  for (int i = 0; i < NODES; i++) checksum = hash31(checksum, out8[i]);
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    for (int c = 0; c < FC_CALLS; c++) sink = (uint32_t)bm_count_at_least(table, NODES, ATOMS, K, out8);
    t[r] = (now_ns() - t0) / ((double)FC_CALLS * NODES);
  }
  report("feasible-count", t, checksum);

  n = bm_first_run(table, NODES, ATOMS, K, out32);
  checksum = hash31(0, (uint32_t)n);
  for (int i = 0; i < NODES; i++) checksum = hash31(checksum, (uint32_t)out32[i]);
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    for (int c = 0; c < CR_CALLS; c++) sink = (uint32_t)bm_first_run(table, NODES, ATOMS, K, out32);
    t[r] = (now_ns() - t0) / ((double)CR_CALLS * NODES);
  }
  report("contiguous-run", t, checksum);
  free(table); free(out8); free(out32);
}

#define SETS 1024
#define NCAND 16
#define ZONES 16
#define NOW 1000.0f
#define DEGRADE_AGE 500.0f
#define DEGRADE_HEAT 8.0f
#define GAMMA 0.5f
#define SCORE_ROUNDS 60
#define PROBE_ROUNDS 20
#define PROBE_SIGMA 0.5
#define AGG_CALLS 10000

static void bench_score(void) {
  uint64_t *table = xalloc((size_t)NODES * WORDS * 8);
  float *field = xalloc((size_t)NODES * 5 * 4);
  int32_t *cand = xalloc(SETS * NCAND * 4);
  float *noise = xalloc(SETS * NCAND * 4);
  int32_t *offsets = xalloc((ZONES + 1) * 4);
  float *slack = xalloc(ZONES * 4), *heat = xalloc(ZONES * 4);
  sm64_t g; sm64_seed(&g, 42);
  gen_bitmaps(&g, table);
  float *S = field, *H = field + NODES, *dS = field + 2 * NODES, *dH = field + 3 * NODES, *st = field + 4 * NODES;
  for (int j = 0; j < NODES; j++) {
    S[j] = (float)bm_row_free(table + (size_t)j * WORDS, WORDS);
    H[j] = (float)(sm64_next(&g) % 32);
    dS[j] = (float)((int)(sm64_next(&g) % 2001) - 1000) * (1.0f / 16384.0f);
    dH[j] = (float)((int)(sm64_next(&g) % 2001) - 1000) * (1.0f / 16384.0f);
    st[j] = 1000.0f - (float)(sm64_next(&g) % 600);
  }
  for (int c = 0; c < SETS; c++) {
    for (int i = 0; i < NCAND; i++) cand[c * NCAND + i] = (int32_t)(sm64_next(&g) % NODES);
    for (int i = 0; i < NCAND; i++)
      noise[c * NCAND + i] = (float)((int)(sm64_next(&g) % 65536) - 32768) * (1.0f / 16777216.0f);
  }
  for (int z = 0; z <= ZONES; z++) offsets[z] = z * (NODES / ZONES);

  uint32_t checksum = 0;
  for (int c = 0; c < SETS; c++) {
    int32_t r = lm_score_candidates(field, NODES, table, ATOMS, cand + c * NCAND, NCAND, NOW, K, c & 1,
                                    GAMMA, DEGRADE_AGE, noise + c * NCAND);
    checksum = hash31(checksum, (uint32_t)r);
  }
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    uint32_t acc = 0;
    for (int round = 0; round < SCORE_ROUNDS; round++)
      for (int c = 0; c < SETS; c++)
        acc += (uint32_t)lm_score_candidates(field, NODES, table, ATOMS, cand + c * NCAND, NCAND, NOW, K, c & 1,
                                             GAMMA, DEGRADE_AGE, noise + c * NCAND);
    t[r] = (now_ns() - t0) / ((double)SCORE_ROUNDS * SETS);
    sink = acc;
  }
  report("score-candidates", t, checksum);

  /* probe-candidates: 1,024 probe actions on the same field, one stream throughout */
  lm_ziggurat_init();
  uint32_t seen[NODES / 32] = {0};
  int32_t pc[NCAND];
  float pn[NCAND];
  lm_xo xo;
  sm64_t gs; sm64_seed(&gs, 42);
  for (int i = 0; i < 2; i++) {
    const uint64_t x = sm64_next(&gs);
    xo.s[2 * i] = (uint32_t)x;
    xo.s[2 * i + 1] = (uint32_t)(x >> 32);
  }
  checksum = 0;
  for (int c = 0; c < SETS; c++) {
    const int32_t r = lm_probe(&xo, field, NODES, table, ATOMS, NCAND, NOW, K, c & 1, GAMMA, DEGRADE_AGE, PROBE_SIGMA,
                               seen, pc, pn);
    checksum = hash31(checksum, (uint32_t)r);
  }
  for (int i = 0; i < 4; i++) checksum = hash31(checksum, xo.s[i]);
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    uint32_t acc = 0;
    for (int round = 0; round < PROBE_ROUNDS; round++)
      for (int c = 0; c < SETS; c++)
        acc += (uint32_t)lm_probe(&xo, field, NODES, table, ATOMS, NCAND, NOW, K, c & 1, GAMMA, DEGRADE_AGE, PROBE_SIGMA,
                                  seen, pc, pn);
    t[r] = (now_ns() - t0) / ((double)PROBE_ROUNDS * SETS);
    sink = acc;
  }
  report("probe-candidates", t, checksum);

  lm_zone_aggregate(field, NODES, offsets, ZONES, NOW, DEGRADE_AGE, DEGRADE_HEAT, slack, heat);
  checksum = 0;
  for (int z = 0; z < ZONES; z++) checksum = hash31(checksum, f32_bits(slack[z]));
  for (int z = 0; z < ZONES; z++) checksum = hash31(checksum, f32_bits(heat[z]));
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    for (int c = 0; c < AGG_CALLS; c++) {
      lm_zone_aggregate(field, NODES, offsets, ZONES, NOW, DEGRADE_AGE, DEGRADE_HEAT, slack, heat);
      __asm__ volatile("" ::: "memory");
    }
    t[r] = (now_ns() - t0) / ((double)AGG_CALLS * ZONES);
    sink = f32_bits(slack[0]);
  }
  report("zone-aggregate", t, checksum);
  free(table); free(field); free(cand); free(noise); free(offsets); free(slack); free(heat);
}

/* ---- wheel-schedule-advance ------------------------------------------- */
#define TIMERS 65536
#define HORIZON 100000
#define STEP 1000
#define WHEEL_RUNS 5

static uint32_t wheel_run(lm_wheel *w, const uint64_t *dl, int32_t *out) {
  lm_wheel_reset(w, 0);
  for (int32_t id = 0; id < TIMERS; id++) lm_wheel_schedule(w, id, dl[id]);
  uint32_t h = 0;
  for (uint64_t t = STEP; t <= HORIZON + STEP; t += STEP) {
    int32_t n = lm_wheel_advance(w, t, out, TIMERS);
    for (int32_t i = 0; i < n; i++) h = hash31(h, (uint32_t)out[i]);
  }
  return h;
}

static void bench_wheel(void) {
  uint64_t *dl = xalloc(TIMERS * 8);
  int32_t *out = xalloc(TIMERS * 4);
  sm64_t g; sm64_seed(&g, 42);
  for (int i = 0; i < TIMERS; i++) dl[i] = 1 + sm64_next(&g) % HORIZON;
  lm_wheel w;
  if (lm_wheel_init(&w, TIMERS, 0) != 0) { fprintf(stderr, "bench-native: out of memory\n"); exit(2); }
  uint32_t checksum = wheel_run(&w, dl, out);
  double t[REPS];
  for (int r = 0; r < REPS && timing; r++) {
    double t0 = now_ns();
    for (int k = 0; k < WHEEL_RUNS; k++) sink = wheel_run(&w, dl, out);
    t[r] = (now_ns() - t0) / ((double)WHEEL_RUNS * TIMERS);
  }
  report("wheel-schedule-advance", t, checksum);
  lm_wheel_free(&w);
  free(dl); free(out);
}

int main(int argc, char **argv) {
  const char *impl = "native";
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--check")) timing = 0;
    else if (argv[a][0] == '-') { fprintf(stderr, "usage: bench-native <impl> [--check]\n"); return 2; }
    else impl = argv[a];
  }
  for (const char *c = impl; *c; c++)
    if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) { fprintf(stderr, "bench-native: bad impl name\n"); return 2; }
  bench_mask_update();
  bench_fastlog_score();
  bench_zone_update();
  bench_bitmaps();
  bench_score();
  bench_wheel();
  printf("{\"impl\": \"%s\", \"kernels\": [", impl);
  for (int i = 0; i < nrows; i++)
    printf("%s{\"name\": \"%s\", \"nsPerOp\": %.3f, \"checksum\": %u}", i ? ", " : "", rows[i].name, rows[i].ns,
           rows[i].checksum);
  printf("]}\n");
  return 0;
}
