// sin x and cos x, bit for bit as Node 20's Math.sin and Math.cos (V8's
// port of fdlibm, src/base/ieee754.cc), for |x| <= 2^19 pi / 2: the range
// that needs no multi-precision reduction, as src/sim/fdlibm.ts's portSin
// and portCos, of which this is the same code for WebAssembly (the same
// reduction, polynomials, constants as bit patterns and order of every
// operation). The arrival streams' Box-Muller normals draw an angle in
// [0, 2 pi) (assembly/arrivals.ts). Not an export of the module.
//
// Algorithms from fdlibm (k_sin.c, k_cos.c, e_rem_pio2.c, s_sin.c, s_cos.c):
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

// @ts-ignore: decorator
@inline function hiWord(x: f64): i32 { return <i32>(reinterpret<u64>(x) >>> 32); }

// sin(x) ~ x + S1 x^3 + ... + S6 x^13 and cos(x) ~ 1 - x^2 / 2 + C1 x^4 + ... + C6 x^14 on [-pi/4, pi/4]
const S1 = reinterpret<f64>(0xbfc5555555555549);
const S2 = reinterpret<f64>(0x3f8111111110f8a6);
const S3 = reinterpret<f64>(0xbf2a01a019c161d5);
const S4 = reinterpret<f64>(0x3ec71de357b1fe7d);
const S5 = reinterpret<f64>(0xbe5ae5e68a2b9ceb);
const S6 = reinterpret<f64>(0x3de5d93a5acfd57c);
const C1 = reinterpret<f64>(0x3fa555555555554c);
const C2 = reinterpret<f64>(0xbf56c16c16c15177);
const C3 = reinterpret<f64>(0x3efa01a019cb1590);
const C4 = reinterpret<f64>(0xbe927e4f809c52ad);
const C5 = reinterpret<f64>(0x3e21ee9ebdb4b1c4);
const C6 = reinterpret<f64>(0xbda8fae9be8838d4);

/** sin on [-pi/4, pi/4] of x + y (y the tail of x; iy 0: y is 0). */
function kernelSin(x: f64, y: f64, iy: i32): f64 {
  if ((hiWord(x) & 0x7fffffff) < 0x3e400000) return x; // |x| < 2^-27 (fdlibm's (int)x == 0 holds there)
  const z = x * x, v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (iy == 0) return x + v * (S1 + z * r);
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

/** cos on [-pi/4, pi/4] of x + y. */
function kernelCos(x: f64, y: f64): f64 {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix < 0x3e400000) return 1.0; // |x| < 2^-27
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1.0 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  const qx = ix > 0x3fe90000 ? 0.28125 : reinterpret<f64>(<u64><u32>(ix - 0x00200000) << 32); // x / 4 for |x| <= 0.78125
  const hz = 0.5 * z - qx;
  const a = 1.0 - qx;
  return a - (hz - (z * r - x * y));
}

const INVPIO2 = reinterpret<f64>(0x3fe45f306dc9c883);
const PIO2_1 = reinterpret<f64>(0x3ff921fb54400000);
const PIO2_1T = reinterpret<f64>(0x3dd0b4611a626331);
const PIO2_2 = reinterpret<f64>(0x3dd0b4611a600000);
const PIO2_2T = reinterpret<f64>(0x3ba3198a2e037073);
const PIO2_3 = reinterpret<f64>(0x3ba3198a2e000000);
const PIO2_3T = reinterpret<f64>(0x397b839a252049c1);
/** High words of n pi / 2, n = 1 .. 32. */
const NPIO2_HW: usize = memory.data<i32>([
  0x3ff921fb, 0x400921fb, 0x4012d97c, 0x401921fb, 0x401f6a7a, 0x4022d97c, 0x4025fdbb, 0x402921fb,
  0x402c463a, 0x402f6a7a, 0x4031475c, 0x4032d97c, 0x40346b9c, 0x4035fdbb, 0x40378fdb, 0x403921fb,
  0x403ab41b, 0x403c463a, 0x403dd85a, 0x403f6a7a, 0x40407e4c, 0x4041475c, 0x4042106c, 0x4042d97c,
  0x4043a28c, 0x40446b9c, 0x404534ac, 0x4045fdbb, 0x4046c6cb, 0x40478fdb, 0x404858eb, 0x404921fb,
]);
/** The largest |x| (high word) reduced here: 2^19 pi / 2. */
const MEDIUM_HW: i32 = 0x413921fb;

