// The core's random streams (assembly/stream.ts, libm.ts, streamDraw): every
// kind of draw equals the simulator's (src/sim/rng.ts, ziggurat.ts) bit for
// bit, state after the draws included, and the core's log / log1p / exp equal
// Node's Math.log / log1p / exp on every input tried, in both builds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Status as S } from "../../src/core/status.js";
import { Rng } from "../../src/sim/rng.js";
import { writeZigguratTables, ZIG_BYTES, zigguratNormal } from "../../src/sim/ziggurat.js";
import type { Core } from "../../src/core/wasm.js";
import { builds } from "./harness.js";

const K = { U32: 0, FLOAT: 1, FLOAT32: 2, INT: 3, EXP: 4, NORMAL: 5, LOG: 6, LOG1P: 7, EXPF: 8, SIN: 9, COS: 10 } as const;

/** Same value, bit for bit (any NaN equals any NaN: V8 does not keep NaN payloads either). */
function sameBits(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

function firstMismatch(want: ArrayLike<number>, got: ArrayLike<number>): number {
  for (let i = 0; i < want.length; i++) if (!sameBits(want[i], got[i])) return i;
  return -1;
}

interface Bufs { state: number; zig: number; out: number; cap: number }

/** State, tables and an output of `cap` f64 in a fresh arena. */
function layout(core: Core, cap: number): Bufs {
  core.arena.reset();
  const state = core.arena.alloc(16, 8), zig = core.arena.alloc(ZIG_BYTES, 16), out = core.arena.alloc(cap * 8, 16);
  writeZigguratTables(core.arena.u8.buffer as ArrayBuffer, zig);
  return { state, zig, out, cap };
}

/** n draws of `kind` by the core from `words`; returns the values and the state after. */
function coreDraw(core: Core, b: Bufs, kind: number, words: ArrayLike<number>, n: number, arg: number) {
  const i32 = core.arena.i32;
  for (let i = 0; i < 4; i++) i32[(b.state >> 2) + i] = words[i] | 0;
  const rc = core.exports.streamDraw(kind, b.state, b.zig, b.out, n, arg);
  const f64 = core.arena.f64;
  return { rc, values: f64.slice(b.out >> 3, (b.out >> 3) + n), state: core.arena.i32.slice(b.state >> 2, (b.state >> 2) + 4) };
}

/** The same draws by the TypeScript simulator. */
function tsDraw(kind: number, words: ArrayLike<number>, n: number, arg: number) {
  const rng = new Rng(words);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    switch (kind) {
      case K.U32: values[i] = rng.nextU32(); break;
      case K.FLOAT: values[i] = rng.float(); break;
      case K.FLOAT32: values[i] = rng.float32(); break;
      case K.INT: values[i] = rng.int(arg); break;
      case K.EXP: values[i] = rng.exp(arg); break;
      default: values[i] = zigguratNormal(rng); break;
    }
  }
  const state = new Int32Array(4);
  rng.saveState(state, 0);
  return { values, state };
}

const stateArb = fc
  .tuple(fc.integer(), fc.integer(), fc.integer(), fc.integer())
  .filter(([a, b, c, d]) => (a | b | c | d) !== 0);

/** n of every size that matters for int: tiny, powers of two, around 2^21, huge, 2^32. */
const intArgArb = fc.oneof(
  fc.integer({ min: 1, max: 100 }),
  fc.integer({ min: 1, max: 2097152 }),
  fc.integer({ min: 2097150, max: 2097154 }),
  fc.integer({ min: 1, max: 32 }).map((k) => 2 ** k),
  fc.integer({ min: 2097153, max: 4294967295 }),
  fc.integer({ min: 0, max: 1000 }).map((d) => 4294967296 - d),
  fc.integer({ min: 1, max: 1000 }).map((d) => 2 ** 31 + d),
);

