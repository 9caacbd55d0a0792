// The cluster's physical state (src/laminar/cluster.ts) on the real WASM
// core: take (dispersed and contiguous) clears exactly the mask's atoms in
// the node's bitmap row and lowers its free count; a take that does not fit
// returns false and changes nothing; release restores; a double release
// throws and changes nothing; fits() agrees with take; preoccupy leaves
// round(fraction * atoms) atoms per node held by rigid jobs. The free count
// always equals the popcount of the row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCore } from "../../src/core/wasm.js";
import { Cluster } from "../../src/cluster/cluster.js";
import { zoneOffsets } from "../../src/cluster/topology.js";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { streamRng } from "../../src/sim/rng.js";

const core = loadCore("auto");

interface Fixture {
  cluster: Cluster;
  mask: number;
  out: number;
  atoms: number;
}

function fixture(nodes = 4, atoms = 256, extra: string[] = []): Fixture {
  const c = applySets(defaultConfig(), [`cluster.nodes=${nodes}`, `cluster.atomsPerNode=${atoms}`, ...extra]);
  const offsets = zoneOffsets(c.cluster.nodes, c.cluster.zoneSize, c.cluster.zoneJitter, streamRng(c.sim.seed, "topology"));
  const cluster = new Cluster(core, c, offsets);
  const mask = core.arena.alloc(atoms / 8, 16);
  const out = core.arena.alloc(4, 4);
  return { cluster, mask, out, atoms };
}

/** Node n's row as booleans (true = free), atom i at bit i % 32 of u32 word i / 32. */
function rowBits(f: Fixture, n: number): boolean[] {
  return bitsAt(f.cluster.row(n), f.atoms);
}

function bitsAt(ptr: number, atoms: number): boolean[] {
  const u32 = core.arena.u32;
  const w0 = ptr >>> 2;
  return Array.from({ length: atoms }, (_, i) => ((u32[w0 + (i >>> 5)] >>> (i & 31)) & 1) === 1);
}

function rowWords(f: Fixture, n: number): number[] {
  const w0 = f.cluster.row(n) >>> 2;
  return Array.from(core.arena.u32.subarray(w0, w0 + f.atoms / 32));
}

const popcount = (bits: boolean[]) => bits.reduce((s, b) => s + (b ? 1 : 0), 0);

/** Free count equals the row's popcount on every node. */
function consistent(f: Fixture): void {
  for (let n = 0; n < f.cluster.nodes; n++) expect(f.cluster.free[n], `node ${n}`).toBe(popcount(rowBits(f, n)));
}

/** Everything a refused call must leave alone. */
function snapshot(f: Fixture) {
  return {
    rows: Array.from({ length: f.cluster.nodes }, (_, n) => rowWords(f, n)),
    free: Array.from(f.cluster.free),
    mask: Array.from(core.arena.u32.subarray(f.mask >>> 2, (f.mask >>> 2) + f.atoms / 32)),
  };
}

/** Longest run of free atoms in a row. */
function longestRun(bits: boolean[]): number {
  let best = 0, cur = 0;
  for (const b of bits) {
    cur = b ? cur + 1 : 0;
    best = Math.max(best, cur);
  }
  return best;
}

describe("Cluster layout", () => {
  it("starts with every atom free, rows laid out back to back, Zones from the offsets", () => {
    const f = fixture(4, 256);
    const { cluster } = f;
    expect(cluster.nodes).toBe(4);
    expect(cluster.atoms).toBe(256);
    expect(cluster.rowBytes).toBe(32);
    expect(cluster.bitmaps % 16).toBe(0);
    for (let n = 0; n < 4; n++) {
      expect(cluster.row(n)).toBe(cluster.bitmaps + n * 32);
      expect(rowWords(f, n)).toEqual(new Array(8).fill(0xffffffff));
      expect(cluster.free[n]).toBe(256);
      expect(cluster.rigid[n]).toBe(0);
    }
    expect(cluster.zones).toBe(1);
    expect(Array.from(cluster.offsets)).toEqual([0, 4]);
    expect(Array.from(cluster.zoneOf)).toEqual([0, 0, 0, 0]);
  });

  it("zoneOf follows multi-Zone offsets", () => {
    const f = fixture(1000, 64, ["cluster.zoneSize=100"]);
    expect(f.cluster.zones).toBe(10);
    for (let z = 0; z < 10; z++) {
      expect(f.cluster.zoneOf[f.cluster.offsets[z]]).toBe(z);
      expect(f.cluster.zoneOf[f.cluster.offsets[z + 1] - 1]).toBe(z);
    }
  });
});

