// The paper's three hot-path micro-kernels, defined exactly once here and
// mirrored by the TypeScript twin (src/core/reference/micro.ts) and the C
// reference (bench/native/micro.c). Each runs `iters` steps and returns a
// checksum, so every implementation can be checked against the others.
//
// (a) mask-update: one node's 256-bit residual-mask update, a dependent chain
//     over a 1 MiB working set of 16,384 records of two 256-bit masks
//     (residual R, demand D; 64 bytes each):
//        r = (R[i] ^ broadcast(dep)) & ~D[i];  R[i] = r;
//        x = lane0(r) ^ lane1(r);  dep = x;  i = (lo32(x) ^ hi32(x)) & 16383
// (b) fastlog-score: one node's score from a 1 MiB table of 262,144 u32 words,
//     each packing slack S (low 16 bits) and heat H (high 16 bits):
//        u = ln(1+S) - gamma * ln(1+H)   (fast ln: bit scan + 256-entry f32 table)
//        sum ^= bits(u),  i = (v ^ sum) & 262143
//     (the next index depends on every score so far, so the walk does not fall
//     into a short cycle of the table and really spans the 1 MiB)
// (c) zone-update: one Zone's field update over 256 f32 nodes:
//        O[j] += gamma * H[j]^3 + beta * S[j];  H[j] += eps     for j in 0..255
//     (computed as gamma*(H*H*H) + beta*S, no fused multiply-add, so every
//     implementation rounds identically).
import { checkBuf, E_COUNT, E_ID } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import { fastLnU32 } from "./fastmath";

const MASK_RECORDS: i32 = 16384; // 16,384 x 64 B = 1 MiB
const SCORE_WORDS: i32 = 262144; // 262,144 x 4 B = 1 MiB
const ZONE_NODES: i32 = 256;

/** Bytes of the mask-update working set (two 256-bit masks per record). */
export function microMaskBytes(): i32 { return MASK_RECORDS * 64; }
/** Bytes of the fastlog-score table. */
export function microScoreBytes(): i32 { return SCORE_WORDS * 4; }

/**
 * Run `iters` dependent mask updates starting at record `start` with
 * dependency value `seed` (u32). Returns lo32 of the final x as a
 * non-negative f64 (a u32, so no result looks like a status code), or a
 * negative error code.
 */
export function microMaskUpdate(base: usize, iters: i32, start: i32, seed: u32): f64 {
  if (iters < 0) return E_COUNT;
  const e = checkBuf(base, MASK_RECORDS * 16, 4, 16);
  if (e != 0) return e;
  if (start < 0 || start >= MASK_RECORDS) return E_ID;
  let i = <usize>start;
  let dep: u64 = <u64>seed;
  if (ASC_FEATURE_SIMD) {
    for (let n = 0; n < iters; n++) {
      const p = base + (i << 6);
      const d = i64x2.splat(<i64>dep);
      // x is recomputed from scalar loads (the same value as lanes 0 and 1 of
      // r0), which keeps a vector-to-integer move off the loop-carried chain.
      const x = ((load<u64>(p) ^ dep) & ~load<u64>(p, 32)) ^ ((load<u64>(p, 8) ^ dep) & ~load<u64>(p, 40));
      const r0 = v128.andnot(v128.xor(v128.load(p), d), v128.load(p, 32));
      const r1 = v128.andnot(v128.xor(v128.load(p, 16), d), v128.load(p, 48));
      v128.store(p, r0);
      v128.store(p, r1, 16);
      dep = x;
      i = <usize>((<u32>x ^ <u32>(x >> 32)) & <u32>(MASK_RECORDS - 1));
    }
  } else {
    for (let n = 0; n < iters; n++) {
      const p = base + (i << 6);
      const r0 = (load<u64>(p) ^ dep) & ~load<u64>(p, 32);
      const r1 = (load<u64>(p, 8) ^ dep) & ~load<u64>(p, 40);
      const r2 = (load<u64>(p, 16) ^ dep) & ~load<u64>(p, 48);
      const r3 = (load<u64>(p, 24) ^ dep) & ~load<u64>(p, 56);
      store<u64>(p, r0); store<u64>(p, r1, 8); store<u64>(p, r2, 16); store<u64>(p, r3, 24);
      const x = r0 ^ r1;
      dep = x;
      i = <usize>((<u32>x ^ <u32>(x >> 32)) & <u32>(MASK_RECORDS - 1));
    }
  }
  return <f64>(<u32>dep);
}