describe.each(builds)("stream draws equal the simulator's (%s)", (_name, core) => {
  const b = layout(core, 4096);
  const check = (kind: number, words: number[], n: number, arg: number) => {
    const want = tsDraw(kind, words, n, arg);
    const got = coreDraw(core, b, kind, words, n, arg);
    expect(got.rc).toBe(n);
    const at = firstMismatch(want.values, got.values);
    expect(at, `kind ${kind} arg ${arg}: value ${at}: ${want.values[at]} vs ${got.values[at]}`).toBe(-1);
    expect(Array.from(got.state)).toEqual(Array.from(want.state));
  };

  it("nextU32, float, float32", () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 0, max: 300 }), fc.constantFrom(K.U32, K.FLOAT, K.FLOAT32), (w, n, kind) => {
        check(kind, w, n, 0);
      }),
      { numRuns: 300 },
    );
  });

  it("int(n), both branches, n in [1, 2^32]", () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 0, max: 300 }), intArgArb, (w, n, arg) => {
        check(K.INT, w, n, arg);
      }),
      { numRuns: 500 },
    );
  });

  it("int(n) with frequent rejections (n just above 2^31, and Lemire's rule near 2^21)", () => {
    for (const arg of [2 ** 31 + 1, 3 * 2 ** 30 + 7, 2097151, 2097152, 2097153, 2 ** 32 - 1, 2 ** 32]) {
      check(K.INT, [0x1234, 0x5678, 0x9abc, 0xdef0], 4096, arg);
    }
  });

  it("exp(mean)", () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 0, max: 300 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (w, n, mean) => {
        check(K.EXP, w, n, mean);
      }),
      { numRuns: 300 },
    );
    check(K.EXP, [1, 0, 0, 0], 4096, 1);
  });

  it("ziggurat normal", () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 0, max: 1000 }), (w, n) => {
        check(K.NORMAL, w, n, 0);
      }),
      { numRuns: 300 },
    );
  });

  it("ziggurat normal over 10^6 draws, wedge and tail both taken", () => {
    const n = 1 << 20;
    const big = layout(core, n);
    const words = [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344];
    // count what the first word of each draw does, as zigguratFinish sees it
    const probe = new Rng(words);
    const want = new Float64Array(n);
    const KNt = new Uint32Array(128);
    {
      const tbl = new ArrayBuffer(ZIG_BYTES);
      writeZigguratTables(tbl, 0);
      KNt.set(new Uint32Array(tbl, 0, 128));
    }
    let misses = 0, tail = 0;
    const counting = {
      nextU32(): number {
        return probe.nextU32();
      },
      float(): number {
        return probe.float();
      },
    };
    for (let i = 0; i < n; i++) {
      const before = new Int32Array(4);
      probe.saveState(before, 0);
      const hz = new Rng(before).nextU32() | 0;
      if (!(Math.abs(hz) < KNt[hz & 127])) {
        misses++;
        if ((hz & 127) === 0) tail++;
      }
      want[i] = zigguratNormal(counting);
    }
    expect(misses, "draws off the fast path").toBeGreaterThan(10000);
    expect(tail, "draws into the tail layer").toBeGreaterThan(100);
    expect(misses - tail, "wedge tests").toBeGreaterThan(10000);
    const got = coreDraw(core, big, K.NORMAL, words, n, 0);
    expect(got.rc).toBe(n);
    const at = firstMismatch(want, got.values);
    expect(at, `draw ${at}: ${want[at]} vs ${got.values[at]}`).toBe(-1);
    const st = new Int32Array(4);
    probe.saveState(st, 0);
    expect(Array.from(got.state)).toEqual(Array.from(st));
    let beyond = 0; // values beyond R: only the tail gives them
    for (let i = 0; i < n; i++) if (Math.abs(want[i]) > 3.442619855899) beyond++;
    expect(beyond).toBeGreaterThan(100);
  });
});

// ---- log, log1p, exp ------------------------------------------------------

/** xorshift32 words, for test inputs. */
function words(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x;
  };
}

const N_PER_SHAPE = 1 << 17;

