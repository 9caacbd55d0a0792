// Property tests: random sequences of schedule / reschedule / cancel / advance
// applied to the WASM SIMD build, the WASM scalar build, the TypeScript twin and
// a naive oracle (a sorted list). All four must return the same codes and fire
// the same ids in the same order; the three real wheels must also leave
// byte-identical regions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IMPLS, makeWheel, sharedCore, type WheelUnderTest } from "./wheel.harness.js";

type Op =
  | { k: "schedule" | "reschedule"; id: number; delta: number; bad: boolean }
  | { k: "cancel"; id: number }
  | { k: "advance"; delta: number; outCap: number };

const H = 2 ** 36 - 1;
/** WHEEL_RUNS=k multiplies numRuns for a longer soak (default 1: ~2 s). */
const SCALE = Math.max(1, Number(process.env.WHEEL_RUNS ?? 1));
const BOUNDARIES = [
  0, 1, 63, 64, 65, 4095, 4096, 4097, 2 ** 18 - 1, 2 ** 18, 2 ** 18 + 1, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1,
  2 ** 30 - 1, 2 ** 30, 2 ** 30 + 1, H - 1, H, H + 1,
];

/** An integer in [0, 2^e) for a random e <= maxExp: spreads values over every level. */
const scaled = (maxExp: number) =>
  fc.tuple(fc.integer({ min: 0, max: maxExp }), fc.integer({ min: 0, max: 2 ** 31 - 1 }))
    .map(([e, r]) => Math.floor((r / 2 ** 31) * 2 ** e));

const deadlineDelta = fc.oneof(
  fc.integer({ min: -3, max: 70 }),
  fc.constantFrom(...BOUNDARIES),
  scaled(37),
);
const advanceDelta = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 130 }) },
  { weight: 2, arbitrary: fc.constantFrom(...BOUNDARIES) },
  { weight: 3, arbitrary: scaled(40) },
  { weight: 1, arbitrary: fc.constant(-1) }, // backwards: E_ARG
);

function opArb(maxId: number): fc.Arbitrary<Op> {
  const id = fc.integer({ min: -1, max: maxId });
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ k: fc.constant("schedule" as const), id, delta: deadlineDelta, bad: fc.constant(false) }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant("reschedule" as const), id, delta: deadlineDelta, bad: fc.constant(false) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constantFrom("schedule" as const, "reschedule" as const), id, delta: fc.constant(0), bad: fc.constant(true) }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant("cancel" as const), id }) },
    { weight: 3, arbitrary: fc.record({ k: fc.constant("advance" as const), delta: advanceDelta, outCap: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.constant(64)) }) },
  );
}

const startArb = fc.oneof(
  fc.constantFrom(0, 1, 2 ** 36 - 70, 2 ** 36 - 1, 63 * 2 ** 30 + 5, 2 ** 50),
  scaled(48),
);

/** Apply one op to one wheel; `base` is the common time the op is relative to. */
function apply(w: WheelUnderTest, op: Op, base: number): unknown {
  switch (op.k) {
    case "schedule":
    case "reschedule": {
      const d = op.bad ? [NaN, 0.5, -1, Infinity][op.id & 3] : base + op.delta;
      return op.k === "schedule" ? w.schedule(op.id, d) : w.reschedule(op.id, d);
    }
    case "cancel":
      return w.cancel(op.id);
    case "advance":
      return w.advance(base + op.delta, op.outCap);
  }
}

function observe(w: WheelUnderTest, capacity: number): unknown {
  const dl: number[] = [];
  for (let id = 0; id < capacity; id++) dl.push(w.deadlineOf(id));
  return { now: w.now(), pending: w.pending(), next: w.nextDeadline(), dl };
}

function runAll(capacity: number, start: number, ops: Op[]): void {
  for (const impl of IMPLS) if (impl !== "twin") sharedCore(impl).arena.reset();
  const ws = [...IMPLS, "naive" as const].map((impl) => makeWheel(impl, capacity, start));
  const oracle = ws[3];
  for (const [step, op] of ops.entries()) {
    const base = oracle.now();
    const want = apply(oracle, op, base);
    for (const w of ws.slice(0, 3)) {
      expect(apply(w, op, base), `${w.name} step ${step} ${JSON.stringify(op)}`).toEqual(want);
    }
    const obs = observe(oracle, capacity);
    for (const w of ws.slice(0, 3)) expect(observe(w, capacity), `${w.name} after step ${step}`).toEqual(obs);
    const img = ws[0].image()!;
    expect(Buffer.compare(img, ws[1].image()!), `scalar image after step ${step}`).toBe(0);
    expect(Buffer.compare(img, ws[2].image()!), `twin image after step ${step}`).toBe(0);
  }
}

describe("timing wheel: SIMD, scalar, twin and naive oracle agree", () => {
  it("on random operation sequences", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), startArb, fc.array(opArb(16), { minLength: 1, maxLength: 60 }),
        (capacity, start, ops) => runAll(capacity, start, ops)),
      { numRuns: 250 * SCALE },
    );
  });

  it("with many ids sharing a few deadlines (same-tick ordering, small output buffers)", () => {
    const ids = fc.integer({ min: 0, max: 47 });
    const delta = fc.constantFrom(1, 2, 64, 65, 4096, 4160, 300000);
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ k: fc.constantFrom("schedule" as const, "reschedule" as const), id: ids, delta, bad: fc.constant(false) }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("cancel" as const), id: ids }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant("advance" as const), delta: fc.constantFrom(0, 1, 63, 64, 4096, 300000), outCap: fc.integer({ min: 0, max: 5 }) }) },
    );
    fc.assert(
      fc.property(fc.constantFrom(0, 60, 4090, 2 ** 36 - 3), fc.array(op, { minLength: 1, maxLength: 80 }),
        (start, ops) => runAll(48, start, ops)),
      { numRuns: 120 * SCALE },
    );
  });

  it("firing in many small calls gives the same sequence as one large call", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 31 }), scaled(20)), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (entries, outCap) => {
          sharedCore("simd").arena.reset();
          const one = makeWheel("twin", 32, 0), many = makeWheel("simd", 32, 0);
          for (const [id, d] of entries) expect(many.reschedule(id, d + 1)).toBe(one.reschedule(id, d + 1));
          const all = one.advance(2 ** 21, 64).ids;
          const got: number[] = [];
          for (;;) {
            const { r, ids } = many.advance(2 ** 21, outCap);
            got.push(...ids);
            if (r < outCap) break;
          }
          expect(got).toEqual(all);
          expect(many.pending()).toBe(0);
          expect(many.now()).toBe(2 ** 21);
        }),
      { numRuns: 150 * SCALE },
    );
  });
});
