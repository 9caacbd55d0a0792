// The core's arrival sequence (assembly/arrivals.ts through CoreArrivals)
// is Arrivals' (src/workload/arrivals.ts), task for task and bit for bit, on
// random workloads and batch sizes, in both builds; arrivalsDraw refuses bad
// input and changes nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { Status } from "../../src/core/status.js";
import { loadCore } from "../../src/core/wasm.js";
import { Arrivals } from "../../src/workload/arrivals.js";
import { AB, A_REC, CoreArrivals } from "../../src/laminar/core-arrivals.js";

const runs = Number(process.env.LAMINAR_PROPERTY_RUNS ?? 40);

describe.each(["simd", "scalar"] as const)("CoreArrivals (%s)", (flavor) => {
  it("walks Arrivals' sequence: times, classes, service times, atoms, prices, and the end", () => {
    let ends = 0;
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          rho: fc.double({ min: 0.05, max: 2, noNaN: true }),
          fShare: fc.constantFrom(0, 0.3, 0.8, 1),
          fAtoms: fc.integer({ min: 1, max: 64 }),
          lAtoms: fc.integer({ min: 1, max: 256 }),
          fMeanMs: fc.double({ min: 0.001, max: 50, noNaN: true }),
          lMu: fc.double({ min: -3, max: 5, noNaN: true }),
          lSigma: fc.double({ min: 0, max: 2, noNaN: true }),
          endMs: fc.integer({ min: 0, max: 40 }),
          batch: fc.constantFrom(1, 2, 7, 512),
        }),
        (p) => {
          const c = applySets(defaultConfig(), [
            "cluster.nodes=64", `sim.seed=${p.seed}`, `workload.rho=${p.rho}`, `workload.fShare=${p.fShare}`, `workload.fAtoms=${p.fAtoms}`,
            `workload.lAtoms=${p.lAtoms}`, `workload.fMeanMs=${p.fMeanMs}`, `workload.lMu=${p.lMu}`, `workload.lSigma=${p.lSigma}`,
          ]);
          const end = p.endMs * 1e6;
          const want = new Arrivals(c, end, true), got = new CoreArrivals(loadCore(flavor), c, end, p.batch);
          // at most 3,000 tasks (a tiny mean service time makes the rates huge): the window's end is reached in most runs
          let n = 0;
          for (;;) {
            expect(got.peek()).toBe(want.peek());
            if (want.peek() === Infinity || n === 3000) break;
            want.next();
            got.next();
            expect([got.time, got.cls, got.service, got.atoms, got.price, got.count]).toEqual([want.time, want.cls, want.service, want.atoms, want.price, want.count]);
            n++;
          }
          expect(got.count).toBe(n);
          ends += want.peek() === Infinity ? 1 : 0;
        },
      ),
      { numRuns: runs },
    );
    expect(ends).toBeGreaterThan(0); // some runs walked to the window's end
  });

  it("arrivalsDraw refuses bad input, changing nothing", () => {
    const core = loadCore(flavor), k = core.exports, c = applySets(defaultConfig(), ["cluster.nodes=64"]);
    const a = new CoreArrivals(core, c, 1e9, 4);
    expect(a.peek()).toBeGreaterThan(0);
    const block = core.arena.alloc(AB.BYTES, 16), out = core.arena.alloc(16 * A_REC * 8, 16);
    const f64 = () => core.arena.f64, i32 = () => core.arena.i32;
    // a good block: copy the live one's fields
    const fresh = () => {
      f64().fill(0, block >> 3, (block + AB.BYTES) >> 3);
      f64()[(block + AB.END) >> 3] = 1e9; f64()[(block + AB.GAP_F) >> 3] = 1000; f64()[(block + AB.GAP_L) >> 3] = 5000;
      f64()[(block + AB.NEXT_F) >> 3] = 10; f64()[(block + AB.NEXT_L) >> 3] = 20;
      for (const at of [AB.R_F, AB.R_L, AB.R_SERVICE]) i32().set([1, 2, 3, 4], (block + at) >> 2);
    };
    fresh();
    const snapshot = () => Buffer.from(core.arena.u8.subarray(block, block + AB.BYTES));
    const was = snapshot();
    expect(k.arrivalsDraw(block, out, -1)).toBe(Status.E_COUNT);
    expect(k.arrivalsDraw(block + 8, out, 4)).toBe(Status.E_ALIGN);
    expect(k.arrivalsDraw(0, out, 4)).toBe(Status.E_NULL);
    expect(k.arrivalsDraw(block, block + 16, 4)).toBe(Status.E_ARG); // out over the block
    expect(k.arrivalsDraw(block, out + 4, 4)).toBe(Status.E_ALIGN);
    expect(k.arrivalsDraw(block, core.arena.u8.length - 8, 4)).toBe(Status.E_BOUNDS);
    expect(snapshot()).toEqual(was);
    i32().fill(0, (block + AB.R_L) >> 2, ((block + AB.R_L) >> 2) + 4); // an all-zero stream
    expect(k.arrivalsDraw(block, out, 4)).toBe(Status.E_ARG);
    fresh();
    f64()[(block + AB.GAP_F) >> 3] = NaN;
    expect(k.arrivalsDraw(block, out, 4)).toBe(Status.E_ARG);
    fresh();
    f64()[(block + AB.HAVE) >> 3] = 2;
    expect(k.arrivalsDraw(block, out, 4)).toBe(Status.E_ARG);
    fresh();
    expect(snapshot()).toEqual(was);
    // the good block draws, and the count moves
    expect(k.arrivalsDraw(block, out, 4)).toBe(4);
    expect(f64()[(block + AB.COUNT) >> 3]).toBe(4);
    expect([f64()[out >> 3], f64()[(out >> 3) + 1]]).toEqual([10, 0]); // F first: at 10 ns
    const times = Array.from({ length: 4 }, (_, i) => f64()[(out >> 3) + i * A_REC]);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(times).toContain(20); // the first L task, at 20 ns
  });
});
