// The occupancy bitset's range scan.
import { describe, expect, it } from "vitest";
import { ctz32, Occupancy } from "../../src/sim/occupancy.js";

describe("Occupancy", () => {
  it("finds the first set bucket in [start, end), across words", () => {
    const o = new Occupancy(256);
    expect(o.scan(0, 256)).toBe(-1);
    for (const b of [0, 31, 32, 100, 255]) o.set(b);
    expect(o.scan(0, 256)).toBe(0);
    expect(o.scan(1, 256)).toBe(31);
    expect(o.scan(32, 256)).toBe(32);
    expect(o.scan(33, 256)).toBe(100);
    expect(o.scan(101, 256)).toBe(255);
    expect(o.scan(101, 224)).toBe(-1); // end is exclusive (a multiple of 32)
    expect(o.scan(5, 5)).toBe(-1);
    o.clear(31);
    expect(o.scan(1, 256)).toBe(32);
    expect(o.has(32) && !o.has(31)).toBe(true);
    o.clearAll();
    expect(o.scan(0, 256)).toBe(-1);
  });

  it("agrees with a linear scan on random sets", () => {
    let x = 7;
    for (let trial = 0; trial < 200; trial++) {
      const o = new Occupancy(512);
      const set = new Set<number>();
      for (let i = 0; i < (trial % 20); i++) {
        x = (Math.imul(x, 1103515245) + 12345) | 0;
        const b = (x >>> 8) & 511;
        o.set(b);
        set.add(b);
      }
      for (let start = 0; start < 512; start += 37) {
        let want = -1;
        for (let b = start; b < 512; b++) if (set.has(b)) { want = b; break; }
        expect(o.scan(start, 512)).toBe(want);
      }
    }
  });

  it("rejects sizes that are not multiples of 32, and ctz32 counts trailing zeros", () => {
    expect(() => new Occupancy(48)).toThrow(RangeError);
    expect(() => new Occupancy(0)).toThrow(RangeError);
    expect([ctz32(1), ctz32(8), ctz32(-0x80000000), ctz32(0x30)]).toEqual([0, 3, 31, 4]);
  });
});