/**
 * Run `iters` dependent node scores over the 1 MiB table from word `start`.
 * Returns the xor of all score bit patterns as a non-negative f64 (a u32),
 * or a negative error code.
 */
export function microFastlogScore(table: usize, iters: i32, start: i32, gamma: f32): f64 {
  if (iters < 0) return <f64>E_COUNT;
  const e = checkBuf(table, SCORE_WORDS, 4, 16);
  if (e != 0) return <f64>e;
  if (start < 0 || start >= SCORE_WORDS) return <f64>E_ID;
  let i = <usize>start;
  let sum: u32 = 0;
  for (let n = 0; n < iters; n++) {
    const v = load<u32>(table + (i << 2));
    const u = fastLnU32((v & 0xffff) + 1) - gamma * fastLnU32((v >> 16) + 1);
    const b = reinterpret<u32>(u);
    sum ^= b;
    i = <usize>((v ^ sum) & <u32>(SCORE_WORDS - 1));
  }
  return <f64>sum;
}

/** Two zone updates of four nodes, in registers (see microZoneUpdate). */
// @ts-ignore: decorator
@inline function zoneTwo(o: usize, h: usize, s: usize, g: v128, b: v128, ep: v128): void {
  const h0 = v128.load(h);
  const bs = f32x4.mul(b, v128.load(s));
  const h1 = f32x4.add(h0, ep);
  const o1 = f32x4.add(v128.load(o), f32x4.add(f32x4.mul(g, f32x4.mul(f32x4.mul(h0, h0), h0)), bs));
  v128.store(o, f32x4.add(o1, f32x4.add(f32x4.mul(g, f32x4.mul(f32x4.mul(h1, h1), h1)), bs)));
  v128.store(h, f32x4.add(h1, ep));
}

/**
 * Apply `iters` zone updates to the 256-node arrays O, H, S (f32, 16-byte
 * aligned). Returns 0, or a negative error code.
 */
export function microZoneUpdate(o: usize, h: usize, s: usize, iters: i32, gamma: f32, beta: f32, eps: f32): i32 {
  if (iters < 0) return E_COUNT;
  regionsReset();
  region(o, ZONE_NODES, 4, 16, true);
  region(h, ZONE_NODES, 4, 16, true);
  region(s, ZONE_NODES, 4, 16, false);
  const e = regionsCheck(); if (e != 0) return e;
  // Two zone updates per pass over the arrays ("unroll and jam", as the C
  // twin in bench/native does too): per node, the two updates are computed in
  // registers in exactly the order of two separate passes (beta*S is the same
  // product both times), so the result is bit-identical to one pass at a
  // time, with half the loads and stores.
  let n = 0;
  if (ASC_FEATURE_SIMD) {
    const g = f32x4.splat(gamma);
    const b = f32x4.splat(beta);
    const ep = f32x4.splat(eps);
    for (; iters - n >= 2; n += 2) {
      for (let j: usize = 0; j < <usize>ZONE_NODES * 4; j += 32) {
        zoneTwo(o + j, h + j, s + j, g, b, ep);
        zoneTwo(o + j + 16, h + j + 16, s + j + 16, g, b, ep);
      }
    }
    if (n < iters) {
      for (let j: usize = 0; j < <usize>ZONE_NODES * 4; j += 16) {
        const hv = v128.load(h + j);
        v128.store(o + j, f32x4.add(v128.load(o + j), f32x4.add(f32x4.mul(g, f32x4.mul(f32x4.mul(hv, hv), hv)), f32x4.mul(b, v128.load(s + j)))));
        v128.store(h + j, f32x4.add(hv, ep));
      }
    }
  } else {
    for (; iters - n >= 2; n += 2) {
      for (let j: usize = 0; j < <usize>ZONE_NODES * 4; j += 4) {
        const h0 = load<f32>(h + j);
        const bs = beta * load<f32>(s + j);
        const h1 = h0 + eps;
        const o1 = load<f32>(o + j) + (gamma * (h0 * h0 * h0) + bs);
        store<f32>(o + j, o1 + (gamma * (h1 * h1 * h1) + bs));
        store<f32>(h + j, h1 + eps);
      }
    }
    if (n < iters) {
      for (let j: usize = 0; j < <usize>ZONE_NODES * 4; j += 4) {
        const hv = load<f32>(h + j);
        store<f32>(o + j, load<f32>(o + j) + (gamma * (hv * hv * hv) + beta * load<f32>(s + j)));
        store<f32>(h + j, hv + eps);
      }
    }
  }
  return 0;
}
