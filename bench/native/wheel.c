/* C twin of assembly/wheel.ts: the same algorithm (tokio-style level_for,
 * rotate + trailing zeros to find the next slot, cascading, and a bounded
 * max-heap that fires the smallest ids of a level-0 slot first). */
#include "wheel.h"
#include "common.h"
#include <stdlib.h>

#define LEVELS 6
#define SLOTS 64
#define MAX_HORIZON ((1ull << 36) - 1)
#define NONE (-1)

static inline int level_for(uint64_t elapsed, uint64_t when) {
  uint64_t masked = (elapsed ^ when) | 63;
  if (masked > MAX_HORIZON) return LEVELS - 1;
  return (63 - __builtin_clzll(masked)) / 6;
}

static inline int slot_for(uint64_t when, int level) { return (int)((when >> (level * 6)) & 63); }

static inline int in_range(int32_t i, int32_t cap) { return (uint32_t)i < (uint32_t)cap; }

int lm_wheel_init(lm_wheel *w, int32_t cap, uint64_t now) {
  w->cap = cap;
  w->deadline = malloc(sizeof(uint64_t) * (size_t)(cap ? cap : 1));
  w->next = malloc(sizeof(int32_t) * (size_t)(cap ? cap : 1));
  w->prev = malloc(sizeof(int32_t) * (size_t)(cap ? cap : 1));
  w->where = malloc(sizeof(int32_t) * (size_t)(cap ? cap : 1));
  if (!w->deadline || !w->next || !w->prev || !w->where) return -1;
  lm_wheel_reset(w, now);
  return 0;
}

void lm_wheel_reset(lm_wheel *w, uint64_t now) {
  w->now = now;
  w->pending = 0;
  memset(w->occ, 0, sizeof w->occ);
  memset(w->head, 0xff, sizeof w->head);
  memset(w->deadline, 0, sizeof(uint64_t) * (size_t)w->cap);
  memset(w->next, 0xff, sizeof(int32_t) * (size_t)w->cap);
  memset(w->prev, 0xff, sizeof(int32_t) * (size_t)w->cap);
  memset(w->where, 0xff, sizeof(int32_t) * (size_t)w->cap);
}

void lm_wheel_free(lm_wheel *w) {
  free(w->deadline);
  free(w->next);
  free(w->prev);
  free(w->where);
}

static void link_entry(lm_wheel *w, int32_t id, uint64_t when, uint64_t elapsed) {
  const int level = level_for(elapsed, when);
  const int slot = slot_for(when, level);
  const int idx = (level << 6) | slot;
  const int32_t head = w->head[idx];
  w->next[id] = head;
  w->prev[id] = NONE;
  if (in_range(head, w->cap)) w->prev[head] = id;
  w->head[idx] = id;
  w->where[id] = idx;
  w->deadline[id] = when;
  w->occ[level] |= 1ull << slot;
}

static void unlink_entry(lm_wheel *w, int32_t id) {
  const int32_t idx = w->where[id];
  w->where[id] = NONE;
  if ((uint32_t)idx >= (uint32_t)(LEVELS * SLOTS)) return;
  int32_t p = w->prev[id], n = w->next[id];
  if (!in_range(p, w->cap)) p = NONE;
  if (!in_range(n, w->cap)) n = NONE;
  if (n != NONE) w->prev[n] = p;
  if (p != NONE) {
    w->next[p] = n;
  } else {
    w->head[idx] = n;
    if (n == NONE) w->occ[idx >> 6] &= ~(1ull << (idx & 63));
  }
}

