// The admission path's small pure decisions (src/laminar/decisions.ts):
// byPriority sorts a batch by its tasks' E_v,init (descending), ties by
// arrival at the node, then queue order, as a permutation of the batch;
// regenerationDue gates on the instance cap and the deadline; sampleDistinct
// draws k distinct Zone-local indices, uniformly, deterministically per
// stream, with no draw when k >= nz, and keeps working across generation
// wrap-around. The statistical checks use fixed seeds, so none is flaky.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byPriority, regenerationDue, sampleDistinct } from "../../src/laminar/decisions.js";
import { streamRng } from "../../src/sim/rng.js";

describe("byPriority", () => {
  // A batch of DA ids (indices into taskOf and arrive), each task with a
  // priority from a small set and each DA an arrival time from a small set,
  // so that both kinds of tie are common.
  const arbBatch = fc
    .record({
      tasks: fc.array(fc.constantFrom(-Infinity, -1, 0, 1, 2.5, 72, 1152, Infinity), { minLength: 1, maxLength: 12 }),
      das: fc.integer({ min: 0, max: 40 }),
      extra: fc.integer({ min: 0, max: 5 }),
    })
    .chain(({ tasks, das, extra }) =>
      fc.record({
        ev: fc.constant(Float64Array.from(tasks)),
        taskOf: fc.array(fc.integer({ min: 0, max: tasks.length - 1 }), { minLength: das + 1, maxLength: das + 1 }).map((a) => Int32Array.from(a)),
        arrive: fc.array(fc.constantFrom(0, 500_000, 1_000_000, 1_000_001, 7e9), { minLength: das + 1, maxLength: das + 1 }).map((a) => Float64Array.from(a)),
        q: fc.constant(das),
        // the batch in queue order (repeats allowed: the sort must not care), plus `extra` slots past q
        queue: fc.array(fc.integer({ min: 0, max: das }), { minLength: das + extra, maxLength: das + extra }),
      }),
    );

  it("sorts batch[0..q) by descending ev[taskOf[d]], then ascending arrive[d], then queue position; leaves the rest alone", () => {
    fc.assert(
      fc.property(arbBatch, ({ ev, taskOf, arrive, q, queue }) => {
        const batch = Int32Array.from(queue);
        byPriority(batch, q, taskOf, ev, arrive);
        const prio = (d: number) => ev[taskOf[d]];
        // reference: tag with queue position, sort by the full key (Array.prototype.sort is stable anyway)
        const expected = queue
          .slice(0, q)
          .map((d, pos) => ({ d, pos }))
          .sort((a, b) => (prio(b.d) > prio(a.d) ? 1 : prio(b.d) < prio(a.d) ? -1 : arrive[a.d] - arrive[b.d] || a.pos - b.pos))
          .map((x) => x.d);
        expect(Array.from(batch.subarray(0, q))).toEqual(expected);
        // the part past q is untouched
        expect(Array.from(batch.subarray(q))).toEqual(queue.slice(q));
        // and the explicit properties, in case the reference were wrong: a permutation, in key order
        expect(Array.from(batch.subarray(0, q)).sort((a, b) => a - b)).toEqual(queue.slice(0, q).sort((a, b) => a - b));
        for (let i = 1; i < q; i++) {
          const x = batch[i - 1], y = batch[i];
          expect(prio(x)).toBeGreaterThanOrEqual(prio(y));
          if (prio(x) === prio(y)) expect(arrive[x]).toBeLessThanOrEqual(arrive[y]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps queue order among full ties (same priority, same arrival)", () => {
    const batch = Int32Array.from([5, 3, 9, 0, 7]);
    const taskOf = new Int32Array(10); // every DA belongs to task 0
    byPriority(batch, 5, taskOf, Float64Array.from([42]), new Float64Array(10).fill(3));
    expect(Array.from(batch)).toEqual([5, 3, 9, 0, 7]);
  });

  it("breaks a priority tie by earlier arrival at the node", () => {
    const batch = Int32Array.from([0, 1, 2, 3]);
    const taskOf = new Int32Array(4); // all one priority
    const arrive = Float64Array.from([30, 10, 20, 10]);
    byPriority(batch, 4, taskOf, Float64Array.from([72]), arrive);
    expect(Array.from(batch)).toEqual([1, 3, 2, 0]);
  });

  it("sorts a small mixed batch as the paper's arbitration order says", () => {
    // DA d belongs to task d; task priorities: F = 72, L = 1152; all arrived together
    const ev = Float64Array.from([72, 1152, 72, 1152, 72]);
    const taskOf = Int32Array.from([0, 1, 2, 3, 4]);
    const batch = Int32Array.from([0, 1, 2, 3, 4]);
    byPriority(batch, 5, taskOf, ev, new Float64Array(5));
    expect(Array.from(batch)).toEqual([1, 3, 0, 2, 4]);
  });

  it("priority wins over arrival", () => {
    const ev = Float64Array.from([72, 1152]);
    const taskOf = Int32Array.from([0, 1]);
    const batch = Int32Array.from([0, 1]);
    byPriority(batch, 2, taskOf, ev, Float64Array.from([0, 1e9])); // the L-task's DA came much later
    expect(Array.from(batch)).toEqual([1, 0]);
  });

  it("does nothing for q = 0 and q = 1", () => {
    const ev = Float64Array.from([1, 2]);
    const taskOf = Int32Array.from([0, 1]);
    const arrive = new Float64Array(2);
    const b0 = Int32Array.from([0, 1]);
    byPriority(b0, 0, taskOf, ev, arrive);
    expect(Array.from(b0)).toEqual([0, 1]);
    byPriority(b0, 1, taskOf, ev, arrive);
    expect(Array.from(b0)).toEqual([0, 1]);
  });
});

describe("regenerationDue", () => {
  it("is due only below the instance cap and before the deadline", () => {
    expect(regenerationDue(1, 5, 100, 500)).toBe(true);
    expect(regenerationDue(4, 5, 499, 500)).toBe(true);
    expect(regenerationDue(5, 5, 100, 500)).toBe(false); // cap reached
    expect(regenerationDue(6, 5, 100, 500)).toBe(false);
    expect(regenerationDue(1, 5, 500, 500)).toBe(false); // check at the deadline: too late
    expect(regenerationDue(1, 5, 501, 500)).toBe(false);
    expect(regenerationDue(0, 0, 0, 1)).toBe(false); // no instances allowed at all
  });

  it("equals (instances < max) && (checkAt < deadline) everywhere", () => {
    fc.assert(
      fc.property(fc.nat(10), fc.nat(10), fc.nat(1000), fc.nat(1000), (i, m, c, d) => {
        expect(regenerationDue(i, m, c, d)).toBe(i < m && c < d);
      }),
      { numRuns: 300 },
    );
  });
});

describe("sampleDistinct", () => {
  it("draws k distinct indices in [0, nz), marks them with the returned generation", () => {
    fc.assert(
      fc.property(fc.nat(2 ** 31), fc.integer({ min: 2, max: 300 }), fc.integer({ min: 1, max: 299 }), fc.integer({ min: 1, max: 6 }), (seed, nz, kk, calls) => {
        const k = Math.min(kk, nz - 1);
        const rng = streamRng(seed, "candidates");
        const out = new Int32Array(nz);
        const seen = new Int32Array(nz);
        let gen = 0;
        for (let c = 0; c < calls; c++) {
          const g = sampleDistinct(rng, nz, k, out, seen, gen);
          expect(g).toBe(gen + 1);
          const got = Array.from(out.subarray(0, k));
          expect(new Set(got).size).toBe(k);
          expect(got.every((j) => Number.isInteger(j) && j >= 0 && j < nz && seen[j] === g)).toBe(true);
          // exactly the drawn indices carry this generation's mark
          expect(seen.reduce((n, v) => n + (v === g ? 1 : 0), 0)).toBe(k);
          gen = g;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("returns all indices in order, with no draw and gen unchanged, when k >= nz", () => {
    for (const [nz, k] of [[1, 1], [5, 5], [5, 9], [16, 16], [3, 100]]) {
      const rng = streamRng(3, "candidates");
      const twin = rng.clone();
      const out = new Int32Array(Math.max(nz, k)).fill(-7);
      const seen = new Int32Array(nz).fill(12);
      expect(sampleDistinct(rng, nz, k, out, seen, 12)).toBe(12);
      expect(Array.from(out.subarray(0, nz))).toEqual(Array.from({ length: nz }, (_, i) => i));
      expect(Array.from(out.subarray(nz)).every((v) => v === -7)).toBe(true); // nothing past nz
      expect(Array.from(seen)).toEqual(new Array(nz).fill(12)); // seen untouched
      expect(rng.nextU32()).toBe(twin.nextU32()); // no draw was made
    }
  });

  it("k = 0 draws nothing and returns an empty sample", () => {
    const rng = streamRng(3, "candidates");
    const twin = rng.clone();
    const out = new Int32Array(4).fill(-1);
    const g = sampleDistinct(rng, 10, 0, out, new Int32Array(10), 5);
    expect(g).toBe(6);
    expect(Array.from(out)).toEqual([-1, -1, -1, -1]);
    expect(rng.nextU32()).toBe(twin.nextU32());
  });

  it("wraps gen = -1 to 1 and clears stale marks (which would otherwise hang it)", () => {
    const nz = 8, k = 5;
    const seen = new Int32Array(nz).fill(1); // marks of an earlier generation 1
    const out = new Int32Array(nz);
    const g = sampleDistinct(streamRng(9, "candidates"), nz, k, out, seen, -1);
    expect(g).toBe(1);
    expect(new Set(out.subarray(0, k)).size).toBe(k);
    expect(seen.reduce((n, v) => n + (v === 1 ? 1 : 0), 0)).toBe(k);
    expect(seen.reduce((n, v) => n + (v === 0 ? 1 : 0), 0)).toBe(nz - k);
  });

  it("wraps gen = 0x7fffffff to -2^31 and carries on through the negatives", () => {
    const nz = 8, k = 7;
    const seen = new Int32Array(nz).fill(0x7fffffff); // every index marked by the previous call
    const out = new Int32Array(nz);
    const rng = streamRng(10, "candidates");
    let g = sampleDistinct(rng, nz, k, out, seen, 0x7fffffff);
    expect(g).toBe(-(2 ** 31));
    expect(new Set(out.subarray(0, k)).size).toBe(k);
    g = sampleDistinct(rng, nz, k, out, seen, g);
    expect(g).toBe(-(2 ** 31) + 1);
    expect(new Set(out.subarray(0, k)).size).toBe(k);
    // -2 -> -1 -> (0 skipped) 1, clearing the table on the way
    g = sampleDistinct(rng, nz, k, out, seen, -2);
    expect(g).toBe(-1);
    g = sampleDistinct(rng, nz, k, out, seen, g);
    expect(g).toBe(1);
    expect(new Set(out.subarray(0, k)).size).toBe(k);
    expect(seen.reduce((n, v) => n + (v === 1 ? 1 : 0), 0)).toBe(k);
  });

  it("is deterministic per stream, and differs between streams", () => {
    const run = (seed: number, name: string) => {
      const rng = streamRng(seed, name);
      const out = new Int32Array(256), seen = new Int32Array(256);
      const all: number[] = [];
      let gen = 0;
      for (let c = 0; c < 50; c++) {
        gen = sampleDistinct(rng, 256, 16, out, seen, gen);
        all.push(...out.subarray(0, 16));
      }
      return all;
    };
    expect(run(1, "zone")).toEqual(run(1, "zone"));
    expect(run(1, "zone")).not.toEqual(run(2, "zone"));
    expect(run(1, "zone")).not.toEqual(run(1, "zone-net"));
  });

  it("draws distinct in-range indices on both sides of the 2^16 boundary", () => {
    for (const nz of [2, 3, 255, 257, 40_000, 65_535, 65_536, 65_537, 100_000]) {
      const rng = streamRng(nz, "candidates");
      const k = Math.min(50, nz - 1);
      const out = new Int32Array(k), seen = new Int32Array(nz);
      let gen = 0;
      for (let c = 0; c < 20; c++) {
        gen = sampleDistinct(rng, nz, k, out, seen, gen);
        const got = Array.from(out);
        expect(new Set(got).size, `nz ${nz}`).toBe(k);
        expect(got.every((j) => j >= 0 && j < nz), `nz ${nz}`).toBe(true);
      }
    }
  });

  it("has no rounding bias where 2^16 mod nz is large (nz = 40,000: without rejection some indices would be twice as likely)", () => {
    const nz = 40_000, calls = 500_000, k = 2;
    const rng = streamRng(77, "candidates");
    const out = new Int32Array(k), seen = new Int32Array(nz);
    const counts = new Float64Array(nz);
    let gen = 0;
    for (let c = 0; c < calls; c++) {
      gen = sampleDistinct(rng, nz, k, out, seen, gen);
      counts[out[0]]++;
      counts[out[1]]++;
    }
    const e = (calls * k) / nz; // 25 per index
    const chi2 = counts.reduce((s, o) => s + ((o - e) * (o - e)) / e, 0);
    // 39,999 df: mean 39,999, sd ~283; the 2:1 bias would give ~125,000
    expect(chi2).toBeLessThan(39_999 + 6 * 283);
    expect(chi2).toBeGreaterThan(39_999 - 6 * 283);
  });

  it("is roughly uniform over indices (chi-square, 19 df, loose bound)", () => {
    const nz = 20, k = 4, calls = 25_000;
    const rng = streamRng(2024, "candidates");
    const out = new Int32Array(nz), seen = new Int32Array(nz);
    const counts = new Float64Array(nz);
    // the first slot alone must be uniform too (no position bias)
    const firstCounts = new Float64Array(nz);
    let gen = 0;
    for (let c = 0; c < calls; c++) {
      gen = sampleDistinct(rng, nz, k, out, seen, gen);
      for (let i = 0; i < k; i++) counts[out[i]]++;
      firstCounts[out[0]]++;
    }
    const chi2 = (obs: Float64Array, total: number) => {
      const e = total / nz;
      return obs.reduce((s, o) => s + ((o - e) * (o - e)) / e, 0);
    };
    // 19 degrees of freedom: mean 19, P(chi2 > 60) ~ 3e-6
    expect(chi2(counts, calls * k)).toBeLessThan(60);
    expect(chi2(firstCounts, calls)).toBeLessThan(60);
  });
});
