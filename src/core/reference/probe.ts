// TypeScript twin of assembly/probe.ts (probeCandidates), written over typed
// arrays: the stream region rng (i32[6]), the ziggurat tables KN and WN,
// the sampling scratch seen (u32 words), cand and noise. The same results,
// status codes and writes as the WASM builds (pointer and overlap checks
// aside: arrays cannot dangle or alias here).
import { Status } from "../status.js";
import { checkAtoms } from "./bitmap.js";
import { scoreCandidates } from "./score.js";

const f = Math.fround;

export function probeCandidates(
  field: Float32Array, nodeCount: number, table: Uint32Array, atoms: number, k: number,
  now: number, m: number, contiguous: number, gamma: number, degradeAge: number, sigma: number,
  rng: Int32Array, KN: Uint32Array, WN: Float64Array, seen: Uint32Array, cand: Int32Array, noise: Float32Array, start: number,
): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (nodeCount < 0 || k < 0) return Status.E_COUNT;
  if (nodeCount > 65536 || k > nodeCount || start < 0 || start > k) return Status.E_ARG;
  if (m < 0 || m > atoms) return Status.E_K;
  if (contiguous !== 0 && contiguous !== 1) return Status.E_ARG;
  if (Number.isNaN(f(now)) || !Number.isFinite(f(gamma)) || Number.isNaN(f(degradeAge))) return Status.E_ARG;
  if (!(sigma >= 0 && sigma <= 1e30)) return Status.E_ARG;
  let s0 = rng[0] >>> 0, s1 = rng[1] >>> 0, s2 = rng[2] >>> 0, s3 = rng[3] >>> 0;
  if ((s0 | s1 | s2 | s3) === 0) return Status.E_ARG;
  const next = (): number => {
    const t2 = (s2 ^ s0) >>> 0, t3 = (s3 ^ s1) >>> 0;
    const x = Math.imul(s1, 5);
    const r = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    s2 = (t2 ^ (s1 << 9)) >>> 0;
    s0 = (s0 ^ t3) >>> 0;
    s1 = (s1 ^ t2) >>> 0;
    s3 = ((t3 << 11) | (t3 >>> 21)) >>> 0;
    return r;
  };
  const save = (): void => {
    rng[0] = s0; rng[1] = s1; rng[2] = s2; rng[3] = s3;
  };
  if (start === 0) {
    if (k === nodeCount) {
      for (let i = 0; i < k; i++) cand[i] = i;
    } else {
      const words = (nodeCount + 31) >>> 5;
      for (let w = 0; w < words; w++) if (seen[w] !== 0) return Status.E_ARG;
      const reject = 65536 % nodeCount;
      let bits = 0, have = 0;
      for (let i = 0; i < k; ) {
        if (have === 0) {
          bits = next();
          have = 2;
        }
        const u = have === 2 ? bits >>> 16 : bits & 0xffff;
        have--;
        const p = (u * nodeCount) >>> 0;
        if ((p & 0xffff) < reject) continue;
        const j = p >>> 16, bit = (1 << (j & 31)) >>> 0;
        if ((seen[j >>> 5] & bit) !== 0) continue;
        seen[j >>> 5] |= bit;
        cand[i++] = j;
      }
      for (let i = 0; i < k; i++) seen[cand[i] >>> 5] = 0;
    }
  } else {
    for (let i = 0; i < k; i++) if (cand[i] < 0 || cand[i] >= nodeCount) return Status.E_ID;
    for (let i = 0; i < start; i++) if (!Number.isFinite(noise[i])) return Status.E_ARG;
  }
  for (let i = start; i < k; i++) {
    if (!(sigma > 0)) {
      noise[i] = 0;
      continue;
    }
    const hz = next() | 0, iz = hz & 127;
    if (Math.abs(hz) < KN[iz]) {
      noise[i] = sigma * (hz * WN[iz]);
      continue;
    }
    save();
    rng[4] = i;
    rng[5] = hz;
    return Status.E_DEFER;
  }
  save();
  return scoreCandidates(field, nodeCount, table, atoms, cand, k, now, m, contiguous, gamma, degradeAge, noise);
}
