// The probe action's work after its arguments are known to be good
// (probeCandidates in probe.ts checks them; the Zone engine calls this
// directly with its own tables): sampling, noise and the choice. Not an
// export of the module (index.ts re-exports probe.ts, not this file).
import { E_DEFER } from "./abi";
import { bestCandidate, fieldStep, listPlacable, nodeAt, rowOf } from "./choose";
import { xoOut } from "./stream";

/** What probeCore's reads ahead read (kept, so that they are not dropped as dead). */
let touched: i32 = 0;

/**
 * probeCandidates' work on checked arguments (see probe.ts); with choose =
 * false, only the sampling and the noise (returns 0). With `ahead` (the Zone
 * engine, whose replicas are often out of cache at scale), every candidate's
 * lines are read right after the sampling, before the noise draws. With
 * `aos`, field holds a record of `rec` bytes per node (choose.ts) and table
 * is not read. Inlined
 * at its two callers (one call site each): a call passed most of its 19
 * arguments on the stack, where its loops read them again and again.
 */
// @ts-ignore: decorator
@inline export function probeCore(
  field: usize, nodeCount: i32, table: usize, atoms: i32, cand: usize, k: i32, now: f32, m: i32, contiguous: i32,
  gamma: f32, degradeAge: f32, noise: usize, sigma: f64, rng: usize, zig: usize, seen: usize, start: i32, choose: bool = true,
  ahead: bool = false, aos: bool = false, rec: usize = 0,
): i32 {
  const words = atoms >> 6;
  // the stream in locals (registers) for the whole call: xoshiro128** as in streamNextU32, its step written
  // out at the two places that draw (a global or a memory word would cost a store and a load at every step)
  let s0 = load<u32>(rng), s1 = load<u32>(rng, 4), s2 = load<u32>(rng, 8), s3 = load<u32>(rng, 12);
  if (start == 0) {
    if (k == nodeCount) {
      for (let i = 0; i < k; i++) store<i32>(cand + (<usize>i << 2), i);
    } else {
      // two indices from each 32-bit word (sampleHalf on each 16-bit half)
      const nz = <u32>nodeCount;
      let i = 0;
      while (i < k) {
        // the word's high half first, then its low half unless k is reached (then the low half is dropped)
        const bits = xoOut(s1);
        const t2 = s2 ^ s0, t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
        i = sampleHalf(bits >>> 16, nz, seen, cand, i);
        if (i < k) i = sampleHalf(bits & 0xffff, nz, seen, cand, i);
      }
      clearSeen(seen, nz, cand, k);
    }
  }
  if (ASC_FEATURE_SIMD && aos && start == 0 && choose) {
    // the candidates that count, listed (their records' lines read) before the noise draws, for bestOfRecords
    listPlacable(field, cand, k, now, m, contiguous, degradeAge, rec);
  } else if (ahead && start == 0 && choose) {
    // every candidate's lines at once, before the noise draws (which need none of them): their misses overlap
    // each other and the draws, instead of falling one by one inside the choice's branches
    const fs = fieldStep(nodeCount, aos), stride = <usize>words << 3;
    let sum = touched;
    for (let i = 0; i < k; i++) sum ^= lines(field, fs, table, stride, load<i32>(cand + (<usize>i << 2)), aos, rec);
    touched = sum;
  }
  if (sigma > 0) {
    let i = start;
    if (ASC_FEATURE_SIMD) {
      // four draws at a time while all four stay on the ziggurat's fast path (about 89% of groups): their words
      // drawn in order, the test and the scaling lane by lane (the same f64 operations as below, then to f32);
      // a group with a draw off the fast path goes back to its first word and is drawn one by one below
      const sig = f64x2.splat(sigma);
      for (; i + 4 <= k; i += 4) {
        // the state before the group in the stream's own words (not in registers, which the loop needs)
        store<u32>(rng, s0); store<u32>(rng, s1, 4); store<u32>(rng, s2, 8); store<u32>(rng, s3, 12);
        const h0 = <i32>xoOut(s1);
        let t2 = s2 ^ s0, t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
        let hz = i32x4.splat(h0);
        hz = i32x4.replace_lane(hz, 1, <i32>xoOut(s1));
        t2 = s2 ^ s0; t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
        hz = i32x4.replace_lane(hz, 2, <i32>xoOut(s1));
        t2 = s2 ^ s0; t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
        hz = i32x4.replace_lane(hz, 3, <i32>xoOut(s1));
        t2 = s2 ^ s0; t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
        // each lane's table offset: iz * 4 (KN), iz * 8 (WN)
        const iz4 = i32x4.shl(v128.and(hz, i32x4.splat(127)), 2);
        const kn = i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(load<i32>(zig + <usize>i32x4.extract_lane(iz4, 0))),
          1, load<i32>(zig + <usize>i32x4.extract_lane(iz4, 1))), 2, load<i32>(zig + <usize>i32x4.extract_lane(iz4, 2))), 3, load<i32>(zig + <usize>i32x4.extract_lane(iz4, 3)));
        // |hz| < KN[iz], unsigned (abs(-2^31) is 2^31 as u32, as in the scalar test)
        if (i32x4.bitmask(i32x4.lt_u(i32x4.abs(hz), kn)) != 15) {
          s0 = load<u32>(rng); s1 = load<u32>(rng, 4); s2 = load<u32>(rng, 8); s3 = load<u32>(rng, 12);
          break;
        }
        const w = zig + 512;
        const w01 = f64x2.replace_lane(f64x2.splat(load<f64>(w + (<usize>i32x4.extract_lane(iz4, 0) << 1))), 1, load<f64>(w + (<usize>i32x4.extract_lane(iz4, 1) << 1)));
        const w23 = f64x2.replace_lane(f64x2.splat(load<f64>(w + (<usize>i32x4.extract_lane(iz4, 2) << 1))), 1, load<f64>(w + (<usize>i32x4.extract_lane(iz4, 3) << 1)));
        const lo = f64x2.mul(sig, f64x2.mul(f64x2.convert_low_i32x4_s(hz), w01));
        const hi = f64x2.mul(sig, f64x2.mul(f64x2.convert_low_i32x4_s(v128.shuffle<i32>(hz, hz, 2, 3, 2, 3)), w23));
        v128.store(noise + (<usize>i << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
      }
    }
    for (; i < k; i++) {
      const hz = <i32>xoOut(s1), iz = <usize>(hz & 127);
      const t2 = s2 ^ s0, t3 = s3 ^ s1;
      s2 = t2 ^ (s1 << 9); s0 ^= t3; s1 ^= t2; s3 = rotl<u32>(t3, 11);
      // |hz| < KN[iz] (the u32 |hz| is 2^31 at hz = -2^31, as in 64 bits)
      if (<u32>select<i32>(-hz, hz, hz < 0) < load<u32>(zig + (iz << 2))) {
        store<f32>(noise + (<usize>i << 2), <f32>(sigma * (<f64>hz * load<f64>(zig + 512 + (iz << 3)))));
        continue;
      }
      // off the fast path: the host finishes this draw from word hz, then calls again with start = i + 1
      store<u32>(rng, s0); store<u32>(rng, s1, 4); store<u32>(rng, s2, 8); store<u32>(rng, s3, 12);
      store<i32>(rng, i, 16);
      store<i32>(rng, hz, 20);
      return E_DEFER;
    }
  } else {
    for (let i = start; i < k; i++) store<f32>(noise + (<usize>i << 2), 0);
  }
  store<u32>(rng, s0); store<u32>(rng, s1, 4); store<u32>(rng, s2, 8); store<u32>(rng, s3, 12);
  // choose = false: the caller scores the candidates its own way (the Zone engine's wider acceptance)
  if (!choose) return 0;
  return bestCandidate(field, nodeCount, table, words, cand, k, now, m, contiguous, gamma, degradeAge, noise, aos, rec);
}

