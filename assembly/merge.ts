// Two sorted runs of records merged into one: the canonical order of the
// simulator's messages (src/laminar/mailbox.ts), for the gateway run once
// on threads, which takes two Zone partitions' runs every half window
// (src/laminar/model.ts acceptRuns). A record is `words` f64; the runs are
// each in (word 0, word 1) order (delivery time, then source Zone).
import { E_ARG, E_COUNT } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";

/**
 * na records at a and nb at b (each `words` f64, 8-aligned), each run in
 * (word 0, word 1) order, merged into dst (na + nb records): b's record goes
 * first only when strictly before a's (so a's goes first on a tie, and
 * where a comparison meets a NaN), as mergeInto does. Returns na + nb;
 * E_COUNT (a count below 0), E_ARG (words outside [2, 64]; dst sharing a
 * byte with a or b), region codes for a, b and dst.
 */
export function mergeRecords(dst: usize, a: usize, na: i32, b: usize, nb: i32, words: i32): i32 {
  if (na < 0 || nb < 0) return E_COUNT;
  if (words < 2 || words > 64) return E_ARG;
  regionsReset();
  region(a, <i64>na * words, 8, 0, false);
  region(b, <i64>nb * words, 8, 0, false);
  region(dst, (<i64>na + nb) * words, 8, 0, true);
  const e = regionsCheck(); if (e != 0) return e;
  const bytes = <usize>words << 3, ea = a + <usize>na * bytes, eb = b + <usize>nb * bytes;
  let o = dst;
  while (a < ea && b < eb) {
    const ta = load<f64>(a), tb = load<f64>(b);
    let src = a;
    if (tb < ta || (tb == ta && load<f64>(b, 8) < load<f64>(a, 8))) {
      src = b;
      b += bytes;
    } else a += bytes;
    let w: usize = 0;
    if (ASC_FEATURE_SIMD) for (; w + 16 <= bytes; w += 16) v128.store(o + w, v128.load(src + w));
    for (; w < bytes; w += 8) store<u64>(o + w, load<u64>(src + w));
    o += bytes;
  }
  if (a < ea) memory.copy(o, a, ea - a);
  else if (b < eb) memory.copy(o, b, eb - b);
  return na + nb;
}
