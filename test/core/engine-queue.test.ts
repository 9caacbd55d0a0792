// The engine's event queue (assembly/engine/events.ts) hands events back in
// (time, sequence) order, simultaneous ones in the order they were posted,
// however they were posted: many into one 512 ns bucket in any order (the
// bucket is sorted when it opens), some at equal times, some far ahead (the
// coarse wheel beyond the fine one, the heap beyond both), some for a bucket
// already open. Checked against a
// plain sort of what was posted, over random posting orders.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { HOST_EVENT, RAN_TO } from "../../src/core/engine-layout.js";
import { loadCore } from "../../src/core/wasm.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { K_MEM } from "../../src/laminar/state.js";

const runs = Number(process.env.LAMINAR_PROPERTY_RUNS ?? 40);

describe("the engine's event queue", () => {
  it("hands events back in (time, posting) order, however many share a bucket and in whatever order they were posted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(
          fc.integer({ min: 0, max: 511 }), // one bucket, in any order
          fc.constantFrom(100, 100, 300), // equal times: posting order
          fc.integer({ min: 0, max: 40_000 }), // the next buckets
          // the coarse wheel (buckets of 512 fine ones, 262,144 ns): its first bucket, past the fine wheel's span (512 ns
          // x 32,768 from the open bucket, about 1,953 here), then any, then about the end of its span (4,096 buckets on,
          // whose last bucket shares its place in the ring with the first)
          fc.integer({ min: 16_400_000, max: 17_000_000 }),
          fc.integer({ min: 20_000_000, max: 1_000_000_000 }),
          fc.integer({ min: 1_090_000_000, max: 1_090_600_000 }),
          fc.integer({ min: 1_100_000_000, max: 3_000_000_000 }), // past both wheels: the heap
        ), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 0, max: 3 }),
        (offsets, flavor) => {
          const core = loadCore(flavor % 2 === 0 ? "simd" : "scalar");
          const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core"]));
          m.start();
          const ze = m.zoneEngine!, base = 1_000_000;
          // run to just before the events' bucket, so that some posts land in a bucket the run opens later
          expect(ze.run(base - 1, Infinity)).not.toBe(-1);
          const now = ze.now;
          offsets.forEach((o, i) => m.engine.post(base + o - now, K_MEM, i));
          const want = offsets.map((o, i) => [base + o, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          const got: number[][] = [];
          for (let guard = 0; guard < 100_000; guard++) {
            const r = ze.run(base + 3_001_000_000, Infinity);
            if (r === RAN_TO) break;
            if (r === HOST_EVENT && ze.hostKind === K_MEM) got.push([ze.now, ze.hostSubject]);
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: runs },
    );
  });
});
