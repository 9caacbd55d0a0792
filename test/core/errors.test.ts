// Every bad argument returns its status code, and an erroring call writes nothing.
import { describe, expect, it } from "vitest";
import { Status } from "../../src/core/status.js";
import { afterBlock, builds, positional } from "./harness.js";

const S = Status;

describe.each(builds)("status codes (%s)", (_name, core) => {
  const e = core.exports;
  const P = positional(core);
  const base = e.heapBase();

  /** Run fn, check it returns `code`, and that memory is byte-for-byte unchanged. */
  function expectCode(code: number, fn: () => number): void {
    const before = afterBlock(core);
    expect(fn()).toBe(code);
    expect(Buffer.compare(Buffer.from(before), Buffer.from(afterBlock(core)))).toBe(0);
  }

  it("module facts", () => {
    expect(e.abiVersion()).toBe(3);
    expect(e.simdEnabled()).toBe(_name === "simd" ? 1 : 0);
    expect(base).toBeGreaterThan(0);
    expect(e.memoryBytes()).toBe(e.memory.buffer.byteLength);
  });

  it("bitmap batch kernels", () => {
    core.arena.reset();
    const t = core.arena.alloc(4 * 32, 8), out = core.arena.alloc(64, 8);
    core.arena.u8.fill(0xff, t, t + 128);
    const end = e.memoryBytes();
    for (const fn of ["bmFreeCount", "bmFirstRun", "bmCountAtLeast", "bmFitsAt"] as const) {
      const call = (tp: number, count: number, atoms: number, op: number, k = 4) =>
        fn === "bmFreeCount" ? e.bmFreeCount(tp, count, atoms, op)
        : fn === "bmFitsAt" ? e.bmFitsAt(tp, count, atoms, t, op)
        : e[fn](tp, count, atoms, k, op);
      expectCode(S.E_NULL, () => call(0, 1, 256, out));
      expectCode(S.E_NULL, () => call(base - 8, 1, 256, out));
      expectCode(S.E_NULL, () => call(t, 1, 256, 0));
      expectCode(S.E_ALIGN, () => call(t + 4, 1, 256, out));
      expectCode(S.E_BOUNDS, () => call(end - 16, 1, 256, out));
      expectCode(S.E_BOUNDS, () => call(t, 0x7fffffff, 256, out));
      expectCode(S.E_BOUNDS, () => call(t, 4, 256, fn === "bmCountAtLeast" ? end - 2 : end - 4));
      expectCode(S.E_COUNT, () => call(t, -1, 256, out));
      for (const atoms of [0, 63, 65, 96, 1088, -64, 2048]) expectCode(S.E_ATOMS, () => call(t, 1, atoms, out));
      expect(call(t, 0, 256, out)).toBe(0); // empty batch is fine
      if (fn === "bmFirstRun" || fn === "bmCountAtLeast") {
        expectCode(S.E_K, () => call(t, 1, 256, out, 257));
        expectCode(S.E_K, () => call(t, 1, 256, out, -1));
      }
    }
    // pointers into the top of a 4 GiB space (negative as i32) are out of bounds
    expectCode(S.E_BOUNDS, () => e.bmFreeCount(0xfffffff8, 1, 64, out));
  });

  it("bitmap row kernels", () => {
    core.arena.reset();
    const row = core.arena.alloc(32, 8), m = core.arena.alloc(32, 8);
    core.arena.u8.fill(0xff, row, row + 32);
    core.arena.u8.fill(0x0f, m, m + 32);
    for (const fn of ["bmTakeAny", "bmTakeRun"] as const) {
      expectCode(S.E_NULL, () => e[fn](0, 256, 4, m));
      expectCode(S.E_NULL, () => e[fn](row, 256, 4, 0));
      expectCode(S.E_ALIGN, () => e[fn](row + 2, 256, 4, m));
      expectCode(S.E_ATOMS, () => e[fn](row, 100, 4, m));
      expectCode(S.E_K, () => e[fn](row, 256, 257, m));
      expectCode(S.E_K, () => e[fn](row, 256, -3, m));
    }
    for (const fn of ["bmTake", "bmRelease"] as const) {
      expectCode(S.E_NULL, () => e[fn](0, 256, m));
      expectCode(S.E_NULL, () => e[fn](row, 256, 0));
      expectCode(S.E_BOUNDS, () => e[fn](row, 256, e.memoryBytes() - 8));
      expectCode(S.E_ATOMS, () => e[fn](row, 1024 + 64, m));
    }
    expectCode(S.E_ARG, () => e.bmTake(row, 256, row + 8)); // mask overlapping the row
    expectCode(S.E_ARG, () => e.bmTakeAny(row, 256, 1, row + 24));
    expectCode(S.E_CONFLICT, () => e.bmRelease(row, 256, m)); // all free: releasing is a double free
    expect(e.bmTake(row, 256, m)).toBe(128);
    expectCode(S.E_CONFLICT, () => e.bmTake(row, 256, m)); // double allocation
    expectCode(S.E_NOFIT, () => e.bmTakeRun(row, 256, 5, m)); // only runs of 4 remain
    expectCode(S.E_K, () => e.bmRunMask(256, 250, 7, m));
    expectCode(S.E_K, () => e.bmRunMask(256, -1, 1, m));
    expectCode(S.E_NULL, () => e.bmRunMask(256, 0, 1, 0));
  });

  it("utility field kernels", () => {
    core.arena.reset();
    const n = 4;
    const field = core.arena.alloc(5 * n * 4), table = core.arena.alloc(n * 32, 8);
    const cand = core.arena.alloc(16), noise = core.arena.alloc(16);
    core.arena.i32.set([0, 1, 2, 3], cand >> 2);
    core.arena.u8.fill(0, field, table + n * 32); // empty field, every atom taken
    const sc = (over: Partial<Record<string, number>> = {}) => {
      const a = { field, nodeCount: n, table, atoms: 256, cand, n: 4, now: 0, m: 4, c: 0, gamma: 1, da: 30, noise, ...over };
      return P.scoreCandidates(a.field, a.nodeCount, a.table, a.atoms, a.cand, a.n, a.now, a.m, a.c, a.gamma, a.da, a.noise);
    };
    expectCode(S.E_NOFIT, () => sc()); // all bitmaps taken
    expectCode(S.E_NULL, () => sc({ field: 0 }));
    expectCode(S.E_NULL, () => sc({ noise: 0 }));
    expectCode(S.E_BOUNDS, () => sc({ nodeCount: 1 << 28 }));
    expectCode(S.E_COUNT, () => sc({ n: -1 }));
    expectCode(S.E_COUNT, () => sc({ nodeCount: -1 }));
    expectCode(S.E_ATOMS, () => sc({ atoms: 32 }));
    expectCode(S.E_K, () => sc({ m: 300 }));
    expectCode(S.E_ARG, () => sc({ c: 2 }));
    expectCode(S.E_ARG, () => sc({ now: NaN }));
    expectCode(S.E_ARG, () => sc({ gamma: NaN }));
    expectCode(S.E_ARG, () => sc({ gamma: Infinity }));
    // sizes that wrap around 2^32 in i32 arithmetic are out of bounds, not a trap
    expectCode(S.E_BOUNDS, () => sc({ nodeCount: 858993460 }));
    expectCode(S.E_BOUNDS, () => sc({ nodeCount: 858993460, atoms: 320 }));
    core.arena.f32[(noise >> 2) + 1] = NaN;
    expectCode(S.E_ARG, () => sc());
    core.arena.f32[(noise >> 2) + 1] = -Infinity;
    expectCode(S.E_ARG, () => sc());
    core.arena.f32[(noise >> 2) + 1] = 0;
    // a huge gamma makes every utility -Infinity: the first placable candidate still wins
    core.arena.u8.fill(0xff, table + 32, table + 64); // node 1 all free
    expect(sc({ gamma: 3e38 })).toBe(1);
    core.arena.u8.fill(0, table + 32, table + 64);
    core.arena.i32[(cand >> 2) + 2] = 4;
    expectCode(S.E_ID, () => sc());
    core.arena.i32[(cand >> 2) + 2] = -1;
    expectCode(S.E_ID, () => sc());

    const offs = core.arena.alloc(12), os = core.arena.alloc(8), oh = core.arena.alloc(8);
    const za = (offsets: number[], over: Partial<Record<string, number>> = {}) => {
      core.arena.i32.set(offsets, offs >> 2); // set up first: expectCode snapshots after this
      const a = { zones: 2, now: 0, out: os, ...over };
      return () => P.zoneAggregate(field, n, offs, a.zones, a.now, 30, 100, a.out, oh);
    };
    expect(za([0, 2, 4])()).toBe(2);
    expectCode(S.E_ID, za([0, 3, 2]));
    expectCode(S.E_ID, za([-1, 2, 4]));
    expectCode(S.E_ID, za([0, 2, 5]));
    // zones = 0 still bounds offsets[0] by nodeCount (ABI version 1 accepted any offsets[0] >= 0 there)
    expectCode(S.E_ID, za([5, 2, 4], { zones: 0 }));
    expect(za([4, 2, 4], { zones: 0 })()).toBe(0);
    expect(za([0, 2, 4], { zones: 0 })()).toBe(0);
    expectCode(S.E_COUNT, za([0, 2, 4], { zones: -1 }));
    expectCode(S.E_ARG, za([0, 2, 4], { now: NaN }));
    expectCode(S.E_NULL, za([0, 2, 4], { out: 0 }));
    expectCode(S.E_BOUNDS, () => P.zoneAggregate(field, 858993460, offs, 2, 0, 30, 100, os, oh)); // 5 x n wraps in i32
    // an output over the offsets (read again after outputs are written) once trapped: now refused
    expectCode(S.E_ARG, za([0, 2, 4], { out: offs + 4 }));
    expectCode(S.E_ARG, () => P.zoneAggregate(field, n, offs, 2, 0, 30, 100, os, os + 4));
    expectCode(S.E_ARG, () => P.zoneAggregate(field, n, offs, 2, 0, 30, 100, os, field + 8));

    const sl = core.arena.alloc(8), ht = core.arena.alloc(8), cum = core.arena.alloc(16, 8);
    expectCode(S.E_ARG, () => e.tegWeights(sl, ht, 2, 1, 0, cum));
    expectCode(S.E_ARG, () => e.tegWeights(sl, ht, 2, 1, -1, cum));
    expectCode(S.E_ARG, () => e.tegWeights(sl, ht, 2, NaN, 1, cum));
    expectCode(S.E_COUNT, () => e.tegWeights(sl, ht, 0, 1, 1, cum));
    expectCode(S.E_ALIGN, () => e.tegWeights(sl, ht, 2, 1, 1, cum + 4));
    expect(e.tegWeights(sl, ht, 2, 1, 1, cum)).toBe(2);
    const u = core.arena.alloc(16, 8), out = core.arena.alloc(8);
    core.arena.f64.set([0.5, 1.0], u >> 3);
    expectCode(S.E_ARG, () => e.tegSample(cum, 2, u, 2, out)); // u = 1 is outside [0, 1)
    core.arena.f64.set([0.5, -0.1], u >> 3);
    expectCode(S.E_ARG, () => e.tegSample(cum, 2, u, 2, out));
    core.arena.f64.set([0.5, NaN], u >> 3);
    expectCode(S.E_ARG, () => e.tegSample(cum, 2, u, 2, out));
    expectCode(S.E_COUNT, () => e.tegSample(cum, 2, u, -2, out));
    core.arena.f64.set([0, 0], cum >> 3);
    expectCode(S.E_ARG, () => e.tegSample(cum, 2, u, 1, out)); // no weight at all
  });

  it("micro-kernels", () => {
    core.arena.reset();
    const mem = core.arena.alloc(e.microMaskBytes(), 16);
    const small = core.arena.alloc(1024, 16);
    expectCode(S.E_COUNT, () => e.microMaskUpdate(mem, -1, 0, 0));
    expectCode(S.E_ID, () => e.microMaskUpdate(mem, 1, 16384, 0));
    expectCode(S.E_NULL, () => e.microMaskUpdate(0, 1, 0, 0));
    expectCode(S.E_BOUNDS, () => e.microMaskUpdate(e.memoryBytes() - 1024, 1, 0, 0));
    expectCode(S.E_COUNT, () => e.microFastlogScore(mem, -5, 0, 1));
    expectCode(S.E_ID, () => e.microFastlogScore(mem, 5, 262144, 1));
    expectCode(S.E_ALIGN, () => e.microFastlogScore(mem + 2, 5, 0, 1));
    expectCode(S.E_ALIGN, () => e.microZoneUpdate(small + 4, small, small, 1, 1, 1, 1));
    expectCode(S.E_COUNT, () => e.microZoneUpdate(small, small, small, -1, 1, 1, 1));
    expectCode(S.E_BOUNDS, () => e.microZoneUpdate(small, small, e.memoryBytes() - 512, 1, 1, 1, 1));
    // a 1 KiB array that ends exactly at the end of memory is valid
    expect(e.microZoneUpdate(small, small + 1024, e.memoryBytes() - 1024, 1, 1, 1, 1)).toBe(0);
    // overlapping arrays would make the builds disagree: refused
    expectCode(S.E_ARG, () => e.microZoneUpdate(small, small + 1024, small + 1024, 1, 1, 1, 1));
    expectCode(S.E_ARG, () => e.microZoneUpdate(small, small + 512, small + 1024, 1, 1, 1, 1));
    expectCode(S.E_ALIGN, () => e.microMaskUpdate(mem + 8, 1, 0, 0));
    expectCode(S.E_ALIGN, () => e.microFastlogScore(mem + 4, 1, 0, 1));
  });
});
