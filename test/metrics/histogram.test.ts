// LatencyHistogram: bucket edges against a BigInt reference, nearest-rank
// quantiles within the relative error bound (property tests), exactness for
// small values, merge, JSON round trip, and argument errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LatencyHistogram, MAX_RECORDABLE, type HistogramJSON } from "../../src/metrics/histogram.js";

/** Reference bucket of v (index, lowest value, width), computed with BigInt. */
function refBucket(v: number, s: number): { index: number; lo: number; width: number } {
  const S = 2 ** s;
  if (v < 2 * S) return { index: v, lo: v, width: 1 };
  const b = BigInt(v);
  const e = b.toString(2).length - 1;
  const shift = BigInt(e - s);
  const top = Number(b >> shift); // in [S, 2S)
  return { index: (e - s + 1) * S + (top - S), lo: Number(BigInt(top) << shift), width: Number(1n << shift) };
}

/** Exact nearest-rank quantile of a sorted sample (same rank rule as the histogram). */
function exactQuantile(sorted: number[], q: number): number {
  const n = sorted.length;
  let x = q * n;
  const r0 = Math.round(x);
  if (Math.abs(x - r0) <= 1e-12 * Math.max(1, x)) x = r0;
  const rank = Math.max(1, Math.ceil(x));
  return sorted[Math.min(n, rank) - 1];
}

function fill(values: number[], s = 7): LatencyHistogram {
  const h = new LatencyHistogram(s);
  for (const v of values) h.record(v);
  return h;
}

const roundTrip = (h: LatencyHistogram): LatencyHistogram =>
  LatencyHistogram.fromJSON(JSON.parse(JSON.stringify(h)) as HistogramJSON);

/** Latencies spread over all magnitudes: small exact ones, typical ones, huge ones. */
const latency = fc.oneof(
  fc.integer({ min: 0, max: 300 }),
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.integer({ min: 0, max: 2 ** 40 }),
  fc.maxSafeInteger().map((x) => Math.abs(x)),
  fc.integer({ min: 0, max: 53 }).map((k) => 2 ** k),
  fc.integer({ min: 1, max: 53 }).map((k) => 2 ** k - 1),
);
const quantiles = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 });

