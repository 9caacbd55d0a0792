// BucketLists and SortedRun: records keep their fields across chunks, and
// opening a bucket sorts its records stably by time (equal times keep their
// append order), which the calendar's (time, seq) order relies on.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BucketLists, CHUNK } from "../../src/sim/bucket-lists.js";
import { digits, SortedRun } from "../../src/sim/sorted-run.js";

type Rec = [number, number, number, number, number]; // time, kind, subject, slot, gen

const SHIFT = 14, A = 5, BASE = A * 2 ** SHIFT;

/** The run's records, in run order. */
function read(lists: BucketLists, run: SortedRun): Rec[] {
  const out: Rec[] = [];
  for (let p = run.pos; p < run.len; p++) {
    const r = run.idx[p];
    out.push([lists.f64[3 * r], lists.i32[6 * r + 2], lists.i32[6 * r + 3], lists.i32[6 * r + 4], lists.i32[6 * r + 5]]);
  }
  return out;
}

/** Stably sorted by time (Array.prototype.sort is stable). */
const stableByTime = (rs: Rec[]): Rec[] => [...rs].sort((a, b) => a[0] - b[0]);

describe("BucketLists + SortedRun", () => {
  it("open() lists a bucket's records stably sorted by time, across chunks, small and large, sparse and dense", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(3), fc.nat(2 ** SHIFT - 1)), { maxLength: 8 * CHUNK * 4 }),
        fc.constantFrom(SHIFT, 3, 0), // spread of times: full bucket, 8 values, one value
        (adds, spread) => {
          const lists = new BucketLists(32, SHIFT, 1);
          const want: Rec[][] = [[], [], [], []];
          adds.forEach(([b, rel], i) => {
            const r = rel & (2 ** spread - 1);
            lists.append(b, A, r, b, i, (i % 7) - 1, i * 3);
            want[b].push([BASE + r, b, i, (i % 7) - 1, i * 3]);
          });
          expect([0, 1, 2, 3].reduce((n, b) => n + lists.size(b), 0)).toBe(adds.length);
          const run = new SortedRun(1);
          for (let b = 0; b < 4; b++) {
            expect(lists.size(b)).toBe(want[b].length);
            expect(lists.occ.has(b)).toBe(want[b].length > 0);
            lists.open(b, run, A, SHIFT);
            expect(read(lists, run)).toEqual(stableByTime(want[b]));
            expect(lists.occ.has(b)).toBe(false);
            expect(lists.size(b)).toBe(0);
            lists.close(run);
            expect(run.chain).toBe(-1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("recycles chunks: refilling after close needs no new storage", () => {
    const lists = new BucketLists(32, SHIFT, 4);
    const run = new SortedRun();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4 * CHUNK; i++) lists.append(i & 1, A, i, 0, i, -1, 0);
      const storage = lists.f64.length;
      lists.open(0, run, A, SHIFT);
      lists.close(run);
      lists.open(1, run, A, SHIFT);
      lists.close(run);
      expect(lists.f64.length).toBe(storage);
    }
  });

  it("detach + freeChain give a bucket's chunks back after a caller walked them", () => {
    const lists = new BucketLists(32, SHIFT, 2);
    for (let i = 0; i < CHUNK + 3; i++) lists.append(7, A, i, 0, i, -1, 0);
    const first = lists.first(7), end = lists.end(7);
    lists.detach(7);
    expect(lists.occ.has(7)).toBe(false);
    expect(lists.size(7)).toBe(0);
    expect(lists.next(first)).toBe((end - 1) >> Math.log2(CHUNK));
    lists.freeChain(first, end);
    const storage = lists.f64.length;
    for (let i = 0; i < 2 * CHUNK; i++) lists.append(8, A, i, 0, i, -1, 0);
    expect(lists.f64.length).toBe(storage);
  });

  it("picks about log2 k digit bits for large runs, none for small ones", () => {
    expect(digits(16, 14)).toBe(0);
    expect(digits(17, 14)).toBe(5);
    expect(digits(240, 14)).toBe(8);
    expect(digits(1e6, 14)).toBe(12);
    expect(digits(1000, 6)).toBe(6);
    expect(digits(1000, 4)).toBe(0);
  });
});
