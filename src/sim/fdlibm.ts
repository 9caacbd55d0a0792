// ln x, ln(1 + x), e^x, sin x and cos x, bit for bit as Node 20's
// Math.log, Math.log1p, Math.exp, Math.sin and Math.cos, in every
// JavaScript runtime. Node 20 computes these with V8's own port of fdlibm
// (src/base/ieee754.cc); other runtimes do not: Bun (JavaScriptCore) takes
// the system's libm and Deno's newer V8 other algorithms, and each differs
// from Node in the last bit of some results. The simulator's draws (rng.ts,
// ziggurat.ts) and the rates derived from the configuration go through
// these, so a seed gives the same run, bit for bit, under Node, Bun and
// Deno. The core's assembly/libm.ts is the same port of log, log1p and exp
// for WebAssembly.
//
// The same reduction, polynomials, constants and order of operations as
// fdlibm (e_log.c, s_log1p.c, e_exp.c, k_sin.c, k_cos.c, e_rem_pio2.c; sin and cos for
// |x| <= 2^19 pi / 2, the range that needs no multi-precision reduction).
// test/sim/fdlibm.test.ts holds them to Math.* on millions of arguments.
//
// Under Node 20 itself (V8 11.3) Math.* is this code, compiled, and about
// twice as fast as the port, so fdLog and the others are Math.* there and
// the ports everywhere else: the same bits either way.
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

const F = new Float64Array(1);
const W = new Int32Array(F.buffer); // W[0]: low word, W[1]: high word (little-endian, as every JavaScript runtime here)

/** The double of high word hi and low word lo. */
function fromWords(hi: number, lo: number): number {
  W[1] = hi;
  W[0] = lo;
  return F[0];
}

/** POW2[POW2_ZERO + e] = 2^e, exactly, for e in [-1074, 1024). */
const POW2_ZERO = 1100;
const POW2 = new Float64Array(2200);
for (let e = 0, p = 1; e <= 1074; e++, p /= 2) POW2[POW2_ZERO - e] = p;
for (let e = 0, p = 1; e <= 1023; e++, p *= 2) POW2[POW2_ZERO + e] = p;

const LN2_HI = fromWords(0x3fe62e42, 0xfee00000 | 0);
const LN2_LO = fromWords(0x3dea39ef, 0x35793c76);
const TWO54 = fromWords(0x43500000, 0);
const LG1 = fromWords(0x3fe55555, 0x55555593);
const LG2 = fromWords(0x3fd99999, 0x9997fa04 | 0);
const LG3 = fromWords(0x3fd24924, 0x94229359 | 0);
const LG4 = fromWords(0x3fcc71c5, 0x1d8e78af);
const LG5 = fromWords(0x3fc74664, 0x96cb03de | 0);
const LG6 = fromWords(0x3fc39a09, 0xd078c69f | 0);
const LG7 = fromWords(0x3fc2f112, 0xdf3e5244 | 0);

