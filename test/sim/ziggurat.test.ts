import { describe, expect, it } from "vitest";
import { streamRng } from "../../src/sim/rng.js";
import { zigguratNormal } from "../../src/sim/ziggurat.js";

describe("zigguratNormal", () => {
  const n = 400_000;
  const draws = new Float64Array(n);
  const rng = streamRng(7, "zig");
  for (let i = 0; i < n; i++) draws[i] = zigguratNormal(rng);

  it("has the moments of a standard normal", () => {
    let s = 0, s2 = 0, s4 = 0;
    for (const x of draws) { s += x; s2 += x * x; s4 += x ** 4; }
    const mean = s / n, v = s2 / n - mean * mean;
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(v - 1)).toBeLessThan(0.01);
    expect(Math.abs(s4 / n - 3)).toBeLessThan(0.06);
  });

  it("matches the normal CDF at several points", () => {
    const sorted = Float64Array.from(draws).sort();
    // Phi(-2) 0.02275, Phi(-1) 0.15866, Phi(0) 0.5, Phi(1) 0.84134, Phi(3) 0.99865
    const cdf = (x: number) => {
      let lo = 0, hi = n;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] < x) lo = mid + 1; else hi = mid; }
      return lo / n;
    };
    expect(cdf(-2)).toBeCloseTo(0.02275, 2);
    expect(cdf(-1)).toBeCloseTo(0.15866, 2);
    expect(cdf(0)).toBeCloseTo(0.5, 2);
    expect(cdf(1)).toBeCloseTo(0.84134, 2);
    expect(cdf(3)).toBeCloseTo(0.99865, 3);
  });

  it("reaches the tail beyond the base layer, symmetrically", () => {
    let above = 0, below = 0;
    for (const x of draws) { if (x > 3.5) above++; if (x < -3.5) below++; }
    // P(|Z| > 3.5) = 4.65e-4, so about 93 each side in 4e5 draws
    expect(above).toBeGreaterThan(50);
    expect(below).toBeGreaterThan(50);
    expect(above).toBeLessThan(150);
    expect(below).toBeLessThan(150);
  });

  it("is deterministic per stream", () => {
    const a = streamRng(3, "z"), b = streamRng(3, "z");
    for (let i = 0; i < 1000; i++) expect(zigguratNormal(a)).toBe(zigguratNormal(b));
  });
});