describe("LatencyHistogram basics", () => {
  it("is empty at first: NaN stats, zero count and sum", () => {
    const h = new LatencyHistogram();
    expect(h.count).toBe(0);
    expect(h.sum).toBe(0);
    expect(h.min).toBeNaN();
    expect(h.max).toBeNaN();
    expect(h.mean()).toBeNaN();
    expect(h.quantile(0.5)).toBeNaN();
    expect(h.toJSON()).toEqual({ subBucketBits: 7, count: 0, min: null, max: null, sum: 0, buckets: [] });
  });

  it("tracks count, min, max, sum and mean exactly", () => {
    const h = fill([5, 1_000_000, 3, 123_456_789]);
    h.recordN(10, 3);
    h.recordN(7, 0);
    expect(h.count).toBe(7);
    expect(h.min).toBe(3);
    expect(h.max).toBe(123_456_789);
    expect(h.sum).toBe(5 + 1_000_000 + 3 + 123_456_789 + 30);
    expect(h.mean()).toBe(h.sum / 7);
  });

  it("keeps the sum exact past 2^53, and serialises it as a string there", () => {
    const h = fill([2 ** 53, 2 ** 53, 1]);
    h.recordN(2 ** 53 - 1, 2 ** 20); // product above 2^53
    h.recordN(3, 5);
    const exact = 2n * 2n ** 53n + 1n + (2n ** 53n - 1n) * 2n ** 20n + 15n;
    expect(h.sumExact()).toBe(exact);
    expect(h.sum).toBe(Number(exact));
    const j = h.toJSON();
    expect(j.sum).toBe(exact.toString());
    expect(roundTrip(h).sumExact()).toBe(exact);
    const m = fill([2 ** 53 - 1]);
    m.merge(h);
    m.merge(m);
    expect(m.sumExact()).toBe(2n * (exact + 2n ** 53n - 1n));
    expect(fill([1, 2]).toJSON().sum).toBe(3);
  });

  it("returns the single value exactly for every quantile", () => {
    for (const v of [0, 1, 127, 128, 1000, 123_456_789, 2 ** 53 - 1, 2 ** 53]) {
      const h = fill([v]);
      for (const q of [0, 0.01, 0.5, 0.99, 1]) expect(h.quantile(q)).toBe(v);
    }
  });

  it("uses nearest rank: q=0 is min, q=1 is max, rank ceil(q*n)", () => {
    const h = fill([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(h.quantile(0)).toBe(1);
    expect(h.quantile(0.1)).toBe(1);
    expect(h.quantile(0.11)).toBe(2);
    expect(h.quantile(0.5)).toBe(5);
    expect(h.quantile(0.51)).toBe(6);
    expect(h.quantile(1)).toBe(10);
    // q * n with rounding noise still gives the intended rank (0.07 * 100 = 7.000000000000001).
    const g = fill(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(g.quantile(0.07)).toBe(7);
    expect(g.quantile(0.29)).toBe(29);
  });

  it("reports the bucket midpoint, clamped to [min, max]", () => {
    // At s = 7, 1000 lies in the width-4 bucket [1000, 1003]; its midpoint is 1002.
    const { lo, width } = refBucket(1000, 7);
    const h = fill([0, 1000, 1000, 2 ** 40]);
    expect(h.quantile(0.5)).toBe(lo + width / 2);
    // Clamped to max when the bucket midpoint is above it.
    const g = fill([0, lo, lo, lo]);
    expect(g.quantile(0.5)).toBe(lo);
  });

  it("reset empties it and keeps it usable", () => {
    const h = fill([1, 2, 3_000_000]);
    h.reset();
    expect(h.toJSON()).toEqual(new LatencyHistogram().toJSON());
    h.record(42);
    expect(h.quantile(0.5)).toBe(42);
    expect(h.count).toBe(1);
  });

  it("treats -0 as 0", () => {
    const h = fill([-0]);
    expect(Object.is(h.min, 0)).toBe(true);
    expect(h.toJSON().buckets).toEqual([[0, 1]]);
  });
});

describe("LatencyHistogram bucket edges", () => {
  const edges: number[] = [0, 1, 2 ** 53 - 1, 2 ** 53];
  for (let k = 1; k <= 53; k++) edges.push(2 ** k - 1, 2 ** k, 2 ** k + 1);
  const values = [...new Set(edges.filter((v) => v <= MAX_RECORDABLE))].sort((a, b) => a - b);

  for (const s of [1, 3, 7, 10]) {
    it(`matches the BigInt reference at powers of two and neighbours (s=${s})`, () => {
      for (const v of values) {
        const ref = refBucket(v, s);
        const h = fill([0, v, v, MAX_RECORDABLE], s);
        const nonZero = h.toJSON().buckets.map(([i]) => i);
        expect(nonZero, `v=${v}`).toContain(ref.index);
        // rank 2 of 4 lands in v's bucket; no clamping since min = 0 and max = 2^53.
        const mid = h.quantile(0.5);
        // (clamped to max = 2^53 for v = 2^53, whose bucket's midpoint lies above it).
        expect(mid, `v=${v}`).toBe(Math.min(MAX_RECORDABLE, ref.lo + Math.floor(ref.width / 2)));
        expect(Math.abs(mid - v)).toBeLessThanOrEqual(v * 2 ** -(s + 1));
      }
    });
  }

  it("has monotone, contiguous bucket indexes across octave boundaries", () => {
    const s = 4;
    let prev = -1;
    for (let v = 0; v < 5000; v++) {
      const i = refBucket(v, s).index;
      const h = fill([v], s);
      expect(h.toJSON().buckets[0][0]).toBe(i);
      expect(i === prev || i === prev + 1).toBe(true);
      prev = i;
    }
  });

  it("stores values below 2^subBucketBits exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }).chain((s) =>
          fc.tuple(fc.constant(s), fc.array(fc.integer({ min: 0, max: 2 ** s - 1 }), { minLength: 1, maxLength: 200 }), quantiles),
        ),
        ([s, vs, qs]) => {
          const h = fill(vs, s);
          const sorted = [...vs].sort((a, b) => a - b);
          for (const q of qs) expect(h.quantile(q)).toBe(exactQuantile(sorted, q));
        },
      ),
    );
  });

  it("puts any value in its reference bucket", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), latency, (s, v) => {
        expect(fill([v], s).toJSON().buckets).toEqual([[refBucket(v, s).index, 1]]);
      }),
    );
  });
});