/** Inputs of one shape: the families where fdlibm's branches and V8's special cases live. */
function inputs(shape: number, seed: number): Float64Array {
  const r = words(seed * 7919 + shape + 1);
  const a = new Float64Array(N_PER_SHAPE), u = new Uint32Array(a.buffer);
  const unif = () => r() * 2 ** -32 + r() * 2 ** -64;
  for (let i = 0; i < N_PER_SHAPE; i++) {
    switch (shape) {
      case 0: u[2 * i] = r(); u[2 * i + 1] = r(); break; // any bit pattern: every exponent, NaNs, infinities
      case 1: a[i] = unif(); break; // (0, 1)
      case 2: a[i] = 1 - (r() >>> 5) * 2 ** -27 * 2 ** -(r() % 40); break; // 1 - u, near 1 from below
      case 3: a[i] = 1 + (unif() - 0.5) * 2 ** -(r() % 60); break; // near 1
      case 4: a[i] = unif() * 1456 - 746; break; // exp's whole range and past it
      case 5: a[i] = (unif() - 0.5) * 2 ** -(r() % 1000); break; // near 0, both signs
      case 6: u[2 * i] = r(); u[2 * i + 1] = (r() & 0x800fffff) >>> 0; break; // subnormals, both signs
      case 7: a[i] = unif() * 4 - 2; break; // around log1p's -1 and exp's 1.5 ln 2 cut
      case 8: a[i] = (unif() + 0.5) * 2 ** ((r() % 2046) - 1023); break; // huge and tiny positives
      default: a[i] = (1 - ((r() >>> 5) * 67108864 + (r() >>> 6)) * 2 ** -53); break; // exactly Rng.exp's 1 - float()
    }
  }
  return a;
}

const EDGES = [
  0, -0, 1, -1, 2, 0.5, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE,
  2.2250738585072014e-308, 2.225073858507201e-308, Number.EPSILON, 1 - Number.EPSILON / 2, 1 + Number.EPSILON, -1 + Number.EPSILON / 2,
  709.782712893384, 709.7827128933839, 709.7827128933841, 709.78, 710, -745.1332191019411, -745.1332191019412, -745.13321910194122,
  -745.2, -708.4, -708.3964185322641, -744, -1022 * Math.LN2, -1021.5 * Math.LN2, 1023.5 * Math.LN2, Math.LN2, Math.LN2 / 2, -Math.LN2 / 2,
  1.5 * Math.LN2, -1.5 * Math.LN2, 2 ** -28, -(2 ** -28), 2 ** -29, 2 ** -54, 2 ** -55, -(2 ** -54), 0.41421356237309503, -0.2928932188134524,
  Math.SQRT2, Math.SQRT1_2, 2 ** 53, 2 ** 54, 2 ** 1023, 1e300, -1e-300, 3.442619855899, -0.5 * 3.442619855899 ** 2,
];

describe.each(builds)("log, log1p, exp equal Node's Math (%s)", (_name, core) => {
  it("over 1.3 million inputs each, and the edges", () => {
    const b = layout(core, N_PER_SHAPE);
    const f64 = () => core.arena.f64;
    const fns: Array<[number, (x: number) => number, string]> = [[K.LOG, Math.log, "log"], [K.LOG1P, Math.log1p, "log1p"], [K.EXPF, Math.exp, "exp"]];
    let total = 0;
    const run = (a: Float64Array) => {
      for (const [kind, f, name] of fns) {
        f64().set(a, b.out >> 3);
        expect(core.exports.streamDraw(kind, 0, 0, b.out, a.length, 0)).toBe(a.length);
        const got = f64().subarray(b.out >> 3, (b.out >> 3) + a.length);
        for (let i = 0; i < a.length; i++) {
          const w = f(a[i]);
          if (!sameBits(w, got[i])) expect(got[i], `${name}(${a[i]}) = ${w}`).toBe(w);
        }
        total += a.length;
      }
    };
    for (let shape = 0; shape < 10; shape++) run(inputs(shape, 1));
    run(Float64Array.from(EDGES));
    // the neighbours of each edge, a few ulps either side
    const near: number[] = [];
    const buf = new Float64Array(1), bits = new BigInt64Array(buf.buffer);
    for (const e of EDGES) {
      if (!Number.isFinite(e)) continue;
      buf[0] = e;
      const at = bits[0];
      for (let d = -4n; d <= 4n; d++) {
        bits[0] = at + d;
        near.push(buf[0]);
      }
    }
    run(Float64Array.from(near));
    expect(total).toBeGreaterThan(3 * 1_000_000);
  });
});

