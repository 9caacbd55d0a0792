// The 4-ary heap: (time, seq) order, heapify, growth.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyedHeap } from "../../src/sim/keyed-heap.js";

describe("KeyedHeap", () => {
  it("pops in (time, seq) order, via push or append + heapify", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { maxLength: 300 }), fc.boolean(), (times, bulk) => {
        const h = new KeyedHeap(1);
        times.forEach((t, seq) => (bulk ? h.append(t, seq, seq, -seq) : h.push(t, seq, seq, -seq)));
        if (bulk) h.heapify();
        const got: number[] = [];
        while (h.size > 0) {
          expect(h.tag[0] + h.item[0]).toBe(0);
          got.push(h.item[0]);
          h.pop();
        }
        const want = times.map((t, seq) => [t, seq]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
        expect(got).toEqual(want);
        expect(h.topTime()).toBe(Infinity);
      }),
      { numRuns: 300 },
    );
  });
});
