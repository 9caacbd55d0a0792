// Seeded random streams. Every random draw of a simulation comes from a
// named stream (docs/sim-engine.md lists the names), and a stream's state is
// a hash of (seed, name, index), never of the order streams were created in:
// adding a stream, or drawing more from one, leaves every other sequence as
// it was. That is what lets one mechanism change without reshuffling the
// others, and a Zone give the same draws whichever worker runs it.
//
// Generator: xoshiro128** (Blackman & Vigna, 2018). Why this one:
// * 32-bit arithmetic only (xor, shift, rotate, two multiplications by 5 and
//   9 done with Math.imul), so it is exact and fast in JS without BigInt;
//   PCG32 needs a 64-bit multiply, which in JS means four 16-bit partial
//   products per draw.
// * 128 bits of state (period 2^128 - 1) and no known failures in BigCrush or
//   PractRand for the ** scrambler at the sizes a simulation uses.
// * Streams come from hashed states rather than PCG's "stream increment",
//   whose streams are known to be correlated; with 128-bit states drawn by a
//   hash, m streams of L draws overlap with probability about m^2 L / 2^128
//   (3e-15 for 10^6 streams of 10^12 draws each).
// State lives in a 4-word Int32Array so a draw allocates nothing.
//
// Draw costs in u32 words are fixed, so a change in one distribution's
// parameters never shifts later draws of the same stream:
//   nextU32, float32, bernoulli: 1     float, uniform, exp: 2
//   normal, lognormal: 4 per pair (Box-Muller; the second value is cached)
//   int(n): 1, plus one per rejection (probability < n / 2^32 each)
//
// Transcendentals (log, exp, sin, cos) are fdlibm.ts's, bit for bit Node
// 20's Math.* in every runtime (Bun's and Deno's own Math.* differ in the
// last bit of some results); sqrt is exact everywhere. The u32 sequences
// never change.
import { fdCos, fdExp, fdLog, fdSin } from "./fdlibm.js";

const TWO32 = 4294967296;
const TWO_M32 = 2 ** -32;
const TWO_M53 = 2 ** -53;
const TWO_PI = 2 * Math.PI;

/** One stream: a xoshiro128** generator with distribution helpers. */
export class Rng {
  /** xoshiro128** state; never all zero. */
  private readonly s: Int32Array;
  /** [cached second normal, 1 when the cache is full]. */
  private readonly g: Float64Array;

  /** A stream from four 32-bit state words (not all zero); use Streams to get one. */
  constructor(state: ArrayLike<number>) {
    this.s = new Int32Array(4);
    for (let i = 0; i < 4; i++) this.s[i] = state[i] | 0;
    if ((this.s[0] | this.s[1] | this.s[2] | this.s[3]) === 0) throw new RangeError("Rng: all-zero state");
    this.g = new Float64Array(2);
  }

  /** A uniform integer in [0, 2^32). */
  nextU32(): number {
    const s = this.s;
    const s0 = s[0], s1 = s[1];
    const s2 = s[2] ^ s0, s3 = s[3] ^ s1;
    const x = Math.imul(s1, 5);
    const r = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return r;
  }

  /** A uniform double in [0, 1) with 53 random bits (two draws): every multiple of 2^-53. */
  float(): number {
    const a = this.nextU32() >>> 5, b = this.nextU32() >>> 6;
    return (a * 67108864 + b) * TWO_M53;
  }

  /** A uniform double in [0, 1) with 32 random bits (one draw): multiples of 2^-32. */
  float32(): number {
    return this.nextU32() * TWO_M32;
  }

  /** A uniform double in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /**
   * A uniform integer in [0, n), exactly unbiased, for an integer n in [1, 2^32].
   * n <= 2^21: Lemire's multiply-shift (x n is exact in a double) with his
   * rejection rule; larger n: reject x < 2^32 mod n, then x mod n.
   */
  int(n: number): number {
    if (!(n >= 1 && n <= TWO32 && Math.floor(n) === n)) throw new RangeError(`Rng.int: n = ${n} not an integer in [1, 2^32]`);
    if (n <= 2097152) {
      let x = this.nextU32();
      let low = Math.imul(x, n) >>> 0; // (x n) mod 2^32
      if (low < n) {
        const t = (TWO32 - n) % n; // 2^32 mod n
        while (low < t) {
          x = this.nextU32();
          low = Math.imul(x, n) >>> 0;
        }
      }
      return Math.floor(x * n * TWO_M32);
    }
    const t = TWO32 % n;
    let x = this.nextU32();
    while (x < t) x = this.nextU32();
    return x % n;
  }

  /** true with probability p (resolution 2^-32); always one draw, whatever p. */
  bernoulli(p: number): boolean {
    return this.nextU32() < p * TWO32;
  }

  /** Exponential with the given mean, by inversion: -mean ln(1 - U), U from float(). */
  exp(mean: number): number {
    return -mean * fdLog(1 - this.float());
  }

  /**
   * Normal(mean, sd) by Box-Muller: one pair of float()s gives two standard
   * normals; the first is returned, the second cached for the next call.
   * Deterministic: the cache is part of the stream's state (clone copies it).
   * The radius uses 1 - U in (0, 1], so the largest |z| is about 8.6.
   */
  normal(mean = 0, sd = 1): number {
    const g = this.g;
    if (g[1] === 1) {
      g[1] = 0;
      return mean + sd * g[0];
    }
    const r = Math.sqrt(-2 * fdLog(1 - this.float()));
    const th = TWO_PI * this.float();
    g[0] = r * fdSin(th);
    g[1] = 1;
    return mean + sd * (r * fdCos(th));
  }

