// Every pointer argument of every export, table-driven: null, below heapBase,
// misaligned and past the end of memory each give their status code, and an
// erroring call writes nothing. (The timing wheel's pointers are covered by
// wheel.abi.test.ts.)
import { describe, expect, it } from "vitest";
import type { CoreExports } from "../../src/core/exports.js";
import { Status as S } from "../../src/core/status.js";
import { builds } from "./harness.js";
import type { Core } from "../../src/core/wasm.js";

interface Spec {
  name: keyof CoreExports;
  /** Valid arguments (buffers allocated in the core); the call must succeed with them. */
  args(core: Core): number[];
  /** Positions of pointer arguments and their required alignment. */
  ptrs: Array<[number, number]>;
}

const buf = (core: Core, bytes: number, align = 16) => core.arena.alloc(bytes, align);

const SPECS: Spec[] = [
  { name: "bmFreeCount", args: (c) => [buf(c, 128), 4, 256, buf(c, 16)], ptrs: [[0, 8], [3, 4]] },
  { name: "bmCountAtLeast", args: (c) => [buf(c, 128), 4, 256, 3, buf(c, 4)], ptrs: [[0, 8], [4, 1]] },
  { name: "bmFirstRun", args: (c) => [buf(c, 128), 4, 256, 3, buf(c, 16)], ptrs: [[0, 8], [4, 4]] },
  { name: "bmFitsAt", args: (c) => [buf(c, 128), 4, 256, buf(c, 32), buf(c, 16)], ptrs: [[0, 8], [3, 8], [4, 4]] },
  { name: "bmTakeAny", args: (c) => [buf(c, 32), 256, 0, buf(c, 32)], ptrs: [[0, 8], [3, 8]] },
  { name: "bmTakeRun", args: (c) => [buf(c, 32), 256, 0, buf(c, 32)], ptrs: [[0, 8], [3, 8]] },
  { name: "bmTake", args: (c) => [buf(c, 32), 256, buf(c, 32)], ptrs: [[0, 8], [2, 8]] },
  { name: "bmRelease", args: (c) => [buf(c, 32), 256, buf(c, 32)], ptrs: [[0, 8], [2, 8]] },
  { name: "bmRunMask", args: (c) => [256, 3, 9, buf(c, 32)], ptrs: [[3, 8]] },
  {
    name: "scoreCandidates",
    args: (c) => [buf(c, 5 * 4 * 4), 4, buf(c, 128), 256, buf(c, 16), 4, 0, 0, 0, 1, 30, buf(c, 16)],
    ptrs: [[0, 4], [2, 8], [4, 4], [11, 4]],
  },
  {
    name: "zoneAggregate",
    args: (c) => [buf(c, 5 * 4 * 4), 4, buf(c, 12), 2, 0, 30, 100, buf(c, 8), buf(c, 8)],
    ptrs: [[0, 4], [2, 4], [7, 4], [8, 4]],
  },
  { name: "tegWeights", args: (c) => [buf(c, 8), buf(c, 8), 2, 1, 1, buf(c, 16)], ptrs: [[0, 4], [1, 4], [5, 8]] },
  {
    name: "tegSample",
    args: (c) => {
      const cum = buf(c, 16), u = buf(c, 16);
      c.arena.f64.set([1, 2], cum >> 3);
      c.arena.f64.set([0.5, 0.25], u >> 3);
      return [cum, 2, u, 2, buf(c, 8)];
    },
    ptrs: [[0, 8], [2, 8], [4, 4]],
  },
  { name: "microMaskUpdate", args: (c) => [buf(c, c.exports.microMaskBytes()), 3, 0, 7], ptrs: [[0, 16]] },
  { name: "microFastlogScore", args: (c) => [buf(c, c.exports.microScoreBytes()), 3, 0, 0.5], ptrs: [[0, 16]] },
  { name: "microZoneUpdate", args: (c) => [buf(c, 1024), buf(c, 1024), buf(c, 1024), 3, 1, 1, 1], ptrs: [[0, 16], [1, 16], [2, 16]] },
];

describe.each(builds)("every pointer argument (%s)", (_name, core) => {
  it.each(SPECS)("$name", (spec) => {
    core.arena.reset();
    core.arena.u8.fill(0, core.arena.base);
    const fn = core.exports[spec.name] as unknown as (...a: number[]) => number;
    const good = spec.args(core);
    expect(fn(...good), "valid arguments succeed").toBeGreaterThanOrEqual(0);
    const end = core.exports.memoryBytes();
    for (const [pos, align] of spec.ptrs) {
      const cases: Array<[number, number, string]> = [
        [0, S.E_NULL, "null"],
        [core.exports.heapBase() - 16, S.E_NULL, "static data"],
        [end - align, S.E_BOUNDS, "past the end of memory"],
        [0xfffffff0, S.E_BOUNDS, "near 4 GiB"],
      ];
      if (align > 1) cases.push([good[pos] + 1, S.E_ALIGN, "misaligned"]);
      for (const [p, code, what] of cases) {
        const args = [...good];
        args[pos] = p;
        const before = Buffer.from(core.arena.u8);
        expect(fn(...args), `${spec.name} argument ${pos}: ${what}`).toBe(code);
        expect(before.equals(Buffer.from(core.arena.u8)), `${spec.name} argument ${pos}: ${what} wrote memory`).toBe(true);
      }
    }
  });
});
