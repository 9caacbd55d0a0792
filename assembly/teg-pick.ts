// TEG's draw of a Zone from its cumulative weights (tegWeights' table),
// shared by tegSample (score.ts) and the engine's gateway batch
// (engine/gateway.ts). Not an export of the core: callers check the table.

/** The first z with cum[z] > t, by bisection (cum: f64[zones], non-decreasing, zones >= 1); zones - 1 when none is. */
// @ts-ignore: decorator
@inline export function tegPick(cum: usize, zones: i32, t: f64): i32 {
  let lo = 0, hi = zones - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(cum + (<usize>mid << 3)) > t) hi = mid; else lo = mid + 1;
  }
  return lo;
}
