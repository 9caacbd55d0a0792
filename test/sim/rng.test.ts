// The seeded streams: the generator against the reference C code, the
// derivation pinned, independence from creation order, and the
// distributions' moments within tight bounds. Every test uses fixed seeds,
// so each either always passes or always fails: none is flaky.
import { describe, expect, it } from "vitest";
import { deriveState, isSeed, lognormalMu, Rng, streamRng, Streams } from "../../src/sim/rng.js";

/** An Rng whose u32 draws are scripted, to test the algorithms on chosen words. */
class Scripted extends Rng {
  private i = 0;
  constructor(private readonly words: number[]) {
    super([1, 0, 0, 0]);
  }
  override nextU32(): number {
    if (this.i >= this.words.length) throw new Error("script exhausted");
    return this.words[this.i++] >>> 0;
  }
  get used(): number {
    return this.i;
  }
}

function draws(r: Rng, n: number): number[] {
  return Array.from({ length: n }, () => r.nextU32());
}

/** Mean and (population) variance. */
function moments(xs: Float64Array): { mean: number; variance: number } {
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / xs.length;
  let v = 0;
  for (const x of xs) v += (x - mean) ** 2;
  return { mean, variance: v / xs.length };
}

function sample(n: number, f: () => number): Float64Array {
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) xs[i] = f();
  return xs;
}

const N = 200_000;

describe("xoshiro128**", () => {
  it("matches the reference C implementation (state 1, 2, 3, 4)", () => {
    expect(draws(new Rng([1, 2, 3, 4]), 8)).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
  });

  it("matches the reference after 1000 draws from a full-width state", () => {
    const r = new Rng([0x9e3779b9, 0x243f6a88, 0xb7e15162, 0xdeadbeef]);
    draws(r, 1000);
    expect(draws(r, 4)).toEqual([2541037969, 1849389561, 1502624387, 2643130287]);
  });

  it("rejects the all-zero state", () => {
    expect(() => new Rng([0, 0, 0, 0])).toThrow(RangeError);
  });

  it("clone continues the same sequence, including a cached normal", () => {
    const r = streamRng(5, "clone");
    r.normal();
    const c = r.clone();
    expect([c.normal(), c.nextU32(), c.float()]).toEqual([r.normal(), r.nextU32(), r.float()]);
  });
});

describe("stream derivation", () => {
  it("is pinned: changing it changes every run", () => {
    expect(Array.from(deriveState(42, "workload")).map((x) => x >>> 0)).toEqual([1409490432, 893379923, 3613153538, 3531961909]);
    const s = new Streams(42);
    expect(draws(s.get("workload"), 4)).toEqual([497535917, 2118394111, 1075817575, 4179886231]);
    expect(draws(s.get("zone", 17), 2)).toEqual([162785415, 305848567]);
  });

  it("depends on (seed, name, index), not on the order streams are created in", () => {
    const a = new Streams(7), b = new Streams(7);
    const a1 = a.get("network"), a2 = a.get("zone", 3), a3 = a.get("gateway");
    b.get("extra.mechanism"); // a stream the other run does not have
    const b3 = b.get("gateway"), b2 = b.get("zone", 3), b1 = b.get("network");
    expect(draws(b1, 16)).toEqual(draws(a1, 16));
    expect(draws(b2, 16)).toEqual(draws(a2, 16));
    expect(draws(b3, 16)).toEqual(draws(a3, 16));
  });

  it("gives different streams for different seeds, names and indices", () => {
    const first = new Set<string>();
    const add = (r: Rng): void => {
      first.add(draws(r, 2).join(","));
    };
    for (let z = 0; z < 2000; z++) add(streamRng(1, "zone", z));
    add(streamRng(1, "zone")); // no index differs from index 0
    add(streamRng(1, "zone.probe", 0));
    add(streamRng(1, "zonf", 0));
    add(streamRng(2, "zone", 0));
    add(streamRng(2 ** 32, "zone", 0)); // the high word of the seed counts
    add(streamRng(2 ** 32 + 1, "zone", 0));
    add(streamRng(Number.MAX_SAFE_INTEGER, "zone", 0));
    expect(first.size).toBe(2000 + 7);
  });

  it("hands each key out once per Streams", () => {
    const s = new Streams(1);
    s.get("network");
    s.get("zone", 1);
    expect(s.has("network")).toBe(true);
    expect(s.has("zone", 2)).toBe(false);
    expect(() => s.get("network")).toThrow(/already taken/);
    expect(() => s.get("zone", 1)).toThrow(/already taken/);
    expect(() => s.get("zone", 2)).not.toThrow();
    expect(() => s.get("zone")).not.toThrow();
    // streamRng is the deliberate replay: same numbers, no claim
    expect(draws(streamRng(1, "network"), 3)).toEqual(draws(streamRng(1, "network"), 3));
  });

  it("rejects bad seeds, names and indices", () => {
    for (const seed of [-1, 0.5, NaN, Infinity, 2 ** 53]) {
      expect(isSeed(seed)).toBe(false);
      expect(() => new Streams(seed), `seed ${seed}`).toThrow(RangeError);
    }
    expect(isSeed(0) && isSeed(2 ** 32 - 1) && isSeed(Number.MAX_SAFE_INTEGER)).toBe(true);
    const s = new Streams(3);
    for (const name of ["", "has space", "zone#1", "tab\t"]) expect(() => s.get(name), name).toThrow(RangeError);
    for (const index of [-1, 0.5, 2 ** 32, NaN]) expect(() => s.get("zone", index), `index ${index}`).toThrow(RangeError);
    expect(() => s.get("zone", 2 ** 32 - 1)).not.toThrow();
  });
});

