// Special values (-0, +-Infinity, NaN, huge and tiny numbers) through the
// utility field: the builds and the twin agree bit for bit on every non-NaN
// result, and on where the NaNs are (a NaN's bits are unspecified: docs/abi.md).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/score.js";
import { builds, getF32, getF64, positional, put } from "./harness.js";

const anyF32 = fc.float(); // includes -0, +-Infinity, NaN, subnormals, +-3.4e38

function sameBits(a: Float32Array | Float64Array, b: Float32Array | Float64Array): boolean {
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) || Number.isNaN(b[i])) {
      if (Number.isNaN(a[i]) !== Number.isNaN(b[i])) return false;
    } else if (!Object.is(a[i], b[i])) return false; // tells -0 from +0
  }
  return true;
}

describe("special values: simd = scalar = TypeScript", () => {
  it("zoneAggregate", () => {
    fc.assert(
      fc.property(fc.array(anyF32, { minLength: 40, maxLength: 40 }), anyF32, anyF32, anyF32, (vals, now, da, dh) => {
        const field = Float32Array.from(vals); // 8 nodes x 5 columns
        const offsets = Int32Array.of(0, 3, 8);
        const ws = new Float32Array(2), wh = new Float32Array(2);
        const want = ref.zoneAggregate(field, 8, offsets, 2, now, da, dh, ws, wh);
        for (const [, core] of builds) {
          core.arena.reset();
          const fp = put(core, field), op = put(core, offsets), sp = core.arena.alloc(8), hp = core.arena.alloc(8);
          expect(positional(core).zoneAggregate(fp, 8, op, 2, now, da, dh, sp, hp)).toBe(want);
          if (want >= 0) {
            expect(sameBits(getF32(core, sp, 2), ws)).toBe(true);
            expect(sameBits(getF32(core, hp, 2), wh)).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("scoreCandidates and tegWeights", () => {
    fc.assert(
      fc.property(fc.array(anyF32, { minLength: 20, maxLength: 20 }), anyF32, anyF32, anyF32, (vals, now, gamma, tau) => {
        const field = Float32Array.from(vals); // 4 nodes
        const table = new Uint32Array(4 * 8).fill(0xffffffff);
        const cand = Int32Array.of(0, 1, 2, 3), noise = new Float32Array(4);
        const want = ref.scoreCandidates(field, 4, table, 256, cand, 4, now, 4, 0, gamma, 50, noise);
        const slack = field.subarray(0, 4), heat = field.subarray(4, 8);
        const cum = new Float64Array(4);
        const wantW = ref.tegWeights(slack, heat, 4, gamma, tau, cum);
        for (const [, core] of builds) {
          core.arena.reset();
          const fp = put(core, field), tp = put(core, table), cp = put(core, cand), np = put(core, noise);
          expect(positional(core).scoreCandidates(fp, 4, tp, 256, cp, 4, now, 4, 0, gamma, 50, np)).toBe(want);
          const out = core.arena.alloc(32, 8);
          expect(core.exports.tegWeights(fp, fp + 16, 4, gamma, tau, out)).toBe(wantW);
          if (wantW >= 0) expect(sameBits(getF64(core, out, 4), cum)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
