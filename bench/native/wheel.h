/* C twin of the core's hierarchical timing wheel (assembly/wheel.ts): 6 levels
 * of 64 slots, level L slot s covering 2^(6L) ticks (after tokio's wheel).
 * Same semantics as the wheel* exports: ids fire by deadline, ascending id
 * within a tick; wheel_advance stops at the earliest deadline still due when
 * `out` is full. Native pointers and structs instead of a byte region. */
#ifndef LAMINAR_BENCH_WHEEL_H
#define LAMINAR_BENCH_WHEEL_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int32_t cap, pending;
  uint64_t now;
  uint64_t occ[6];
  int32_t head[6 * 64];
  uint64_t *deadline;
  int32_t *next, *prev, *where;
} lm_wheel;

/* Allocates the entry arrays; returns 0, or -1 when out of memory. */
int lm_wheel_init(lm_wheel *w, int32_t cap, uint64_t now);
void lm_wheel_reset(lm_wheel *w, uint64_t now);
void lm_wheel_free(lm_wheel *w);
/* 0 scheduled, 1 already due (not inserted), -9 E_ID, -7 E_CONFLICT, -10 E_HORIZON. */
int32_t lm_wheel_schedule(lm_wheel *w, int32_t id, uint64_t deadline);
/* Cancel: 1 cancelled, 0 not scheduled. */
int32_t lm_wheel_cancel(lm_wheel *w, int32_t id);
/* Fire everything due up to `now` into out[outCap]; returns how many; -11 if now is in the past. */
int32_t lm_wheel_advance(lm_wheel *w, uint64_t now, int32_t *out, int32_t outCap);

#endif
