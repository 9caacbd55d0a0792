// Runtime memory of running tasks (the paper's Exp5 memory perturbation), one
// batched call per runtime tick for every running task of a run.
//
// A record is 6 f64 (48 bytes, 8-byte aligned), one per running task:
//   0 node      the node it runs on, an integer in [0, nodes)
//   1 declared  d, GiB: what the task declared at admission
//   2 target    T, GiB: its true footprint (d, or d * (1 + overclaim))
//   3 drift     x, GiB: the drifting footprint (state, updated here)
//   4 resident  r, GiB: this tick's resident use (output)
//   5 key       the task's identity, an integer in [0, 2^32)
// Per tick k, with three uniforms drawn from a counter-based hash of
// (seed, key, k), so draws depend on nothing but the task and the tick (not
// on record order, not on how a run is partitioned):
//   x <- x + kappa * (T - x) + (u3 < burstRate ? burstScale * d : 0)
//   r <- max(0, x + sigma * d * z),  z standard normal by the ziggurat method
// (Marsaglia & Tsang 2000, 128 layers, as src/sim/ziggurat.ts) over the
// hash's words of streams 2, 3, 4, ... (u3 is stream 1's word / 2^32)
// and every node's use is its base (memory not in records, e.g. suspended
// images) plus the sum of its records' r, each rounded to whole KiB, so that
// sums are exact and independent of order. Nodes whose use exceeds
// `threshold` (KiB) are listed in ascending order.
import { checkBuf, E_ARG, E_COUNT, E_ID, OK } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import {
  BLOCK_ALIGN, M_BASE, M_BURST_RATE, M_BURST_SCALE, M_COUNT, M_KAPPA, M_NODES, M_OUT, M_OUT_CAP, M_RECS, M_SEED,
  M_SIGMA, M_THRESHOLD, M_TICK, M_USAGE, MEM_BYTES,
} from "./blocks";

const REC_F64: i32 = 6;
const KIB_PER_GIB: f64 = 1048576.0;

/** GiB to whole KiB, as a node's use counts a record's resident memory (JavaScript's Math.round, as AssemblyScript's). */
// @ts-ignore: decorator
@inline export function kib(gib: f64): f64 { return Math.round(gib * KIB_PER_GIB); }
const TWO_M32: f64 = 1.0 / 4294967296.0;
const ZR: f64 = 3.442619855899;

// ziggurat tables (128 layers), computed on the first call
const ZKN = memory.data(128 * 4);
const ZWN = memory.data(128 * 8, 8);
const ZFN = memory.data(128 * 8, 8);
let zigReady = false;

function zigSetup(): void {
  const m1: f64 = 2147483648.0;
  const vn: f64 = 9.91256303526217e-3;
  let dn: f64 = ZR, tn: f64 = dn;
  const q: f64 = vn / Math.exp(-0.5 * dn * dn);
  store<u32>(ZKN, <u32>Math.floor((dn / q) * m1));
  store<u32>(ZKN + 4, 0);
  store<f64>(ZWN, q / m1);
  store<f64>(ZWN + 127 * 8, dn / m1);
  store<f64>(ZFN, 1.0);
  store<f64>(ZFN + 127 * 8, Math.exp(-0.5 * dn * dn));
  for (let i = 126; i >= 1; i--) {
    dn = Math.sqrt(-2.0 * Math.log(vn / dn + Math.exp(-0.5 * dn * dn)));
    store<u32>(ZKN + (<usize>(i + 1) << 2), <u32>Math.floor((dn / tn) * m1));
    tn = dn;
    store<f64>(ZFN + (<usize>i << 3), Math.exp(-0.5 * dn * dn));
    store<f64>(ZWN + (<usize>i << 3), dn / m1);
  }
  zigReady = true;
}

/** A standard normal from the words of streams 2, 3, ... of (seed, key, tick). */
function zigNormal(seed: u32, key: u32, tick: u32): f64 {
  let s: u32 = 2;
  let hz = <i32>memHash(seed, key, tick, s++);
  let iz = <usize>(hz & 127);
  if (<u32>abs<i32>(hz) < load<u32>(ZKN + (iz << 2))) return <f64>hz * load<f64>(ZWN + (iz << 3));
  for (;;) {
    if (iz == 0) {
      let x: f64, y: f64;
      do {
        x = -Math.log(1.0 - <f64>memHash(seed, key, tick, s++) * TWO_M32) / ZR;
        y = -Math.log(1.0 - <f64>memHash(seed, key, tick, s++) * TWO_M32);
      } while (y + y < x * x);
      return hz > 0 ? ZR + x : -ZR - x;
    }
    const x = <f64>hz * load<f64>(ZWN + (iz << 3));
    const f0 = load<f64>(ZFN + (iz << 3)), f1 = load<f64>(ZFN + ((iz - 1) << 3));
    if (f0 + <f64>memHash(seed, key, tick, s++) * TWO_M32 * (f1 - f0) < Math.exp(-0.5 * x * x)) return x;
    hz = <i32>memHash(seed, key, tick, s++);
    iz = <usize>(hz & 127);
    if (<u32>abs<i32>(hz) < load<u32>(ZKN + (iz << 2))) return <f64>hz * load<f64>(ZWN + (iz << 3));
  }
  return 0; // unreachable
}

