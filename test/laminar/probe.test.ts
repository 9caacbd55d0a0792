// The probe action through the core (probeCandidates, driven by Prober) draws
// exactly what the TypeScript path draws (sampleDistinct, then zigguratNormal
// per candidate) and chooses what scoreCandidates' twin chooses, in both
// builds, including draws off the ziggurat's fast path (E_DEFER, finished by
// the host); and it refuses bad arguments without writing anything.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ref from "../../src/core/reference/score.js";
import * as refProbe from "../../src/core/reference/probe.js";
import { Status } from "../../src/core/status.js";
import type { Core } from "../../src/core/wasm.js";
import { Views } from "../../src/core/views.js";
import { sampleDistinct } from "../../src/laminar/decisions.js";
import { Prober } from "../../src/laminar/probe.js";
import { Rng } from "../../src/sim/rng.js";
import { writeZigguratTables, ZIG_BYTES, zigguratNormal } from "../../src/sim/ziggurat.js";
import { builds, getF32, getI32, positional, put } from "../core/harness.js";

/** The ziggurat's fast-path tables, as the core reads them. */
const ZIG = new ArrayBuffer(ZIG_BYTES);
writeZigguratTables(ZIG, 0);
const KN = new Uint32Array(ZIG, 0, 128), WN = new Float64Array(ZIG, 512, 128);

const f32 = (min: number, max: number) => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true });

/** The TypeScript path of the simulator before the core did it: sample, draw noise, score. */
function tsPath(rng: Rng, field: Float32Array, nz: number, table: Uint32Array, atoms: number, k: number,
  now: number, m: number, contiguous: number, lambda: number, sigma: number) {
  const cand = new Int32Array(k);
  sampleDistinct(rng, nz, k, cand, new Int32Array(nz), 0);
  const noise = new Float32Array(k);
  let slow = 0;
  for (let i = 0; i < k; i++) {
    if (sigma > 0 && !isFast(rng.clone())) slow++;
    noise[i] = sigma > 0 ? sigma * zigguratNormal(rng) : 0;
  }
  const r = ref.scoreCandidates(field, nz, table, atoms, cand, k, now, m, contiguous, lambda, 1e20, noise);
  return { chosen: r === Status.E_NOFIT ? -1 : cand[r], cand, noise, slow };
}

const caseArb = fc
  .record({
    nz: fc.integer({ min: 1, max: 300 }),
    kWant: fc.integer({ min: 0, max: 40 }),
    atoms: fc.constantFrom(64, 256, 512),
    density: fc.constantFrom(1, 2, 3),
    seed: fc.array(fc.integer(), { minLength: 4, maxLength: 4 }).filter((s) => s.some((x) => x !== 0)),
    tableSeed: fc.integer(),
    fieldSeed: fc.integer(),
    now: f32(0, 200),
    mShare: fc.double({ min: 0, max: 1, noNaN: true }),
    contiguous: fc.constantFrom(0, 1),
    lambda: f32(0, 4),
    sigma: fc.constantFrom(0, 0.5, 3, 40),
  })
  .map((c) => ({ ...c, k: Math.min(c.kWant, c.nz), m: Math.round(c.mShare * c.atoms * 0.3) }));

/** Deterministic filler for the field and bitmap rows. */
function filler(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return x >>> 0;
  };
}

function tables(nz: number, atoms: number, density: number, tableSeed: number, fieldSeed: number) {
  const r = filler(tableSeed), w = atoms / 32, table = new Uint32Array(nz * w);
  for (let i = 0; i < table.length; i++) {
    let x = r();
    for (let d = 1; d < density; d++) x &= r();
    table[i] = x >>> 0;
  }
  const q = filler(fieldSeed), field = new Float32Array(5 * nz);
  for (let j = 0; j < nz; j++) {
    field[j] = q() % 300;
    field[nz + j] = q() % 20;
    field[2 * nz + j] = ((q() % 200) - 100) / 10;
    field[3 * nz + j] = ((q() % 100) - 50) / 10;
    field[4 * nz + j] = q() % 150;
  }
  return { table, field };
}

