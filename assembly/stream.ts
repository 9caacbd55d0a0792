// Draws from a simulator stream inside the core, number for number those of
// src/sim/rng.ts (class Rng) and src/sim/ziggurat.ts (zigguratNormal). A
// stream is its xoshiro128** state: four u32 words s0..s3 at a 4-aligned
// pointer, the layout of Rng.saveState / loadState. Every function loads the
// state, draws, and stores it back, so a stream can pass between the host
// and the core at any draw. The transcendentals are assembly/libm.ts (V8's
// fdlibm), so even the draws that need log or exp are bit-identical to the
// TypeScript ones under Node.
//
// Nothing here validates its arguments: callers (assembly/streamdraw.ts, an
// engine) check pointers, a non-zero state, and n for streamInt.
import { fdExp, fdLog } from "./libm";

/** Byte offset of WN: f64[128] in the ziggurat table region (KN: u32[128] at 0). */
export const ZIG_WN: usize = 512;
/** Byte offset of FN: f64[128] in the ziggurat table region. */
export const ZIG_FN: usize = 512 + 1024;
/** Bytes of the ziggurat table region: KN u32[128], WN f64[128], FN f64[128] (src/sim/ziggurat.ts ZIG_BYTES). */
export const ZIG_BYTES: i32 = 512 + 1024 + 1024;
/** The ziggurat's base-layer edge R (src/sim/ziggurat.ts). */
const ZIG_R: f64 = 3.442619855899;

const TWO_M32: f64 = 2.3283064365386963e-10; // 2^-32
const TWO_M53: f64 = 1.1102230246251565e-16; // 2^-53

/** Whether the stream at p is all zero: xoshiro's fixed point, which a caller must refuse (it would draw 0 for ever). */
// @ts-ignore: decorator
@inline export function streamIsZero(p: usize): bool {
  return (load<u32>(p) | load<u32>(p, 4) | load<u32>(p, 8) | load<u32>(p, 12)) == 0;
}

/** xoshiro128**'s output from the state's second word s1 (its scrambler; the step is streamNextU32's). */
// @ts-ignore: decorator
@inline export function xoOut(s1: u32): u32 {
  return rotl<u32>(s1 * 5, 7) * 9;
}

/** One xoshiro128** step of the stream at p (Rng.nextU32): its output, the state written back. */
// @ts-ignore: decorator
@inline export function streamNextU32(p: usize): u32 {
  const s0 = load<u32>(p), s1 = load<u32>(p, 4), s2 = load<u32>(p, 8), s3 = load<u32>(p, 12);
  const t2 = s2 ^ s0, t3 = s3 ^ s1;
  store<u32>(p, s0 ^ t3);
  store<u32>(p, s1 ^ t2, 4);
  store<u32>(p, t2 ^ (s1 << 9), 8);
  store<u32>(p, rotl<u32>(t3, 11), 12);
  return xoOut(s1);
}

/** A uniform double in [0, 1) from two words, 53 random bits (Rng.float). */
// @ts-ignore: decorator
@inline export function streamFloat(p: usize): f64 {
  const a = streamNextU32(p) >>> 5, b = streamNextU32(p) >>> 6;
  return (<f64>a * 67108864.0 + <f64>b) * TWO_M53;
}

/** A uniform double in [0, 1) from one word, multiples of 2^-32 (Rng.float32). */
// @ts-ignore: decorator
@inline export function streamFloat32(p: usize): f64 {
  return <f64>streamNextU32(p) * TWO_M32;
}

/**
 * A uniform integer in [0, n) (Rng.int), for an integer n in [1, 2^32] given
 * as a u64: n <= 2^21, Lemire's multiply-shift with his rejection rule; else
 * reject words below 2^32 mod n, then the word mod n. Same words drawn.
 */
export function streamIntU(p: usize, n: u64): u32 {
  if (n <= 2097152) {
    const m = <u32>n;
    let x = streamNextU32(p);
    let low = x * m; // (x n) mod 2^32
    if (low < m) {
      const t = (<u32>0 - m) % m; // (2^32 - n) mod n = 2^32 mod n
      while (low < t) {
        x = streamNextU32(p);
        low = x * m;
      }
    }
    return <u32>((<u64>x * n) >>> 32);
  }
  const t = <u64>0x100000000 % n;
  let x = streamNextU32(p);
  while (<u64>x < t) x = streamNextU32(p);
  return <u32>(<u64>x % n);
}

/** Rng.int(n) for an integer n in [1, 2^32] (not checked here), as an f64. */
// @ts-ignore: decorator
@inline export function streamInt(p: usize, n: f64): f64 {
  return <f64>streamIntU(p, <u64>n);
}

/** Exponential with the given mean, by inversion: -mean ln(1 - U), U = streamFloat (Rng.exp). */
// @ts-ignore: decorator
@inline export function streamExp(p: usize, mean: f64): f64 {
  return -mean * fdLog(1 - streamFloat(p));
}

/**
 * The rest of a ziggurat draw whose first word, as an i32 hz, missed the
 * fast path: the wedge and tail tests (zigguratFinish in
 * src/sim/ziggurat.ts), drawing more from the stream as they need.
 */
export function streamNormalFinish(p: usize, zig: usize, hz: i32): f64 {
  let iz = <usize>(hz & 127);
  while (true) {
    if (iz == 0) {
      // the base layer's tail beyond R (Marsaglia 1964)
      let x: f64, y: f64;
      do {
        x = -fdLog(1 - streamFloat(p)) / ZIG_R;
        y = -fdLog(1 - streamFloat(p));
      } while (y + y < x * x);
      return hz > 0 ? ZIG_R + x : -ZIG_R - x;
    }
    const x = <f64>hz * load<f64>(zig + ZIG_WN + (iz << 3));
    const fi = load<f64>(zig + ZIG_FN + (iz << 3)), fprev = load<f64>(zig + ZIG_FN + ((iz - 1) << 3));
    if (fi + streamFloat(p) * (fprev - fi) < fdExp(-0.5 * x * x)) return x;
    hz = <i32>streamNextU32(p);
    iz = <usize>(hz & 127);
    if (abs<i64>(<i64>hz) < <i64>load<u32>(zig + (iz << 2))) return <f64>hz * load<f64>(zig + ZIG_WN + (iz << 3));
  }
}

/**
 * One standard normal draw (zigguratNormal in src/sim/ziggurat.ts), with the
 * ziggurat tables at zig (8-aligned, ZIG_BYTES: writeZigguratTables).
 */
// @ts-ignore: decorator
@inline export function streamNormal(p: usize, zig: usize): f64 {
  const hz = <i32>streamNextU32(p), iz = <usize>(hz & 127);
  if (abs<i64>(<i64>hz) < <i64>load<u32>(zig + (iz << 2))) return <f64>hz * load<f64>(zig + ZIG_WN + (iz << 3));
  return streamNormalFinish(p, zig, hz);
}
