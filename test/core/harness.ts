// Shared test fixtures: both WASM builds, and helpers to move typed arrays in
// and out of a core's memory.
import fc from "fast-check";
import { loadCore, type Core } from "../../src/core/wasm.js";

export const simd = loadCore("simd");
export const scalar = loadCore("scalar");
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
