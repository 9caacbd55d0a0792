// TypeScript twin of the runtime-memory kernel (assembly/memory.ts): the same
// hash, the same update and the same KiB-rounded node sums. The hash and the
// drift are bit-identical to the core; the ziggurat's tables (shared with
// src/sim/ziggurat.ts) and its rare slow path use the host's Math.exp/log,
// which may differ from the core's in the last bits.
import { Status } from "../status.js";
import { ZIGGURAT } from "../../sim/ziggurat.js";

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

const { KN, WN, FN, R: ZR } = ZIGGURAT;

/** The core's zigNormal: a standard normal from the words of streams 2, 3, ... */
export function memNormal(seed: number, key: number, tick: number): number {
  let s = 2;
  const word = () => memHash(seed, key, tick, s++);
  let hz = word() | 0;
  let iz = hz & 127;
  if (Math.abs(hz) < KN[iz]) return hz * WN[iz];
  for (;;) {
    if (iz === 0) {
      let x: number, y: number;
      do {
        x = -Math.log(1 - word() * TWO_M32) / ZR;
        y = -Math.log(1 - word() * TWO_M32);
      } while (y + y < x * x);
      return hz > 0 ? ZR + x : -ZR - x;
    }
    const x = hz * WN[iz];
    if (FN[iz] + word() * TWO_M32 * (FN[iz - 1] - FN[iz]) < Math.exp(-0.5 * x * x)) return x;
    hz = word() | 0;
    iz = hz & 127;
    if (Math.abs(hz) < KN[iz]) return hz * WN[iz];
  }
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
