// Standard normal draws by the ziggurat method (Marsaglia & Tsang, "The
// Ziggurat Method for Generating Random Variables", J. Stat. Softw. 5(8),
// 2000; 128 layers, their tables and tail algorithm). About 97% of draws
// cost one 32-bit word, a table lookup and a multiply, against two words,
// a log, a sqrt and a sin/cos for Box-Muller (Rng.normal): the DA's score
// noise draws one per candidate on the hottest path of the simulation.
//
// Known limitation of the 2000 method, kept for its speed: the same word
// gives the layer (its low 7 bits) and the value, which correlates the two
// at the 2^-25 level (Doornik 2005). For symmetry-breaking score noise
// this is immaterial; use Rng.normal where it might matter.
import { fdExp, fdLog } from "./fdlibm.js";

/** Where the draws come from: 32-bit words, and uniforms in [0, 1) (an Rng, or a counter-based hash). */
export interface WordSource {
  nextU32(): number;
  float(): number;
}

const KN = new Uint32Array(128);
const WN = new Float64Array(128);
const FN = new Float64Array(128);
/**
 * Bytes of the tables in the core's layout (docs/abi.md, "Probe action" and
 * "Random streams"): KN u32[128] at 0, WN f64[128] at 512 (the fast path,
 * all probeCandidates reads), then FN f64[128] at 1536 (the wedge test).
 */
export const ZIG_BYTES = 128 * 4 + 128 * 8 + 128 * 8;
const R = 3.442619855899;

(function setup() {
  const m1 = 2147483648;
  const vn = 9.91256303526217e-3;
  let dn = R, tn = dn;
  const q = vn / fdExp(-0.5 * dn * dn);
  KN[0] = Math.floor((dn / q) * m1);
  KN[1] = 0;
  WN[0] = q / m1;
  WN[127] = dn / m1;
  FN[0] = 1;
  FN[127] = fdExp(-0.5 * dn * dn);
  for (let i = 126; i >= 1; i--) {
    dn = Math.sqrt(-2 * fdLog(vn / dn + fdExp(-0.5 * dn * dn)));
    KN[i + 1] = Math.floor((dn / tn) * m1);
    tn = dn;
    FN[i] = fdExp(-0.5 * dn * dn);
    WN[i] = dn / m1;
  }
})();

/**
 * Write the tables (ZIG_BYTES) at byte offset `at` (8-aligned) of `buf` (the
 * core's memory), as probeCandidates and streamDraw read them.
 */
export function writeZigguratTables(buf: ArrayBuffer, at: number): void {
  new Uint32Array(buf, at, 128).set(KN);
  new Float64Array(buf, at + 512, 128).set(WN);
  new Float64Array(buf, at + 1536, 128).set(FN);
}

/** One standard normal draw from `rng` (an Rng on the simulation's paths). */
export function zigguratNormal(rng: WordSource): number {
  const hz = rng.nextU32() | 0;
  const iz = hz & 127;
  if (Math.abs(hz) < KN[iz]) return hz * WN[iz];
  return zigguratFinish(rng, hz);
}

/**
 * The rest of a draw whose first word, as an i32 hz, missed the fast path
 * (|hz| >= KN[hz & 127]): the wedge or tail tests, drawing from `rng` as
 * needed. zigguratNormal is the fast path and this; the core's probe action
 * leaves exactly this part to the host (docs/abi.md, "Probe action").
 */
export function zigguratFinish(rng: WordSource, hz: number): number {
  let iz = hz & 127;
  for (;;) {
    if (iz === 0) {
      // the base layer's tail beyond R (Marsaglia 1964)
      let x: number, y: number;
      do {
        x = -fdLog(1 - rng.float()) / R;
        y = -fdLog(1 - rng.float());
      } while (y + y < x * x);
      return hz > 0 ? R + x : -R - x;
    }
    const x = hz * WN[iz];
    if (FN[iz] + rng.float() * (FN[iz - 1] - FN[iz]) < fdExp(-0.5 * x * x)) return x;
    hz = rng.nextU32() | 0;
    iz = hz & 127;
    if (Math.abs(hz) < KN[iz]) return hz * WN[iz];
  }
}