/** ln x, as Math.log in Node: NaN below 0, -Infinity at +-0. */
export function portLog(x: number): number {
  F[0] = x;
  let hx = W[1];
  const lx = W[0];
  let k = 0;
  if (hx < 0x00100000) { // x < 2^-1022: zero, subnormal or negative
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= TWO54;
    F[0] = x;
    hx = W[1];
  }
  if (hx >= 0x7ff00000) return x + x;
  const e = (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  // x or x / 2 into [sqrt(2)/2, sqrt(2)): fdlibm sets the exponent bits; a power of two does the same exactly, without
  // writing half a double and reading it whole (a stall in every runtime)
  x *= POW2[POW2_ZERO - (e + (i >> 20))];
  k += e + (i >> 20);
  const f = x - 1.0;
  if ((0x000fffff & (2 + hx)) < 3) { // -2^-20 <= f < 2^-20
    if (f === 0) {
      if (k === 0) return 0;
      return k * LN2_HI + k * LN2_LO;
    }
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    if (k === 0) return f - R;
    return k * LN2_HI - ((R - k * LN2_LO) - f);
  }
  const s = f / (2.0 + f);
  const dk = k;
  const z = s * s;
  let ii = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  ii |= j;
  const R = t2 + t1;
  if (ii > 0) {
    const hfsq = 0.5 * f * f;
    if (k === 0) return f - (hfsq - s * (hfsq + R));
    return dk * LN2_HI - ((hfsq - (s * (hfsq + R) + dk * LN2_LO)) - f);
  }
  if (k === 0) return f - s * (f - R);
  return dk * LN2_HI - ((s * (f - R) - dk * LN2_LO) - f);
}

/** ln(1 + x), as Math.log1p in Node: NaN below -1, -Infinity at -1, x itself for |x| < 2^-54. */
export function portLog1p(x: number): number {
  F[0] = x;
  const hx = W[1];
  const ax = hx & 0x7fffffff;
  let k = 1, f = 0, c = 0, hu = 0;
  if (hx < 0x3fda827a) { // 1 + x < sqrt(2)+
    if (ax >= 0x3ff00000) { // x <= -1 (or a negative NaN)
      if (x === -1.0) return -Infinity;
      return NaN;
    }
    if (ax < 0x3e200000) { // |x| < 2^-29
      if (ax < 0x3c900000) return x; // |x| < 2^-54
      return x - x * x * 0.5;
    }
    if (hx > 0 || hx <= (0xbfd2bec4 | 0)) { // sqrt(2)/2- <= 1 + x < sqrt(2)+
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x;
  if (k !== 0) {
    let u: number;
    if (hx < 0x43400000) {
      u = 1.0 + x;
      F[0] = u;
      hu = W[1];
      k = (hu >> 20) - 1023;
      c = k > 0 ? 1.0 - (u - x) : x - (u - 1.0); // the rounding error of 1 + x
      c /= u;
    } else {
      u = x;
      F[0] = u;
      hu = W[1];
      k = (hu >> 20) - 1023;
      c = 0;
    }
    hu &= 0x000fffff;
    F[0] = u;
    if (hu < 0x6a09e) { // u below about sqrt(2)
      W[1] = hu | 0x3ff00000;
    } else {
      k += 1;
      W[1] = hu | 0x3fe00000; // u / 2
      hu = (0x00100000 - hu) >> 2;
    }
    u = F[0];
    f = u - 1.0;
  }
  const hfsq = 0.5 * f * f;
  if (hu === 0) { // |f| < 2^-20
    if (f === 0) {
      if (k === 0) return 0;
      c += k * LN2_LO;
      return k * LN2_HI + c;
    }
    const R = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k === 0) return f - R;
    return k * LN2_HI - ((R - (k * LN2_LO + c)) - f);
  }
  const s = f / (2.0 + f);
  const z = s * s;
  const R = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
  if (k === 0) return f - (hfsq - s * (hfsq + R));
  return k * LN2_HI - ((hfsq - (s * (hfsq + R) + (k * LN2_LO + c))) - f);
}

const O_THRESHOLD = fromWords(0x40862e42, 0xfefa39ef | 0);
const U_THRESHOLD = fromWords(0xc0874910 | 0, 0xd52d3051 | 0);
const INVLN2 = fromWords(0x3ff71547, 0x652b82fe);
const P1 = fromWords(0x3fc55555, 0x5555553e);
const P2 = fromWords(0xbf66c16c | 0, 0x16bebd93);
const P3 = fromWords(0x3f11566a, 0xaf25de2c | 0);
const P4 = fromWords(0xbebbbd41 | 0, 0xc5d26bf1 | 0);
const P5 = fromWords(0x3e663769, 0x72bea4d0);
const E = fromWords(0x4005bf0a, 0x8b145769 | 0);
const TWOM1000 = fromWords(0x01700000, 0);
const TWO1023 = fromWords(0x7fe00000, 0);

/** e^x, as Math.exp in Node: Infinity above 709.78..., 0 below -745.13..., e at 1. */
export function portExp(x: number): number {
  F[0] = x;
  let hx = W[1];
  const xsb = (hx >>> 31) & 1;
  hx &= 0x7fffffff;
  if (hx >= 0x40862e42) { // |x| >= 709.78...
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | W[0]) !== 0) return x + x; // NaN
      return xsb === 0 ? x : 0.0;
    }
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0.0;
  }
  let hi = 0, lo = 0, k = 0;
  if (hx > 0x3fd62e42) { // |x| > ln2 / 2
    if (hx < 0x3ff0a2b2) { // and |x| < 1.5 ln2
      if (x === 1.0) return E;
      if (xsb === 0) {
        hi = x - LN2_HI;
        lo = LN2_LO;
        k = 1;
      } else {
        hi = x + LN2_HI;
        lo = -LN2_LO;
        k = -1;
      }
    } else {
      k = (INVLN2 * x + (xsb === 0 ? 0.5 : -0.5)) | 0; // truncated toward zero
      hi = x - k * LN2_HI;
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) { // |x| < 2^-28
    return 1.0 + x;
  }
  const t = x * x;
  const twopk = k >= -1021 ? POW2[POW2_ZERO + k] : POW2[POW2_ZERO + k + 1000];
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k === 1024) return y * 2.0 * TWO1023;
    return y * twopk;
  }
  return y * twopk * TWOM1000;
}