describe("Prober (probeCandidates) against the TypeScript path", () => {
  const views = new Map<Core, Views>(builds.map(([, core]) => [core, new Views(core.exports.memory)]));
  const probers = new Map<Core, Prober>(builds.map(([, core]) => [core, new Prober(core, views.get(core)!, 64, 512)]));

  it("chooses the same node, writes the same candidates and noise, and leaves the stream where the TypeScript path does", () => {
    let deferred = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { table, field } = tables(c.nz, c.atoms, c.density, c.tableSeed, c.fieldSeed);
        const ts = new Rng(c.seed);
        const want = tsPath(ts, field, c.nz, table, c.atoms, c.k, c.now, c.m, c.contiguous, c.lambda, c.sigma);
        deferred += want.slow;
        for (const [name, core] of builds) {
          const p = probers.get(core)!;
          const fp = put(core, field), tp = put(core, table);
          views.get(core)!.sync(); // put() may have grown memory
          const rng = new Rng(c.seed);
          p.configure(c.atoms, c.lambda, 1e20, c.sigma);
          // the words past the scratch's ceil(nz / 32) are not the sampling's: marked, they must stay so
          const used = (c.nz + 31) >> 5, past = new Uint32Array(core.exports.memory.buffer, p.seen, 16);
          past.fill(0xa5a5a5a5, used);
          expect(p.choose(fp, c.nz, tp, c.k, c.now, c.m, c.contiguous, rng), name).toBe(want.chosen);
          const after = new Uint32Array(core.exports.memory.buffer, p.seen, 16);
          expect(Array.from(after.subarray(used)).every((x) => x === 0xa5a5a5a5), name).toBe(true);
          after.fill(0, used);
          expect(Array.from(getI32(core, p.cand, c.k)), name).toEqual(Array.from(want.cand));
          expect(Array.from(getF32(core, p.noise, c.k)), name).toEqual(Array.from(want.noise));
          const a = ts.clone(), b = rng;
          for (let i = 0; i < 4; i++) expect(b.nextU32(), name).toBe(a.nextU32());
          // the sampling scratch is left clear
          expect(Array.from(getI32(core, p.seen, used)).every((x) => x === 0), name).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    expect(deferred).toBeGreaterThan(20); // the host's part of the ziggurat (E_DEFER) was exercised
  });

  it("agrees at the edges of the Zone size and candidate count", () => {
    const edges: Array<[number, number]> = [[1, 0], [1, 1], [2, 1], [2, 2], [65536, 16], [65536, 300], [65535, 4000], [1000, 999]];
    for (const [nz, k] of edges) {
      const { table, field } = tables(nz, 64, 2, nz, k + 1);
      const seed = [nz, k, 7, 9];
      const want = tsPath(new Rng(seed), field, nz, table, 64, k, 50, 3, k & 1, 1, 2);
      for (const [name, core] of builds) {
        const v = new Views(core.exports.memory), p = new Prober(core, v, k, nz);
        const fp = put(core, field), tp = put(core, table);
        v.sync();
        const rng = new Rng(seed);
        p.configure(64, 1, 1e20, 2);
        expect(p.choose(fp, nz, tp, k, 50, 3, k & 1, rng), `${name} ${nz}/${k}`).toBe(want.chosen);
        expect(Array.from(getI32(core, p.cand, k)), `${name} ${nz}/${k}`).toEqual(Array.from(want.cand));
        expect(Array.from(getF32(core, p.noise, k)), `${name} ${nz}/${k}`).toEqual(Array.from(want.noise));
      }
    }
  });

  it("returns E_DEFER for a draw off the fast path, with the stream after that draw's word and the word itself", () => {
    const [, core] = builds[0];
    const p = probers.get(core)!, k = core.exports, i32 = () => core.arena.i32, rp = p.rng >> 2;
    const { table, field } = tables(50, 256, 1, 7, 9);
    const fp = put(core, field), tp = put(core, table);
    // find a stream whose first noise word (after sampling 8 of 50) misses the fast path
    for (let s = 1; s < 10_000; s++) {
      const ts = new Rng([s, 2, 3, 4]);
      const cand = new Int32Array(8);
      sampleDistinct(ts, 50, 8, cand, new Int32Array(50), 0);
      if (isFast(ts.clone())) continue;
      const probe = ts.clone(), hz = probe.nextU32() | 0;
      new Rng([s, 2, 3, 4]).saveState(i32(), rp);
      const r = positional(core).probeCandidates(fp, 50, tp, 256, 8, 10, 4, 0, 1, 1e20, 0.5, p.rng, p.zig, p.seen, p.cand, p.noise, 0);
      expect(r).toBe(Status.E_DEFER);
      expect(i32()[rp + 4]).toBe(0);
      expect(i32()[rp + 5]).toBe(hz);
      const after = new Rng([1, 0, 0, 0]);
      after.loadState(i32(), rp);
      expect(after.nextU32()).toBe(probe.nextU32());
      expect(Array.from(getI32(core, p.cand, 8))).toEqual(Array.from(cand));
      return;
    }
    throw new Error("no stream with a slow first draw found");
  });
});

describe("probeCandidates against its TypeScript twin (one call, no host step)", () => {
  it("returns the same code and writes the same stream, candidates and noise, in both builds", () => {
    let deferred = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(40), (c, startWant) => {
        const { table, field } = tables(c.nz, c.atoms, c.density, c.tableSeed, c.fieldSeed);
        const start = Math.min(startWant, c.k);
        // a resumed call keeps candidates and noise: give it some
        const cand0 = Int32Array.from({ length: c.k }, (_, i) => (i * 7919) % c.nz);
        const noise0 = Float32Array.from({ length: c.k }, (_, i) => i / 8);
        const rng = Int32Array.from([...c.seed, 0, 0]), cand = cand0.slice(), noise = noise0.slice();
        const want = refProbe.probeCandidates(field, c.nz, table, c.atoms, c.k, c.now, c.m, c.contiguous, c.lambda, 1e20, c.sigma,
          rng, KN, WN, new Uint32Array(Math.ceil(c.nz / 32)), cand, noise, start);
        if (want === Status.E_DEFER) deferred++;
        for (const [name, core] of builds) {
          const a = core.arena;
          const fp = put(core, field), tp = put(core, table), zp = a.alloc(ZIG_BYTES, 16);
          writeZigguratTables(a.u8.buffer as ArrayBuffer, zp);
          const rp = put(core, Int32Array.from([...c.seed, 0, 0])), sp = put(core, new Uint32Array(Math.ceil(c.nz / 32) + 1));
          const cp = put(core, c.k > 0 ? cand0 : new Int32Array(1)), np = put(core, c.k > 0 ? noise0 : new Float32Array(1));
          const got = positional(core).probeCandidates(fp, c.nz, tp, c.atoms, c.k, c.now, c.m, c.contiguous, c.lambda, 1e20, c.sigma, rp, zp, sp, cp, np, start);
          expect(got, name).toBe(want);
          expect(Array.from(getI32(core, rp, want === Status.E_DEFER ? 6 : 4)), name).toEqual(Array.from(rng.subarray(0, want === Status.E_DEFER ? 6 : 4)));
          expect(Array.from(getI32(core, cp, c.k)), name).toEqual(Array.from(cand));
          expect(Array.from(getF32(core, np, c.k)), name).toEqual(Array.from(noise));
        }
      }),
      { numRuns: 300 },
    );
    expect(deferred).toBeGreaterThan(10);
  });
});

