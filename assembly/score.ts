// The unified utility field: U = log2(1 + S_pred) - gamma * log2(1 + H_pred),
// with Z-HAF projection and long-degrade, DA candidate scoring, Zone
// aggregation and TEG Zone weights. See docs/abi.md ("Utility field").
//
// Field layout at `field` (nodeCount = n): f32 S[n] | H[n] | dS[n] | dH[n] | stamp[n].
import { checkAtoms, checkBuf, E_ARG, E_COUNT, E_ID, E_K, OK } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import {
  BLOCK_ALIGN, C_ATOMS, C_CAND, C_CONTIGUOUS, C_DEGRADE_AGE, C_FIELD, C_GAMMA, C_M, C_N, C_NODE_COUNT, C_NOISE,
  C_NOW, C_TABLE, CHOICE_BYTES, Z_DEGRADE_AGE, Z_DEGRADE_HEAT, Z_FIELD, Z_NODE_COUNT, Z_NOW, Z_OFFSETS, Z_OUT_HEAT,
  Z_OUT_SLACK, Z_ZONES, ZONE_BYTES,
} from "./blocks";
import { fastExp2Neg, fastLog2 } from "./fastmath";
import { bestCandidate, projH, projS } from "./choose";
import { tegPick } from "./teg-pick";

/** Utility of already projected slack and heat. */
export function utility(s: f32, h: f32, gamma: f32): f32 {
  return fastLog2(<f32>1.0 + s) - gamma * fastLog2(<f32>1.0 + h);
}

/**
 * Index (into cand) of the best placable candidate by U + noise[i], ties to
 * the lowest index; E_NOFIT when none is placable. Arguments in the choice
 * block at `block` (assembly/blocks.ts). Nothing is written.
 */
export function scoreCandidates(block: usize): i32 {
  let e = checkBuf(block, CHOICE_BYTES, 1, BLOCK_ALIGN); if (e != OK) return e;
  const field = <usize>load<u32>(block, C_FIELD), nodeCount = load<i32>(block, C_NODE_COUNT);
  const table = <usize>load<u32>(block, C_TABLE), atoms = load<i32>(block, C_ATOMS);
  const cand = <usize>load<u32>(block, C_CAND), n = load<i32>(block, C_N);
  const now = load<f32>(block, C_NOW), m = load<i32>(block, C_M), contiguous = load<i32>(block, C_CONTIGUOUS);
  const gamma = load<f32>(block, C_GAMMA), degradeAge = load<f32>(block, C_DEGRADE_AGE);
  const noise = <usize>load<u32>(block, C_NOISE);
  e = checkAtoms(atoms); if (e != OK) return e;
  if (nodeCount < 0 || n < 0) return E_COUNT;
  const words = atoms >> 6;
  regionsReset();
  region(field, <i64>nodeCount * 5, 4, 0, false);
  region(table, <i64>nodeCount * words, 8, 0, false);
  region(cand, n, 4, 0, false);
  region(noise, n, 4, 0, false);
  e = regionsCheck(); if (e != OK) return e;
  if (m < 0 || m > atoms) return E_K;
  if (contiguous != 0 && contiguous != 1) return E_ARG;
  if (isNaN(now) || !isFinite(gamma) || isNaN(degradeAge)) return E_ARG;
  // Every candidate id in range and every noise value finite, before any
  // work: a NaN score would silently make a placable node look unplacable.
  for (let i = 0; i < n; i++) {
    const j = load<i32>(cand + (<usize>i << 2));
    if (j < 0 || j >= nodeCount) return E_ID;
    if (!isFinite(load<f32>(noise + (<usize>i << 2)))) return E_ARG;
  }
  return bestCandidate(field, nodeCount, table, words, cand, n, now, m, contiguous, gamma, degradeAge, noise);
}

/**
 * Mean projected slack and total projected heat per Zone. Zone z is nodes
 * offsets[z] .. offsets[z+1]-1. Sums use four interleaved lanes (node j of a
 * Zone adds to lane j mod 4) combined as (l0 + l1) + (l2 + l3): the SIMD
 * build computes exactly what the scalar build and the TypeScript twin do.
 */
