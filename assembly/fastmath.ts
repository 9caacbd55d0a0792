// Fast f32 logarithms and exponentials from lookup tables (assembly/tables.ts).
//
// These are the arithmetic of the utility field. They are written so that the
// scalar build, the SIMD build and the TypeScript twin (src/core/reference/
// fastmath.ts) perform the same f32 operations in the same order, so all three
// return bit-identical results: a run's outcome never depends on which build
// a host could load.
import { LN_LUT, LOG2_LUT, EXP2_LUT } from "./tables";

const LN2: f32 = 0.6931471805599453;
const INV_2_15: f32 = 1.0 / 32768.0;

/**
 * Natural log of a u32 by bit scan plus a 256-entry table (the paper's
 * micro-kernel): ln(v) ~ msb(v) * ln 2 + ln(1 + top8(mantissa)/256).
 * v = 0 is treated as 1 (ln = 0). Error below 0.004 (the table's 8 bits).
 */
// @ts-ignore: decorator
@inline export function fastLnU32(v: u32): f32 {
  const x = select<u32>(v, 1, v != 0);
  const lz = clz<u32>(x);
  const msb = <f32>(<i32>31 - <i32>lz);
  const idx = ((x << lz) >> 23) & 0xff;
  return msb * LN2 + load<f32>(LN_LUT + (<usize>idx << 2));
}

/**
 * log2(x) for x >= 1 (f32), by exponent extraction and a 257-entry table with
 * linear interpolation over the next 15 mantissa bits. Absolute error < 3e-5.
 * Inputs below 1 (including NaN) are clamped to 1 (log2 = 0): callers only
 * take log2(1 + non-negative).
 */
// @ts-ignore: decorator
@inline export function fastLog2(x: f32): f32 {
  const y = x >= 1.0 ? x : <f32>1.0;
  const b = reinterpret<u32>(y);
  const e = <f32>(<i32>(b >> 23) - 127);
  const m = b & 0x7fffff;
  const i = m >> 15;
  const t = <f32>(m & 0x7fff) * INV_2_15;
  const a = load<f32>(LOG2_LUT + (<usize>i << 2));
  const c = load<f32>(LOG2_LUT + (<usize>(i + 1) << 2));
  return e + (a + t * (c - a));
}

/**
 * 2^x for x <= 0 (f32), by splitting x into integer and fraction and a
 * 257-entry table with linear interpolation. Used with x = (U - Umax) / tau,
 * which is never positive; x > 0 is clamped to 0 and x < -126 returns 0.
 */
// @ts-ignore: decorator
@inline export function fastExp2Neg(x: f32): f32 {
  if (!(x < 0.0)) return 1.0;
  if (x < -126.0) return 0.0;
  const fl = Mathf.floor(x);
  const f = x - fl; // in [0, 1)
  const s = f * 256.0;
  let i = <i32>s; // 0..256: f can round up to 1.0 in f32
  if (i > 255) i = 255;
  const t = s - <f32>i;
  const a = load<f32>(EXP2_LUT + (<usize>i << 2));
  const c = load<f32>(EXP2_LUT + (<usize>(i + 1) << 2));
  const frac = a + t * (c - a);
  const scale = reinterpret<f32>(<u32>(<i32>fl + 127) << 23);
  return frac * scale;
}

/**
 * fastLog2(1 + s) - gamma * fastLog2(1 + h), the utility of projected slack
 * s and heat h: in the SIMD build both logarithms at once, lane by lane the
 * same f32 operations as fastLog2's (pmax(1, x) is fastLog2's clamp: 1 for
 * x below 1 or NaN), so every build gives the same bits.
 */
// @ts-ignore: decorator
@inline export function utilityOf(s: f32, h: f32, gamma: f32): f32 {
  if (ASC_FEATURE_SIMD) return utilityOfLanes(f32x4.replace_lane(f32x4.splat(s), 1, h), gamma);
  return fastLog2(<f32>1.0 + s) - gamma * fastLog2(<f32>1.0 + h);
}

/**
 * utilityOf with s in lane 0 and h in lane 1 of a vector (lanes 2 and 3 are
 * not read, whatever they hold). SIMD build only.
 */
// @ts-ignore: decorator
@inline export function utilityOfLanes(sh: v128, gamma: f32): f32 {
  return utilityOfLanesK(sh, gamma, f32x4.splat(1.0), i32x4.splat(0x7fffff), i32x4.splat(0x7fff), f32x4.splat(INV_2_15), i32x4.splat(127));
}