describe("LatencyHistogram properties", () => {
  it("quantiles are within the relative error bound of the exact nearest-rank quantile", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(latency, { minLength: 1, maxLength: 300 }),
        quantiles,
        (s, vs, qs) => {
          const h = fill(vs, s);
          const sorted = [...vs].sort((a, b) => a - b);
          for (const q of qs) {
            const exact = exactQuantile(sorted, q);
            const est = h.quantile(q);
            // Documented bound is < 2^-s; the midpoint actually achieves 2^-(s+1).
            expect(Math.abs(est - exact)).toBeLessThanOrEqual(exact * 2 ** -(s + 1));
            expect(est).toBeGreaterThanOrEqual(h.min);
            expect(est).toBeLessThanOrEqual(h.max);
          }
          expect(h.count).toBe(vs.length);
          expect(h.min).toBe(sorted[0]);
          expect(h.max).toBe(sorted[sorted.length - 1]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("merging equals recording both", () => {
    fc.assert(
      fc.property(fc.array(latency, { maxLength: 100 }), fc.array(latency, { maxLength: 100 }), (a, b) => {
        const m = fill(a);
        m.merge(fill(b));
        const both = fill([...a, ...b]);
        expect(m.toJSON()).toEqual(both.toJSON());
        expect(m.quantile(0.9)).toEqual(both.quantile(0.9));
      }),
    );
  });

  it("merging with itself doubles every count", () => {
    const h = fill([1, 500, 70_000, 70_000]);
    h.merge(h);
    expect(h.toJSON()).toEqual(fill([1, 1, 500, 500, 70_000, 70_000, 70_000, 70_000]).toJSON());
  });

  it("recordN equals n calls to record", () => {
    fc.assert(
      fc.property(latency, fc.integer({ min: 0, max: 50 }), (v, n) => {
        const a = new LatencyHistogram();
        a.recordN(v, n);
        expect(a.toJSON()).toEqual(fill(Array(n).fill(v)).toJSON());
      }),
    );
  });

  it("round-trips through JSON exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(latency, { maxLength: 200 }), quantiles, (s, vs, qs) => {
        const h = fill(vs, s);
        const r = roundTrip(h);
        expect(r.toJSON()).toEqual(h.toJSON());
        expect(r.subBucketBits).toBe(s);
        expect(r.count).toBe(h.count);
        expect(r.sum).toBe(h.sum);
        for (const q of qs) expect(r.quantile(q)).toEqual(h.quantile(q));
        // The restored histogram keeps working like the original.
        r.record(12345);
        h.record(12345);
        expect(r.toJSON()).toEqual(h.toJSON());
      }),
    );
  });

  it("serialises only non-empty buckets, in index order", () => {
    const j = fill([3, 3, 1_000_000, 5]).toJSON();
    expect(j.buckets.map(([, c]) => c)).toEqual([2, 1, 1]);
    expect(j.buckets[0]).toEqual([3, 2]);
    expect(j.buckets.map(([i]) => i)).toEqual([...j.buckets.map(([i]) => i)].sort((a, b) => a - b));
  });
});