export function zoneAggregate(block: usize): i32 {
  let e = checkBuf(block, ZONE_BYTES, 1, BLOCK_ALIGN); if (e != OK) return e;
  const field = <usize>load<u32>(block, Z_FIELD), nodeCount = load<i32>(block, Z_NODE_COUNT);
  const offsets = <usize>load<u32>(block, Z_OFFSETS), zones = load<i32>(block, Z_ZONES);
  const now = load<f32>(block, Z_NOW), degradeAge = load<f32>(block, Z_DEGRADE_AGE);
  const degradeHeat = load<f32>(block, Z_DEGRADE_HEAT);
  const outSlack = <usize>load<u32>(block, Z_OUT_SLACK), outHeat = <usize>load<u32>(block, Z_OUT_HEAT);
  if (nodeCount < 0 || zones < 0) return E_COUNT;
  // Outputs overlap no input: the offsets are read again after outputs have
  // been written (an overlap could turn them into wild indices).
  regionsReset();
  region(block, ZONE_BYTES, 1, BLOCK_ALIGN, false);
  region(field, <i64>nodeCount * 5, 4, 0, false);
  region(offsets, <i64>zones + 1, 4, 0, false);
  region(outSlack, zones, 4, 0, true);
  region(outHeat, zones, 4, 0, true);
  e = regionsCheck(); if (e != OK) return e;
  if (isNaN(now) || isNaN(degradeAge) || isNaN(degradeHeat)) return E_ARG;
  // offsets[0] is checked against nodeCount too: with zones = 0 no later
  // offset bounds it, and the documented domain is [0, nodeCount] for all.
  let prev = load<i32>(offsets);
  if (prev < 0 || prev > nodeCount) return E_ID;
  for (let z = 1; z <= zones; z++) {
    const o = load<i32>(offsets + (<usize>z << 2));
    if (o < prev || o > nodeCount) return E_ID;
    prev = o;
  }
  const nn = <usize>nodeCount << 2;
  for (let z = 0; z < zones; z++) {
    const a = load<i32>(offsets + (<usize>z << 2));
    const b = load<i32>(offsets + (<usize>(z + 1) << 2));
    let s0: f32 = 0, s1: f32 = 0, s2: f32 = 0, s3: f32 = 0;
    let h0: f32 = 0, h1: f32 = 0, h2: f32 = 0, h3: f32 = 0;
    let j = a;
    if (ASC_FEATURE_SIMD) {
      const zero = f32x4.splat(0);
      const vnow = f32x4.splat(now), vda = f32x4.splat(degradeAge), vdh = f32x4.splat(degradeHeat);
      let vs = zero, vh = zero;
      for (; j + 4 <= b; j += 4) {
        const p = field + (<usize>j << 2);
        const S = v128.load(p), H = v128.load(p + nn), dS = v128.load(p + 2 * nn);
        const dH = v128.load(p + 3 * nn), st = v128.load(p + 4 * nn);
        let age = f32x4.sub(vnow, st);
        age = v128.and(age, f32x4.gt(age, zero));
        const deg = f32x4.gt(age, vda);
        let sp = f32x4.add(S, f32x4.mul(age, dS));
        sp = v128.andnot(v128.and(sp, f32x4.gt(sp, zero)), deg);
        let hp = f32x4.add(H, f32x4.mul(age, dH));
        hp = v128.and(hp, f32x4.gt(hp, zero));
        hp = v128.bitselect(f32x4.add(H, vdh), hp, deg);
        vs = f32x4.add(vs, sp);
        vh = f32x4.add(vh, hp);
      }
      s0 = f32x4.extract_lane(vs, 0); s1 = f32x4.extract_lane(vs, 1);
      s2 = f32x4.extract_lane(vs, 2); s3 = f32x4.extract_lane(vs, 3);
      h0 = f32x4.extract_lane(vh, 0); h1 = f32x4.extract_lane(vh, 1);
      h2 = f32x4.extract_lane(vh, 2); h3 = f32x4.extract_lane(vh, 3);
    }
    if (!ASC_FEATURE_SIMD) {
      // Four nodes a step, one per lane, branch-free (degraded rows are
      // random, a branch on them would be mispredicted).
      for (; j + 4 <= b; j += 4) {
        const p = field + (<usize>j << 2);
        s0 += projS(p, nn, now, degradeAge); h0 += projH(p, nn, now, degradeAge, degradeHeat);
        s1 += projS(p + 4, nn, now, degradeAge); h1 += projH(p + 4, nn, now, degradeAge, degradeHeat);
        s2 += projS(p + 8, nn, now, degradeAge); h2 += projH(p + 8, nn, now, degradeAge, degradeHeat);
        s3 += projS(p + 12, nn, now, degradeAge); h3 += projH(p + 12, nn, now, degradeAge, degradeHeat);
      }
    }
    for (; j < b; j++) {
      const p = field + (<usize>j << 2);
      const sp = projS(p, nn, now, degradeAge), hp = projH(p, nn, now, degradeAge, degradeHeat);
      const lane = (j - a) & 3;
      if (lane == 0) { s0 += sp; h0 += hp; }
      else if (lane == 1) { s1 += sp; h1 += hp; }
      else if (lane == 2) { s2 += sp; h2 += hp; }
      else { s3 += sp; h3 += hp; }
    }
    const cnt = b - a;
    const slack: f32 = cnt > 0 ? ((s0 + s1) + (s2 + s3)) / <f32>cnt : 0;
    store<f32>(outSlack + (<usize>z << 2), slack);
    store<f32>(outHeat + (<usize>z << 2), (h0 + h1) + (h2 + h3));
  }
  return zones;
}