describe("uniform draws", () => {
  it("float() is in [0, 1) with 53 bits; float32() with 32 bits; both reach their maxima below 1", () => {
    expect(new Scripted([0xffffffff, 0xffffffff]).float()).toBe(1 - 2 ** -53);
    expect(new Scripted([0, 0]).float()).toBe(0);
    expect(new Scripted([0xffffffff]).float32()).toBe(1 - 2 ** -32);
    const r = streamRng(11, "float");
    let lo = 1, hi = 0;
    for (let i = 0; i < N; i++) {
      const x = r.float();
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    const m = moments(sample(N, () => r.float()));
    expect(Math.abs(m.mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
  });

  it("draw costs are fixed: float, exp, uniform 2 words; float32, bernoulli 1; normal 4 per pair", () => {
    const cost = (f: (r: Rng) => void): number => {
      const r = streamRng(3, "cost");
      const ref = r.clone();
      f(r);
      const next = r.nextU32();
      for (let k = 0; k < 10; k++) if (ref.nextU32() === next) return k; // k words skipped
      return -1;
    };
    expect(cost((r) => r.float())).toBe(2);
    expect(cost((r) => r.exp(3))).toBe(2);
    expect(cost((r) => r.uniform(1, 2))).toBe(2);
    expect(cost((r) => r.float32())).toBe(1);
    expect(cost((r) => r.bernoulli(0))).toBe(1);
    expect(cost((r) => r.bernoulli(1))).toBe(1);
    expect(cost((r) => r.normal())).toBe(4);
    expect(cost((r) => { r.normal(); r.normal(); })).toBe(4);
    expect(cost((r) => r.lognormal(0, 1))).toBe(4);
  });
});

describe("int(n)", () => {
  it("stays in [0, n) across the range of n", () => {
    const r = streamRng(4, "int");
    for (const n of [1, 2, 3, 7, 1000, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1, 2 ** 31, 3 * 2 ** 30, 2 ** 32 - 1, 2 ** 32]) {
      let bad = -1;
      for (let i = 0; i < 2000; i++) {
        const x = r.int(n);
        if (!(Number.isInteger(x) && x >= 0 && x < n)) bad = x;
      }
      expect(bad, `n=${n}`).toBe(-1);
    }
    expect(r.int(1)).toBe(0);
  });

  it("rejects exactly the words that would bias it (multiply path, n <= 2^21)", () => {
    // n = 3: 2^32 mod 3 = 1, so only a word with (x * 3) mod 2^32 < 1, i.e. x = 0, is rejected.
    const r = new Scripted([0, 5]);
    expect(r.int(3)).toBe(0);
    expect(r.used).toBe(2);
    const top = new Scripted([0xffffffff]);
    expect(top.int(3)).toBe(2);
    expect(top.used).toBe(1);
  });

  it("rejects exactly the words that would bias it (modulo path, n > 2^21)", () => {
    // n = 3 * 2^30: 2^32 mod n = 2^30; words below 2^30 are rejected.
    const n = 3 * 2 ** 30;
    const r = new Scripted([2 ** 30 - 1, 0, 2 ** 30]);
    expect(r.int(n)).toBe(2 ** 30);
    expect(r.used).toBe(3);
  });

  it("is unbiased where a plain modulo would not be", () => {
    // x mod (3 * 2^30) without rejection returns [0, 2^30) with probability 1/2, not 1/3.
    const r = streamRng(9, "bias");
    const n = 3 * 2 ** 30;
    let low = 0;
    for (let i = 0; i < N; i++) if (r.int(n) < 2 ** 30) low++;
    const p = low / N, se = Math.sqrt((1 / 3) * (2 / 3) / N);
    expect(Math.abs(p - 1 / 3)).toBeLessThan(5 * se);
  });

  it("passes a chi-square test for n = 6", () => {
    const r = streamRng(10, "dice");
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 600_000; i++) counts[r.int(6)]++;
    const chi2 = counts.reduce((s, c) => s + (c - 100_000) ** 2 / 100_000, 0);
    expect(chi2).toBeLessThan(20.5); // p = 0.001 at 5 degrees of freedom
  });

  it("rejects bad n", () => {
    const r = streamRng(1, "bad");
    for (const n of [0, -1, 0.5, 2 ** 32 + 1, NaN, Infinity]) expect(() => r.int(n), `n=${n}`).toThrow(RangeError);
  });
});

describe("continuous distributions", () => {
  it("exp(mean): mean and variance", () => {
    const r = streamRng(21, "exp");
    const mean = 5e6;
    const m = moments(sample(N, () => r.exp(mean)));
    expect(Math.abs(m.mean - mean)).toBeLessThan(5 * mean / Math.sqrt(N));
    expect(Math.abs(m.variance / mean ** 2 - 1)).toBeLessThan(0.05);
  });

  it("exp(mean) is non-negative and has the exponential tail", () => {
    const r = streamRng(22, "exp-tail");
    let beyond3 = 0, min = Infinity;
    for (let i = 0; i < N; i++) {
      const x = r.exp(1);
      min = Math.min(min, x);
      if (x > 3) beyond3++;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    const p = Math.exp(-3);
    expect(Math.abs(beyond3 / N - p)).toBeLessThan(5 * Math.sqrt(p * (1 - p) / N));
  });

  it("normal(): mean 0, variance 1, no skew, kurtosis 3", () => {
    const r = streamRng(23, "normal");
    const xs = sample(N, () => r.normal());
    const m = moments(xs);
    expect(Math.abs(m.mean)).toBeLessThan(5 / Math.sqrt(N));
    expect(Math.abs(m.variance - 1)).toBeLessThan(5 * Math.sqrt(2 / N));
    let s3 = 0, s4 = 0;
    for (const x of xs) { s3 += x ** 3; s4 += x ** 4; }
    expect(Math.abs(s3 / N)).toBeLessThan(5 * Math.sqrt(15 / N));
    expect(Math.abs(s4 / N - 3)).toBeLessThan(5 * Math.sqrt(96 / N));
  });

  it("normal(mean, sd) scales and shifts", () => {
    const r = streamRng(24, "normal2");
    const m = moments(sample(N, () => r.normal(10, 2)));
    expect(Math.abs(m.mean - 10)).toBeLessThan(5 * 2 / Math.sqrt(N));
    expect(Math.abs(m.variance - 4)).toBeLessThan(5 * 4 * Math.sqrt(2 / N));
  });

  it("lognormal(mu, sigma): its log has mean mu and sd sigma; lognormalMu hits a target mean", () => {
    const r = streamRng(25, "lognormal");
    const logs = sample(N, () => Math.log(r.lognormal(3, 1.5)));
    const m = moments(logs);
    expect(Math.abs(m.mean - 3)).toBeLessThan(5 * 1.5 / Math.sqrt(N));
    expect(Math.abs(m.variance - 2.25)).toBeLessThan(5 * 2.25 * Math.sqrt(2 / N));
    // Mean 112 ms with sigma 0.5: the sample mean is close (sd of the mean: 112 sqrt(e^0.25 - 1) / sqrt(N)).
    const mean = 112e6, sigma = 0.5;
    const xs = moments(sample(N, () => r.lognormal(lognormalMu(mean, sigma), sigma)));
    expect(Math.abs(xs.mean - mean)).toBeLessThan(5 * mean * Math.sqrt(Math.exp(sigma ** 2) - 1) / Math.sqrt(N));
  });

  it("bernoulli(p): frequency p; p <= 0 never, p >= 1 always", () => {
    const r = streamRng(26, "coin");
    let hits = 0;
    for (let i = 0; i < N; i++) if (r.bernoulli(0.3)) hits++;
    expect(Math.abs(hits / N - 0.3)).toBeLessThan(5 * Math.sqrt(0.21 / N));
    for (let i = 0; i < 1000; i++) {
      expect(r.bernoulli(0)).toBe(false);
      expect(r.bernoulli(1)).toBe(true);
    }
  });

  it("uniform(lo, hi) stays in [lo, hi)", () => {
    const r = streamRng(27, "uniform");
    let ok = true;
    for (let i = 0; i < 10_000; i++) {
      const x = r.uniform(-2, 3);
      ok &&= x >= -2 && x < 3;
    }
    expect(ok).toBe(true);
  });
});
