// Deterministic inputs of the micro-benchmarks, identical to the native C
// bench (bench/native/bench.c, bench/native/README.md): splitmix64 seeded with
// 42, and the checksum h = h * 31 + v (mod 2^32). Same inputs and same
// checksums mean every impl row of the bench measures the same computation.

const MASK64 = (1n << 64n) - 1n;

/** splitmix64 (Steele, Lea, Flood 2014). BigInt: used only to build inputs. */
export class SplitMix64 {
  private s: bigint;
  constructor(seed: number) {
    this.s = BigInt(seed) & MASK64;
  }
  next(): bigint {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }
  /** next() % m, for m < 2^32. */
  mod(m: number): number {
    return Number(this.next() % BigInt(m));
  }
}

export const hash31 = (h: number, v: number): number => (Math.imul(h, 31) + (v >>> 0)) >>> 0;

export const NODES = 4096;
export const ATOMS = 256;
export const K = 64;
export const SETS = 1024;
export const NCAND = 16;
export const ZONES = 16;
export const NOW = 1000;
export const DEGRADE_AGE = 500;
export const DEGRADE_HEAT = 8;
export const GAMMA = 0.5;
/** Score-noise sigma of probe-candidates (the simulator's default da.noiseSigma). */
export const PROBE_SIGMA = 0.5;
export const ZONE_GAMMA = 0.25;
export const ZONE_BETA = 0.5;
export const ZONE_EPS = 1 / 1048576;

/** mask-update working set: 16,384 records x 64 bytes of splitmix64 words. */
export function maskInput(): Uint32Array {
  const g = new SplitMix64(42);
  const a = new Uint32Array(16384 * 16);
  for (let k = 0; k < a.length; k += 2) {
    const x = g.next();
    a[k] = Number(x & 0xffffffffn);
    a[k + 1] = Number(x >> 32n);
  }
  return a;
}

/** fastlog-score table: 262,144 words, the high halves of splitmix64 outputs. */
export function scoreInput(): Uint32Array {
  const g = new SplitMix64(42);
  const a = new Uint32Array(262144);
  for (let k = 0; k < a.length; k++) a[k] = Number(g.next() >> 32n);
  return a;
}

/** zone-update arrays: O = 0, H and S uniform in [0, 1) (24-bit), interleaved draws. */
export function zoneInput(): { o: Float32Array; h: Float32Array; s: Float32Array } {
  const g = new SplitMix64(42);
  const o = new Float32Array(256), h = new Float32Array(256), s = new Float32Array(256);
  for (let j = 0; j < 256; j++) {
    h[j] = Number(g.next() >> 40n) / 16777216;
    s[j] = Number(g.next() >> 40n) / 16777216;
  }
  return { o, h, s };
}

/** 4,096 rows of 256 atoms: alternating free/taken runs of 1 + next() % 128 atoms. */
export function bitmapInput(g: SplitMix64): Uint32Array {
  const w = ATOMS / 32;
  const t = new Uint32Array(NODES * w);
  for (let i = 0; i < NODES; i++) {
    let free = Number(g.next() & 1n) === 1;
    let a = 0;
    while (a < ATOMS) {
      const len = 1 + g.mod(128);
      const end = Math.min(a + len, ATOMS);
      if (free) for (let b = a; b < end; b++) t[i * w + (b >>> 5)] |= 1 << (b & 31);
      a += len;
      free = !free;
    }
  }
  return t;
}

export interface FieldInput {
  table: Uint32Array;
  field: Float32Array;
  cand: Int32Array;
  noise: Float32Array;
  offsets: Int32Array;
}

/** Bitmaps, Z-HAF field, candidate sets and Zone offsets of score-candidates and zone-aggregate. */
export function fieldInput(popcount: (t: Uint32Array, row: number) => number): FieldInput {
  const g = new SplitMix64(42);
  const table = bitmapInput(g);
  const n = NODES;
  const field = new Float32Array(5 * n);
  for (let j = 0; j < n; j++) {
    field[j] = popcount(table, j);
    field[n + j] = g.mod(32);
    field[2 * n + j] = (g.mod(2001) - 1000) / 16384;
    field[3 * n + j] = (g.mod(2001) - 1000) / 16384;
    field[4 * n + j] = 1000 - g.mod(600);
  }
  const cand = new Int32Array(SETS * NCAND);
  const noise = new Float32Array(SETS * NCAND);
  for (let c = 0; c < SETS; c++) {
    for (let i = 0; i < NCAND; i++) cand[c * NCAND + i] = g.mod(NODES);
    for (let i = 0; i < NCAND; i++) noise[c * NCAND + i] = (g.mod(65536) - 32768) / 16777216;
  }
  const offsets = Int32Array.from({ length: ZONES + 1 }, (_, z) => z * (NODES / ZONES));
  return { table, field, cand, noise, offsets };
}

/** probe-candidates' xoshiro128** state: the low and high halves of a fresh splitmix64(42)'s first two words. */
export function probeStream(): Int32Array {
  const g = new SplitMix64(42), s = new Int32Array(4);
  for (let i = 0; i < 2; i++) {
    const x = g.next();
    s[2 * i] = Number(x & 0xffffffffn);
    s[2 * i + 1] = Number(x >> 32n);
  }
  return s;
}
