// SIMD build, scalar build and the TypeScript twin agree on every bitmap kernel.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/bitmap.js";
import { builds, getI32, getU32, getU8, put, tableArb } from "./harness.js";

const RUNS = { numRuns: 300 };

describe("bitmap kernels agree: simd, scalar, TypeScript", () => {
  it("free count and count >= k", () => {
    fc.assert(
      fc.property(tableArb(), fc.nat(1024), ({ atoms, count, table }, kRaw) => {
        const k = kRaw % (atoms + 1);
        const wantFree = new Int32Array(count);
        const wantOk = new Uint8Array(count);
        expect(ref.bmFreeCount(table, count, atoms, wantFree)).toBe(count);
        const wantN = ref.bmCountAtLeast(table, count, atoms, k, wantOk);
        for (const [, core] of builds) {
          core.arena.reset();
          const t = put(core, table), out = core.arena.alloc(4 * count + 4), ok = core.arena.alloc(count + 1);
          expect(core.exports.bmFreeCount(t, count, atoms, out)).toBe(count);
          expect(getI32(core, out, count)).toEqual(wantFree);
          expect(core.exports.bmCountAtLeast(t, count, atoms, k, ok)).toBe(wantN);
          expect(getU8(core, ok, count)).toEqual(wantOk);
        }
      }),
      RUNS,
    );
  });

  it("first contiguous run, including runs across words", () => {
    fc.assert(
      fc.property(tableArb(), fc.nat(1024), ({ atoms, count, table }, kRaw) => {
        const k = kRaw % (atoms + 1);
        const want = new Int32Array(count);
        const wantN = ref.bmFirstRun(table, count, atoms, k, want);
        for (const [, core] of builds) {
          core.arena.reset();
          const t = put(core, table), out = core.arena.alloc(4 * count + 4);
          expect(core.exports.bmFirstRun(t, count, atoms, k, out)).toBe(wantN);
          expect(getI32(core, out, count)).toEqual(want);
        }
      }),
      RUNS,
    );
  });

  it("demand mask fits at some shift", () => {
    fc.assert(
      fc.property(tableArb(), fc.array(fc.nat(1023), { maxLength: 12 }), ({ atoms, count, table }, bits) => {
        const demand = new Uint32Array(atoms / 32);
        for (const b of bits) demand[(b % atoms) >>> 5] |= 1 << (b & 31);
        const want = new Int32Array(count);
        const wantN = ref.bmFitsAt(table, count, atoms, demand, want);
        for (const [, core] of builds) {
          core.arena.reset();
          const t = put(core, table), d = put(core, demand), out = core.arena.alloc(4 * count + 4);
          expect(core.exports.bmFitsAt(t, count, atoms, d, out)).toBe(wantN);
          expect(getI32(core, out, count)).toEqual(want);
        }
      }),
      RUNS,
    );
  });

  it("take any k, take a run, take and release masks", () => {
    fc.assert(
      fc.property(tableArb(1), fc.nat(1024), fc.nat(1024), ({ atoms, table }, kRaw, mRaw) => {
        const w = atoms / 32;
        const k = kRaw % (atoms + 1);
        const row = table.slice(0, w);
        // TypeScript twin first, on copies.
        const r1 = row.slice(), m1 = new Uint32Array(w);
        const any = ref.bmTakeAny(r1, atoms, k, m1);
        const r2 = row.slice(), m2 = new Uint32Array(w);
        const run = ref.bmTakeRun(r2, atoms, k, m2);
        // A mask made of random atoms: take it if free, else conflict; release likewise.
        const mask = new Uint32Array(w);
        for (let a = mRaw % atoms; a < atoms; a += 1 + (mRaw % 37)) mask[a >>> 5] |= 1 << (a & 31);
        const r3 = row.slice();
        const take = ref.bmTake(r3, atoms, mask);
        const r4 = row.slice();
        const rel = ref.bmRelease(r4, atoms, mask);
        for (const [, core] of builds) {
          core.arena.reset();
          const e = core.exports;
          let p = put(core, row), m = core.arena.alloc(w * 4 + 8, 8);
          expect(e.bmTakeAny(p, atoms, k, m)).toBe(any);
          expect(getU32(core, p, w)).toEqual(r1);
          if (any >= 0) expect(getU32(core, m, w)).toEqual(m1);
          p = put(core, row);
          expect(e.bmTakeRun(p, atoms, k, m)).toBe(run);
          expect(getU32(core, p, w)).toEqual(r2);
          if (run >= 0) expect(getU32(core, m, w)).toEqual(m2);
          const mk = put(core, mask);
          p = put(core, row);
          expect(e.bmTake(p, atoms, mk)).toBe(take);
          expect(getU32(core, p, w)).toEqual(r3);
          p = put(core, row);
          expect(e.bmRelease(p, atoms, mk)).toBe(rel);
          expect(getU32(core, p, w)).toEqual(r4);
        }
      }),
      RUNS,
    );
  });
});