describe("LatencyHistogram errors", () => {
  it("rejects negative, NaN, non-integer, infinite and too-large values", () => {
    const h = new LatencyHistogram();
    for (const v of [-1, -0.5, NaN, 1.5, Infinity, -Infinity, 2 ** 53 + 2, Number.MAX_VALUE]) {
      expect(() => h.record(v), `record(${v})`).toThrow(RangeError);
      expect(() => h.recordN(v, 1), `recordN(${v})`).toThrow(RangeError);
    }
    expect(h.count).toBe(0);
  });

  it("rejects bad recordN counts", () => {
    const h = new LatencyHistogram();
    for (const n of [-1, 0.5, NaN, Infinity]) expect(() => h.recordN(1, n)).toThrow(RangeError);
    expect(h.count).toBe(0);
  });

  it("rejects quantiles outside [0, 1]", () => {
    const h = fill([1]);
    for (const q of [-0.01, 1.01, NaN]) expect(() => h.quantile(q)).toThrow(RangeError);
  });

  it("rejects bad subBucketBits", () => {
    for (const s of [0, -1, 1.5, 17, NaN]) expect(() => new LatencyHistogram(s)).toThrow(RangeError);
  });

  it("refuses to merge histograms of different precision", () => {
    expect(() => new LatencyHistogram(7).merge(new LatencyHistogram(8))).toThrow(RangeError);
  });

  it("rejects inconsistent JSON", () => {
    const good = fill([1, 1000, 5_000_000]).toJSON();
    const bad: Array<Partial<HistogramJSON> | Record<string, unknown>> = [
      { count: 4 },
      { buckets: [...good.buckets, [good.buckets[0][0], 1]] },
      { buckets: [[-1, 1], ...good.buckets.slice(1)] },
      { buckets: [[1e9, 1], ...good.buckets.slice(1)] },
      { buckets: [[good.buckets[0][0], 0], ...good.buckets.slice(1)] },
      { min: 2 },
      { max: 4_000_000 },
      { min: 1.5 },
      { min: null },
      { subBucketBits: 40 },
      { sum: -1 },
      { sum: 1.5 },
      { sum: "12x" },
      { sum: 2 }, // below min * count
      { sum: "15000001" }, // above max * count
    ];
    for (const patch of bad) {
      expect(() => LatencyHistogram.fromJSON({ ...good, ...patch } as HistogramJSON), JSON.stringify(patch)).toThrow(RangeError);
    }
    expect(() =>
      LatencyHistogram.fromJSON({ subBucketBits: 7, count: 0, min: 0, max: 0, sum: 0, buckets: [] }),
    ).toThrow(RangeError);
  });
});

describe("LatencyHistogram.addCounts", () => {
  it("adds values counted elsewhere in its layout as recording each would (the Zone engine's counts, src/laminar/start-hist.ts)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.constant(MAX_RECORDABLE)), { minLength: 1, maxLength: 60 }), fc.array(fc.integer({ min: 0, max: 2 ** 33 }), { maxLength: 5 }), (vs, before) => {
        const want = new LatencyHistogram(), got = new LatencyHistogram();
        for (const v of before) { want.record(v); got.record(v); }
        for (const v of vs) want.record(v);
        // counted elsewhere: buckets by the reference, the sum in limbs
        const at = 5, counts = new Float64Array(at + (54 - 7) * 128 + 1);
        let hi = 0, lo = 0;
        for (const v of vs) {
          counts[at + refBucket(v, 7).index]++;
          const h = Math.floor(v / 2 ** 32);
          lo += v - h * 2 ** 32;
          hi += h;
          if (lo >= 2 ** 32) { lo -= 2 ** 32; hi++; }
        }
        const [first, last] = got.addCounts(counts, at, vs.length, hi, lo, Math.min(...vs), Math.max(...vs));
        expect(got.toJSON()).toEqual(want.toJSON());
        expect([first, last]).toEqual([refBucket(Math.min(...vs), 7).index, refBucket(Math.max(...vs), 7).index]);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses counts that cannot be a histogram's", () => {
    const h = new LatencyHistogram(), c = new Float64Array(7000);
    expect(() => h.addCounts(c, 0, 0, 0, 0, 1, 2)).toThrow(/addCounts/);
    expect(() => h.addCounts(c, 0, 2, 0, 0, 3, 2)).toThrow(/addCounts/);
    expect(() => h.addCounts(c, 0, 2, 0, 2 ** 32, 1, 2)).toThrow(/addCounts/);
    expect(() => h.addCounts(c, 0, 2, 0.5, 0, 1, 2)).toThrow(/addCounts/);
    expect(() => h.addCounts(c, 0, 2, 0, 3, 1, 2.5)).toThrow(/latency must be an integer/);
    expect(h.count).toBe(0);
  });
});
