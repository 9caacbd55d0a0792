// One DA probe action in one call: bounded candidate sampling, the
// symmetry-breaking score noise, and the choice (scoreCandidates' rule), with
// the caller's xoshiro128** stream. The draws are exactly those of the
// TypeScript path (src/laminar/decisions.ts sampleDistinct, then
// src/sim/ziggurat.ts zigguratNormal per candidate), so a run gives the same
// result whichever path it takes. A normal draw off the ziggurat's fast path
// (about 3% of draws; it needs exp and log, whose last bits differ between
// libraries) is left to the host: the call returns E_DEFER with the stream
// where the draw stopped, the host finishes that draw and calls again from
// the next candidate. See docs/abi.md ("Probe action").
import { checkAtoms, checkBuf, E_ARG, E_COUNT, E_DEFER, E_ID, E_K, OK } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import {
  BLOCK_ALIGN, C_ATOMS, C_CAND, C_CONTIGUOUS, C_DEGRADE_AGE, C_FIELD, C_GAMMA, C_M, C_N, C_NODE_COUNT, C_NOISE,
  C_NOW, C_TABLE, P_RNG, P_SEEN, P_SIGMA, P_START, P_ZIG, PROBE_BYTES,
} from "./blocks";
import { probeCore } from "./probe-core";
import { streamIsZero } from "./stream";

/** 4-byte words of the ziggurat table region: KN u32[128], then WN f64[128]. */
const ZIG_WORDS: i32 = (128 * 4 + 128 * 8) >> 2;
/** 4-byte words of the stream region: i32 s0..s3, then the deferred draw's candidate index and word. */
const RNG_WORDS: i32 = 6;

/**
 * Sample k distinct node indices of [0, nodeCount) with the stream into
 * cand (all of them, in order, with no draw, when k = nodeCount), draw the
 * noise of candidates start..k-1 into noise (sigma x a standard normal, as
 * f32; 0 when sigma = 0), and return the index into cand of the best
 * placable candidate (scoreCandidates), or E_NOFIT. start > 0 resumes after
 * an E_DEFER: cand and noise[0, start) are kept, nothing is sampled.
 * Arguments in the probe block at `block` (assembly/blocks.ts).
 */
export function probeCandidates(block: usize): i32 {
  let e = checkBuf(block, PROBE_BYTES, 1, BLOCK_ALIGN); if (e != OK) return e;
  const field = <usize>load<u32>(block, C_FIELD), nodeCount = load<i32>(block, C_NODE_COUNT);
  const table = <usize>load<u32>(block, C_TABLE), atoms = load<i32>(block, C_ATOMS);
  const cand = <usize>load<u32>(block, C_CAND), k = load<i32>(block, C_N);
  const now = load<f32>(block, C_NOW), m = load<i32>(block, C_M), contiguous = load<i32>(block, C_CONTIGUOUS);
  const gamma = load<f32>(block, C_GAMMA), degradeAge = load<f32>(block, C_DEGRADE_AGE);
  const noise = <usize>load<u32>(block, C_NOISE), sigma = load<f64>(block, P_SIGMA);
  const rng = <usize>load<u32>(block, P_RNG), zig = <usize>load<u32>(block, P_ZIG);
  const seen = <usize>load<u32>(block, P_SEEN), start = load<i32>(block, P_START);
  e = checkAtoms(atoms); if (e != OK) return e;
  if (nodeCount < 0 || k < 0) return E_COUNT;
  if (nodeCount > 65536 || k > nodeCount || start < 0 || start > k) return E_ARG;
  const words = atoms >> 6, seenWords = (nodeCount + 31) >> 5;
  // what is written (cand, noise, rng, seen) overlaps nothing else
  regionsReset();
  region(block, PROBE_BYTES, 1, BLOCK_ALIGN, false);
  region(field, <i64>nodeCount * 5, 4, 0, false);
  region(table, <i64>nodeCount * words, 8, 0, false);
  region(rng, RNG_WORDS, 4, 0, true);
  region(zig, ZIG_WORDS, 4, 8, false);
  region(seen, seenWords, 4, 0, true);
  region(cand, k, 4, 0, true);
  region(noise, k, 4, 0, true);
  e = regionsCheck(); if (e != OK) return e;
  if (m < 0 || m > atoms) return E_K;
  if (contiguous != 0 && contiguous != 1) return E_ARG;
  if (isNaN(now) || !isFinite(gamma) || isNaN(degradeAge)) return E_ARG;
  if (!(sigma >= 0 && sigma <= 1e30)) return E_ARG; // with the ziggurat's tables in zig, every noise value is a finite f32
  if (streamIsZero(rng)) return E_ARG; // xoshiro's fixed point: the sampling would never end
  if (start == 0 && k != nodeCount) {
    for (let w = 0; w < seenWords; w++) if (load<u32>(seen + (<usize>w << 2)) != 0) return E_ARG;
  }
  if (start > 0) {
    // resuming: cand was written by the first call, noise[0, start) by it and the host
    for (let i = 0; i < k; i++) {
      const j = load<i32>(cand + (<usize>i << 2));
      if (j < 0 || j >= nodeCount) return E_ID;
    }
    for (let i = 0; i < start; i++) if (!isFinite(load<f32>(noise + (<usize>i << 2)))) return E_ARG;
  }
  return probeCore(field, nodeCount, table, atoms, cand, k, now, m, contiguous, gamma, degradeAge, noise, sigma, rng, zig, seen, start);
}
