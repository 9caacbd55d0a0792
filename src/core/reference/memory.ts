// TypeScript twin of the runtime-memory kernel (assembly/memory.ts): the same
// hash, the same update and the same KiB-rounded node sums. The hash and the
// drift are bit-identical to the core; the normal is src/sim/ziggurat.ts's
// (the same method as the core's), whose tables and rare slow path use the
// host's Math.exp/log, which may differ from the core's in the last bits.
import { Status } from "../status.js";
import { zigguratNormal, type WordSource } from "../../sim/ziggurat.js";

export const REC_F64 = 6;
export const KIB_PER_GIB = 1048576;
const TWO_M32 = 1 / 4294967296;

function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The 32-bit draw of stream s for (seed, key, tick): the core's memHash. */
export function memHash(seed: number, key: number, tick: number, s: number): number {
  return mix32(mix32(mix32(mix32((seed ^ 0x9e3779b9) >>> 0) ^ key) ^ tick) ^ s);
}

/**
 * The core's zigNormal: the ziggurat of src/sim/ziggurat.ts over the words of
 * streams 2, 3, ... of (seed, key, tick), a uniform being one word / 2^32.
 */
export function memNormal(seed: number, key: number, tick: number): number {
  let s = 2;
  const src: WordSource = {
    nextU32: () => memHash(seed, key, tick, s++),
    float: () => memHash(seed, key, tick, s++) * TWO_M32,
  };
  return zigguratNormal(src);
}

export interface MemTickParams {
  tick: number;
  seed: number;
  kappa: number;
  sigma: number;
  burstRate: number;
  burstScale: number;
  threshold: number;
}

/** One tick over `count` records in `recs` (6 f64 each); usage = base + sum of KiB-rounded r. Returns the nodes over threshold. */
export function memTick(recs: Float64Array, count: number, base: Float64Array, usage: Float64Array, p: MemTickParams): number[] | number {
  const nodes = base.length;
  for (let i = 0; i < count; i++) {
    const node = recs[i * REC_F64], key = recs[i * REC_F64 + 5];
    if (!(node >= 0 && node < nodes && Number.isInteger(node))) return Status.E_ID;
    if (!(key >= 0 && key < 2 ** 32 && Number.isInteger(key))) return Status.E_ID;
  }
  usage.set(base);
  for (let i = 0; i < count; i++) {
    const o = i * REC_F64;
    const node = recs[o], d = recs[o + 1], T = recs[o + 2], key = recs[o + 5];
    let x = recs[o + 3];
    const u3 = memHash(p.seed, key, p.tick, 1) * TWO_M32;
    x = x + p.kappa * (T - x);
    if (u3 < p.burstRate) x = x + p.burstScale * d;
    const z = p.sigma > 0 ? memNormal(p.seed, key, p.tick) : 0;
    let r = x + p.sigma * d * z;
    if (!(r > 0)) r = 0;
    recs[o + 3] = x;
    recs[o + 4] = r;
    usage[node] += Math.round(r * KIB_PER_GIB);
  }
  const over: number[] = [];
  for (let n = 0; n < nodes; n++) if (usage[n] > p.threshold) over.push(n);
  return over;
}
