// TypeScript twin of assembly/score.ts: the same f32 arithmetic in the same
// order (one Math.fround per AssemblyScript f32 operation), so results are
// bit-identical to the WASM builds. Field layout as in the ABI: one
// Float32Array of 5 * nodeCount, S | H | dS | dH | stamp.
import { Status } from "../status.js";
import { fastExp2Neg, fastLog2 } from "./fastmath.js";
import { checkAtoms, rowFirstRun, rowFree } from "./bitmap.js";

const f = Math.fround;
const pos = (x: number): number => (x > 0 ? x : 0);

export function utility(s: number, h: number, gamma: number): number {
  return f(fastLog2(f(1 + f(s))) - f(f(gamma) * fastLog2(f(1 + f(h)))));
}

export function scoreCandidates(
  field: Float32Array, nodeCount: number, table: Uint32Array, atoms: number,
  cand: Int32Array, n: number, now: number, m: number, contiguous: number,
  gamma: number, degradeAge: number, noise: Float32Array,
): number {
  const e = checkAtoms(atoms); if (e) return e;
  if (nodeCount < 0 || n < 0) return Status.E_COUNT;
  if (m < 0 || m > atoms) return Status.E_K;
  if (contiguous !== 0 && contiguous !== 1) return Status.E_ARG;
  now = f(now); gamma = f(gamma); degradeAge = f(degradeAge);
  if (Number.isNaN(now) || !Number.isFinite(gamma) || Number.isNaN(degradeAge)) return Status.E_ARG;
  for (let i = 0; i < n; i++) {
    if (cand[i] < 0 || cand[i] >= nodeCount) return Status.E_ID;
    if (!Number.isFinite(noise[i])) return Status.E_ARG;
  }
  const w = atoms / 32;
  let best = -Infinity;
  let bi: number = Status.E_NOFIT;
  for (let i = 0; i < n; i++) {
    const j = cand[i];
    const age = pos(f(now - field[4 * nodeCount + j]));
    if (age > degradeAge) continue;
    const placable = contiguous ? rowFirstRun(table, j * w, w, m) >= 0 : rowFree(table, j * w, w) >= m;
    if (!placable) continue;
    const sp = pos(f(field[j] + f(age * field[2 * nodeCount + j])));
    const hp = pos(f(field[nodeCount + j] + f(age * field[3 * nodeCount + j])));
    const u = f(f(fastLog2(f(1 + sp)) - f(gamma * fastLog2(f(1 + hp)))) + noise[i]);
    if (bi < 0 || u > best) { best = u; bi = i; }
  }
  return bi;
}

export function zoneAggregate(
  field: Float32Array, nodeCount: number, offsets: Int32Array, zones: number,
  now: number, degradeAge: number, degradeHeat: number, outSlack: Float32Array, outHeat: Float32Array,
): number {
  if (nodeCount < 0 || zones < 0) return Status.E_COUNT;
  now = f(now); degradeAge = f(degradeAge); degradeHeat = f(degradeHeat);
  if (Number.isNaN(now) || Number.isNaN(degradeAge) || Number.isNaN(degradeHeat)) return Status.E_ARG;
  if (offsets[0] < 0 || offsets[0] > nodeCount) return Status.E_ID; // with zones = 0 nothing else bounds offsets[0]
  for (let z = 1; z <= zones; z++) {
    if (offsets[z] < offsets[z - 1] || offsets[z] > nodeCount) return Status.E_ID;
  }
  const nn = nodeCount;
  const s = [0, 0, 0, 0];
  const h = [0, 0, 0, 0];
  for (let z = 0; z < zones; z++) {
    const a = offsets[z], b = offsets[z + 1];
    s.fill(0); h.fill(0);
    for (let j = a; j < b; j++) {
      const age = pos(f(now - field[4 * nn + j]));
      const H = field[nn + j];
      let sp: number, hp: number;
      if (age > degradeAge) {
        sp = 0;
        hp = f(H + degradeHeat);
      } else {
        sp = pos(f(field[j] + f(age * field[2 * nn + j])));
        hp = pos(f(H + f(age * field[3 * nn + j])));
      }
      const lane = (j - a) & 3;
      s[lane] = f(s[lane] + sp);
      h[lane] = f(h[lane] + hp);
    }
    const cnt = b - a;
    outSlack[z] = cnt > 0 ? f(f(f(s[0] + s[1]) + f(s[2] + s[3])) / f(cnt)) : 0;
    outHeat[z] = f(f(h[0] + h[1]) + f(h[2] + h[3]));
  }
  return zones;
}

export function tegWeights(
  slack: Float32Array, heat: Float32Array, zones: number, gamma: number, tau: number, outCum: Float64Array,
): number {
  if (zones < 1) return Status.E_COUNT;
  gamma = f(gamma); tau = f(tau);
  if (!(tau > 0) || !Number.isFinite(tau) || !Number.isFinite(gamma)) return Status.E_ARG;
  let umax = -Infinity;
  for (let z = 0; z < zones; z++) umax = Math.max(umax, utility(slack[z], heat[z], gamma));
  let cum = 0;
  for (let z = 0; z < zones; z++) {
    cum += fastExp2Neg(f(f(utility(slack[z], heat[z], gamma) - umax) / tau));
    outCum[z] = cum;
  }
  return zones;
}

export function tegSample(cum: Float64Array, zones: number, u: Float64Array, n: number, out: Int32Array): number {
  if (zones < 1 || n < 0) return Status.E_COUNT;
  const total = cum[zones - 1];
  if (!(total > 0) || !Number.isFinite(total)) return Status.E_ARG;
  for (let i = 0; i < n; i++) if (!(u[i] >= 0 && u[i] < 1)) return Status.E_ARG;
  for (let i = 0; i < n; i++) {
    const t = u[i] * total;
    let lo = 0, hi = zones - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid] > t) hi = mid; else lo = mid + 1;
    }
    out[i] = lo;
  }
  return n;
}