// sin(x) ~ x + S1 x^3 + ... + S6 x^13 and cos(x) ~ 1 - x^2 / 2 + C1 x^4 + ... + C6 x^14 on [-pi/4, pi/4]
const S1 = fromWords(0xbfc55555 | 0, 0x55555549);
const S2 = fromWords(0x3f811111, 0x1110f8a6);
const S3 = fromWords(0xbf2a01a0 | 0, 0x19c161d5);
const S4 = fromWords(0x3ec71de3, 0x57b1fe7d);
const S5 = fromWords(0xbe5ae5e6 | 0, 0x8a2b9ceb | 0);
const S6 = fromWords(0x3de5d93a, 0x5acfd57c);
const C1 = fromWords(0x3fa55555, 0x5555554c);
const C2 = fromWords(0xbf56c16c | 0, 0x16c15177);
const C3 = fromWords(0x3efa01a0, 0x19cb1590);
const C4 = fromWords(0xbe927e4f | 0, 0x809c52ad | 0);
const C5 = fromWords(0x3e21ee9e, 0xbdb4b1c4 | 0);
const C6 = fromWords(0xbda8fae9 | 0, 0xbe8838d4 | 0);

/** sin on [-pi/4, pi/4] of x + y (y the tail of x; iy 0: y is 0). */
function kernelSin(x: number, y: number, iy: number): number {
  F[0] = x;
  if ((W[1] & 0x7fffffff) < 0x3e400000 && (x | 0) === 0) return x; // |x| < 2^-27
  const z = x * x, v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (iy === 0) return x + v * (S1 + z * r);
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

/** cos on [-pi/4, pi/4] of x + y. */
function kernelCos(x: number, y: number): number {
  F[0] = x;
  const ix = W[1] & 0x7fffffff;
  if (ix < 0x3e400000 && (x | 0) === 0) return 1.0; // |x| < 2^-27
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1.0 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0); // x / 4 for |x| <= 0.78125
  const hz = 0.5 * z - qx;
  const a = 1.0 - qx;
  return a - (hz - (z * r - x * y));
}

const INVPIO2 = fromWords(0x3fe45f30, 0x6dc9c883);
const PIO2_1 = fromWords(0x3ff921fb, 0x54400000);
const PIO2_1T = fromWords(0x3dd0b461, 0x1a626331);
const PIO2_2 = fromWords(0x3dd0b461, 0x1a600000);
const PIO2_2T = fromWords(0x3ba3198a, 0x2e037073);
const PIO2_3 = fromWords(0x3ba3198a, 0x2e000000);
const PIO2_3T = fromWords(0x397b839a, 0x252049c1);
/** High words of n pi / 2, n = 1 .. 32. */
const NPIO2_HW = Int32Array.of(
  0x3ff921fb, 0x400921fb, 0x4012d97c, 0x401921fb, 0x401f6a7a, 0x4022d97c, 0x4025fdbb, 0x402921fb,
  0x402c463a, 0x402f6a7a, 0x4031475c, 0x4032d97c, 0x40346b9c, 0x4035fdbb, 0x40378fdb, 0x403921fb,
  0x403ab41b, 0x403c463a, 0x403dd85a, 0x403f6a7a, 0x40407e4c, 0x4041475c, 0x4042106c, 0x4042d97c,
  0x4043a28c, 0x40446b9c, 0x404534ac, 0x4045fdbb, 0x4046c6cb, 0x40478fdb, 0x404858eb, 0x404921fb,
);
/** The largest |x| (high word) reduced here: 2^19 pi / 2. */
const MEDIUM_HW = 0x413921fb;