// ---- sin, cos --------------------------------------------------------------

/** About the largest |x| the core's sin and cos reduce, 2^19 pi / 2; past it they give NaN. */
const MEDIUM = 2 ** 19 * (Math.PI / 2);
/** Whether the core reduces x: the high word of |x| at most that of 2^19 pi / 2 (trig.ts, MEDIUM_HW), NaN and infinities aside. */
function reduced(x: number): boolean {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x, true);
  return (v.getUint32(4, true) & 0x7fffffff) <= 0x413921fb;
}

describe.each(builds)("sin and cos equal Node's Math up to 2^19 pi / 2, NaN past it (%s)", (_name, core) => {
  it("over the Box-Muller angles, the reduction's cases and the edges", () => {
    const r = words(99);
    const unif = () => r() * 2 ** -32 + r() * 2 ** -64;
    const xs: number[] = [];
    for (let i = 0; i < 200_000; i++) xs.push(2 * Math.PI * (((r() >>> 5) * 67108864 + (r() >>> 6)) * 2 ** -53)); // exactly 2 pi float()
    for (let i = 0; i < 100_000; i++) xs.push((unif() - 0.5) * 2 * MEDIUM); // the whole range, both signs
    for (let i = 0; i < 100_000; i++) xs.push((unif() - 0.5) * 2 ** -(r() % 60)); // near 0 (the kernels' cut at 2^-27)
    // near multiples of pi / 2 (the reduction's second and third rounds), a few ulps either side
    const buf = new Float64Array(1), bits = new BigInt64Array(buf.buffer);
    for (let i = 0; i < 4000; i++) {
      buf[0] = (i < 64 ? i + 1 : 1 + (r() % 2 ** 19)) * (Math.PI / 2) * (r() & 1 ? 1 : -1);
      const at = bits[0];
      for (let d = -3n; d <= 3n; d++) { bits[0] = at + d; xs.push(buf[0]); }
    }
    xs.push(0, -0, Math.PI / 4, -Math.PI / 4, 0.3, 0.78125, 3 * Math.PI / 4, MEDIUM, -MEDIUM, NaN, Infinity, -Infinity, MEDIUM * 1.0000001, 1e300);
    const b = layout(core, xs.length);
    let checked = 0;
    for (const [kind, f, name] of [[K.SIN, Math.sin, "sin"], [K.COS, Math.cos, "cos"]] as const) {
      core.arena.f64.set(xs, b.out >> 3);
      expect(core.exports.streamDraw(kind, 0, 0, b.out, xs.length, 0)).toBe(xs.length);
      const got = core.arena.f64.subarray(b.out >> 3, (b.out >> 3) + xs.length);
      for (let i = 0; i < xs.length; i++) {
        const w = reduced(xs[i]) ? f(xs[i]) : NaN;
        if (!sameBits(w, got[i])) expect(got[i], `${name}(${xs[i]}) = ${w}`).toBe(w);
        checked++;
      }
    }
    expect(checked).toBe(2 * xs.length);
  });
});

// ---- errors -------------------------------------------------------------

