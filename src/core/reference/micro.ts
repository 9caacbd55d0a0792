// TypeScript twins of the paper's three micro-kernels (assembly/micro.ts).
// 64-bit words are handled as pairs of u32 (little-endian: lo then hi).
import { Status } from "../status.js";
import { f32bits, fastLnU32 } from "./fastmath.js";

export const MASK_RECORDS = 16384;
export const SCORE_WORDS = 262144;
export const ZONE_NODES = 256;
const f = Math.fround;

/** mem: 16,384 records x 16 u32 (R: u32 0..7, D: u32 8..15). Returns lo32 of the last x (a u32). */
export function microMaskUpdate(mem: Uint32Array, iters: number, start: number, seed: number): number {
  if (iters < 0) return Status.E_COUNT;
  if (start < 0 || start >= MASK_RECORDS) return Status.E_ID;
  let i = start;
  let depLo = seed >>> 0, depHi = 0;
  for (let n = 0; n < iters; n++) {
    const p = i * 16;
    let xLo = 0, xHi = 0;
    for (let k = 0; k < 8; k++) {
      const r = (mem[p + k] ^ (k & 1 ? depHi : depLo)) & ~mem[p + 8 + k];
      mem[p + k] = r;
      if (k < 4) { if (k & 1) xHi ^= r; else xLo ^= r; }
    }
    depLo = xLo >>> 0; depHi = xHi >>> 0;
    i = (depLo ^ depHi) & (MASK_RECORDS - 1);
  }
  return depLo >>> 0;
}

/** table: 262,144 u32. Returns the xor of all score bit patterns (u32). */
export function microFastlogScore(table: Uint32Array, iters: number, start: number, gamma: number): number {
  if (iters < 0) return Status.E_COUNT;
  if (start < 0 || start >= SCORE_WORDS) return Status.E_ID;
  gamma = f(gamma);
  let i = start;
  let sum = 0;
  for (let n = 0; n < iters; n++) {
    const v = table[i];
    const u = f(fastLnU32((v & 0xffff) + 1) - f(gamma * fastLnU32((v >>> 16) + 1)));
    const b = f32bits(u);
    sum = (sum ^ b) >>> 0;
    i = (v ^ sum) & (SCORE_WORDS - 1);
  }
  return sum;
}

/** O, H, S: Float32Array(256). */
export function microZoneUpdate(
  o: Float32Array, h: Float32Array, s: Float32Array, iters: number, gamma: number, beta: number, eps: number,
): number {
  if (iters < 0) return Status.E_COUNT;
  gamma = f(gamma); beta = f(beta); eps = f(eps);
  for (let n = 0; n < iters; n++) {
    for (let j = 0; j < ZONE_NODES; j++) {
      const hv = h[j];
      o[j] = f(o[j] + f(f(gamma * f(f(hv * hv) * hv)) + f(beta * s[j])));
      h[j] = f(hv + eps);
    }
  }
  return 0;
}