for (const atoms of [64, 192, 256, 1024]) {
  describe(`Cluster take / release (${atoms} atoms)`, () => {
    it("dispersed take clears exactly the mask's atoms, the lowest free ones, on that node only", () => {
      const f = fixture(4, atoms);
      expect(f.cluster.take(1, 5, false, f.mask)).toBe(true);
      expect(f.cluster.free[1]).toBe(atoms - 5);
      const bits = rowBits(f, 1);
      const mask = bitsAt(f.mask, atoms);
      expect(popcount(mask)).toBe(5);
      for (let i = 0; i < atoms; i++) expect(bits[i]).toBe(!mask[i]);
      expect(bits.slice(0, 5)).toEqual([false, false, false, false, false]);
      for (const n of [0, 2, 3]) {
        expect(f.cluster.free[n]).toBe(atoms);
        expect(popcount(rowBits(f, n))).toBe(atoms);
      }
      consistent(f);
    });

    it("contiguous take clears one run of m atoms at the lowest fitting offset", () => {
      const f = fixture(4, atoms);
      // a dispersed take first, so the run cannot start at 0
      const m0 = core.arena.alloc(atoms / 8, 16);
      expect(f.cluster.take(2, 3, false, m0)).toBe(true);
      expect(f.cluster.take(2, 40, true, f.mask)).toBe(true);
      expect(f.cluster.free[2]).toBe(atoms - 43);
      const mask = bitsAt(f.mask, atoms);
      expect(popcount(mask)).toBe(40);
      const first = mask.indexOf(true);
      expect(first).toBe(3);
      expect(mask.slice(first, first + 40).every(Boolean)).toBe(true);
      const bits = rowBits(f, 2);
      expect(bits.slice(0, 43).some(Boolean)).toBe(false);
      expect(bits.slice(43).every(Boolean)).toBe(true);
      consistent(f);
    });

    it("a take that does not fit returns false and changes nothing", () => {
      const f = fixture(4, atoms);
      const half = atoms / 2;
      // fill node 0 entirely with two contiguous halves, then free the first one
      const a = core.arena.alloc(atoms / 8, 16), b = core.arena.alloc(atoms / 8, 16);
      expect(f.cluster.take(0, half, true, a)).toBe(true);
      expect(f.cluster.take(0, half, true, b)).toBe(true);
      expect(f.cluster.free[0]).toBe(0);
      // not enough free atoms at all
      let before = snapshot(f);
      expect(f.cluster.take(0, 1, false, f.mask)).toBe(false);
      expect(f.cluster.take(0, 1, true, f.mask)).toBe(false);
      expect(snapshot(f)).toEqual(before);
      // enough free atoms but no run: free every other 8-atom block of the first half
      f.cluster.release(0, half, a);
      const blk = core.arena.alloc(atoms / 8, 16);
      for (let off = 0; off < half; off += 16) {
        core.exports.bmRunMask(atoms, off + 8, 8, blk);
        expect(core.exports.bmTake(f.cluster.row(0), atoms, blk)).toBe(8);
        f.cluster.free[0] -= 8; // keep the mirror in step with the direct kernel call
      }
      expect(f.cluster.free[0]).toBe(half / 2);
      expect(longestRun(rowBits(f, 0))).toBe(8);
      before = snapshot(f);
      expect(f.cluster.take(0, 9, true, f.mask)).toBe(false);
      expect(f.cluster.take(0, half / 2 + 1, false, f.mask)).toBe(false);
      expect(snapshot(f)).toEqual(before);
      // what does fit still works
      expect(f.cluster.take(0, 8, true, f.mask)).toBe(true);
      expect(f.cluster.take(0, half / 2 - 8, false, f.mask)).toBe(true);
      expect(f.cluster.free[0]).toBe(0);
      consistent(f);
    });

    it("release restores the row and the count; a second release throws and changes nothing", () => {
      const f = fixture(4, atoms);
      const pristine = snapshot(f).rows;
      expect(f.cluster.take(3, 7, false, f.mask)).toBe(true);
      const m2 = core.arena.alloc(atoms / 8, 16);
      expect(f.cluster.take(3, 33, true, m2)).toBe(true);
      expect(f.cluster.free[3]).toBe(atoms - 40);
      f.cluster.release(3, 33, m2);
      f.cluster.release(3, 7, f.mask);
      expect(f.cluster.free[3]).toBe(atoms);
      expect(snapshot(f).rows).toEqual(pristine);
      const before = snapshot(f);
      expect(() => f.cluster.release(3, 7, f.mask)).toThrow(/release of 7 atoms on node 3/);
      expect(snapshot(f)).toEqual(before);
      // a partly free mask is refused too, whole
      expect(f.cluster.take(3, 4, false, m2)).toBe(true); // atoms 0..3, a subset of f.mask's 0..6
      const mid = snapshot(f);
      expect(() => f.cluster.release(3, 7, f.mask)).toThrow();
      expect(snapshot(f)).toEqual(mid);
      consistent(f);
    });

    it("property: random takes and releases keep free = popcount, and fits() agrees with take", () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              node: fc.integer({ min: 0, max: 3 }),
              m: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: atoms })),
              contiguous: fc.boolean(),
              release: fc.integer({ min: 0, max: 3 }), // 0: release an earlier allocation instead
              pick: fc.nat(),
            }),
            { maxLength: 60 },
          ),
          (ops) => {
            const f = fixture(4, atoms);
            const held: Array<{ node: number; m: number; mask: number }> = [];
            for (const op of ops) {
              if (op.release === 0 && held.length > 0) {
                const [h] = held.splice(op.pick % held.length, 1);
                const free = f.cluster.free[h.node];
                f.cluster.release(h.node, h.m, h.mask);
                expect(f.cluster.free[h.node]).toBe(free + h.m);
                continue;
              }
              const mm = op.m;
              const bits = rowBits(f, op.node);
              const expectFit = op.contiguous ? longestRun(bits) >= mm : popcount(bits) >= mm;
              expect(f.cluster.fits(op.node, mm, op.contiguous, f.out)).toBe(expectFit);
              const mask = core.arena.alloc(atoms / 8, 16);
              const before = snapshot(f);
              const took = f.cluster.take(op.node, mm, op.contiguous, mask);
              expect(took).toBe(expectFit);
              if (took) {
                held.push({ node: op.node, m: mm, mask });
                const mbits = bitsAt(mask, atoms);
                expect(popcount(mbits)).toBe(mm);
                if (op.contiguous) {
                  const first = mbits.indexOf(true);
                  expect(mbits.slice(first, first + mm).every(Boolean)).toBe(true);
                }
                // exactly the mask's atoms went from free to taken
                const after = rowBits(f, op.node);
                expect(after).toEqual(bits.map((b, i) => b && !mbits[i]));
              } else {
                expect(snapshot(f).rows).toEqual(before.rows);
                expect(snapshot(f).free).toEqual(before.free);
              }
            }
            consistent(f);
            // releasing everything left restores a full cluster
            for (const h of held) f.cluster.release(h.node, h.m, h.mask);
            for (let n = 0; n < 4; n++) expect(rowWords(f, n)).toEqual(new Array(atoms / 32).fill(0xffffffff));
            expect(Array.from(f.cluster.free)).toEqual([atoms, atoms, atoms, atoms]);
          },
        ),
        { numRuns: atoms === 1024 ? 40 : 100 },
      );
    });
  });
}

