// Natural logarithm, log(1 + x) and exponential, bit for bit as Node's
// Math.log, Math.log1p and Math.exp. V8 computes these with its own port of
// fdlibm (src/base/ieee754.cc), the same on every platform; AssemblyScript's
// Math.* are musl's newer algorithms and differ from it in the last bit of
// some results. So the simulator's draws (src/sim/rng.ts, ziggurat.ts) can be
// repeated in the core only with these: the same reduction, the same
// polynomials, the same constants (given as bit patterns) and the same order
// of every floating-point operation, with no fused multiply-add (WebAssembly
// has none in its scalar f64 instructions).
//
// Algorithms from fdlibm (e_log.c, s_log1p.c, e_exp.c):
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

// @ts-ignore: decorator
@inline function hiWord(x: f64): i32 {
  return <i32>(reinterpret<u64>(x) >>> 32);
}

// @ts-ignore: decorator
@inline function loWord(x: f64): u32 {
  return <u32>reinterpret<u64>(x);
}

/** x with its high word replaced by hi (the low word kept). */
// @ts-ignore: decorator
@inline function withHigh(x: f64, hi: i32): f64 {
  return reinterpret<f64>((<u64><u32>hi << 32) | (reinterpret<u64>(x) & 0xffffffff));
}

/** The double whose high word is hi and low word 0. */
// @ts-ignore: decorator
@inline function fromHigh(hi: i32): f64 {
  return reinterpret<f64>(<u64><u32>hi << 32);
}

// ln 2 split so that k * LN2_HI is exact for |k| < 2000
const LN2_HI = reinterpret<f64>(0x3fe62e42fee00000); // 6.93147180369123816490e-01
const LN2_LO = reinterpret<f64>(0x3dea39ef35793c76); // 1.90821492927058770002e-10
const TWO54 = reinterpret<f64>(0x4350000000000000); // 2^54
// log(1 + f) = f - s (f - R) with s = f / (2 + f), R a polynomial in s^2
const LG1 = reinterpret<f64>(0x3fe5555555555593); // 6.666666666666735130e-01
const LG2 = reinterpret<f64>(0x3fd999999997fa04); // 3.999999999940941908e-01
const LG3 = reinterpret<f64>(0x3fd2492494229359); // 2.857142874366239149e-01
const LG4 = reinterpret<f64>(0x3fcc71c51d8e78af); // 2.222219843214978396e-01
const LG5 = reinterpret<f64>(0x3fc7466496cb03de); // 1.818357216161805012e-01
const LG6 = reinterpret<f64>(0x3fc39a09d078c69f); // 1.531383769920937332e-01
const LG7 = reinterpret<f64>(0x3fc2f112df3e5244); // 1.479819860511658591e-01

/** ln x, as Math.log in Node (V8's fdlibm port): NaN below 0, -Infinity at +-0. */
export function fdLog(x: f64): f64 {
  let hx = hiWord(x);
  const lx = loWord(x);
  let k: i32 = 0;
  if (hx < 0x00100000) { // x < 2^-1022: zero, subnormal or negative
    if (((hx & 0x7fffffff) | lx) == 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= TWO54; // scale a subnormal up
    hx = hiWord(x);
  }
  if (hx >= 0x7ff00000) return x + x; // +Infinity or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = withHigh(x, hx | (i ^ 0x3ff00000)); // x or x / 2, in [sqrt(2)/2, sqrt(2))
  k += i >> 20;
  const f = x - 1.0;
  if ((0x000fffff & (2 + hx)) < 3) { // -2^-20 <= f < 2^-20
    if (f == 0) {
      if (k == 0) return 0;
      const dk = <f64>k;
      return dk * LN2_HI + dk * LN2_LO;
    }
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    if (k == 0) return f - R;
    const dk = <f64>k;
    return dk * LN2_HI - ((R - dk * LN2_LO) - f);
  }
  const s = f / (2.0 + f);
  const dk = <f64>k;
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
    if (k == 0) return f - (hfsq - s * (hfsq + R));
    return dk * LN2_HI - ((hfsq - (s * (hfsq + R) + dk * LN2_LO)) - f);
  }
  if (k == 0) return f - s * (f - R);
  return dk * LN2_HI - ((s * (f - R) - dk * LN2_LO) - f);
}

