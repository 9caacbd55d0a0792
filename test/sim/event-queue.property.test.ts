// Property tests: random interleavings of push / post / cancel / pop /
// peek / advance / clear applied to CalendarQueue (several geometries, small
// ones to force cascades across every level) and to HeapQueue, the oracle.
// Every result must agree: pop order (time, kind, subject), cancel results,
// peek times, sizes, handle liveness, and thrown errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CalendarQueue, type CalendarOptions } from "../../src/sim/calendar-queue.js";
import type { EventQueue } from "../../src/sim/event-queue.js";
import { HeapQueue } from "../../src/sim/heap-queue.js";
import { streamRng } from "../../src/sim/rng.js";

/** QUEUE_RUNS=k multiplies numRuns for a longer soak (default 1). */
const SCALE = Math.max(1, Number(process.env.QUEUE_RUNS ?? 1));

type Op =
  | { k: "push" | "post" | "postInto"; dt: number; kind: number; subject: number }
  | { k: "cancel" | "cancelIn"; pick: number }
  | { k: "pop"; dt: number }
  | { k: "peek" }
  | { k: "advance"; dt: number }
  | { k: "clear" };

/** Geometries: W = 1 and 32 buckets per level make every level and boundary reachable with small deltas. */
const GEOMETRIES: CalendarOptions[] = [
  { bucketShift: 0, levelBits: 5 },
  { bucketShift: 2, levelBits: 5 },
  { bucketShift: 3, levelBits: 6 },
  {},
];

/** A delay spread over every level of every geometry: a random magnitude 2^e, plus edges. */
const delta = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1, 31, 32, 33, 127, 128, 1023, 1024, 1025, 4095, 4096, 32767, 32768, 2 ** 20, 2 ** 22 + 1, 2 ** 30) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.integer({ min: 0, max: 44 }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([e, u]) => Math.floor(u * 2 ** e)),
  },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constantFrom("push" as const, "post" as const, "postInto" as const), dt: delta, kind: fc.integer({ min: 0, max: 5 }), subject: fc.integer({ min: -3, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constantFrom("cancel" as const, "cancelIn" as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant("pop" as const), dt: fc.oneof(delta, fc.constant(Infinity)) }) },
  { weight: 1, arbitrary: fc.constant({ k: "peek" as const }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("advance" as const), dt: delta }) },
  { weight: 1, arbitrary: fc.constant({ k: "clear" as const }) },
);

const startArb = fc.oneof(fc.constantFrom(0, 1, 31, 2 ** 31 - 5, 2 ** 40 + 3, 2 ** 52), fc.integer({ min: 0, max: 2 ** 45 }));

/** Apply one op; returns what the caller can observe. `handles` are shared across queues by index. */
function apply(q: EventQueue, op: Op, handles: number[][], which: number): unknown {
  switch (op.k) {
    case "push": {
      const h = q.push(q.now + op.dt, op.kind, op.subject);
      (handles[which] ??= []).push(h);
      return "pushed";
    }
    case "post":
      q.post(op.dt, op.kind, op.subject);
      return "posted";
    case "postInto": {
      const column = new Float64Array(3);
      q.postInto(op.dt, op.kind, op.subject, column, 1);
      (handles[which] ??= []).push(column[1]);
      return "posted with a handle";
    }
    case "cancel":
    case "cancelIn": {
      const hs = handles[which] ?? [];
      if (hs.length === 0) return "none";
      const h = hs[op.pick % hs.length];
      const done = op.k === "cancel" ? q.cancel(h) : q.cancelIn(new Float64Array([0, h]), 1);
      return [done, q.isPending(h)];
    }
    case "pop": {
      let ok: boolean;
      if (op.dt % 2 === 0) ok = q.popBefore(q.now + op.dt);
      else {
        q.limit = q.now + op.dt;
        ok = q.pop();
        q.limit = Infinity;
      }
      return ok ? [q.now, q.kind, q.subject] : false;
    }
    case "peek":
      return q.peekTime();
    case "advance": {
      // Only up to the next event: both queues must accept it.
      const t = Math.min(q.now + op.dt, q.peekTime());
      q.advance(t);
      return q.now;
    }
    case "clear":
      q.clear();
      return "cleared";
  }
}

