// Shared test fixtures: both WASM builds, and helpers to move typed arrays in
// and out of a core's memory.
import fc from "fast-check";
import { loadCore, type Core } from "../../src/core/wasm.js";
import { writeChoice, writeMem, writeProbe, writeZone } from "../../src/core/blocks.js";

/**
 * Bytes kept at the start of each test core's arena, before anything a test
 * allocates, for the parameter block of the positional calls below: the block
 * overlaps no buffer of a test, and arena.reset() keeps it.
 */
export const BLOCK_RESERVE = 128;

function withBlock(core: Core): Core {
  const a = core.arena, reset = a.reset.bind(a);
  a.reset = () => {
    reset();
    a.alloc(BLOCK_RESERVE, 8);
  };
  a.reset();
  return core;
}

/** The reserved parameter block of a test core. */
export function blockOf(core: Core): number {
  return Math.ceil(core.arena.base / 8) * 8;
}

/** Memory above the reserved block (what a call must leave unchanged when it fails). */
export function afterBlock(core: Core): Uint8Array {
  return core.arena.u8.slice(blockOf(core) + BLOCK_RESERVE);
}

/**
 * The block entry points called with the positional arguments of ABI version
 * 1: each call writes every field of the reserved block, then calls with it.
 */
export function positional(core: Core) {
  const a = core.arena, x = core.exports, b = blockOf(core);
  return {
    scoreCandidates(field: number, nodeCount: number, table: number, atoms: number, cand: number, n: number,
      now: number, m: number, contiguous: number, gamma: number, degradeAge: number, noise: number): number {
      writeChoice(a, b, { field, nodeCount, table, atoms, cand, n, now, m, contiguous, gamma, degradeAge, noise });
      return x.scoreCandidates(b);
    },
    probeCandidates(field: number, nodeCount: number, table: number, atoms: number, k: number, now: number, m: number,
      contiguous: number, gamma: number, degradeAge: number, sigma: number, rng: number, zig: number,
      seen: number, cand: number, noise: number, start: number): number {
      writeProbe(a, b, { field, nodeCount, table, atoms, k, now, m, contiguous, gamma, degradeAge, sigma, rng, zig, seen, cand, noise, start });
      return x.probeCandidates(b);
    },
    zoneAggregate(field: number, nodeCount: number, offsets: number, zones: number, now: number,
      degradeAge: number, degradeHeat: number, outSlack: number, outHeat: number): number {
      writeZone(a, b, { field, nodeCount, offsets, zones, now, degradeAge, degradeHeat, outSlack, outHeat });
      return x.zoneAggregate(b);
    },
    memTick(recs: number, count: number, nodes: number, base: number, usage: number, tick: number, seed: number,
      kappa: number, sigma: number, burstRate: number, burstScale: number, threshold: number, out: number, outCap: number): number {
      writeMem(a, b, { recs, count, nodes, base, usage, out, outCap, tick, seed, kappa, sigma, burstRate, burstScale, threshold });
      return x.memTick(b);
    },
  };
}

export const simd = withBlock(loadCore("simd"));
export const scalar = withBlock(loadCore("scalar"));
export const builds: Array<[string, Core]> = [["simd", simd], ["scalar", scalar]];
export const WIDTHS = Array.from({ length: 16 }, (_, i) => (i + 1) * 64);

/** Copy `src` into freshly allocated core memory; returns the pointer. */
export function put(core: Core, src: ArrayBufferView, align = 16): number {
  return core.arena.put(src, align);
}

export function getU32(core: Core, p: number, n: number): Uint32Array {
  return core.arena.u32.slice(p >>> 2, (p >>> 2) + n);
}
export function getI32(core: Core, p: number, n: number): Int32Array {
  return core.arena.i32.slice(p >>> 2, (p >>> 2) + n);
}
export function getF32(core: Core, p: number, n: number): Float32Array {
  return core.arena.f32.slice(p >>> 2, (p >>> 2) + n);
}
export function getF64(core: Core, p: number, n: number): Float64Array {
  return core.arena.f64.slice(p >>> 3, (p >>> 3) + n);
}
export function getU8(core: Core, p: number, n: number): Uint8Array {
  return core.arena.u8.slice(p, p + n);
}

/** Fill a u32 word as one of the shapes that matter for bitmaps. */
function shapeWord(kind: number, r: number): number {
  switch (kind) {
    case 0: return 0xffffffff; // all free
    case 1: return 0; // all taken
    case 2: return r >>> 0; // random
    case 3: return (r & (r >>> 7) & (r >>> 13)) >>> 0; // sparse
    default: return (r | (r << 5) | (r >>> 9)) >>> 0; // dense
  }
}

/** Random bitmap tables: atoms, count and the rows (as u32 words). */
export const tableArb = (maxNodes = 6, widths: readonly number[] = WIDTHS) =>
  fc
    .record({
      atoms: fc.constantFrom(...widths),
      count: fc.integer({ min: 0, max: maxNodes }),
      seedWords: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer()), { minLength: 1, maxLength: 64 }),
      runs: fc.array(fc.tuple(fc.nat(1023), fc.nat(300), fc.boolean()), { maxLength: 8 }),
    })
    .map(({ atoms, count, seedWords, runs }) => {
      const w = atoms / 32;
      const t = new Uint32Array(Math.max(count, 1) * w);
      for (let i = 0; i < t.length; i++) {
        const [k, r] = seedWords[i % seedWords.length];
        t[i] = shapeWord(k, Math.imul(r, i + 1) ^ (i * 0x9e3779b9));
      }
      // Paint runs of free or taken atoms, often across word boundaries.
      for (let n = 0; n < Math.max(count, 1); n++) {
        for (const [start, len, free] of runs) {
          for (let a = start % atoms; a < Math.min(atoms, (start % atoms) + len); a++) {
            const idx = n * w + (a >>> 5);
            if (free) t[idx] |= 1 << (a & 31); else t[idx] &= ~(1 << (a & 31));
          }
        }
      }
      return { atoms, count, table: t };
    });

/** Index of the first differing element of two equal-length arrays, or -1 (fast for MiB-sized arrays, unlike toEqual). */
export function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return -1;
}