/** A stream state whose next word is `word` (xoshiro128**'s output depends on s1 alone). */
function stateFor(word: number): number[] {
  const x = Math.imul(word | 0, 0x38e38e39) >>> 0; // / 9
  const y = ((x >>> 7) | (x << 25)) >>> 0; // rotate right by 7
  return [1, Math.imul(y, 0xcccccccd) | 0, 3, 4]; // / 5
}

describe("the ziggurat's fast-path boundary", () => {
  it("a word with |hz| = KN[hz & 127] is off the fast path in both the core and TypeScript; one layer-width inside is on it", () => {
    const edges: number[] = [];
    for (let iz = 0; iz < 128; iz++) for (const hz of [KN[iz] | 0, -KN[iz] | 0]) if ((hz & 127) === iz && Math.abs(hz) === KN[iz]) edges.push(hz);
    expect(edges.length).toBeGreaterThan(0);
    const [, core] = builds[0];
    const p = new Prober(core, new Views(core.exports.memory), 1, 1), k = core.exports, a = core.arena, rp = p.rng >> 2;
    const fp = put(core, new Float32Array(5)), tp = put(core, new Uint32Array(8).fill(0xffffffff));
    for (const hz of edges) {
      expect(new Rng(stateFor(hz)).nextU32() | 0).toBe(hz);
      expect(isFast(new Rng(stateFor(hz)))).toBe(false);
      a.i32.set(stateFor(hz), rp);
      expect(positional(core).probeCandidates(fp, 1, tp, 256, 1, 0, 1, 0, 1, 1e20, 0.5, p.rng, p.zig, p.seen, p.cand, p.noise, 0)).toBe(Status.E_DEFER);
      expect(a.i32[rp + 5]).toBe(hz);
      const inside = hz < 0 ? hz + 128 : hz - 128; // same layer, |hz| one step below KN
      expect(isFast(new Rng(stateFor(inside)))).toBe(true);
      a.i32.set(stateFor(inside), rp);
      expect(positional(core).probeCandidates(fp, 1, tp, 256, 1, 0, 1, 0, 1, 1e20, 0.5, p.rng, p.zig, p.seen, p.cand, p.noise, 0)).toBe(0);
      expect(a.f32[p.noise >> 2]).toBe(Math.fround(0.5 * (inside * WN[inside & 127])));
    }
  });
});

