// Known answers on the edges, for every supported width, in both builds and the twin.
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/bitmap.js";
import { Status } from "../../src/core/status.js";
import { builds, getI32, getU32, put, WIDTHS } from "./harness.js";

function rowWith(atoms: number, free: Array<[number, number]>): Uint32Array {
  const r = new Uint32Array(atoms / 32);
  for (const [a, b] of free) for (let x = a; x < b; x++) r[x >>> 5] |= 1 << (x & 31);
  return r;
}

type Impl = {
  name: string;
  freeCount(row: Uint32Array, atoms: number): number;
  firstRun(row: Uint32Array, atoms: number, k: number): number;
  fitsAt(row: Uint32Array, atoms: number, demand: Uint32Array): number;
};

const impls: Impl[] = [
  {
    name: "ts",
    freeCount: (row, atoms) => { const o = new Int32Array(1); ref.bmFreeCount(row, 1, atoms, o); return o[0]; },
    firstRun: (row, atoms, k) => { const o = new Int32Array(1); ref.bmFirstRun(row, 1, atoms, k, o); return o[0]; },
    fitsAt: (row, atoms, d) => { const o = new Int32Array(1); ref.bmFitsAt(row, 1, atoms, d, o); return o[0]; },
  },
  ...builds.map(([name, core]): Impl => ({
    name,
    freeCount: (row, atoms) => { core.arena.reset(); const p = put(core, row), o = core.arena.alloc(4); core.exports.bmFreeCount(p, 1, atoms, o); return getI32(core, o, 1)[0]; },
    firstRun: (row, atoms, k) => { core.arena.reset(); const p = put(core, row), o = core.arena.alloc(4); core.exports.bmFirstRun(p, 1, atoms, k, o); return getI32(core, o, 1)[0]; },
    fitsAt: (row, atoms, d) => { core.arena.reset(); const p = put(core, row), dp = put(core, d), o = core.arena.alloc(4); core.exports.bmFitsAt(p, 1, atoms, dp, o); return getI32(core, o, 1)[0]; },
  })),
];

describe.each(impls)("bitmap edges ($name)", (impl) => {
  it.each(WIDTHS)("all free / all busy at %i atoms", (atoms) => {
    const free = rowWith(atoms, [[0, atoms]]);
    const busy = rowWith(atoms, []);
    expect(impl.freeCount(free, atoms)).toBe(atoms);
    expect(impl.freeCount(busy, atoms)).toBe(0);
    expect(impl.firstRun(free, atoms, atoms)).toBe(0); // k = atoms
    expect(impl.firstRun(free, atoms, 0)).toBe(0); // k = 0
    expect(impl.firstRun(busy, atoms, 0)).toBe(0);
    expect(impl.firstRun(busy, atoms, 1)).toBe(-1);
    expect(impl.firstRun(rowWith(atoms, [[1, atoms]]), atoms, atoms)).toBe(-1);
  });

  it.each(WIDTHS)("runs across word boundaries at %i atoms", (atoms) => {
    // A run of 12 free atoms straddling each 64-bit boundary, the rest taken.
    for (let b = 64; b < atoms; b += 64) {
      const row = rowWith(atoms, [[b - 5, b + 7]]);
      expect(impl.firstRun(row, atoms, 12)).toBe(b - 5);
      expect(impl.firstRun(row, atoms, 13)).toBe(-1);
      expect(impl.freeCount(row, atoms)).toBe(12);
    }
    // Runs longer than a word: 100 free atoms from 30, and an earlier short run.
    if (atoms >= 256) {
      const row = rowWith(atoms, [[2, 40], [60, 160]]);
      expect(impl.firstRun(row, atoms, 38)).toBe(2);
      expect(impl.firstRun(row, atoms, 39)).toBe(60);
      expect(impl.firstRun(row, atoms, 100)).toBe(60);
      expect(impl.firstRun(row, atoms, 101)).toBe(-1);
    }
    // The last atoms of the row.
    expect(impl.firstRun(rowWith(atoms, [[atoms - 64, atoms]]), atoms, 64)).toBe(atoms - 64);
    expect(impl.firstRun(rowWith(atoms, [[atoms - 1, atoms]]), atoms, 1)).toBe(atoms - 1);
  });

  it.each(WIDTHS)("demand mask shifts at %i atoms", (atoms) => {
    const demand = rowWith(atoms, [[0, 2], [5, 6]]); // atoms {0,1,5}
    expect(impl.fitsAt(rowWith(atoms, [[0, atoms]]), atoms, demand)).toBe(0);
    // crosses a word (at 64 atoms atom 67 does not exist)
    expect(impl.fitsAt(rowWith(atoms, [[62, 68]]), atoms, demand)).toBe(atoms > 64 ? 62 : -1);
    expect(impl.fitsAt(rowWith(atoms, [[atoms - 6, atoms]]), atoms, demand)).toBe(atoms - 6);
    expect(impl.fitsAt(rowWith(atoms, [[atoms - 5, atoms]]), atoms, demand)).toBe(-1); // would run off the end
    expect(impl.fitsAt(rowWith(atoms, []), atoms, rowWith(atoms, []))).toBe(0); // empty demand
  });
});

