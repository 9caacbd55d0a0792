// The runtime-memory kernel (memTick) against its TypeScript twin, across
// both builds, with its error codes, its order independence and the
// statistics of the process it implements.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { builds, getF64, getI32, positional, put, simd, scalar } from "./harness.js";
import { memTick as twinTick, memNormal, REC_F64 } from "../../src/core/reference/memory.js";
import { Status } from "../../src/core/status.js";
import type { Core } from "../../src/core/wasm.js";

const KIB = 1048576;

interface Args { kappa: number; sigma: number; burstRate: number; burstScale: number; threshold: number; tick: number; seed: number }

function records(n: number, nodes: number, gen: (i: number) => [number, number, number]): Float64Array {
  const r = new Float64Array(n * REC_F64);
  for (let i = 0; i < n; i++) {
    const [d, T, x] = gen(i);
    r.set([i % nodes, d, T, x, 0, (i * 2654435761) >>> 0], i * REC_F64);
  }
  return r;
}

/** Run memTick on a copy of recs in core memory; returns (status, records after, usage). */
function coreTick(core: Core, recs: Float64Array, base: Float64Array, a: Args) {
  const n = recs.length / REC_F64, nodes = base.length;
  const pr = put(core, recs, 8), pb = put(core, base, 8), pu = put(core, new Float64Array(nodes), 8), po = put(core, new Int32Array(nodes));
  const st = positional(core).memTick(pr, n, nodes, pb, pu, a.tick, a.seed, a.kappa, a.sigma, a.burstRate, a.burstScale, a.threshold, po, nodes);
  return { st, recs: getF64(core, pr, recs.length), usage: getF64(core, pu, nodes), over: st >= 0 ? [...getI32(core, po, Math.min(st, nodes))] : [] };
}

const DEFAULTS: Args = { kappa: 0.1, sigma: 0.1, burstRate: 0.02, burstScale: 0.25, threshold: 200 * KIB, tick: 7, seed: 12345 };

