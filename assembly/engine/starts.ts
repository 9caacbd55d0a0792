// The gateway's start latencies, counted where engineDrain finds them
// (drain.ts), for a host that sets the tasks block's HIST: one log-linear
// histogram per class (F, L, squatters) in the layout of
// src/metrics/histogram.ts with 7 sub-bucket bits, which the host adds into
// its own and empties when it reads them (src/laminar/start-hist.ts).
//
// The region (HIST_BYTES, 8-aligned): at 0, f64 the starts counted since
// the host last took that count; at HIST_CLASS + c * HIST_CLASS_BYTES,
// class c's block: f64 count, sum's high limb (units of 2^32), sum's low
// limb (below 2^32), min and max (meaningless while count is 0), then from
// byte 64 f64 counts[HIST_BUCKETS] (bucket v for v < 256; a value v >= 256
// with highest bit e in bucket (e - 6) * 128 + (v >> (e - 7)) - 128).

export const HIST_BUCKETS = 6017, HIST_CLASS: usize = 64, HIST_CLASS_BYTES: usize = 64 + 6017 * 8;
export const HIST_BYTES: i32 = <i32>(HIST_CLASS + 3 * HIST_CLASS_BYTES);

const TWO32: f64 = 4294967296.0, MAX_V: f64 = 9007199254740992.0;

/**
 * Count latency v (ns) for class cls (0 F, 1 L, anything else squatters)
 * in the region at h; false (nothing counted) unless v is an integer in
 * [0, 2^53], which the host's histogram rejects: the drain hands that one
 * out instead, and the host's own record says what is wrong with it.
 */
export function countStart(h: usize, cls: i32, v: f64): bool {
  if (!(v >= 0 && v <= MAX_V && v == Math.floor(v))) return false;
  if (v == 0) v = 0; // -0 is 0
  const u = <u64>v;
  let idx: usize;
  if (u < 256) idx = <usize>u;
  else {
    const e = 63 - <i32>clz(u);
    idx = <usize>((e - 6) * 128 + <i32>(u >> <u64>(e - 7)) - 128);
  }
  const b = h + HIST_CLASS + <usize>(cls == 0 ? 0 : cls == 1 ? 1 : 2) * HIST_CLASS_BYTES;
  const n = load<f64>(b);
  // the sum in two limbs, as the host's histogram adds it (addLimbs)
  let hi = <f64>(u >> 32), lo = load<f64>(b, 16) + <f64>(u & 0xffffffff);
  if (lo >= TWO32) {
    lo -= TWO32;
    hi += 1;
  }
  store<f64>(b, n + 1);
  store<f64>(b, load<f64>(b, 8) + hi, 8);
  store<f64>(b, lo, 16);
  if (n == 0 || v < load<f64>(b, 24)) store<f64>(b, v, 24);
  if (n == 0 || v > load<f64>(b, 32)) store<f64>(b, v, 32);
  const c = b + 64 + (idx << 3);
  store<f64>(c, load<f64>(c) + 1);
  store<f64>(h, load<f64>(h) + 1);
  return true;
}
