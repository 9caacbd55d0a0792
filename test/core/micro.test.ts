// The paper's three micro-kernels: both builds and the TypeScript twin compute
// the same checksums from the same inputs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/micro.js";
import { builds, firstDiff, getF32, getU32, put } from "./harness.js";

function randomWords(n: number, seed: number): Uint32Array {
  const a = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    a[i] = x;
  }
  return a;
}

describe("micro-kernels agree: simd, scalar, TypeScript", () => {
  it("mask-update", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.nat(3000), fc.nat(16383), fc.nat(), (seed, iters, start, dep) => {
        const mem = randomWords(16384 * 16, seed);
        const want = mem.slice();
        const r = ref.microMaskUpdate(want, iters, start, dep);
        for (const [, core] of builds) {
          core.arena.reset();
          const p = put(core, mem);
          expect(core.exports.microMaskUpdate(p, iters, start, dep)).toBe(r);
          expect(firstDiff(getU32(core, p, mem.length), want)).toBe(-1);
        }
      }),
      { numRuns: 20 },
    );
  });

  it("fastlog-score", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.nat(5000), fc.nat(262143), fc.float({ min: 0, max: 4, noNaN: true }), (seed, iters, start, gamma) => {
        const table = randomWords(262144, seed);
        const r = ref.microFastlogScore(table, iters, start, gamma);
        for (const [, core] of builds) {
          core.arena.reset();
          const p = put(core, table);
          expect(core.exports.microFastlogScore(p, iters, start, gamma)).toBe(r);
        }
      }),
      { numRuns: 20 },
    );
  });

  it("fast ln stays within 0.004 of ln, in every implementation", () => {
    for (const v of [1, 2, 3, 7, 100, 255, 256, 257, 4097, 65535, 65536, 2 ** 31, 2 ** 32 - 1]) {
      // one step with gamma 0 scores ln(1 + (v & 0xffff)) (v = 0xffff: ln 65536)
      const s = v & 0xffff;
      const table = new Uint32Array(262144).fill(v);
      const bits = ref.microFastlogScore(table, 1, 0, 0);
      const got = new Float32Array(Uint32Array.of(bits).buffer)[0];
      expect(Math.abs(got - Math.log(1 + s)), `v = ${v}`).toBeLessThan(0.004);
      for (const [, core] of builds) {
        core.arena.reset();
        expect(core.exports.microFastlogScore(put(core, table), 1, 0, 0)).toBe(bits);
      }
    }
  });

  it("zone-update", () => {
    fc.assert(
      fc.property(
        fc.float32Array({ minLength: 768, maxLength: 768, min: -4, max: 4, noNaN: true }),
        fc.nat(200),
        fc.float({ min: 0, max: 2, noNaN: true }), fc.float({ min: 0, max: 2, noNaN: true }), fc.float({ min: 0, max: 1, noNaN: true }),
        (init, iters, g, b, eps) => {
          const o = init.slice(0, 256), h = init.slice(256, 512), s = init.slice(512);
          ref.microZoneUpdate(o, h, s, iters, g, b, eps);
          for (const [, core] of builds) {
            core.arena.reset();
            const op = put(core, init.slice(0, 256)), hp = put(core, init.slice(256, 512)), sp = put(core, init.slice(512));
            expect(core.exports.microZoneUpdate(op, hp, sp, iters, g, b, eps)).toBe(0);
            expect(getF32(core, op, 256)).toEqual(o);
            expect(getF32(core, hp, 256)).toEqual(h);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
