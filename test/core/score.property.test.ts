// The utility field: SIMD build, scalar build and TypeScript twin agree bit for bit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/score.js";
import { builds, getF32, getF64, getI32, positional, put, tableArb } from "./harness.js";

const RUNS = { numRuns: 200 };
const f32 = (min: number, max: number) => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true });

/** A random Z-HAF field of n rows: S | H | dS | dH | stamp. */
const fieldArb = (n: number) =>
  fc.tuple(
    fc.array(f32(0, 1024), { minLength: n, maxLength: n }),
    fc.array(f32(0, 500), { minLength: n, maxLength: n }),
    fc.array(f32(-20, 20), { minLength: n, maxLength: n }),
    fc.array(f32(-5, 5), { minLength: n, maxLength: n }),
    fc.array(f32(0, 100), { minLength: n, maxLength: n }),
  ).map((cols) => Float32Array.from(cols.flat()));

describe("utility field kernels agree: simd, scalar, TypeScript", () => {
  it("utility", () => {
    fc.assert(
      fc.property(f32(0, 1e6), f32(0, 1e6), f32(0, 4), (s, h, g) => {
        const want = ref.utility(s, h, g);
        for (const [, core] of builds) expect(core.exports.utility(s, h, g)).toBe(want);
        // the table log2 stays within 3e-5 of the exact utility
        expect(Math.abs(want - (Math.log2(1 + s) - g * Math.log2(1 + h)))).toBeLessThan(1e-4 * (1 + g));
      }),
      { numRuns: 2000 },
    );
  });

  /** Free atoms and the longest free run of row r of a table of `atoms`-atom rows. */
  const rowStats = (table: Uint32Array, atoms: number, r: number) => {
    let free = 0, run = 0, best = 0;
    for (let a = 0; a < atoms; a++) {
      const bit = (table[r * (atoms / 32) + (a >> 5)] >>> (a & 31)) & 1;
      free += bit;
      run = bit ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return { free, best };
  };

  /**
   * scoreCandidates agrees on random tables of the given row widths; with
   * `edge`, the demand sits at the first candidate's free count (or longest
   * run, when contiguous) minus 1, plus 0 or plus 1, where a placability
   * test's boundary shows.
   */
  const scoreAgrees = (widths?: readonly number[], edge = false) => {
    fc.assert(
      fc.property(
        tableArb(24, widths).filter((t) => t.count > 0),
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.nat(1024),
        fc.boolean(),
        f32(0, 120),
        f32(0, 3),
        f32(5, 80),
        fc.integer(),
        (t, nRaw, picks, mRaw, contiguous, now, gamma, degradeAge, seed) => {
          const { atoms, count, table } = t;
          const field = fc.sample(fieldArb(count), { numRuns: 1, seed })[0];
          const cand = Int32Array.from(picks.slice(0, nRaw).map((p) => p % count));
          const n = cand.length;
          const noise = Float32Array.from({ length: n }, (_, i) => Math.fround(Math.sin(seed + i) * 0.5));
          const c = contiguous ? 1 : 0;
          let m = mRaw % (atoms + 1);
          if (edge && n > 0) {
            const st = rowStats(table, atoms, cand[0]);
            m = Math.min(atoms, Math.max(0, (c ? st.best : st.free) + (mRaw % 3) - 1));
          }
          const want = ref.scoreCandidates(field, count, table, atoms, cand, n, now, m, c, gamma, degradeAge, noise);
          for (const [, core] of builds) {
            core.arena.reset();
            const fp = put(core, field), tp = put(core, table), cp = put(core, cand), np = put(core, noise);
            expect(positional(core).scoreCandidates(fp, count, tp, atoms, cp, n, now, m, c, gamma, degradeAge, np)).toBe(want);
          }
        },
      ),
      RUNS,
    );
  };

  it("scoreCandidates picks the same candidate", () => scoreAgrees());

  it("scoreCandidates picks the same candidate on 256-atom rows (the core's unrolled path)", () => {
    scoreAgrees([256]);
    scoreAgrees([256], true);
  });

  it("scoreCandidates agrees when the demand is at a candidate's free count or longest run", () => scoreAgrees(undefined, true));

  it("zoneAggregate gives identical sums (fixed lane order)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 12 }),
        f32(0, 150), f32(1, 60), f32(0, 1000), fc.integer(),
        (sizes, now, degradeAge, degradeHeat, seed) => {
          const nodeCount = sizes.reduce((a, b) => a + b, 0) + 3; // trailing nodes outside any Zone
          const field = fc.sample(fieldArb(nodeCount), { numRuns: 1, seed })[0];
          const offsets = Int32Array.from([0, ...sizes.map((_, i) => sizes.slice(0, i + 1).reduce((a, b) => a + b, 0))]);
          const zones = sizes.length;
          const wantS = new Float32Array(zones), wantH = new Float32Array(zones);
          expect(ref.zoneAggregate(field, nodeCount, offsets, zones, now, degradeAge, degradeHeat, wantS, wantH)).toBe(zones);
          for (const [, core] of builds) {
            core.arena.reset();
            const fp = put(core, field), op = put(core, offsets);
            const sp = core.arena.alloc(4 * zones), hp = core.arena.alloc(4 * zones);
            expect(positional(core).zoneAggregate(fp, nodeCount, op, zones, now, degradeAge, degradeHeat, sp, hp)).toBe(zones);
            expect(getF32(core, sp, zones)).toEqual(wantS);
            expect(getF32(core, hp, zones)).toEqual(wantH);
          }
        },
      ),
      RUNS,
    );
  });

  it("tegWeights and tegSample", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(f32(0, 300), f32(0, 5000)), { minLength: 1, maxLength: 40 }),
        f32(0, 3), f32(0.05, 8),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 50 }),
        (zs, gamma, tau, us) => {
          const zones = zs.length;
          const slack = Float32Array.from(zs.map((z) => z[0]));
          const heat = Float32Array.from(zs.map((z) => z[1]));
          const cum = new Float64Array(zones);
          expect(ref.tegWeights(slack, heat, zones, gamma, tau, cum)).toBe(zones);
          const u = Float64Array.from(us);
          const pick = new Int32Array(u.length);
          expect(ref.tegSample(cum, zones, u, u.length, pick)).toBe(u.length);
          for (const [, core] of builds) {
            core.arena.reset();
            const sp = put(core, slack), hp = put(core, heat), cp = core.arena.alloc(8 * zones, 8);
            expect(core.exports.tegWeights(sp, hp, zones, gamma, tau, cp)).toBe(zones);
            expect(getF64(core, cp, zones)).toEqual(cum);
            const up = put(core, u, 8), op = core.arena.alloc(4 * u.length + 4);
            expect(core.exports.tegSample(cp, zones, up, u.length, op)).toBe(u.length);
            expect(getI32(core, op, u.length)).toEqual(pick);
          }
        },
      ),
      RUNS,
    );
  });
});