/** remPio2's result: x - n pi / 2 = RED0 + RED1. */
let RED0: f64 = 0, RED1: f64 = 0;

/** x - n pi / 2 into RED0 + RED1, for pi / 4 < |x| <= 2^19 pi / 2; returns n. */
function remPio2(x: f64, hx: i32): i32 {
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) { // |x| < 3 pi / 4: n = +-1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix != 0x3ff921fb) {
        RED0 = z - PIO2_1T;
        RED1 = (z - RED0) - PIO2_1T;
      } else { // near pi / 2: 33 + 33 + 53 bits of pi
        z -= PIO2_2;
        RED0 = z - PIO2_2T;
        RED1 = (z - RED0) - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix != 0x3ff921fb) {
      RED0 = z + PIO2_1T;
      RED1 = (z - RED0) + PIO2_1T;
    } else {
      z += PIO2_2;
      RED0 = z + PIO2_2T;
      RED1 = (z - RED0) + PIO2_2T;
    }
    return -1;
  }
  const t0 = Math.abs(x);
  const n = <i32>(t0 * INVPIO2 + 0.5); // below 2^20: ToInt32 is the truncation
  const fn = <f64>n;
  let r = t0 - fn * PIO2_1;
  let w = fn * PIO2_1T; // good to 85 bits
  if (n < 32 && ix != load<i32>(NPIO2_HW + (<usize>(n - 1) << 2))) {
    RED0 = r - w;
  } else {
    const j = ix >> 20;
    RED0 = r - w;
    let i = j - ((hiWord(RED0) >> 20) & 0x7ff);
    if (i > 16) { // a second round, good to 118 bits
      let t = r;
      w = fn * PIO2_2;
      r = t - w;
      w = fn * PIO2_2T - ((t - r) - w);
      RED0 = r - w;
      i = j - ((hiWord(RED0) >> 20) & 0x7ff);
      if (i > 49) { // a third, 151 bits
        t = r;
        w = fn * PIO2_3;
        r = t - w;
        w = fn * PIO2_3T - ((t - r) - w);
        RED0 = r - w;
      }
    }
  }
  RED1 = (r - RED0) - w;
  if (hx < 0) {
    RED0 = -RED0;
    RED1 = -RED1;
    return -n;
  }
  return n;
}

/** sin x as Node 20's Math.sin, for |x| <= 2^19 pi / 2; NaN for NaN, +-Infinity and past that (the callers' angles are in [0, 2 pi)). */
export function fdSin(x: f64): f64 {
  const hx = hiWord(x), ix = hx & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, 0); // |x| <= pi / 4
  if (ix >= 0x7ff00000 || ix > MEDIUM_HW) return NaN;
  const n = remPio2(x, hx);
  const y0 = RED0, y1 = RED1;
  switch (n & 3) {
    case 0: return kernelSin(y0, y1, 1);
    case 1: return kernelCos(y0, y1);
    case 2: return -kernelSin(y0, y1, 1);
    default: return -kernelCos(y0, y1);
  }
}

/** cos x as Node 20's Math.cos, for |x| <= 2^19 pi / 2; NaN for NaN, +-Infinity and past that. */
export function fdCos(x: f64): f64 {
  const hx = hiWord(x), ix = hx & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0);
  if (ix >= 0x7ff00000 || ix > MEDIUM_HW) return NaN;
  const n = remPio2(x, hx);
  const y0 = RED0, y1 = RED1;
  switch (n & 3) {
    case 0: return kernelCos(y0, y1);
    case 1: return -kernelSin(y0, y1, 1);
    case 2: return -kernelCos(y0, y1);
    default: return kernelSin(y0, y1, 1);
  }
}
