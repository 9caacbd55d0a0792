// A host's window on the core's random streams (assembly/stream.ts): n draws
// of one kind into an f64 buffer, or the core's log / log1p / exp over one,
// so a host can check them against its own and share a stream with the core.
// See docs/abi.md ("Random streams").
import { E_ARG, E_COUNT, OK } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import { fdExp, fdLog, fdLog1p } from "./libm";
import { fdCos, fdSin } from "./trig";
import {
  streamFloat, streamFloat32, streamIntU, streamIsZero, streamNextU32, streamNormal, streamExp, ZIG_BYTES,
} from "./stream";

/** Draw kinds of streamDraw: 0..5 draw from the stream, 6..10 map out in place. */
const K_U32: i32 = 0, K_FLOAT: i32 = 1, K_FLOAT32: i32 = 2, K_INT: i32 = 3, K_EXP: i32 = 4, K_NORMAL: i32 = 5;
const K_LOG: i32 = 6, K_LOG1P: i32 = 7, K_EXPF: i32 = 8, K_SIN: i32 = 9, K_COS: i32 = 10;

/**
 * Write n draws of `kind` from the stream at `state` (u32[4], s0..s3, not all
 * zero; written back) to out: f64[n]: 0 nextU32, 1 float, 2 float32,
 * 3 int(arg) (arg an integer in [1, 2^32]), 4 exp(arg) (arg finite),
 * 5 standard normal (ziggurat, tables at zig: 8-aligned, ZIG_BYTES). Kinds
 * 6, 7, 8, 9, 10 replace each out[i] by log, log1p, exp, sin, cos of it (sin
 * and cos: NaN past 2^19 pi / 2, trig.ts) and use neither state nor zig. Returns n, or E_COUNT (n < 0), E_ARG (bad kind or arg,
 * all-zero state, overlapping buffers) or a buffer's code; an error changes
 * nothing.
 */
export function streamDraw(kind: i32, state: usize, zig: usize, out: usize, n: i32, arg: f64): i32 {
  if (n < 0) return E_COUNT;
  if (kind < K_U32 || kind > K_COS) return E_ARG;
  const draws = kind <= K_NORMAL;
  regionsReset();
  if (draws) region(state, 4, 4, 0, true);
  if (kind == K_NORMAL) region(zig, ZIG_BYTES >> 3, 8, 0, false);
  region(out, n, 8, 0, true);
  const e = regionsCheck(); if (e != OK) return e;
  if (kind == K_INT && !(arg >= 1 && arg <= 4294967296.0 && Math.floor(arg) == arg)) return E_ARG;
  if (kind == K_EXP && !isFinite(arg)) return E_ARG;
  if (draws && streamIsZero(state)) return E_ARG;
  const end = out + (<usize>n << 3);
  switch (kind) {
    case K_U32: for (let o = out; o < end; o += 8) store<f64>(o, <f64>streamNextU32(state)); break;
    case K_FLOAT: for (let o = out; o < end; o += 8) store<f64>(o, streamFloat(state)); break;
    case K_FLOAT32: for (let o = out; o < end; o += 8) store<f64>(o, streamFloat32(state)); break;
    case K_INT: {
      const m = <u64>arg;
      for (let o = out; o < end; o += 8) store<f64>(o, <f64>streamIntU(state, m));
      break;
    }
    case K_EXP: for (let o = out; o < end; o += 8) store<f64>(o, streamExp(state, arg)); break;
    case K_NORMAL: for (let o = out; o < end; o += 8) store<f64>(o, streamNormal(state, zig)); break;
    case K_LOG: for (let o = out; o < end; o += 8) store<f64>(o, fdLog(load<f64>(o))); break;
    case K_LOG1P: for (let o = out; o < end; o += 8) store<f64>(o, fdLog1p(load<f64>(o))); break;
    case K_SIN: for (let o = out; o < end; o += 8) store<f64>(o, fdSin(load<f64>(o))); break;
    case K_COS: for (let o = out; o < end; o += 8) store<f64>(o, fdCos(load<f64>(o))); break;
    default: for (let o = out; o < end; o += 8) store<f64>(o, fdExp(load<f64>(o))); break;
  }
  return n;
}
