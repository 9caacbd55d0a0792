// How `reproduce --workers W` shares its threads between points.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { splitWorkers } from "../../src/experiments/runner.js";

describe("splitWorkers", () => {
  it("runs one point per thread while points outnumber threads, and gives a lone point every thread", () => {
    expect(splitWorkers(2, 4)).toEqual({ points: 2, threads: 1 });
    expect(splitWorkers(2, 1)).toEqual({ points: 1, threads: 2 });
    expect(splitWorkers(4, 2)).toEqual({ points: 2, threads: 2 });
    expect(splitWorkers(1, 5)).toEqual({ points: 1, threads: 1 });
  });

  it("never uses more threads than it was given, nor leaves points idle while threads wait", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 100 }), (w, todo) => {
      const { points, threads } = splitWorkers(w, todo);
      expect(points * threads).toBeLessThanOrEqual(w);
      expect(points).toBe(Math.min(w, todo));
      expect(threads).toBeGreaterThanOrEqual(1);
    }));
  });
});
