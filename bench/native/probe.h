/* C twin of a DA's probe action (assembly/probe.ts probeCandidates, with the
 * host's share: src/laminar/probe.ts Prober): bounded candidate sampling with
 * a xoshiro128** stream, ziggurat score noise (ziggurat.h), and
 * scoreCandidates' choice. The draws off the ziggurat's fast path are
 * finished in place (libm's exp and log), where the core hands them to its
 * host. Arguments are assumed valid; the bench only times the action. */
#ifndef LAMINAR_BENCH_PROBE_H
#define LAMINAR_BENCH_PROBE_H
#include <stddef.h>
#include <stdint.h>
#include "ziggurat.h"

/* Sample k distinct nodes of nodeCount (k < nodeCount <= 65536) into cand, draw
 * their noise (sigma x a standard normal, as f32) into noise, and return the
 * chosen node (cand[best]), or -12 (E_NOFIT) when no candidate is placable.
 * seen: (nodeCount + 31) / 32 zeroed words of scratch, left zeroed.
 * lm_ziggurat_init must have run. */
int32_t lm_probe(lm_xo *g, const float *field, int32_t nodeCount, const uint64_t *table, int32_t atoms, int32_t k,
                 float now, int32_t m, int32_t contiguous, float gamma, float degradeAge, double sigma,
                 uint32_t *seen, int32_t *cand, float *noise);

#endif