function runAll(geometry: CalendarOptions, start: number, ops: Op[]): void {
  const oracle = new HeapQueue(4, start);
  const cal = new CalendarQueue({ ...geometry, initialCapacity: 2, start });
  const handles: number[][] = [];
  for (const [step, op] of ops.entries()) {
    if (op.k === "push" || op.k === "post" || op.k === "postInto") {
      if (oracle.now + op.dt > Number.MAX_SAFE_INTEGER) continue;
    }
    const want = apply(oracle, op, handles, 0);
    expect(apply(cal, op, handles, 1), `step ${step} ${JSON.stringify(op)}`).toEqual(want);
    expect(cal.size, `size after step ${step}`).toBe(oracle.size);
    expect(cal.now).toBe(oracle.now);
  }
  // Drain both: the remaining events in the same order.
  const rest = (q: EventQueue): number[] => {
    const out: number[] = [];
    while (q.popBefore(Infinity)) out.push(q.now, q.kind, q.subject);
    return out;
  };
  expect(rest(cal)).toEqual(rest(oracle));
  expect(cal.size).toBe(0);
}

describe("CalendarQueue agrees with the HeapQueue oracle", () => {
  for (const g of GEOMETRIES) {
    it(`on random operation sequences (${JSON.stringify(g)})`, () => {
      fc.assert(
        fc.property(startArb, fc.array(opArb, { minLength: 1, maxLength: 120 }), (start, ops) => runAll(g, start, ops)),
        { numRuns: 150 * SCALE },
      );
    });
  }

  it("with many events at a few equal times (FIFO among equals, late and wheel mixed)", () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ k: fc.constantFrom("push" as const, "post" as const), dt: fc.constantFrom(0, 1, 32, 1024), kind: fc.integer({ min: 0, max: 3 }), subject: fc.nat(99) }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("cancel" as const), pick: fc.nat() }) },
      { weight: 3, arbitrary: fc.record({ k: fc.constant("pop" as const), dt: fc.constantFrom(0, 1, 33, Infinity) }) },
      { weight: 1, arbitrary: fc.constant({ k: "peek" as const }) },
    );
    fc.assert(
      fc.property(fc.constantFrom(0, 31, 1023), fc.array(op, { minLength: 1, maxLength: 200 }), (start, ops) => runAll({ bucketShift: 0, levelBits: 5 }, start, ops)),
      { numRuns: 100 * SCALE },
    );
  });
});

describe("CalendarQueue on long seeded runs", () => {
  /** A hold model with the simulator's delay mix: heavy growth, cancels, windows. */
  function holdRun(geometry: CalendarOptions, seed: number, steps: number): void {
    const r = streamRng(seed, "test.queue");
    const oracle = new HeapQueue(2);
    const cal = new CalendarQueue({ ...geometry, initialCapacity: 2 });
    const handles: Array<[number, number]> = [];
    const delay = (): number => {
      const u = r.float();
      if (u < 0.4) return r.int(1_000_000); // hops
      if (u < 0.5) return 1_000_000; // windows
      if (u < 0.6) return 0; // immediate follow-ups
      if (u < 0.75) return r.int(500_000_000); // TTLs
      if (u < 0.9) return Math.round(r.exp(5_000_000));
      return Math.min(2 ** 40, Math.round(r.lognormal(18, 2)));
    };
    for (let i = 0; i < 2000; i++) {
      const d = delay();
      handles.push([oracle.push(d, i & 7, i), cal.push(d, i & 7, i)]);
    }
    let window = 0;
    for (let step = 0; step < steps; step++) {
      const u = r.float();
      if (u < 0.45) {
        const d = delay(), k = r.int(8), s = r.int(1 << 20);
        if (r.bernoulli(0.5)) handles.push([oracle.push(oracle.now + d, k, s), cal.push(cal.now + d, k, s)]);
        else { oracle.post(d, k, s); cal.post(d, k, s); }
      } else if (u < 0.55 && handles.length > 0) {
        const [a, b] = handles[r.int(handles.length)];
        expect(cal.cancel(b)).toBe(oracle.cancel(a));
      } else {
        // pop within 1 ms windows, advancing the clock at each window's end
        const end = window + 1_000_000;
        const ok = oracle.popBefore(end);
        expect(cal.popBefore(end)).toBe(ok);
        if (ok) expect([cal.now, cal.kind, cal.subject]).toEqual([oracle.now, oracle.kind, oracle.subject]);
        else {
          window = Math.min(end, oracle.peekTime());
          oracle.advance(window);
          cal.advance(window);
        }
      }
      if (handles.length > 4096) handles.splice(0, 2048);
      expect(cal.size).toBe(oracle.size);
    }
  }

  it("matches the heap over 60,000 steps (default geometry)", () => holdRun({}, 1, 60_000));
  it("matches the heap over 60,000 steps (fine geometry: W = 2^10, 64 buckets per level)", () => holdRun({ bucketShift: 10, levelBits: 6 }, 2, 60_000));
  it("matches the heap over 60,000 steps (W = 1: deep cascades)", () => holdRun({ bucketShift: 0, levelBits: 5 }, 3, 60_000));
});
