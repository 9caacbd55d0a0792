// bench:sim --replay (bench/replay.ts, bench/replay-summary.ts): the
// threads' schedule replayed on given half durations, worked by hand; the
// recorded halves read back; the rescaling, the phase means and the work
// period. The run that prints a replay is in test/e2e/bench-sim.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { durationsOf, measured, phaseMeans, replay, rescaled, splitNodes } from "../../bench/replay.js";
import { workPeriod } from "../../bench/replay-summary.js";

const f = (xs: number[]) => Float64Array.from(xs);

describe("bench:sim --replay", () => {
  it("runs the gateway's half first on thread 0 when both may run, and its Zones' halves when the gateway's may not", () => {
    // worked by hand: thread 0 runs g0 [0,1], g1 [1,2], z0 [2,3] (g2 needs every partition's half 0), g2 [3,4],
    // z1 [4,5] (g3 needs half 1), g3 [5,6], z2 [6,7], z3 [7,8]; thread 1 its four halves back to back by 4
    const r = replay({ gateway: f([1, 1, 1, 1]), zones: [f([1, 1, 1, 1]), f([1, 1, 1, 1])] });
    expect(r.wallMs).toBe(8);
    expect(r.waitMs).toEqual([0, 0]);
  });

  it("makes a thread wait for the half it needs, and counts the wait", () => {
    // thread 1's first half takes 5: thread 0 runs g0, g1 and its three Zone halves by 3.5, then waits for it
    // until 5 (1.5), runs g2 by 6; thread 1 runs its halves 1 and 2 from 5 to 7
    const r = replay({ gateway: f([1, 1, 1]), zones: [f([0.5, 0.5, 0.5]), f([5, 1, 1])] });
    expect(r.wallMs).toBe(7);
    expect(r.waitMs).toEqual([1.5, 0]);
  });

  it("runs one thread alone (the gateway and its Zones) without waiting", () => {
    const r = replay({ gateway: f([1, 2, 3]), zones: [f([1, 1, 1])] });
    expect(r.wallMs).toBe(9);
    expect(r.waitMs).toEqual([0]);
  });

  it("ends no sooner than the halves' time spread evenly, no later than all of it in a row, and the same when run again", () => {
    const d = fc.integer({ min: 1, max: 3 }).chain((W) => fc.integer({ min: 1, max: 40 }).chain((K) =>
      fc.array(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: K, maxLength: K }), { minLength: W + 1, maxLength: W + 1 })));
    fc.assert(fc.property(d, ([g, ...zs]) => {
      const x = { gateway: f(g), zones: zs.map(f) };
      const total = [g, ...zs].flat().reduce((a, y) => a + y, 0);
      const r = replay(x);
      expect(r.wallMs).toBeGreaterThanOrEqual(total / zs.length - 1e-9);
      expect(r.wallMs).toBeLessThanOrEqual(total + 1e-9);
      // a thread is never both running and waiting: its busy time and its waits fit in the wall time
      zs.forEach((z, t) => {
        const busy = z.reduce((a, y) => a + y, 0) + (t === 0 ? g.reduce((a, y) => a + y, 0) : 0);
        expect(busy + r.waitMs[t]).toBeLessThanOrEqual(r.wallMs + 1e-9);
      });
      expect(replay(x)).toEqual(r);
    }));
  });

  it("refuses durations that do not line up", () => {
    expect(() => replay({ gateway: f([1, 1]), zones: [f([1, 1]), f([1])] })).toThrow(/one duration a half/);
  });

  it("reads the recorded halves back: durations by kind, the wall time and each thread's gaps", () => {
    const halves = [
      // thread 0: gateway halves 0 and 1, Zone halves 0 and 1, interleaved in time; half 1 of the Zones never ran
      { gateway: f([10, 11, 11, 13]), zones: f([13, 14, NaN, NaN]) },
      { gateway: null, zones: f([10, 12, 15, 16]) },
    ];
    const d = durationsOf(halves);
    expect([...d.gateway]).toEqual([1, 2]);
    expect(d.zones.map((z) => [...z])).toEqual([[1, 0], [2, 1]]);
    const m = measured(halves);
    expect(m.wallMs).toBe(6);
    expect(m.waitMs).toEqual([0, 3]);
    expect(() => durationsOf([{ gateway: null, zones: f([0, 1]) }])).toThrow(/no gateway halves/);
  });

  it("scales each partition's halves by the nodes it would hold, and takes out the halves' spread", () => {
    const d = { gateway: f([1, 1]), zones: [f([2, 4]), f([3, 3])] };
    const r = rescaled(d, [100, 300], splitNodes(400, 2, 0.5));
    expect(r.zones.map((z) => [...z])).toEqual([[4, 8], [2, 2]]);
    expect(splitNodes(1000, 3, 0.2)).toEqual([200, 400, 400]);
    // a period of 2 halves, blocks of 2 periods: each half at the mean of its place within its block
    const p = phaseMeans({ gateway: f([1, 10, 3, 20, 5, 7]), zones: [] }, 2, 2);
    expect([...p.gateway]).toEqual([2, 15, 2, 15, 5, 7]);
  });

  it("takes the work's period from the batch and the Zones' snapshots, where they are whole numbers of halves", () => {
    // the paper's settings: halves of 0.125 ms, a batch every 1 ms, a snapshot every 10 ms
    expect(workPeriod(125_000, 1e6, 1e7)).toBe(80);
    expect(workPeriod(125_000, 1e6, 1.5e6)).toBe(24);
    expect(workPeriod(125_000, 1e6, 1e6 + 1)).toBe(8);
    expect(workPeriod(125_000, 1e6, 2e9)).toBe(8);
    expect(workPeriod(300_000, 1e6, 1e7)).toBe(0);
  });
});