/**
 * One 16-bit draw u of the sampling: Lemire's multiply-and-reject for an
 * index below nz, kept when it is new (the `seen` bitmap). The threshold
 * 65536 mod nz (below nz) is only needed when the low half is below nz:
 * Lemire's nearly divisionless test, which also keeps the division out of
 * the loop (the JIT would otherwise put it inside). Returns i, or i + 1 with
 * the index in cand[i].
 */
// @ts-ignore: decorator
@inline function sampleHalf(u: u32, nz: u32, seen: usize, cand: usize, i: i32): i32 {
  const p = u * nz, lo = p & 0xffff;
  if (lo < nz) {
    if (lo < <u32>65536 % nz) return i;
  }
  const j = p >>> 16;
  const wp = seen + (<usize>(j >>> 5) << 2), bit = <u32>1 << (j & 31), sw = load<u32>(wp);
  if ((sw & bit) != 0) return i;
  store<u32>(wp, sw | bit);
  store<i32>(cand + (<usize>i << 2), <i32>j);
  return i + 1;
}

/**
 * The `seen` scratch clear again after a sampling of k indices below nz: the
 * whole scratch (ceil(nz / 32) words) where it is no more words than k (a
 * Zone's few words, in a few wide stores), else each candidate's word.
 */
// @ts-ignore: decorator
@inline function clearSeen(seen: usize, nz: u32, cand: usize, k: i32): void {
  const sw = (nz + 31) >>> 5;
  if (sw <= <u32>k) {
    let w: u32 = 0;
    if (ASC_FEATURE_SIMD) for (; w + 4 <= sw; w += 4) v128.store(seen + (<usize>w << 2), i64x2.splat(0));
    for (; w + 2 <= sw; w += 2) store<u64>(seen + (<usize>w << 2), 0);
    if (w < sw) store<u32>(seen + (<usize>w << 2), 0);
    return;
  }
  for (let i = 0; i < k; i++) store<u32>(seen + (<usize>(load<u32>(cand + (<usize>i << 2)) >>> 5) << 2), 0);
}

/** What reading candidate j's lines reads: its stamp, S and H, and its row's first word (one line for a record, aos). */
// @ts-ignore: decorator
@inline function lines(field: usize, fs: usize, table: usize, stride: usize, j: i32, aos: bool, rec: usize): i32 {
  const p = nodeAt(field, j, aos, rec);
  if (aos) return load<i32>(p);
  return load<i32>(p + 4 * fs) ^ load<i32>(p) ^ load<i32>(p + fs) ^ load<i32>(rowOf(table, j, stride));
}
