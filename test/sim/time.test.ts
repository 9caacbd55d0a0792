// Simulated time: integer nanoseconds; conversions round once, at the edge.
import { describe, expect, it } from "vitest";
import { isTime, MAX_TIME, ms, NS_PER_MS, s, toMs, toS, toUs, us } from "../../src/sim/time.js";

describe("time", () => {
  it("converts to integer nanoseconds, exactly for decimal inputs", () => {
    expect(ms(1)).toBe(1_000_000);
    expect(ms(0.1)).toBe(100_000);
    expect(ms(0.29)).toBe(290_000); // 0.29 * 1e6 = 290000.00000000006 before rounding
    expect(us(50)).toBe(50_000);
    expect(us(0.0004)).toBe(0);
    expect(us(0.0005)).toBe(1); // halves round up
    expect(s(30)).toBe(30_000_000_000);
    expect(ms(112)).toBe(112 * NS_PER_MS);
  });

  it("converts back for reports", () => {
    expect(toMs(ms(150))).toBe(150);
    expect(toUs(us(50))).toBe(50);
    expect(toS(s(2.5))).toBe(2.5);
  });

  it("accepts integers in [0, 2^53) as times", () => {
    expect(isTime(0) && isTime(s(30)) && isTime(MAX_TIME)).toBe(true);
    for (const t of [-1, 0.5, NaN, Infinity, 2 ** 53]) expect(isTime(t), `${t}`).toBe(false);
  });

  it("keeps sums of times exact far past 2^32 ns", () => {
    const t = s(3600) + 1; // an hour and a nanosecond
    expect(t + ms(1) - ms(1)).toBe(t);
    expect(Number.isSafeInteger(t * 1000)).toBe(true);
  });
});
