// How `reproduce --workers W` orders its points and shares its threads between them.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { grantThreads, pointCost } from "../../src/experiments/runner.js";
import { EXPERIMENTS } from "../../src/experiments/specs.js";

/** Start points (already in order) as threads free up, each taking grantThreads of the free ones; returns each point's grant. */
function schedule(workers: number, points: number, splits = true): number[] {
  const grants: number[] = [];
  let free = workers, waiting = points;
  const running: number[] = [];
  while (waiting > 0) {
    while (waiting > 0 && free > 0) {
      const g = grantThreads(free, waiting, splits);
      expect(g).toBeGreaterThanOrEqual(1);
      expect(g).toBeLessThanOrEqual(free);
      grants.push(g);
      running.push(g);
      free -= g;
      waiting--;
    }
    // the point that started first finishes first (any order keeps the checks above)
    free += running.shift() ?? 0;
  }
  return grants;
}

describe("grantThreads", () => {
  it("runs one point per thread while points outnumber threads, and splits the threads among the last ones", () => {
    expect(schedule(2, 4)).toEqual([1, 1, 1, 1]);
    expect(schedule(2, 1)).toEqual([2]);
    expect(schedule(4, 2)).toEqual([2, 2]);
    expect(schedule(3, 2)).toEqual([2, 1]); // the longest point, which starts first, gets the larger share
    expect(schedule(1, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(schedule(8, 2, false)).toEqual([1, 1]); // a baseline point does not split
  });

  it("never grants more threads than are free, and never leaves a thread idle while points wait", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 100 }), (w, n) => {
      const first = schedule(w, n).slice(0, Math.min(w, n));
      // the points started at once use every thread when there are enough of them
      if (n >= w) expect(first.reduce((a, b) => a + b, 0)).toBe(w);
      else expect(first.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(w);
    }));
  });
});

describe("pointCost", () => {
  it("orders Exp2 at paper scale largest cluster first, and grows with load and simulated time", () => {
    const exp2 = EXPERIMENTS.find((e) => e.id === "exp2")!.points("paper");
    const order = [...exp2].sort((a, b) => pointCost(b) - pointCost(a)).map((p) => p.nodes);
    expect(order).toEqual([32000, 20000, 10000, 5000]);
    const exp1 = EXPERIMENTS.find((e) => e.id === "exp1")!.points("quick").filter((p) => p.scheduler === "laminar" && p.profile === "paper");
    const byRho = [...exp1].sort((a, b) => pointCost(b) - pointCost(a)).map((p) => p.rho);
    expect(byRho).toEqual([0.9, 0.8, 0.7, 0.6, 0.5, 0.4]);
    const quick = EXPERIMENTS.find((e) => e.id === "exp2")!.points("quick")[0];
    expect(pointCost(exp2[0])).toBeGreaterThan(pointCost(quick));
  });
});
