// Zones (src/laminar/topology.ts): zoneOffsets cuts `nodes` into
// max(1, round(nodes / zoneSize)) Zones (never more than nodes), every Zone
// non-empty, sizes summing to nodes; jitter 0 gives near-equal Zones, the
// paper's 20% jitter keeps 256-node Zones near 205-307; the layout is a pure
// function of the stream. zoneIndex maps every node to its Zone.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zoneIndex, zoneOffsets } from "../../src/cluster/topology.js";
import { streamRng } from "../../src/sim/rng.js";

function sizesOf(offsets: Int32Array): number[] {
  return Array.from({ length: offsets.length - 1 }, (_, z) => offsets[z + 1] - offsets[z]);
}

/** The invariants every layout must meet. */
function checkLayout(offsets: Int32Array, nodes: number, zoneSize: number): void {
  const zones = Math.min(nodes, Math.max(1, Math.round(nodes / zoneSize)));
  expect(offsets).toBeInstanceOf(Int32Array);
  expect(offsets.length).toBe(zones + 1);
  expect(offsets[0]).toBe(0);
  expect(offsets[zones]).toBe(nodes);
  const sizes = sizesOf(offsets);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(nodes);
  expect(Math.min(...sizes), "every Zone non-empty").toBeGreaterThanOrEqual(1);
}

describe("zoneOffsets", () => {
  it("defaults (5,000 nodes, 256-node Zones, 20% jitter): 20 Zones near 205-307 nodes", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const offsets = zoneOffsets(5000, 256, 0.2, streamRng(seed, "topology"));
      checkLayout(offsets, 5000, 256);
      expect(offsets.length - 1).toBe(20);
      const sizes = sizesOf(offsets);
      for (const s of sizes) {
        expect(s, `seed ${seed}: ${sizes.join(",")}`).toBeGreaterThanOrEqual(190);
        expect(s, `seed ${seed}: ${sizes.join(",")}`).toBeLessThanOrEqual(325);
      }
      // jitter does show: not all Zones the same size
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeGreaterThan(1);
    }
  });

  it("jitter 0 gives near-equal Zones (max - min <= 1), the larger ones first", () => {
    for (const [nodes, zoneSize] of [[5000, 256], [1000, 7], [32000, 256], [10, 3], [1, 1], [7, 1], [255, 256], [100_000, 999]]) {
      const offsets = zoneOffsets(nodes, zoneSize, 0, streamRng(1, "topology"));
      checkLayout(offsets, nodes, zoneSize);
      const sizes = sizesOf(offsets);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      for (let z = 1; z < sizes.length; z++) expect(sizes[z]).toBeLessThanOrEqual(sizes[z - 1]);
    }
  });

  it("jitter 0 makes no draw", () => {
    const rng = streamRng(5, "topology");
    const twin = rng.clone();
    zoneOffsets(5000, 256, 0, rng);
    expect(rng.nextU32()).toBe(twin.nextU32());
  });

  it("zone count: at least one, round(nodes / zoneSize), never more than nodes", () => {
    const cases: Array<[number, number, number]> = [
      [1, 256, 1], // round(1/256) = 0 -> 1
      [100, 256, 1], // round(0.39) = 0 -> 1
      [128, 256, 1], // round(0.5) = 1
      [384, 256, 2], // round(1.5) = 2
      [5000, 256, 20], // round(19.53)
      [32000, 256, 125],
      [3, 1, 3], // one node per Zone
      [5, 1, 5],
    ];
    for (const [nodes, zoneSize, zones] of cases) {
      const offsets = zoneOffsets(nodes, zoneSize, 0.2, streamRng(1, "topology"));
      expect(offsets.length - 1, `${nodes}/${zoneSize}`).toBe(zones);
      checkLayout(offsets, nodes, zoneSize);
    }
  });

  it("is a pure function of the stream", () => {
    const a = zoneOffsets(5000, 256, 0.2, streamRng(7, "topology"));
    const b = zoneOffsets(5000, 256, 0.2, streamRng(7, "topology"));
    const c = zoneOffsets(5000, 256, 0.2, streamRng(8, "topology"));
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it("property: valid layout for nodes 1..20000, zoneSize 1..1000, jitter [0, 0.99]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.nat(2 ** 31),
        (nodes, zoneSize, jitter, seed) => {
          const offsets = zoneOffsets(nodes, zoneSize, jitter, streamRng(seed, "topology"));
          checkLayout(offsets, nodes, zoneSize);
          const idx = zoneIndex(offsets);
          expect(idx.length).toBe(nodes);
          let ok = true;
          for (let z = 0; z < offsets.length - 1; z++) ok &&= idx[offsets[z]] === z && idx[offsets[z + 1] - 1] === z;
          expect(ok).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("extreme jitter with one-node Zones still leaves no Zone empty", () => {
    for (let seed = 0; seed < 200; seed++) {
      const offsets = zoneOffsets(9, 1, 0.99, streamRng(seed, "topology"));
      checkLayout(offsets, 9, 1);
      expect(sizesOf(offsets)).toEqual(new Array(9).fill(1));
    }
  });
});

describe("zoneIndex", () => {
  it("maps every node to the Zone whose range holds it", () => {
    const offsets = Int32Array.from([0, 3, 4, 9]);
    expect(Array.from(zoneIndex(offsets))).toEqual([0, 0, 0, 1, 2, 2, 2, 2, 2]);
  });

  it("is non-decreasing, covers 0..Z-1, and agrees with the offsets", () => {
    const offsets = zoneOffsets(5000, 256, 0.2, streamRng(1, "topology"));
    const idx = zoneIndex(offsets);
    expect(idx).toBeInstanceOf(Int32Array);
    expect(idx.length).toBe(5000);
    let ok = true;
    for (let n = 0; n < 5000; n++) {
      const z = idx[n];
      ok &&= offsets[z] <= n && n < offsets[z + 1] && (n === 0 || idx[n] >= idx[n - 1]);
    }
    expect(ok).toBe(true);
    expect(idx[0]).toBe(0);
    expect(idx[4999]).toBe(offsets.length - 2);
  });

  it("one Zone: every node in Zone 0", () => {
    expect(Array.from(zoneIndex(Int32Array.from([0, 4])))).toEqual([0, 0, 0, 0]);
  });
});