describe("memTick", () => {
  it("both builds agree bit for bit, and the twin agrees (drift exactly, resident to the last bits)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (n, nodes, tick, seed, kappa, sigma, burstRate) => {
        const recs = records(n, nodes, (i) => [4 + (i % 61), 4 + (i % 61) * 1.3, 2 + (i % 17)]);
        const base = Float64Array.from({ length: nodes }, (_, i) => i * 1000);
        const a = { ...DEFAULTS, tick, seed, kappa, sigma, burstRate };
        const s = coreTick(simd, recs, base, a), c = coreTick(scalar, recs, base, a);
        expect(s.st).toBeGreaterThanOrEqual(0);
        expect(c).toEqual(s);
        const tw = recs.slice(), tu = new Float64Array(nodes);
        const over = twinTick(tw, n, base, tu, a);
        for (let i = 0; i < n; i++) {
          expect(s.recs[i * REC_F64 + 3]).toBe(tw[i * REC_F64 + 3]);
          expect(Math.abs(s.recs[i * REC_F64 + 4] - tw[i * REC_F64 + 4])).toBeLessThanOrEqual(1e-9 * (1 + Math.abs(tw[i * REC_F64 + 4])));
        }
        for (let k = 0; k < nodes; k++) expect(Math.abs(s.usage[k] - tu[k])).toBeLessThanOrEqual(n); // at most 1 KiB of rounding per record
        // the same nodes over the line, unless rounding puts one within a KiB per record of it
        const near = [...tu].some((u) => Math.abs(u - a.threshold) <= n);
        if (!near) expect(s.over).toEqual(over);
      },
    ), { numRuns: 60 });
  });

  it("a record's draws depend on its key and the tick only: reordering records changes nothing", () => {
    const recs = records(500, 7, (i) => [64, 70 + (i % 9), 64]);
    const perm = new Float64Array(recs.length);
    for (let i = 0; i < 500; i++) perm.set(recs.subarray((499 - i) * REC_F64, (500 - i) * REC_F64), i * REC_F64);
    const base = new Float64Array(7);
    const a = coreTick(simd, recs, base, DEFAULTS), b = coreTick(simd, perm, base, DEFAULTS);
    expect(b.usage).toEqual(a.usage);
    for (let i = 0; i < 500; i++) expect(b.recs.subarray((499 - i) * REC_F64, (500 - i) * REC_F64)).toEqual(a.recs.subarray(i * REC_F64, (i + 1) * REC_F64));
  });

  it("is the documented process: OU drift towards T, bursts at burstRate, N(0, (sigma d)^2) noise", () => {
    const n = 40000;
    // drift only: x moves kappa of the way to T
    const drift = coreTick(simd, records(n, 1, () => [10, 20, 10]), new Float64Array(1), { ...DEFAULTS, sigma: 0, burstRate: 0, kappa: 0.25 });
    expect(drift.recs[3]).toBe(12.5);
    expect(drift.usage[0]).toBe(n * Math.round(12.5 * KIB));
    // bursts: x jumps by burstScale * d in about burstRate of the records
    const burst = coreTick(simd, records(n, 1, () => [10, 10, 10]), new Float64Array(1), { ...DEFAULTS, sigma: 0, kappa: 0, burstRate: 0.05, burstScale: 0.5 });
    let jumps = 0;
    for (let i = 0; i < n; i++) if (burst.recs[i * REC_F64 + 3] === 15) jumps++;
    expect(jumps / n).toBeGreaterThan(0.045);
    expect(jumps / n).toBeLessThan(0.055);
    // noise: r = x + sigma*d*z, standard normal z (d = 1, sigma = 1, x = 100)
    const noise = coreTick(simd, records(n, 1, () => [1, 100, 100]), new Float64Array(1), { ...DEFAULTS, sigma: 1, kappa: 0, burstRate: 0 });
    let s1 = 0, s2 = 0, s4 = 0;
    for (let i = 0; i < n; i++) {
      const z = noise.recs[i * REC_F64 + 4] - 100;
      s1 += z; s2 += z * z; s4 += z ** 4;
    }
    const mean = s1 / n, v = s2 / n - mean * mean;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(v - 1)).toBeLessThan(0.04);
    expect(Math.abs(s4 / n / (v * v) - 3)).toBeLessThan(0.2); // a Gaussian's kurtosis
    // the resident use never goes negative
    const neg = coreTick(simd, records(1000, 1, () => [1, 0, 0]), new Float64Array(1), { ...DEFAULTS, sigma: 3, kappa: 0, burstRate: 0 });
    for (let i = 0; i < 1000; i++) expect(neg.recs[i * REC_F64 + 4]).toBeGreaterThanOrEqual(0);
  });

  it("the twin's normal is standard over many keys", () => {
    let s1 = 0, s2 = 0;
    const n = 50000;
    for (let k = 0; k < n; k++) {
      const z = memNormal(99, k, 3);
      s1 += z; s2 += z * z;
    }
    expect(Math.abs(s1 / n)).toBeLessThan(0.03);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.04);
  });

  it("lists the nodes above the threshold in ascending order and counts those beyond outCap", () => {
    for (const [name, core] of builds) {
      const nodes = 10, base = Float64Array.from({ length: nodes }, (_, i) => (i % 3 === 0 ? 300 * KIB : 0));
      const pr = put(core, records(1, nodes, () => [1, 1, 1]), 8), pb = put(core, base, 8), pu = put(core, new Float64Array(nodes), 8), po = put(core, new Int32Array(2));
      const st = positional(core).memTick(pr, 1, nodes, pb, pu, 0, 1, 0.1, 0, 0, 0, 200 * KIB, po, 2);
      expect(st, name).toBe(4); // nodes 0, 3, 6, 9
      expect([...getI32(core, po, 2)], name).toEqual([0, 3]);
    }
  });

  it("rejects bad arguments with a status code and writes nothing", () => {
    for (const [name, core] of builds) {
      const nodes = 4, recs = records(8, nodes, () => [1, 1, 1]);
      const pr = put(core, recs, 8), pb = put(core, new Float64Array(nodes), 8), pu = put(core, new Float64Array(nodes).fill(-7), 8), po = put(core, new Int32Array(nodes));
      const k = core.exports, P = positional(core);
      const call = (o: Partial<Args & { count: number; nodes: number; recs: number; outCap: number; out: number; usage: number; base: number }> = {}) => P.memTick(
        o.recs ?? pr, o.count ?? 8, o.nodes ?? nodes, o.base ?? pb, o.usage ?? pu, o.tick ?? 0, o.seed ?? 1, o.kappa ?? 0.1, o.sigma ?? 0.1,
        o.burstRate ?? 0.02, o.burstScale ?? 0.25, o.threshold ?? 1, o.out ?? po, o.outCap ?? nodes);
      expect(call({ count: -1 }), name).toBe(Status.E_COUNT);
      expect(call({ nodes: 0 }), name).toBe(Status.E_COUNT);
      expect(call({ outCap: -1 }), name).toBe(Status.E_COUNT);
      expect(call({ recs: 0 }), name).toBe(Status.E_NULL);
      expect(call({ recs: pr + 4 }), name).toBe(Status.E_ALIGN);
      expect(call({ count: 1 << 28 }), name).toBe(Status.E_BOUNDS);
      expect(call({ tick: 1.5 }), name).toBe(Status.E_ARG);
      expect(call({ tick: 2 ** 32 }), name).toBe(Status.E_ARG);
      expect(call({ seed: -1 }), name).toBe(Status.E_ARG);
      expect(call({ kappa: NaN }), name).toBe(Status.E_ARG);
      expect(call({ kappa: 1.5 }), name).toBe(Status.E_ARG);
      expect(call({ sigma: -1 }), name).toBe(Status.E_ARG);
      expect(call({ burstRate: 2 }), name).toBe(Status.E_ARG);
      expect(call({ threshold: NaN }), name).toBe(Status.E_ARG);
      expect(call({ usage: pb }), name).toBe(Status.E_ARG); // usage overlaps base
      expect(call({ out: pu }), name).toBe(Status.E_ARG); // out overlaps usage
      expect(call({ base: pr + 8 * 8 }), name).toBe(Status.E_ARG); // base (read) overlaps the records (written), which ABI version 1 let through
      // a record on a node out of range: found before anything is written
      const bad = recs.slice();
      bad[5 * REC_F64] = nodes;
      const pbad = put(core, bad, 8);
      expect(call({ recs: pbad }), name).toBe(Status.E_ID);
      expect(getF64(core, pbad, bad.length), name).toEqual(bad);
      expect(getF64(core, pr, recs.length), name).toEqual(recs);
      expect([...getF64(core, pu, nodes)], name).toEqual([-7, -7, -7, -7]);
      expect(k.memRecordBytes(), name).toBe(48);
    }
  });
});
