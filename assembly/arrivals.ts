// The bimodal workload's arrival sequence (src/workload/arrivals.ts is the
// twin): the F and L Poisson streams merged in time order, F first on a tie,
// each task's service time drawn in arrival order from the service stream
// (F: exponential; L: lognormal, by Box-Muller with the second normal kept for
// the next draw). The host builds the state (the streams' words, the next
// arrival of each stream) and takes the tasks in batches: the sequence is
// the twin's, number for number, bit for bit (log, exp, sin and cos as Node's
// Math: libm.ts, trig.ts). docs/abi.md, "Arrivals".
import { checkBuf, E_ARG, E_COUNT, OK } from "./abi";
import { region, regionsCheck, regionsReset } from "./regions";
import { fdExp, fdLog, jsRound } from "./libm";
import { fdCos, fdSin } from "./trig";
import { streamExp, streamFloat, streamIsZero } from "./stream";

/** The state block (f64 fields, the streams' u32[4] at their byte offsets). */
const A_END = 0, A_GAP_F = 8, A_GAP_L = 16, A_NEXT_F = 24, A_NEXT_L = 32, A_F_ATOMS = 40, A_L_ATOMS = 48,
  A_PRICE_F = 56, A_PRICE_L = 64, A_F_MEAN_MS = 72, A_L_MU = 80, A_L_SIGMA = 88, A_NORMAL = 96, A_HAVE = 104,
  A_COUNT = 112, A_R_F = 128, A_R_L = 144, A_R_SERVICE = 160;
/** Bytes of the block. */
const A_BYTES = 176;
/** Doubles a task takes in `out`: time (ns), class (0 F, 1 L), service time (ns), atoms, price. */
const A_REC = 5;

const TWO_PI: f64 = 2 * Math.PI;
const NS_PER_MS: f64 = 1e6;

/** Bytes of the arrival state block. */
export function arrivalsBlockBytes(): i32 { return A_BYTES; }

/**
 * Take up to n tasks of the sequence in `block` into `out` (f64[5 n]: time,
 * class, service time, atoms, price per task), in arrival order; returns
 * how many, fewer than n only when the arrival window (`END`) is over.
 * E_COUNT (n < 0); E_ARG (an all-zero stream, a gap or a next arrival NaN,
 * the normal's flag not 0 or 1, `out` over the block); the block's and
 * out's region codes. An error changes nothing.
 */
export function arrivalsDraw(block: usize, out: usize, n: i32): i32 {
  if (n < 0) return E_COUNT;
  let e = checkBuf(block, A_BYTES, 1, 16); if (e != OK) return e;
  regionsReset();
  region(block, A_BYTES, 1, 16, true);
  region(out, <i64>n * A_REC, 8, 0, true);
  e = regionsCheck(); if (e != OK) return e;
  const rF = block + A_R_F, rL = block + A_R_L, rS = block + A_R_SERVICE;
  if (streamIsZero(rF) || streamIsZero(rL) || streamIsZero(rS)) return E_ARG;
  const end = load<f64>(block, A_END), gapF = load<f64>(block, A_GAP_F), gapL = load<f64>(block, A_GAP_L);
  let nextF = load<f64>(block, A_NEXT_F), nextL = load<f64>(block, A_NEXT_L);
  const have0 = load<f64>(block, A_HAVE);
  if (isNaN(end) || isNaN(gapF) || isNaN(gapL) || isNaN(nextF) || isNaN(nextL) || (have0 != 0 && have0 != 1)) return E_ARG;
  const fAtoms = load<f64>(block, A_F_ATOMS), lAtoms = load<f64>(block, A_L_ATOMS);
  const priceF = load<f64>(block, A_PRICE_F), priceL = load<f64>(block, A_PRICE_L);
  const fMeanMs = load<f64>(block, A_F_MEAN_MS), lMu = load<f64>(block, A_L_MU), lSigma = load<f64>(block, A_L_SIGMA);
  let cached = load<f64>(block, A_NORMAL), have = have0 == 1;
  let i = 0;
  for (; i < n; i++) {
    // the next task of the two streams (Arrivals.settle): F before L on a tie
    const f = nextF < end ? jsRound(nextF) : Infinity;
    const l = nextL < end ? jsRound(nextL) : Infinity;
    const headF = f <= l, time = headF ? f : l;
    if (time == Infinity) break;
    const o = out + (<usize>i * A_REC << 3);
    store<f64>(o, time);
    let service: f64;
    if (headF) {
      nextF += streamExp(rF, gapF);
      service = Math.max(1, jsRound(streamExp(rS, fMeanMs) * NS_PER_MS));
      store<f64>(o, 0, 8);
      store<f64>(o, fAtoms, 24);
      store<f64>(o, priceF, 32);
    } else {
      nextL += streamExp(rL, gapL);
      // Rng.lognormal(mu, sigma) = exp(mu + sigma * normal()), normal() = 0 + 1 * z (Box-Muller, the second z kept)
      let z: f64;
      if (have) {
        have = false;
        z = 0 + 1 * cached;
      } else {
        const r = Math.sqrt(-2 * fdLog(1 - streamFloat(rS)));
        const th = TWO_PI * streamFloat(rS);
        cached = r * fdSin(th);
        have = true;
        z = 0 + 1 * (r * fdCos(th));
      }
      service = Math.max(1, jsRound(fdExp(lMu + lSigma * z) * NS_PER_MS));
      store<f64>(o, 1, 8);
      store<f64>(o, lAtoms, 24);
      store<f64>(o, priceL, 32);
    }
    store<f64>(o, service, 16);
  }
  store<f64>(block, nextF, A_NEXT_F);
  store<f64>(block, nextL, A_NEXT_L);
  store<f64>(block, cached, A_NORMAL);
  store<f64>(block, have ? 1 : 0, A_HAVE);
  store<f64>(block, load<f64>(block, A_COUNT) + <f64>i, A_COUNT);
  return i;
}
