// Every pointer argument of every export, table-driven: null, below heapBase,
// misaligned and past the end of memory each give their status code, and an
// erroring call writes nothing. (The timing wheel's pointers are covered by
// wheel.abi.test.ts.)
import { describe, expect, it } from "vitest";
import type { CoreExports } from "../../src/core/exports.js";
import { Status as S } from "../../src/core/status.js";
import { builds } from "./harness.js";
import type { Core } from "../../src/core/wasm.js";
import { BLOCK_ALIGN, CHOICE, MEM, PROBE, writeChoice, writeMem, writeProbe, writeZone, ZONE } from "../../src/core/blocks.js";
import { writeZigguratTables, ZIG_BYTES } from "../../src/sim/ziggurat.js";

interface Spec {
  name: keyof CoreExports;
  /** Valid arguments (buffers allocated in the core); the call must succeed with them. */
  args(core: Core): number[];
  /** Positions of pointer arguments and their required alignment. */
  ptrs: Array<[number, number]>;
}

const buf = (core: Core, bytes: number, align = 16) => core.arena.alloc(bytes, align);

/**
 * The host's memory, [heapBase, end): what a failing call must leave as it
 * was. Below heapBase is the core's own (its tables, and the scratch list of
 * the buffer check, assembly/regions.ts).
 */
const hostMemory = (core: Core) => Buffer.from(core.arena.u8.subarray(core.exports.heapBase()));

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
  {
    name: "streamDraw",
    args: (c) => {
      const state = buf(c, 16), zig = buf(c, ZIG_BYTES);
      c.arena.i32.set([1, 2, 3, 4], state >> 2);
      writeZigguratTables(c.arena.u8.buffer as ArrayBuffer, zig);
      return [5, state, zig, buf(c, 16), 2, 0];
    },
    ptrs: [[1, 4], [2, 8], [3, 8]],
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
        const before = hostMemory(core);
        expect(fn(...args), `${spec.name} argument ${pos}: ${what}`).toBe(code);
        expect(before.equals(hostMemory(core)), `${spec.name} argument ${pos}: ${what} wrote memory`).toBe(true);
      }
    }
  });
});

// The entry points that take a parameter block: the block pointer itself, and
// every pointer field inside it.
interface BlockSpec {
  name: "scoreCandidates" | "probeCandidates" | "zoneAggregate" | "memTick";
  bytes: number;
  /** Write valid fields (buffers allocated in the core) into the block at b; the call must succeed with them. */
  fill(core: Core, b: number): void;
  /** Byte offsets of the pointer fields and their required alignment. */
  ptrs: Array<[number, number]>;
}

const BLOCK_SPECS: BlockSpec[] = [
  {
    name: "scoreCandidates", bytes: CHOICE.BYTES,
    fill: (c, b) => writeChoice(c.arena, b, {
      field: buf(c, 5 * 4 * 4), nodeCount: 4, table: buf(c, 128), atoms: 256, cand: buf(c, 16), n: 4,
      now: 0, m: 0, contiguous: 0, gamma: 1, degradeAge: 30, noise: buf(c, 16),
    }),
    ptrs: [[CHOICE.FIELD, 4], [CHOICE.TABLE, 8], [CHOICE.CAND, 4], [CHOICE.NOISE, 4]],
  },
  {
    name: "probeCandidates", bytes: PROBE.BYTES,
    fill: (c, b) => {
      const rng = buf(c, 24), zig = buf(c, ZIG_BYTES);
      c.arena.i32.set([1, 2, 3, 4], rng >> 2);
      writeZigguratTables(c.arena.u8.buffer as ArrayBuffer, zig);
      writeProbe(c.arena, b, {
        field: buf(c, 5 * 4 * 4), nodeCount: 4, table: buf(c, 128), atoms: 256, k: 2, now: 0, m: 0, contiguous: 0,
        gamma: 1, degradeAge: 30, sigma: 0, rng, zig, seen: buf(c, 4), cand: buf(c, 8), noise: buf(c, 8), start: 0,
      });
    },
    ptrs: [[CHOICE.FIELD, 4], [CHOICE.TABLE, 8], [CHOICE.CAND, 4], [CHOICE.NOISE, 4], [PROBE.RNG, 4], [PROBE.ZIG, 8], [PROBE.SEEN, 4]],
  },
  {
    name: "zoneAggregate", bytes: ZONE.BYTES,
    fill: (c, b) => {
      const offsets = buf(c, 12);
      c.arena.i32.set([0, 2, 4], offsets >> 2);
      writeZone(c.arena, b, {
        field: buf(c, 5 * 4 * 4), nodeCount: 4, offsets, zones: 2, now: 0, degradeAge: 30, degradeHeat: 100,
        outSlack: buf(c, 8), outHeat: buf(c, 8),
      });
    },
    ptrs: [[ZONE.FIELD, 4], [ZONE.OFFSETS, 4], [ZONE.OUT_SLACK, 4], [ZONE.OUT_HEAT, 4]],
  },
  {
    name: "memTick", bytes: MEM.BYTES,
    fill: (c, b) => writeMem(c.arena, b, {
      recs: buf(c, 96), count: 2, nodes: 2, base: buf(c, 16), usage: buf(c, 16), out: buf(c, 8), outCap: 2,
      tick: 0, seed: 1, kappa: 0.5, sigma: 0.1, burstRate: 0, burstScale: 0, threshold: 0,
    }),
    ptrs: [[MEM.RECS, 8], [MEM.BASE, 8], [MEM.USAGE, 8], [MEM.OUT, 4]],
  },
];

describe.each(builds)("every pointer in a parameter block, and the block's own (%s)", (_name, core) => {
  it.each(BLOCK_SPECS)("$name", (spec) => {
    core.arena.reset();
    core.arena.u8.fill(0, core.arena.base);
    const fn = core.exports[spec.name] as (b: number) => number;
    const b = core.arena.alloc(spec.bytes, BLOCK_ALIGN);
    spec.fill(core, b);
    expect(fn(b), "valid fields succeed").toBeGreaterThanOrEqual(0);
    const end = core.exports.memoryBytes();
    const unchanged = (what: string, call: () => number, code: number) => {
      const before = hostMemory(core);
      expect(call(), what).toBe(code);
      expect(before.equals(hostMemory(core)), `${what} wrote memory`).toBe(true);
    };
    for (const [p, code, what] of [
      [0, S.E_NULL, "null"], [core.exports.heapBase() - 16, S.E_NULL, "static data"], [end - 8, S.E_BOUNDS, "past the end of memory"],
      [0xfffffff0, S.E_BOUNDS, "near 4 GiB"], [b + 4, S.E_ALIGN, "misaligned"],
    ] as Array<[number, number, string]>) unchanged(`${spec.name} block: ${what}`, () => fn(p), code);
    const i32 = () => core.arena.i32;
    for (const [off, align] of spec.ptrs) {
      const good = i32()[(b + off) >> 2];
      const cases: Array<[number, number, string]> = [
        [0, S.E_NULL, "null"],
        [core.exports.heapBase() - 16, S.E_NULL, "static data"],
        [end, S.E_BOUNDS, "past the end of memory"],
        [0xfffffff0, S.E_BOUNDS, "near 4 GiB"],
      ];
      if (align > 1) cases.push([good + 1, S.E_ALIGN, "misaligned"]);
      for (const [p, code, what] of cases) {
        i32()[(b + off) >> 2] = p;
        unchanged(`${spec.name} field at byte ${off}: ${what}`, () => fn(b), code);
      }
      i32()[(b + off) >> 2] = good;
    }
  });
});
