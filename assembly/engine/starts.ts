// The gateway's start latencies, counted where engineDrain finds them
// (drain.ts), for a host that sets the tasks block's HIST: one log-linear
// histogram per class (F, L, squatters) in the layout of
// src/metrics/histogram.ts with 7 sub-bucket bits, which the host adds into
// its own and empties when it reads them (src/laminar/start-hist.ts).
//
// The region (HIST_BYTES, 8-aligned): at 0, f64 the starts counted since
// the host last took that count; at HIST_CLASS + c * HIST_CLASS_BYTES,
// class c's block: f64 count, the sum as f64 units of 2^32 at 8 plus i64
// at 16 (kept below 2^62), f64 min and max at 24 and 32 (meaningless while
// count is 0), then from byte 64 f64 counts[HIST_BUCKETS] (bucket v for
// v < 256; a value v >= 256 with highest bit e in bucket
// (e - 6) * 128 + (v >> (e - 7)) - 128).

export const HIST_BUCKETS = 6017, HIST_CLASS: usize = 64, HIST_CLASS_BYTES: usize = 64 + 6017 * 8;
export const HIST_BYTES: i32 = <i32>(HIST_CLASS + 3 * HIST_CLASS_BYTES);

const MAX_V: f64 = 9007199254740992.0, CARRY_AT: i64 = 1 << 62;

/**
 * Count latency v (ns) for class cls (0 F, 1 L, above squatters) in the
 * region at h; false (nothing counted) unless v is an integer in
 * [0, 2^53], which the host's histogram rejects: the drain hands that one
 * out instead, and the host's own record says what is wrong with it.
 */
export function countStart(h: usize, cls: u32, v: f64): bool {
  if (!(v >= 0 && v <= MAX_V && v == Math.floor(v))) return false;
  const u = <i64>v, w = <f64>u; // w: -0 is 0
  let idx = u;
  if (u >= 256) {
    const e = 63 - clz(u);
    idx = ((e - 6) << 7) + (u >> (e - 7)) - 128;
  }
  const b = h + HIST_CLASS + <usize>min(cls, 2) * HIST_CLASS_BYTES;
  const n = load<f64>(b);
  store<f64>(b, n + 1);
  let s = load<i64>(b, 16) + u;
  if (s >= CARRY_AT) {
    store<f64>(b, load<f64>(b, 8) + <f64>(s >> 32), 8);
    s &= 0xffffffff;
  }
  store<i64>(b, s, 16);
  if (n == 0) {
    store<f64>(b, w, 24);
    store<f64>(b, w, 32);
  } else {
    if (w < load<f64>(b, 24)) store<f64>(b, w, 24);
    if (w > load<f64>(b, 32)) store<f64>(b, w, 32);
  }
  const c = b + 64 + (<usize>idx << 3);
  store<f64>(c, load<f64>(c) + 1);
  store<f64>(h, load<f64>(h) + 1);
  return true;
}