/* Level of the next slot to process (or -1), its slot and start time. */
static int next_expiration(const lm_wheel *w, uint64_t elapsed, int *out_slot, uint64_t *out_deadline) {
  for (int level = 0; level < LEVELS; level++) {
    const uint64_t occ = w->occ[level];
    if (occ == 0) continue;
    const int shift = level * 6;
    const int now_slot = (int)((elapsed >> shift) & 63);
    const int start = level == 0 ? now_slot : (now_slot + 1) & 63;
    const uint64_t rot = start ? (occ >> start) | (occ << (64 - start)) : occ;
    const int slot = (start + __builtin_ctzll(rot)) & 63;
    const uint64_t range = 1ull << (shift + 6);
    uint64_t deadline = (elapsed & ~(range - 1)) + ((uint64_t)slot << shift);
    if (deadline < elapsed || (level > 0 && deadline == elapsed)) deadline += range;
    *out_slot = slot;
    *out_deadline = deadline;
    return level;
  }
  return -1;
}

static void sift_down(int32_t *h, int32_t root, int32_t size) {
  const int32_t v = h[root];
  int32_t i = root;
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= size) break;
    int32_t cv = h[c];
    if (c + 1 < size && h[c + 1] > cv) cv = h[++c];
    if (cv <= v) break;
    h[i] = cv;
    i = c;
  }
  h[i] = v;
}

/* Fire level-0 slot `slot`: the `room` smallest ids, ascending, into dst. */
static int32_t fire(lm_wheel *w, int slot, int32_t *dst, int32_t room) {
  int32_t i = w->head[slot], m = 0, guard = w->cap;
  while (in_range(i, w->cap) && guard-- > 0) {
    if (m < room) {
      int32_t c = m++;
      while (c > 0) {
        const int32_t p = (c - 1) >> 1;
        if (dst[p] >= i) break;
        dst[c] = dst[p];
        c = p;
      }
      dst[c] = i;
    } else if (i < dst[0]) {
      dst[0] = i;
      sift_down(dst, 0, m);
    }
    i = w->next[i];
  }
  for (int32_t end = m - 1; end > 0; end--) {
    const int32_t top = dst[0];
    dst[0] = dst[end];
    dst[end] = top;
    sift_down(dst, 0, end);
  }
  for (int32_t j = 0; j < m; j++) unlink_entry(w, dst[j]);
  w->pending -= m;
  return m;
}

static void cascade(lm_wheel *w, int level, int slot, uint64_t elapsed) {
  const int idx = (level << 6) | slot;
  int32_t i = w->head[idx], guard = w->cap;
  w->head[idx] = NONE;
  w->occ[level] &= ~(1ull << slot);
  while (in_range(i, w->cap) && guard-- > 0) {
    const int32_t nx = w->next[i];
    link_entry(w, i, w->deadline[i], elapsed);
    i = nx;
  }
}

int32_t lm_wheel_schedule(lm_wheel *w, int32_t id, uint64_t when) {
  if (!in_range(id, w->cap)) return LMN_E_ID;
  if ((uint32_t)w->where[id] < (uint32_t)(LEVELS * SLOTS)) return LMN_E_CONFLICT;
  if (when <= w->now) return 1;
  if (when - w->now > MAX_HORIZON) return LMN_E_HORIZON;
  link_entry(w, id, when, w->now);
  w->pending++;
  return 0;
}

int32_t lm_wheel_cancel(lm_wheel *w, int32_t id) {
  if (!in_range(id, w->cap)) return LMN_E_ID;
  if ((uint32_t)w->where[id] >= (uint32_t)(LEVELS * SLOTS)) return 0;
  unlink_entry(w, id);
  w->pending--;
  return 1;
}

int32_t lm_wheel_advance(lm_wheel *w, uint64_t target, int32_t *out, int32_t outCap) {
  uint64_t elapsed = w->now;
  if (target < elapsed) return LMN_E_ARG;
  int32_t n = 0;
  int64_t guard = 6 * (int64_t)w->cap + 2;
  while (guard-- > 0) {
    int slot;
    uint64_t deadline;
    const int level = next_expiration(w, elapsed, &slot, &deadline);
    if (level < 0 || deadline > target) { elapsed = target; break; }
    elapsed = deadline;
    if (level == 0) {
      if (n == outCap) break;
      n += fire(w, slot, out + n, outCap - n);
    } else {
      cascade(w, level, slot, elapsed);
    }
  }
  w->now = elapsed;
  return n;
}