/**
 * utilityOfLanes' constants, in the core's memory: a loop that loads them
 * before it starts (utilityConst) holds them in registers, where V8 would
 * rebuild each vector constant at every use (three instructions each).
 */
const UTILITY_CONST: usize = memory.data<u32>([
  0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, // 1.0
  0x7fffff, 0x7fffff, 0x7fffff, 0x7fffff, // the mantissa
  0x7fff, 0x7fff, 0x7fff, 0x7fff, // its low 15 bits
  0x38000000, 0x38000000, 0x38000000, 0x38000000, // 2^-15 (INV_2_15)
  127, 127, 127, 127, // the exponent's bias
], 16);

/** utilityOfLanes' constant i (0 to 4, in utilityOfLanesK's order), loaded. SIMD build only. */
// @ts-ignore: decorator
@inline export function utilityConst(i: i32): v128 {
  return v128.load(UTILITY_CONST + (<usize>i << 4));
}

/**
 * log2 of 1 + each of the four lanes, as fastLog2 (utilityOfLanesK's
 * lanes 0 and 1, on all four): two candidates' [S, H] pairs at once
 * (choose.ts bestOfRecords). Constants as utilityOfLanesK's. SIMD build only.
 */
// @ts-ignore: decorator
@inline export function log2Lanes4(sh: v128, one: v128, mant: v128, low15: v128, inv215: v128, bias: v128): v128 {
  const x = f32x4.add(sh, one);
  const y = f32x4.pmax(one, x);
  const e = f32x4.convert_i32x4_s(i32x4.sub(i32x4.shr_u(y, 23), bias));
  const m = v128.and(y, mant);
  const i = i32x4.shl(i32x4.shr_u(m, 15), 2);
  const t = f32x4.mul(f32x4.convert_i32x4_s(v128.and(m, low15)), inv215);
  // each lane's two neighbours in the table as one 8-byte word: [a0, c0, a1, c1] and [a2, c2, a3, c3]
  const ac01 = v128.load64_lane(LOG2_LUT + <usize>i32x4.extract_lane(i, 1), v128.load64_zero(LOG2_LUT + <usize>i32x4.extract_lane(i, 0)), 1);
  const ac23 = v128.load64_lane(LOG2_LUT + <usize>i32x4.extract_lane(i, 3), v128.load64_zero(LOG2_LUT + <usize>i32x4.extract_lane(i, 2)), 1);
  const a = v128.shuffle<f32>(ac01, ac23, 0, 2, 4, 6), c = v128.shuffle<f32>(ac01, ac23, 1, 3, 5, 7);
  return f32x4.add(e, f32x4.add(a, f32x4.mul(t, f32x4.sub(c, a))));
}

/** utilityOfLanes with its constants given (the same values: utilityConst 0 to 4). SIMD build only. */
// @ts-ignore: decorator
@inline export function utilityOfLanesK(sh: v128, gamma: f32, one: v128, mant: v128, low15: v128, inv215: v128, bias: v128): f32 {
  // lanes 0 and 1 (1 + s and 1 + h; x + 1 is 1 + x exactly); lanes 2 and 3 are computed and not read
  const x = f32x4.add(sh, one);
  const y = f32x4.pmax(one, x);
  const e = f32x4.convert_i32x4_s(i32x4.sub(i32x4.shr_u(y, 23), bias));
  const m = v128.and(y, mant);
  const i = i32x4.shl(i32x4.shr_u(m, 15), 2);
  const t = f32x4.mul(f32x4.convert_i32x4_s(v128.and(m, low15)), inv215);
  // each lane's two neighbours in the table as one 8-byte word: [a0, c0, a1, c1]
  const ac = v128.load64_lane(LOG2_LUT + <usize>i32x4.extract_lane(i, 1), v128.load64_zero(LOG2_LUT + <usize>i32x4.extract_lane(i, 0)), 1);
  const a = v128.shuffle<f32>(ac, ac, 0, 2, 0, 2), c = v128.shuffle<f32>(ac, ac, 1, 3, 1, 3);
  const r = f32x4.add(e, f32x4.add(a, f32x4.mul(t, f32x4.sub(c, a))));
  return f32x4.extract_lane(r, 0) - gamma * f32x4.extract_lane(r, 1);
}