describe("the sampling's rejection boundary", () => {
  it("a 16-bit half with (u * nz) mod 2^16 equal to 2^16 mod nz is kept, one below it is rejected, as sampleDistinct does", () => {
    const nz = 299, reject = 65536 % nz; // odd: every low half occurs
    const at = (low: number) => {
      for (let u = 0; u < 65536; u++) if (((u * nz) & 0xffff) === low) return u;
      throw new Error(`no half gives ${low}`);
    };
    const { table, field } = tables(nz, 256, 1, 5, 6);
    for (const [low, kept] of [[reject, true], [reject - 1, false]] as const) {
      const u = at(low), word = ((u << 16) | 0x1234) >>> 0, j = (u * nz) >>> 16;
      const ts = new Rng(stateFor(word)), out = new Int32Array(1);
      sampleDistinct(ts, nz, 1, out, new Int32Array(nz), 0);
      expect(out[0] === j).toBe(kept);
      const rng = Int32Array.from([...stateFor(word), 0, 0]), cand = new Int32Array(1);
      refProbe.probeCandidates(field, nz, table, 256, 1, 0, 1, 0, 1, 1e20, 0, rng, KN, WN, new Uint32Array(10), cand, new Float32Array(1), 0);
      expect(cand[0]).toBe(out[0]);
      for (const [, core] of builds) {
        const p = new Prober(core, new Views(core.exports.memory), 1, nz);
        const fp = put(core, field), tp = put(core, table);
        core.arena.i32.set(stateFor(word), p.rng >> 2);
        positional(core).probeCandidates(fp, nz, tp, 256, 1, 0, 1, 0, 1, 1e20, 0, p.rng, p.zig, p.seen, p.cand, p.noise, 0);
        expect(core.arena.i32[p.cand >> 2]).toBe(out[0]);
      }
    }
  });
});

/** Whether the next normal draw from `rng` takes the fast path (one word). */
function isFast(rng: Rng): boolean {
  let words = 0;
  const counting = { nextU32: () => (words++, rng.nextU32()), float: () => ((words += 2), rng.float()) };
  zigguratNormal(counting);
  return words === 1;
}