  /** exp(N(mu, sigma)); mean exp(mu + sigma^2 / 2) (see lognormalMu). */
  lognormal(mu: number, sigma: number): number {
    return fdExp(mu + sigma * this.normal());
  }

  /** Copy the four state words to i32[at, at + 4) (the core's memory, for a kernel that draws from this stream). */
  saveState(i32: Int32Array, at: number): void {
    const s = this.s;
    i32[at] = s[0];
    i32[at + 1] = s[1];
    i32[at + 2] = s[2];
    i32[at + 3] = s[3];
  }

  /** Take the four state words back from i32[at, at + 4), as a kernel left them (not all zero). */
  loadState(i32: Int32Array, at: number): void {
    const s = this.s;
    s[0] = i32[at];
    s[1] = i32[at + 1];
    s[2] = i32[at + 2];
    s[3] = i32[at + 3];
  }

  /** An independent copy at the same position (same future draws). */
  clone(): Rng {
    const c = new Rng(this.s);
    c.g.set(this.g);
    return c;
  }
}

/** The mu that gives a lognormal of this mean for a given sigma: ln(mean) - sigma^2 / 2. */
export function lognormalMu(mean: number, sigma: number): number {
  return fdLog(mean) - (sigma * sigma) / 2;
}

// ---- Stream derivation --------------------------------------------------

const NAME_RE = /^[A-Za-z0-9_.:/-]+$/;

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** One murmur3_x86_32 body step. */
function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = rotl(k, 15);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = rotl(h, 13);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** murmur3's finaliser: a bijection that spreads every input bit. */
function fmix(h: number, len: number): number {
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** murmur3_x86_32 of a name's UTF-16 code units (one word each). */
function hashName(name: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < name.length; i++) h = mix(h, name.charCodeAt(i));
  return fmix(h, name.length);
}

const LANE_SEEDS = [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344]; // digits of pi

/** Whether `seed` is a valid simulation seed: an integer in [0, 2^53). */
export function isSeed(seed: number): boolean {
  return Number.isInteger(seed) && seed >= 0 && seed <= Number.MAX_SAFE_INTEGER;
}

function checkKey(name: string, index: number | undefined): void {
  if (typeof name !== "string" || !NAME_RE.test(name)) {
    throw new RangeError(`stream name ${JSON.stringify(name)}: use letters, digits and _ . : / -`);
  }
  if (index !== undefined && !(Number.isInteger(index) && index >= 0 && index < TWO32)) {
    throw new RangeError(`stream index ${index} not an integer in [0, 2^32)`);
  }
}

/**
 * The 128-bit starting state of stream (seed, name[, index]): four lanes of
 * murmur3_x86_32, with four fixed seeds, over the key words
 *   [seed mod 2^32, floor(seed / 2^32), has index (0/1), index, H1(name), H2(name), name length]
 * where H1, H2 hash the name with two seeds (a 64-bit name digest). For fixed
 * other words each lane is a bijection of the index, so ("zone", i) and
 * ("zone", j) never share a state. Changing this function changes every run:
 * test/sim/rng.test.ts pins its output.
 */
export function deriveState(seed: number, name: string, index?: number): Int32Array {
  if (!isSeed(seed)) throw new RangeError(`seed ${seed} not an integer in [0, 2^53)`);
  checkKey(name, index);
  const lo = seed % TWO32, hi = (seed - lo) / TWO32;
  const key = [lo | 0, hi | 0, index === undefined ? 0 : 1, (index ?? 0) | 0, hashName(name, 0x9e3779b9), hashName(name, 0x7f4a7c15), name.length];
  const out = new Int32Array(4);
  for (let j = 0; j < 4; j++) {
    let h = LANE_SEEDS[j];
    for (const k of key) h = mix(h, k);
    out[j] = fmix(h, key.length * 4);
  }
  if ((out[0] | out[1] | out[2] | out[3]) === 0) out[0] = 1; // never in practice; xoshiro needs it
  return out;
}

/** A fresh stream for (seed, name[, index]), not claimed by any Streams (replays, tests). */
export function streamRng(seed: number, name: string, index?: number): Rng {
  return new Rng(deriveState(seed, name, index));
}

/**
 * The streams of one run. get() hands out each (name, index) once: two
 * consumers sharing a key would draw identical numbers, a silent correlation,
 * so a second get() of the same key throws. get("zone") and get("zone", 0)
 * are different streams.
 */
export class Streams {
  readonly seed: number;
  private readonly claimed = new Set<string>();

  /** `seed`: an integer in [0, 2^53); 32-bit seeds are the common case. */
  constructor(seed: number) {
    if (!isSeed(seed)) throw new RangeError(`seed ${seed} not an integer in [0, 2^53)`);
    this.seed = seed;
  }

  get(name: string, index?: number): Rng {
    checkKey(name, index);
    const key = index === undefined ? name : `${name}#${index}`;
    if (this.claimed.has(key)) throw new Error(`stream ${key} already taken (use streamRng() for a deliberate replay)`);
    this.claimed.add(key);
    return streamRng(this.seed, name, index);
  }

  /** Whether get(name, index) has been called. */
  has(name: string, index?: number): boolean {
    return this.claimed.has(index === undefined ? name : `${name}#${index}`);
  }
}