describe.each(builds)("bitmap take/release (%s)", (_name, core) => {
  const e = core.exports;
  it("take any k returns the mask and refuses when short", () => {
    core.arena.reset();
    const row = put(core, rowWith(256, [[3, 5], [64, 70]]));
    const m = core.arena.alloc(32, 8);
    expect(e.bmTakeAny(row, 256, 4, m)).toBe(4);
    expect(getU32(core, m, 8)).toEqual(rowWith(256, [[3, 5], [64, 66]]));
    expect(getU32(core, row, 8)).toEqual(rowWith(256, [[66, 70]]));
    expect(e.bmTakeAny(row, 256, 5, m)).toBe(Status.E_NOFIT);
    expect(getU32(core, row, 8)).toEqual(rowWith(256, [[66, 70]])); // unchanged
    expect(e.bmTakeAny(row, 256, 0, m)).toBe(0);
  });

  it("take run, then double take and double free are refused", () => {
    core.arena.reset();
    const row = put(core, rowWith(256, [[0, 10], [50, 130]]));
    const m = core.arena.alloc(32, 8);
    expect(e.bmTakeRun(row, 256, 64, m)).toBe(50);
    expect(getU32(core, m, 8)).toEqual(rowWith(256, [[50, 114]]));
    expect(e.bmTake(row, 256, m)).toBe(Status.E_CONFLICT); // double allocation
    expect(e.bmRelease(row, 256, m)).toBe(64);
    expect(e.bmRelease(row, 256, m)).toBe(Status.E_CONFLICT); // double free
    expect(getU32(core, row, 8)).toEqual(rowWith(256, [[0, 10], [50, 130]]));
    expect(e.bmTake(row, 256, m)).toBe(64);
    expect(e.bmTakeRun(row, 256, 17, m)).toBe(Status.E_NOFIT); // free: [0,10) and [114,130)
    expect(e.bmTakeRun(row, 256, 16, m)).toBe(114);
    expect(e.bmTakeRun(row, 256, 11, m)).toBe(Status.E_NOFIT);
  });

  it("odd word counts (64 and 192 atoms) take and release the last word", () => {
    for (const atoms of [64, 192, 320]) {
      core.arena.reset();
      const row = put(core, rowWith(atoms, [[0, atoms]]));
      const m = put(core, rowWith(atoms, [[atoms - 3, atoms]]));
      expect(e.bmTake(row, atoms, m)).toBe(3);
      expect(getU32(core, row, atoms / 32)).toEqual(rowWith(atoms, [[0, atoms - 3]]));
      expect(e.bmTake(row, atoms, m)).toBe(Status.E_CONFLICT);
      expect(e.bmRelease(row, atoms, m)).toBe(3);
    }
  });

  it("run masks", () => {
    core.arena.reset();
    const m = core.arena.alloc(128, 8);
    expect(e.bmRunMask(1024, 1000, 24, m)).toBe(24);
    expect(getU32(core, m, 32)).toEqual(rowWith(1024, [[1000, 1024]]));
    expect(e.bmRunMask(1024, 1000, 25, m)).toBe(Status.E_K);
    expect(e.bmRunMask(256, 0, 256, m)).toBe(256);
    expect(getU32(core, m, 8)).toEqual(rowWith(256, [[0, 256]]));
  });
});