describe.each(builds)("streamDraw refuses bad input and changes nothing (%s)", (_name, core) => {
  it("codes", () => {
    const b = layout(core, 64);
    const x = core.exports;
    const i32 = () => core.arena.i32;
    const setState = (w: number[]) => i32().set(w, b.state >> 2);
    const snapshot = () => Buffer.from(core.arena.u8.subarray(x.heapBase()));
    setState([1, 2, 3, 4]);
    const cases: Array<[string, number[], number]> = [
      ["n < 0", [K.U32, b.state, b.zig, b.out, -1, 0], S.E_COUNT],
      ["kind -1", [-1, b.state, b.zig, b.out, 4, 0], S.E_ARG],
      ["kind 11", [11, b.state, b.zig, b.out, 4, 0], S.E_ARG],
      ["int(0)", [K.INT, b.state, b.zig, b.out, 4, 0], S.E_ARG],
      ["int(2^32 + 1)", [K.INT, b.state, b.zig, b.out, 4, 2 ** 32 + 1], S.E_ARG],
      ["int(2.5)", [K.INT, b.state, b.zig, b.out, 4, 2.5], S.E_ARG],
      ["int(NaN)", [K.INT, b.state, b.zig, b.out, 4, NaN], S.E_ARG],
      ["exp(NaN)", [K.EXP, b.state, b.zig, b.out, 4, NaN], S.E_ARG],
      ["exp(Infinity)", [K.EXP, b.state, b.zig, b.out, 4, Infinity], S.E_ARG],
      ["null state", [K.U32, 0, b.zig, b.out, 4, 0], S.E_NULL],
      ["misaligned state", [K.U32, b.state + 2, b.zig, b.out, 4, 0], S.E_ALIGN],
      ["misaligned out", [K.U32, b.state, b.zig, b.out + 4, 4, 0], S.E_ALIGN],
      ["misaligned zig", [K.NORMAL, b.state, b.zig + 4, b.out, 4, 0], S.E_ALIGN],
      ["null zig", [K.NORMAL, b.state, 0, b.out, 4, 0], S.E_NULL],
      ["out past memory", [K.FLOAT, b.state, b.zig, x.memoryBytes() - 8, 2, 0], S.E_BOUNDS],
      ["huge n", [K.LOG, 0, 0, b.out, 0x7fffffff, 0], S.E_BOUNDS],
      ["out overlaps state", [K.U32, b.state, b.zig, b.state - 8, 2, 0], S.E_ARG],
      ["out overlaps zig", [K.NORMAL, b.state, b.zig, b.zig + 8, 2, 0], S.E_ARG],
      ["null out, in place", [K.EXPF, 0, 0, 0, 1, 0], S.E_NULL],
    ];
    for (const [what, args, code] of cases) {
      const before = snapshot();
      expect(x.streamDraw(args[0], args[1], args[2], args[3], args[4], args[5]), what).toBe(code);
      expect(before.equals(snapshot()), `${what} wrote memory`).toBe(true);
    }
    setState([0, 0, 0, 0]);
    for (const kind of [K.U32, K.FLOAT, K.FLOAT32, K.INT, K.EXP, K.NORMAL]) {
      const before = snapshot();
      expect(x.streamDraw(kind, b.state, b.zig, b.out, 4, 5), `all-zero state, kind ${kind}`).toBe(S.E_ARG);
      expect(before.equals(snapshot())).toBe(true);
    }
    // the maps ignore state and zig; n = 0 draws nothing and leaves the state
    expect(x.streamDraw(K.LOG, 0, 0, b.out, 0, 0)).toBe(0);
    setState([5, 6, 7, 8]);
    expect(x.streamDraw(K.NORMAL, b.state, b.zig, b.out, 0, 0)).toBe(0);
    expect(Array.from(i32().slice(b.state >> 2, (b.state >> 2) + 4))).toEqual([5, 6, 7, 8]);
    // the zig region needs all of ZIG_BYTES (the FN table too)
    expect(x.streamDraw(K.NORMAL, b.state, x.memoryBytes() - ZIG_BYTES + 8, b.out, 1, 0)).toBe(S.E_BOUNDS);
  });
});
