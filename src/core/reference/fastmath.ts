// TypeScript twin of assembly/fastmath.ts. Every f32 operation of the
// AssemblyScript source is one Math.fround here, in the same order, so the
// results are bit-identical to both WASM builds.
import { EXP2_LUT, LN_LUT, LOG2_LUT } from "./tables.js";

const f = Math.fround;
const scratchF = new Float32Array(1);
const scratchU = new Uint32Array(scratchF.buffer);

/** IEEE-754 bit pattern of an f32 value. */
export function f32bits(x: number): number {
  scratchF[0] = x;
  return scratchU[0];
}

/** The f32 value of a bit pattern. */
export function bitsF32(b: number): number {
  scratchU[0] = b;
  return scratchF[0];
}

const LN2 = f(0.6931471805599453);
const INV_2_15 = f(1 / 32768);

/** Natural log of a u32 by bit scan plus a 256-entry table (v = 0 counts as 1). */
export function fastLnU32(v: number): number {
  const x = v === 0 ? 1 : v >>> 0;
  const lz = Math.clz32(x);
  const idx = ((x << lz) >>> 23) & 0xff;
  return f(f((31 - lz) * LN2) + LN_LUT[idx]);
}

/** log2(x) for x >= 1 (smaller inputs and NaN count as 1). */
export function fastLog2(x: number): number {
  const y = x >= 1 ? f(x) : 1;
  const b = f32bits(y);
  const e = (b >>> 23) - 127;
  const m = b & 0x7fffff;
  const i = m >>> 15;
  const t = f((m & 0x7fff) * INV_2_15);
  const a = LOG2_LUT[i];
  const c = LOG2_LUT[i + 1];
  return f(e + f(a + f(t * f(c - a))));
}

/** 2^x for x <= 0 (x > 0 and NaN give 1; x < -126 gives 0). */
export function fastExp2Neg(x: number): number {
  if (!(x < 0)) return 1;
  if (x < -126) return 0;
  const fl = Math.floor(x);
  const fr = f(x - fl);
  const s = f(fr * 256);
  let i = s | 0;
  if (i > 255) i = 255;
  const t = f(s - i);
  const a = EXP2_LUT[i];
  const c = EXP2_LUT[i + 1];
  const frac = f(a + f(t * f(c - a)));
  return f(frac * bitsF32(((fl + 127) << 23) >>> 0));
}