describe("utility field semantics (known answers; the builds equal the twin above)", () => {
  it("TEG weights follow 2^(U/tau) and sampling follows the weights", () => {
    // Zone utilities 3, 2, 1 (S = 7, 3, 1; no heat): weights 1, 1/2, 1/4 at tau = 1.
    const slack = Float32Array.of(7, 3, 1), heat = new Float32Array(3);
    const cum = new Float64Array(3);
    ref.tegWeights(slack, heat, 3, 1, 1, cum);
    expect(cum[0]).toBeCloseTo(1, 4);
    expect(cum[1]).toBeCloseTo(1.5, 4);
    expect(cum[2]).toBeCloseTo(1.75, 4);
    // tau = 2 flattens: weights 1, 2^-0.5, 2^-1
    ref.tegWeights(slack, heat, 3, 1, 2, cum);
    expect(cum[1] - cum[0]).toBeCloseTo(Math.SQRT1_2, 4);
    const u = Float64Array.of(0, 0.5, 0.999), out = new Int32Array(3);
    ref.tegWeights(slack, heat, 3, 1, 1, cum);
    ref.tegSample(cum, 3, u, 3, out);
    expect(Array.from(out)).toEqual([0, 0, 2]); // 0.5*1.75 = 0.875 < 1
  });

  it("projection, degrade and placability decide the DA's choice", () => {
    const n = 3;
    // node 0: S 10 (stale), node 1: S 4, H 0, node 2: S 200 but H 1000.
    const field = new Float32Array(5 * n);
    field.set([10, 4, 200], 0); // S
    field.set([0, 0, 1000], n); // H
    field.set([0, 0, 0], 2 * n); // dS
    field.set([0, 0, 0], 3 * n); // dH
    field.set([0, 50, 50], 4 * n); // stamp: node 0 is 50 ms older
    const table = new Uint32Array(3 * 8).fill(0xffffffff); // every node all free (real bitmaps)
    const cand = Int32Array.of(0, 1, 2), noise = new Float32Array(3);
    // now = 60: node 0 is 60 ms old (> 30: degraded, out), node 1 wins over the hot node 2.
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 4, 0, 1, 30, noise)).toBe(1);
    // with a fresher view of node 0 it wins (S = 10 is more slack than 4)
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 4, 0, 1, 100, noise)).toBe(0);
    // a negative slack trend projects node 0 down to 0 after 60 ms
    field[2 * n] = -1;
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 4, 0, 1, 100, noise)).toBe(1);
    // node 1's bitmap has no 64-run: a contiguous L demand goes to node 2 (or 0)
    table.fill(0x55555555, 8, 16);
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 64, 1, 1, 100, noise)).toBe(0);
    table.fill(0, 0, 8);
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 64, 1, 1, 100, noise)).toBe(2);
    table.fill(0, 16, 24);
    expect(ref.scoreCandidates(field, n, table, 256, cand, 3, 60, 64, 1, 1, 100, noise)).toBe(-12);
  });
});