describe("probeCandidates refuses bad arguments and writes nothing", () => {
  for (const [name, core] of builds) {
    it(name, () => {
      const k = core.exports, a = core.arena;
      const nz = 40, { table, field } = tables(nz, 256, 1, 3, 4);
      const fp = put(core, field), tp = put(core, table);
      const rng = a.alloc(24, 16), zig = new Prober(core, new Views(core.exports.memory), 16, nz).zig, seen = a.alloc(8, 16), cand = a.alloc(64, 16), noise = a.alloc(64, 16);
      a.u8.fill(0, seen, seen + 8);
      const setState = (w: number[]) => a.i32.set(w, rng >> 2);
      setState([1, 2, 3, 4]);
      const call = (o: Partial<Record<string, number>> = {}) => {
        const v = { field: fp, nz, table: tp, atoms: 256, k: 8, now: 10, m: 4, cont: 0, gamma: 1, da: 1e20, sigma: 0.5, rng, zig, seen, cand, noise, start: 0, ...o };
        return positional(core).probeCandidates(v.field, v.nz, v.table, v.atoms, v.k, v.now, v.m, v.cont, v.gamma, v.da, v.sigma, v.rng, v.zig, v.seen, v.cand, v.noise, v.start);
      };
      const snapshot = () => Array.from(a.u8.slice(rng, rng + 24)).concat(Array.from(a.u8.slice(cand, cand + 32)), Array.from(a.u8.slice(noise, noise + 32)), Array.from(a.u8.slice(seen, seen + 8)));
      const before = snapshot();
      const cases: Array<[string, number, Partial<Record<string, number>>]> = [
        ["atoms", Status.E_ATOMS, { atoms: 100 }],
        ["negative k", Status.E_COUNT, { k: -1 }],
        ["k > nodeCount", Status.E_ARG, { k: nz + 1 }],
        ["nodeCount > 65536", Status.E_ARG, { nz: 65537 }],
        ["start > k", Status.E_ARG, { start: 9 }],
        ["negative start", Status.E_ARG, { start: -1 }],
        ["m > atoms", Status.E_K, { m: 257 }],
        ["contiguous 2", Status.E_ARG, { cont: 2 }],
        ["NaN now", Status.E_ARG, { now: NaN }],
        ["infinite gamma", Status.E_ARG, { gamma: Infinity }],
        ["negative sigma", Status.E_ARG, { sigma: -0.1 }],
        ["NaN sigma", Status.E_ARG, { sigma: NaN }],
        ["huge sigma", Status.E_ARG, { sigma: 1e31 }],
        ["null rng", Status.E_NULL, { rng: 0 }],
        ["misaligned zig", Status.E_ALIGN, { zig: zig + 4 }],
        ["table past memory", Status.E_BOUNDS, { table: a.u8.length - 16 }],
        ["cand overlaps noise", Status.E_ARG, { noise: cand + 4 }],
        ["rng overlaps the field", Status.E_ARG, { rng: fp }],
        ["seen overlaps the tables", Status.E_ARG, { seen: zig }],
        ["noise overlaps seen", Status.E_ARG, { noise: seen }],
      ];
      for (const [what, code, o] of cases) {
        expect(call(o), what).toBe(code);
        expect(snapshot(), what).toEqual(before);
      }
      setState([0, 0, 0, 0]);
      expect(call(), "all-zero stream").toBe(Status.E_ARG);
      setState([1, 2, 3, 4]);
      a.u32[seen >> 2] = 1;
      expect(call(), "seen not clear").toBe(Status.E_ARG);
      a.u32[seen >> 2] = 0;
      a.i32[(cand >> 2) + 3] = nz;
      expect(call({ start: 4 }), "resumed with a candidate id out of range").toBe(Status.E_ID);
      a.i32[(cand >> 2) + 3] = 0;
      a.f32[(noise >> 2) + 1] = NaN;
      expect(call({ start: 4 }), "resumed with a NaN noise").toBe(Status.E_ARG);
      // k = nodeCount: every node, in order, and no draw without noise
      const all = a.alloc(4 * nz, 16), allNoise = a.alloc(4 * nz, 16);
      expect(call({ k: nz, sigma: 0, cand: all, noise: allNoise })).toBeGreaterThanOrEqual(Status.E_NOFIT);
      expect(Array.from(a.i32.slice(all >> 2, (all >> 2) + nz))).toEqual(Array.from({ length: nz }, (_, i) => i));
      expect(Array.from(a.i32.slice(rng >> 2, (rng >> 2) + 4))).toEqual([1, 2, 3, 4]);
    });
  }
});