/** lowbias32 (Wellons): a 32-bit integer hash with good avalanche. */
// @ts-ignore: decorator
@inline function mix32(x: u32): u32 {
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  x *= 0x846ca68b;
  x ^= x >> 16;
  return x;
}

/** The 32-bit draw of stream `s` for (seed, key, tick). */
// @ts-ignore: decorator
@inline function memHash(seed: u32, key: u32, tick: u32, s: u32): u32 {
  return mix32(mix32(mix32(mix32(seed ^ 0x9e3779b9) ^ key) ^ tick) ^ s);
}

/** Bytes of one memory record. */
export function memRecordBytes(): i32 { return REC_F64 * 8; }

/**
 * Advance `count` records at `recs` by one tick and compute every node's use.
 * base, usage: f64[nodes] (KiB; base is read, usage written). out: i32[outCap]
 * gets the nodes whose use exceeds `threshold`, ascending. Returns how many
 * nodes exceed it (which may be more than outCap; only outCap are written),
 * or a negative error code, in which case nothing was written. tick and key
 * are integers in [0, 2^32); seed a u32. Arguments in the memory block at
 * `block` (assembly/blocks.ts).
 */
export function memTick(block: usize): i32 {
  let e = checkBuf(block, MEM_BYTES, 1, BLOCK_ALIGN); if (e != OK) return e;
  const recs = <usize>load<u32>(block, M_RECS), count = load<i32>(block, M_COUNT), nodes = load<i32>(block, M_NODES);
  const base = <usize>load<u32>(block, M_BASE), usage = <usize>load<u32>(block, M_USAGE);
  const out = <usize>load<u32>(block, M_OUT), outCap = load<i32>(block, M_OUT_CAP);
  const tick = load<f64>(block, M_TICK), seed = load<f64>(block, M_SEED);
  const kappa = load<f64>(block, M_KAPPA), sigma = load<f64>(block, M_SIGMA);
  const burstRate = load<f64>(block, M_BURST_RATE), burstScale = load<f64>(block, M_BURST_SCALE);
  const threshold = load<f64>(block, M_THRESHOLD);
  if (count < 0 || nodes <= 0 || outCap < 0) return E_COUNT;
  regionsReset();
  region(block, MEM_BYTES, 1, BLOCK_ALIGN, false);
  region(recs, <i64>count * REC_F64, 8, 0, true);
  region(base, nodes, 8, 0, false);
  region(usage, nodes, 8, 0, true);
  region(out, outCap, 4, 0, true);
  e = regionsCheck(); if (e != OK) return e;
  if (!(tick >= 0 && tick < 4294967296.0 && tick == Math.floor(tick))) return E_ARG;
  if (!(seed >= 0 && seed < 4294967296.0 && seed == Math.floor(seed))) return E_ARG;
  if (!(kappa >= 0 && kappa <= 1) || !(sigma >= 0 && sigma < Infinity)) return E_ARG;
  if (!(burstRate >= 0 && burstRate <= 1) || !(burstScale >= 0 && burstScale < Infinity)) return E_ARG;
  if (threshold != threshold) return E_ARG;
  // validate every record before changing anything
  for (let i = 0; i < count; i++) {
    const p = recs + (<usize>i) * 48;
    const node = load<f64>(p);
    const key = load<f64>(p, 40);
    if (!(node >= 0 && node < <f64>nodes && node == Math.floor(node))) return E_ID;
    if (!(key >= 0 && key < 4294967296.0 && key == Math.floor(key))) return E_ID;
  }
  return memAdvance(recs, count, nodes, base, usage, out, outCap, <u32>tick, <u32>seed, kappa, sigma, burstRate, burstScale, threshold);
}

/**
 * memTick's work on checked arguments (the Zone engine calls it on its own
 * tables): advance count records by tick `k`, recompute every node's use,
 * list the nodes over `threshold`; returns how many.
 */
export function memAdvance(recs: usize, count: i32, nodes: i32, base: usize, usage: usize, out: usize, outCap: i32, k: u32, s: u32,
  kappa: f64, sigma: f64, burstRate: f64, burstScale: f64, threshold: f64): i32 {
  if (!zigReady) zigSetup();
  for (let n = 0; n < nodes; n++) store<f64>(usage + (<usize>n << 3), load<f64>(base + (<usize>n << 3)));
  for (let i = 0; i < count; i++) {
    const p = recs + (<usize>i) * 48;
    const node = <usize>(<i32>load<f64>(p));
    const d = load<f64>(p, 8);
    const T = load<f64>(p, 16);
    let x = load<f64>(p, 24);
    const key = <u32>load<f64>(p, 40);
    const u3 = <f64>memHash(s, key, k, 1) * TWO_M32;
    x = x + kappa * (T - x);
    if (u3 < burstRate) x = x + burstScale * d;
    const z = sigma > 0 ? zigNormal(s, key, k) : 0.0;
    let r = x + sigma * d * z;
    if (!(r > 0)) r = 0;
    store<f64>(p, x, 24);
    store<f64>(p, r, 32);
    const u = usage + (node << 3);
    store<f64>(u, load<f64>(u) + kib(r));
  }
  let over = 0;
  for (let n = 0; n < nodes; n++) {
    if (load<f64>(usage + (<usize>n << 3)) > threshold) {
      if (over < outCap) store<i32>(out + (<usize>over << 2), n);
      over++;
    }
  }
  return over;
}