describe("Cluster.fits", () => {
  it("is false when the free count is short, and checks a real run when contiguous", () => {
    const f = fixture(4, 256);
    const a = core.arena.alloc(32, 16);
    expect(f.cluster.fits(0, 256, true, f.out)).toBe(true);
    expect(f.cluster.fits(0, 257, false, f.out)).toBe(false);
    // take atoms 100..109 by a run mask: 246 free, longest run 146
    core.exports.bmRunMask(256, 100, 10, a);
    expect(core.exports.bmTake(f.cluster.row(0), 256, a)).toBe(10);
    f.cluster.free[0] -= 10;
    expect(f.cluster.fits(0, 246, false, f.out)).toBe(true);
    expect(f.cluster.fits(0, 247, false, f.out)).toBe(false);
    expect(f.cluster.fits(0, 146, true, f.out)).toBe(true);
    expect(f.cluster.fits(0, 147, true, f.out)).toBe(false);
    // fits() itself changes nothing
    expect(f.cluster.free[0]).toBe(246);
    expect(popcount(rowBits(f, 0))).toBe(246);
  });
});

describe("Cluster.preoccupy", () => {
  it("fraction 0 takes nothing and draws nothing", () => {
    const f = fixture(4, 256);
    const rng = streamRng(1, "preoccupancy");
    const twin = rng.clone();
    f.cluster.preoccupy(0, 2, rng);
    expect(Array.from(f.cluster.free)).toEqual([256, 256, 256, 256]);
    expect(Array.from(f.cluster.rigid)).toEqual([0, 0, 0, 0]);
    expect(rng.nextU32()).toBe(twin.nextU32());
  });

  it("the default (a quarter in 2 blocks) holds 64 atoms per node", () => {
    const f = fixture(4, 256);
    f.cluster.preoccupy(0.25, 2, streamRng(1, "preoccupancy"));
    for (let n = 0; n < 4; n++) {
      expect(f.cluster.rigid[n]).toBe(64);
      expect(f.cluster.free[n]).toBe(192);
      expect(popcount(rowBits(f, n))).toBe(192);
    }
  });

  it("one block is one contiguous run", () => {
    const f = fixture(4, 256);
    f.cluster.preoccupy(0.3, 1, streamRng(2, "preoccupancy"));
    const total = Math.round(0.3 * 256);
    for (let n = 0; n < 4; n++) {
      const taken = rowBits(f, n).map((b) => !b);
      const first = taken.indexOf(true);
      expect(taken.slice(first, first + total).every(Boolean)).toBe(true);
      expect(popcount(taken)).toBe(total);
    }
  });

  it("is a pure function of the stream", () => {
    const a = fixture(4, 256), b = fixture(4, 256);
    a.cluster.preoccupy(0.4, 3, streamRng(5, "preoccupancy"));
    b.cluster.preoccupy(0.4, 3, streamRng(5, "preoccupancy"));
    expect(snapshot(a).rows).toEqual(snapshot(b).rows);
  });

  it("property: exactly round(fraction * atoms) atoms taken per node, rigid[] set, free consistent", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(64, 128, 256, 512, 1024),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.integer({ min: 1, max: 64 }),
        fc.nat(2 ** 31),
        (atoms, fraction, blocks, seed) => {
          const f = fixture(4, atoms);
          f.cluster.preoccupy(fraction, blocks, streamRng(seed, "preoccupancy"));
          const total = Math.round(fraction * atoms);
          for (let n = 0; n < 4; n++) {
            expect(f.cluster.rigid[n]).toBe(total);
            expect(f.cluster.free[n]).toBe(atoms - total);
            expect(popcount(rowBits(f, n))).toBe(atoms - total);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