/** ln(1 + x), as Math.log1p in Node: NaN below -1, -Infinity at -1, x itself for |x| < 2^-54. */
export function fdLog1p(x: f64): f64 {
  const hx = hiWord(x);
  const ax = hx & 0x7fffffff;
  let k: i32 = 1;
  let f: f64 = 0, c: f64 = 0;
  let hu: i32 = 0;
  if (hx < 0x3fda827a) { // 1 + x < sqrt(2)+
    if (ax >= 0x3ff00000) { // x <= -1 (or a negative NaN)
      if (x == -1.0) return -Infinity;
      return NaN;
    }
    if (ax < 0x3e200000) { // |x| < 2^-29
      if (ax < 0x3c900000) return x; // |x| < 2^-54
      return x - x * x * 0.5;
    }
    if (hx > 0 || hx <= <i32>0xbfd2bec4) { // sqrt(2)/2- <= 1 + x < sqrt(2)+
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x; // +Infinity or NaN
  if (k != 0) {
    let u: f64;
    if (hx < 0x43400000) {
      u = 1.0 + x;
      hu = hiWord(u);
      k = (hu >> 20) - 1023;
      c = k > 0 ? 1.0 - (u - x) : x - (u - 1.0); // the rounding error of 1 + x
      c /= u;
    } else {
      u = x;
      hu = hiWord(u);
      k = (hu >> 20) - 1023;
      c = 0;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) { // u below about sqrt(2)
      u = withHigh(u, hu | 0x3ff00000);
    } else {
      k += 1;
      u = withHigh(u, hu | 0x3fe00000); // u / 2
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1.0;
  }
  const hfsq = 0.5 * f * f;
  if (hu == 0) { // |f| < 2^-20
    if (f == 0) {
      if (k == 0) return 0;
      c += <f64>k * LN2_LO;
      return <f64>k * LN2_HI + c;
    }
    const R = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k == 0) return f - R;
    return <f64>k * LN2_HI - ((R - (<f64>k * LN2_LO + c)) - f);
  }
  const s = f / (2.0 + f);
  const z = s * s;
  const R = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
  if (k == 0) return f - (hfsq - s * (hfsq + R));
  return <f64>k * LN2_HI - ((hfsq - (s * (hfsq + R) + (<f64>k * LN2_LO + c))) - f);
}

const O_THRESHOLD = reinterpret<f64>(0x40862e42fefa39ef); // 7.09782712893383973096e+02
const U_THRESHOLD = reinterpret<f64>(0xc0874910d52d3051); // -7.45133219101941108420e+02
const INVLN2 = reinterpret<f64>(0x3ff71547652b82fe); // 1 / ln 2
// exp(r) = 1 + r + r c / (2 - c), c = r - r^2 (P1 + P2 r^2 + ... + P5 r^8)
const P1 = reinterpret<f64>(0x3fc555555555553e); // 1.66666666666666019037e-01
const P2 = reinterpret<f64>(0xbf66c16c16bebd93); // -2.77777777770155933842e-03
const P3 = reinterpret<f64>(0x3f11566aaf25de2c); // 6.61375632143793436117e-05
const P4 = reinterpret<f64>(0xbebbbd41c5d26bf1); // -1.65339022054652515390e-06
const P5 = reinterpret<f64>(0x3e66376972bea4d0); // 4.13813679705723846039e-08
const E = reinterpret<f64>(0x4005bf0a8b145769); // e, V8 returns it for exp(1)
const TWOM1000 = reinterpret<f64>(0x0170000000000000); // 2^-1000
const TWO1023 = reinterpret<f64>(0x7fe0000000000000); // 2^1023

/** e^x, as Math.exp in Node: Infinity above 709.78..., 0 below -745.13..., e at 1. */
export function fdExp(x: f64): f64 {
  let hx = hiWord(x);
  const xsb = (hx >>> 31) & 1; // sign of x
  hx &= 0x7fffffff; // high word of |x|
  if (hx >= 0x40862e42) { // |x| >= 709.78...
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | loWord(x)) != 0) return x + x; // NaN
      return xsb == 0 ? x : 0.0; // exp(+-Infinity) = Infinity, 0
    }
    if (x > O_THRESHOLD) return Infinity; // overflow
    if (x < U_THRESHOLD) return 0.0; // underflow
  }
  let hi: f64 = 0, lo: f64 = 0;
  let k: i32 = 0;
  if (hx > 0x3fd62e42) { // |x| > ln2 / 2
    if (hx < 0x3ff0a2b2) { // and |x| < 1.5 ln2
      if (x == 1.0) return E;
      if (xsb == 0) {
        hi = x - LN2_HI;
        lo = LN2_LO;
        k = 1;
      } else {
        hi = x + LN2_HI; // x - (-LN2_HI)
        lo = -LN2_LO;
        k = -1;
      }
    } else {
      k = <i32>(INVLN2 * x + (xsb == 0 ? 0.5 : -0.5)); // truncated toward zero
      const t = <f64>k;
      hi = x - t * LN2_HI; // t * LN2_HI is exact
      lo = t * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) { // |x| < 2^-28
    return 1.0 + x;
  }
  // x is now in [-ln2 / 2, ln2 / 2]
  const t = x * x;
  const twopk = k >= -1021 ? fromHigh(0x3ff00000 + (k << 20)) : fromHigh(0x3ff00000 + ((k + 1000) << 20));
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * TWO1023;
    return y * twopk;
  }
  return y * twopk * TWOM1000;
}

/** JavaScript's Math.round (ties towards +Infinity), exactly. */
// @ts-ignore: decorator
@inline export function jsRound(x: f64): f64 {
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}