/** x - n pi / 2 as RED[0] + RED[1], for pi / 4 < |x| <= 2^19 pi / 2; returns n. */
const RED = new Float64Array(2);
function remPio2(x: number, hx: number): number {
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) { // |x| < 3 pi / 4: n = +-1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        RED[0] = z - PIO2_1T;
        RED[1] = (z - RED[0]) - PIO2_1T;
      } else { // near pi / 2: 33 + 33 + 53 bits of pi
        z -= PIO2_2;
        RED[0] = z - PIO2_2T;
        RED[1] = (z - RED[0]) - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      RED[0] = z + PIO2_1T;
      RED[1] = (z - RED[0]) + PIO2_1T;
    } else {
      z += PIO2_2;
      RED[0] = z + PIO2_2T;
      RED[1] = (z - RED[0]) + PIO2_2T;
    }
    return -1;
  }
  const t0 = Math.abs(x);
  const n = (t0 * INVPIO2 + 0.5) | 0;
  const fn = n;
  let r = t0 - fn * PIO2_1;
  let w = fn * PIO2_1T; // good to 85 bits
  if (n < 32 && ix !== NPIO2_HW[n - 1]) {
    RED[0] = r - w;
  } else {
    const j = ix >> 20;
    RED[0] = r - w;
    F[0] = RED[0];
    let i = j - ((W[1] >> 20) & 0x7ff);
    if (i > 16) { // a second round, good to 118 bits
      let t = r;
      w = fn * PIO2_2;
      r = t - w;
      w = fn * PIO2_2T - ((t - r) - w);
      RED[0] = r - w;
      F[0] = RED[0];
      i = j - ((W[1] >> 20) & 0x7ff);
      if (i > 49) { // a third, 151 bits
        t = r;
        w = fn * PIO2_3;
        r = t - w;
        w = fn * PIO2_3T - ((t - r) - w);
        RED[0] = r - w;
      }
    }
  }
  RED[1] = (r - RED[0]) - w;
  if (hx < 0) {
    RED[0] = -RED[0];
    RED[1] = -RED[1];
    return -n;
  }
  return n;
}

function outOfRange(name: string, x: number): never {
  throw new RangeError(`${name}: |x| = ${Math.abs(x)} is past 2^19 pi / 2, which this port does not reduce`);
}

/** sin x, as Math.sin in Node 20, for |x| <= 2^19 pi / 2 (NaN for NaN and +-Infinity; RangeError past that). */
export function portSin(x: number): number {
  F[0] = x;
  const hx = W[1], ix = hx & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, 0); // |x| <= pi / 4
  if (ix >= 0x7ff00000) return NaN;
  if (ix > MEDIUM_HW) outOfRange("sin", x);
  const n = remPio2(x, hx);
  const y0 = RED[0], y1 = RED[1];
  switch (n & 3) {
    case 0: return kernelSin(y0, y1, 1);
    case 1: return kernelCos(y0, y1);
    case 2: return -kernelSin(y0, y1, 1);
    default: return -kernelCos(y0, y1);
  }
}

/** cos x, as Math.cos in Node 20, for |x| <= 2^19 pi / 2 (NaN for NaN and +-Infinity; RangeError past that). */
export function portCos(x: number): number {
  F[0] = x;
  const hx = W[1], ix = hx & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0);
  if (ix >= 0x7ff00000) return NaN;
  if (ix > MEDIUM_HW) outOfRange("cos", x);
  const n = remPio2(x, hx);
  const y0 = RED[0], y1 = RED[1];
  switch (n & 3) {
    case 0: return kernelCos(y0, y1);
    case 1: return -kernelSin(y0, y1, 1);
    case 2: return -kernelCos(y0, y1);
    default: return kernelSin(y0, y1, 1);
  }
}

/**
 * Whether this runtime's Math.* is V8 11.3's, which is the code above (Node
 * 20; not Bun, which reports a V8 version of its own, nor Deno's newer V8).
 */
export const NODE20_MATH = typeof process !== "undefined" && typeof process.versions?.v8 === "string"
  && process.versions.v8.startsWith("11.3.") && process.versions.bun === undefined && typeof (globalThis as { Deno?: unknown }).Deno === "undefined";

/** ln x, bit for bit Node 20's Math.log in every runtime. */
export const fdLog: (x: number) => number = NODE20_MATH ? Math.log : portLog;
/** ln(1 + x), bit for bit Node 20's Math.log1p in every runtime. */
export const fdLog1p: (x: number) => number = NODE20_MATH ? Math.log1p : portLog1p;
/** e^x, bit for bit Node 20's Math.exp in every runtime. */
export const fdExp: (x: number) => number = NODE20_MATH ? Math.exp : portExp;
/** sin x, bit for bit Node 20's Math.sin in every runtime (the port: |x| <= 2^19 pi / 2). */
export const fdSin: (x: number) => number = NODE20_MATH ? Math.sin : portSin;
/** cos x, bit for bit Node 20's Math.cos in every runtime (the port: |x| <= 2^19 pi / 2). */
export const fdCos: (x: number) => number = NODE20_MATH ? Math.cos : portCos;