/**
 * TEG sampling table: U_z from each Zone's aggregates, w_z = 2^((U_z - max U)/tau)
 * (shifted by max U so no weight overflows), outCum[z] = w_0 + ... + w_z (f64).
 */
export function tegWeights(slack: usize, heat: usize, zones: i32, gamma: f32, tau: f32, outCum: usize): i32 {
  if (zones < 1) return E_COUNT;
  regionsReset();
  region(slack, zones, 4, 0, false);
  region(heat, zones, 4, 0, false);
  region(outCum, zones, 8, 0, true);
  const e = regionsCheck(); if (e != OK) return e;
  if (!(tau > 0) || !isFinite(tau) || !isFinite(gamma)) return E_ARG;
  let umax: f32 = -Infinity;
  for (let z = 0; z < zones; z++) {
    const u = utility(load<f32>(slack + (<usize>z << 2)), load<f32>(heat + (<usize>z << 2)), gamma);
    if (u > umax) umax = u;
  }
  let cum: f64 = 0;
  for (let z = 0; z < zones; z++) {
    const u = utility(load<f32>(slack + (<usize>z << 2)), load<f32>(heat + (<usize>z << 2)), gamma);
    cum += <f64>fastExp2Neg((u - umax) / tau);
    store<f64>(outCum + (<usize>z << 3), cum);
  }
  return zones;
}

/** out[i] = first z with cum[z] > u[i] * cum[zones-1]; u[i] in [0, 1). */
export function tegSample(cum: usize, zones: i32, u: usize, n: i32, out: usize): i32 {
  if (zones < 1 || n < 0) return E_COUNT;
  regionsReset();
  region(cum, zones, 8, 0, false);
  region(u, n, 8, 0, false);
  region(out, n, 4, 0, true);
  const e = regionsCheck(); if (e != OK) return e;
  const total = load<f64>(cum + (<usize>(zones - 1) << 3));
  if (!(total > 0) || !isFinite(total)) return E_ARG;
  for (let i = 0; i < n; i++) {
    const x = load<f64>(u + (<usize>i << 3));
    if (!(x >= 0 && x < 1)) return E_ARG;
  }
  for (let i = 0; i < n; i++) {
    store<i32>(out + (<usize>i << 2), tegPick(cum, zones, load<f64>(u + (<usize>i << 3)) * total));
  }
  return n;
}
