// A run split into Zone partitions gives the same result, field for field,
// whatever the number of partitions: the admission path alone, with
// two-phase reservations, and with the memory model and Airlock (whose
// reactivations and secondary landings cross Zones). And the mailbox puts
// messages in the canonical order.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { runLaminar } from "../../src/run/laminar.js";
import type { SimResult } from "../../src/laminar/result.js";
import { zoneRange } from "../../src/laminar/model.js";
import { Mailbox, mergeInto, mergeRuns, REC } from "../../src/laminar/mailbox.js";

/** The result without the fields that measure the run itself or count its partitions' work. */
function outcome(r: SimResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, eventsProcessed, invariantChecks, ...rest } = r;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB; void eventsProcessed; void invariantChecks;
  return JSON.stringify(rest);
}

const base = ["cluster.nodes=900", "sim.durationS=0.25", "sim.checkInvariants=true"];
const cases: [string, string[]][] = [
  ["admission path", base],
  ["two-phase reservations and squatters", [...base, "reservation.enabled=true", "workload.squatterRatio=0.01"]],
  ["memory model and Airlock (reactivations and landings across Zones)", [...base, "memory.enabled=true", "sim.durationS=0.4"]],
  ["memory model, kernel OOM rule", [...base, "memory.enabled=true", "airlock.enabled=false", "memory.oomRule=random"]],
];

describe("the result does not depend on the number of partitions", () => {
  for (const [name, sets] of cases) {
    it(name, () => {
      const c = applySets(defaultConfig(), sets);
      const one = runLaminar(c, { partitions: 1 });
      expect(one.started).toBeGreaterThan(1000);
      const ref = outcome(one);
      for (const P of [2, 4]) expect(outcome(runLaminar(c, { partitions: P }))).toBe(ref);
      if (c.memory.enabled && c.airlock.enabled) expect(one.secondaryLandings).toBeGreaterThan(0);
    });
  }

  it("partitions cover the Zones once, in contiguous ranges", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (sizes, P) => {
      const offsets = [0];
      for (const s of sizes) offsets.push(offsets[offsets.length - 1] + s);
      let next = 0;
      for (let i = 0; i < P; i++) {
        const [a, b] = zoneRange(offsets, P, i);
        expect(a).toBe(next);
        expect(b).toBeGreaterThanOrEqual(a);
        next = b;
      }
      expect(next).toBe(sizes.length);
    }));
  });
});

describe("mailbox", () => {
  it("orders by (time, Zone), keeping the order of sending within a Zone, however the Zones are split between boxes", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ t: fc.integer({ min: 0, max: 5 }), z: fc.integer({ min: 0, max: 5 }) }), { maxLength: 60 }),
      fc.integer({ min: 1, max: 4 }),
      (unordered, boxes) => {
        // a partition sends in time order (every message takes the same delay)
        const msgs = [...unordered].sort((x, y) => x.t - y.t);
        // sequence number within each Zone = order of sending
        const seq = new Map<number, number>();
        const all = new Mailbox(2);
        const split = Array.from({ length: boxes }, () => new Mailbox(2));
        for (const m of msgs) {
          const s = seq.get(m.z) ?? 0;
          seq.set(m.z, s + 1);
          all.push(m.t, m.z, 1, -1, s, 0, 0, 0, 0, 0);
          split[m.z % boxes].push(m.t, m.z, 1, -1, s, 0, 0, 0, 0, 0);
        }
        const read = (bs: Mailbox[]) => {
          for (const b of bs) b.sort();
          const out: number[][] = [];
          mergeRuns(bs.map((b) => b.buf), bs.map((b) => b.n), (f, at) => out.push([f[at], f[at + 1], f[at + 4]]));
          return out;
        };
        const a = read([all]), b = read(split);
        expect(b).toEqual(a);
        // mergeInto copies the records in the order mergeRuns visits them, after what `out` holds before o
        const out = new Float64Array((msgs.length + 3) * REC).fill(-7);
        expect(mergeInto(out, 2 * REC, split.map((x) => x.buf), split.map((x) => x.n))).toBe(msgs.length);
        const visited: number[] = [];
        mergeRuns(split.map((x) => x.buf), split.map((x) => x.n), (f, at) => visited.push(...f.subarray(at, at + REC)));
        expect([...out.subarray(2 * REC, (2 + msgs.length) * REC)]).toEqual(visited);
        expect([...out.subarray(0, 2 * REC), ...out.subarray((2 + msgs.length) * REC)]).toEqual(new Array(3 * REC).fill(-7));
        for (let i = 1; i < a.length; i++) {
          const [t0, z0, s0] = a[i - 1], [t1, z1, s1] = a[i];
          expect(t0 < t1 || (t0 === t1 && (z0 < z1 || (z0 === z1 && s0 < s1)))).toBe(true);
        }
        expect(REC).toBe(10);
      },
    ));
  });

  it("refuses a box whose times go backwards (a message that did not take the common delay)", () => {
    const b = new Mailbox();
    b.push(5, 0, 1, -1, 0, 0, 0, 0, 0, 0);
    b.push(4, 1, 1, -1, 0, 0, 0, 0, 0, 0);
    expect(() => b.sort()).toThrow(/out of time order/);
  });
});
