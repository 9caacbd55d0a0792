// The core's mergeRecords (assembly/merge.ts): two sorted runs of records
// merged in core memory as the mailbox's mergeInto merges them in
// TypeScript (the reference twin), bit for bit, in both builds; and its
// codes for bad counts, widths and overlapping buffers, with nothing written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Status as S } from "../../src/core/status.js";
import { mergeInto, REC } from "../../src/laminar/mailbox.js";
import { afterBlock, builds } from "./harness.js";

const runs = Number(process.env.LAMINAR_PROPERTY_RUNS ?? 40);

/** A run of n records of `words` f64, sorted by (word 0, word 1), the rest of each record random. */
const run = (words: number) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 6 }), fc.array(fc.double(), { minLength: words - 2, maxLength: words - 2 })), { maxLength: 60 })
    .map((recs) => {
      recs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      return Float64Array.from(recs.flatMap(([t, z, rest]) => [t, z, ...rest]));
    });

/** A run of `words`-wide records as mailbox records: its keys, then the run's id and the record's place. */
function keyed(recs: Float64Array, words: number, id: number): Float64Array {
  const n = recs.length / words, out = new Float64Array(n * REC);
  for (let i = 0; i < n; i++) out.set([recs[i * words], recs[i * words + 1], id, i], i * REC);
  return out;
}

describe("mergeRecords", () => {
  for (const [name, core] of builds) {
    it(`${name}: merges two sorted runs as mergeInto does, ties to the first run, every word copied`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 12 }).chain((w) => fc.tuple(fc.constant(w), run(w), run(w))), ([w, a, b]) => {
          const na = a.length / w, nb = b.length / w, n = na + nb;
          core.arena.reset();
          const pa = core.arena.put(a, 8), pb = core.arena.put(b, 8), dst = core.arena.alloc(Math.max(1, n) * w * 8, 8);
          expect(core.exports.mergeRecords(dst, pa, na, pb, nb, w)).toBe(n);
          // mergeInto's order (its records are REC doubles: each record's two keys, its run and its place)
          const order = new Float64Array(n * REC);
          mergeInto(order, 0, [keyed(a, w, 0), keyed(b, w, 1)], [na, nb]);
          const want = new Float64Array(n * w);
          for (let k = 0; k < n; k++) {
            const src = order[k * REC + 2] === 0 ? a : b, at = order[k * REC + 3] * w;
            want.set(src.subarray(at, at + w), k * w);
          }
          const got = core.arena.f64.slice(dst >> 3, (dst >> 3) + n * w);
          expect(Array.from(got)).toEqual(Array.from(want));
        }),
        { numRuns: runs },
      );
    });

    it(`${name}: bad counts, widths and overlapping buffers get their codes, and nothing is written`, () => {
      core.arena.reset();
      const a = core.arena.put(Float64Array.from([1, 0, 7, 2, 0, 8]), 8), b = core.arena.put(Float64Array.from([1, 0, 9]), 8);
      const dst = core.arena.alloc(9 * 8, 8);
      const before = afterBlock(core);
      expect(core.exports.mergeRecords(dst, a, -1, b, 1, 3)).toBe(S.E_COUNT);
      expect(core.exports.mergeRecords(dst, a, 2, b, -1, 3)).toBe(S.E_COUNT);
      for (const w of [1, 0, 65]) expect(core.exports.mergeRecords(dst, a, 2, b, 1, w)).toBe(S.E_ARG);
      expect(core.exports.mergeRecords(a, a, 2, b, 1, 3)).toBe(S.E_ARG); // dst over a
      expect(core.exports.mergeRecords(dst, a, 2, dst + 16, 1, 3)).toBe(S.E_ARG); // b inside dst
      expect(core.exports.mergeRecords(dst + 4, a, 2, b, 1, 3)).toBe(S.E_ALIGN);
      expect(core.exports.mergeRecords(8, a, 2, b, 1, 3)).toBe(S.E_NULL);
      expect(core.exports.mergeRecords(dst, a, 2, core.arena.u8.length - 8, 1, 3)).toBe(S.E_BOUNDS);
      expect(afterBlock(core)).toEqual(before);
      // a tie on both words: the first run's record first
      expect(core.exports.mergeRecords(dst, a, 2, b, 1, 3)).toBe(3);
      expect(Array.from(core.arena.f64.slice(dst >> 3, (dst >> 3) + 9))).toEqual([1, 0, 7, 1, 0, 9, 2, 0, 8]);
    });
  }
});
