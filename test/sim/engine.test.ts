// The engine: ordering, the half-open run(until), stop, step, cancellation,
// argument checks, and that the queue underneath does not change a run.
import { describe, expect, it } from "vitest";
import { CalendarQueue } from "../../src/sim/calendar-queue.js";
import { Engine } from "../../src/sim/engine.js";
import type { EventQueue } from "../../src/sim/event-queue.js";
import { Fingerprint } from "../../src/sim/fingerprint.js";
import { HeapQueue } from "../../src/sim/heap-queue.js";
import { streamRng } from "../../src/sim/rng.js";
import { ms, us } from "../../src/sim/time.js";

type Trace = Array<[number, number, number]>;

/** An engine whose dispatch records (now, kind, subject) and then calls `then`. */
function recorder(opts: { queue?: EventQueue } = {}, then?: (e: Engine, kind: number, subject: number) => void) {
  const trace: Trace = [];
  const e = new Engine(opts);
  const dispatch = (kind: number, subject: number): void => {
    trace.push([e.now, kind, subject]);
    then?.(e, kind, subject);
  };
  return { e, trace, dispatch };
}

describe("Engine ordering", () => {
  it("runs events by time, and simultaneous ones in the order they were scheduled", () => {
    const { e, trace, dispatch } = recorder();
    e.schedule(30, 1, 0);
    e.post(10, 1, 1);
    e.at(30, 2, 2);
    e.post(10, 3, 3);
    e.schedule(0, 4, 4);
    e.run(Infinity, dispatch);
    expect(trace).toEqual([[0, 4, 4], [10, 1, 1], [10, 3, 3], [30, 1, 0], [30, 2, 2]]);
    expect(e.now).toBe(30);
    expect(e.processed).toBe(5);
  });

  it("runs events that handlers schedule, zero delays included, FIFO among equals", () => {
    const { e, trace, dispatch } = recorder({}, (en, kind, subject) => {
      if (kind === 0 && subject < 3) {
        en.post(0, 1, subject); // after everything already at this time
        en.post(0, 0, subject + 1);
      }
    });
    e.post(5, 0, 0);
    e.post(5, 9, 9);
    e.run(Infinity, dispatch);
    expect(trace).toEqual([
      [5, 0, 0], [5, 9, 9], [5, 1, 0], [5, 0, 1], [5, 1, 1], [5, 0, 2], [5, 1, 2], [5, 0, 3],
    ]);
  });
});

describe("Engine.run(until) is half-open", () => {
  it("runs events before until, leaves the one at until, and sets now = until", () => {
    const { e, trace, dispatch } = recorder();
    for (const t of [3, 7, 9, 10, 12]) e.at(t, 0, t);
    expect(e.run(10, dispatch)).toBe(3);
    expect(trace.map((x) => x[0])).toEqual([3, 7, 9]);
    expect(e.now).toBe(10);
    expect(e.pending).toBe(2);
    expect(e.peek()).toBe(10);
    expect(e.run(20, dispatch)).toBe(2);
    expect(trace.map((x) => x[0])).toEqual([3, 7, 9, 10, 12]);
    expect(e.now).toBe(20);
  });

  it("advances now to until with nothing pending; run(now) runs nothing", () => {
    const { e, dispatch } = recorder();
    expect(e.run(ms(5), dispatch)).toBe(0);
    expect(e.now).toBe(ms(5));
    e.post(0, 1, 1);
    expect(e.run(ms(5), dispatch)).toBe(0);
    expect(e.pending).toBe(1);
  });

  it("an event scheduled for exactly until from inside the window waits for the next run", () => {
    const { e, trace, dispatch } = recorder({}, (en, kind) => {
      if (kind === 0) en.schedule(us(1), 1, 0);
    });
    e.at(ms(1) - us(1), 0, 0);
    e.run(ms(1), dispatch);
    expect(trace).toEqual([[ms(1) - us(1), 0, 0]]);
    e.run(ms(2), dispatch);
    expect(trace[1]).toEqual([ms(1), 1, 0]);
  });

  it("run(Infinity) drains everything and leaves now at the last event", () => {
    const { e, dispatch } = recorder();
    e.at(ms(150), 0, 0);
    e.at(2 ** 40, 0, 1);
    expect(e.run(Infinity, dispatch)).toBe(2);
    expect(e.now).toBe(2 ** 40);
    expect(e.peek()).toBe(Infinity);
  });
});

describe("Engine.stop and step", () => {
  it("stop() ends run() after the current handler; now stays at that event; the rest stays pending", () => {
    const { e, trace, dispatch } = recorder({}, (en, kind) => {
      if (kind === 1) en.stop();
    });
    e.at(1, 0, 0);
    e.at(2, 1, 0);
    e.at(3, 0, 1);
    expect(e.run(100, dispatch)).toBe(2);
    expect(e.now).toBe(2);
    expect(e.pending).toBe(1);
    expect(e.run(100, dispatch)).toBe(1); // a new run() is not stopped
    expect(trace.map((x) => x[0])).toEqual([1, 2, 3]);
    expect(e.now).toBe(100);
  });

  it("step() dispatches exactly one event, whatever its time", () => {
    const { e, trace, dispatch } = recorder();
    e.at(ms(500), 0, 7);
    e.at(ms(600), 0, 8);
    expect(e.step(dispatch)).toBe(true);
    expect(trace).toEqual([[ms(500), 0, 7]]);
    expect(e.step(dispatch)).toBe(true);
    expect(e.step(dispatch)).toBe(false);
  });

  it("refuses run() or step() from inside a handler", () => {
    const { e, dispatch } = recorder({}, (en) => en.run(Infinity, () => {}));
    e.post(1, 0, 0);
    expect(() => e.run(Infinity, dispatch)).toThrow(/inside a handler/);
    // and the engine is usable afterwards
    e.post(1, 0, 0);
    expect(e.run(Infinity, () => {})).toBe(1);
  });
});

describe("Engine cancellation", () => {
  it("a cancelled event never runs; cancel is false once fired, cancelled, or for a stale handle", () => {
    const { e, trace, dispatch } = recorder();
    const a = e.schedule(ms(150), 1, 1); // a TTL
    const b = e.schedule(ms(1), 2, 2);
    expect(e.isPending(a)).toBe(true);
    expect(e.cancel(a)).toBe(true);
    expect(e.cancel(a)).toBe(false);
    expect(e.isPending(a)).toBe(false);
    expect(e.pending).toBe(1);
    e.run(Infinity, dispatch);
    expect(trace).toEqual([[ms(1), 2, 2]]);
    expect(e.cancel(b)).toBe(false);
  });

  it("a stale handle does not cancel the event that reuses its slot", () => {
    const { e, trace, dispatch } = recorder();
    const old = e.schedule(1, 0, 0);
    e.run(Infinity, dispatch); // fires; the slot is free
    const fresh = e.schedule(1, 0, 1); // reuses the slot
    expect(fresh).not.toBe(old);
    expect(e.cancel(old)).toBe(false);
    expect(e.isPending(fresh)).toBe(true);
    e.run(Infinity, dispatch);
    expect(trace.map((x) => x[2])).toEqual([0, 1]);
  });

  it("scheduleInto writes the handle into a column; cancelIn reads it there", () => {
    const { e, trace, dispatch } = recorder();
    const ttl = new Float64Array(4).fill(-1);
    e.scheduleInto(ms(150), 1, 2, ttl, 2);
    e.scheduleInto(ms(200), 1, 3, ttl, 3);
    expect(e.isPending(ttl[2]) && e.isPending(ttl[3])).toBe(true);
    expect(e.cancelIn(ttl, 2)).toBe(true);
    expect(e.cancelIn(ttl, 2)).toBe(false);
    expect(e.cancelIn(ttl, 0)).toBe(false); // -1: never a handle
    e.run(Infinity, dispatch);
    expect(trace).toEqual([[ms(200), 1, 3]]);
    expect(e.cancelIn(ttl, 3)).toBe(false); // fired
  });

  it("cancelling from a handler works for events at the same time and later", () => {
    const hs: number[] = [];
    const { e, trace, dispatch } = recorder({}, (en, kind) => {
      if (kind === 0) for (const h of hs) en.cancel(h);
    });
    e.post(5, 0, 0);
    hs.push(e.schedule(5, 1, 1), e.schedule(ms(300), 1, 2));
    e.run(Infinity, dispatch);
    expect(trace).toEqual([[5, 0, 0]]);
  });
});

describe("Engine argument checks", () => {
  it("rejects bad delays, times, kinds, subjects and until", () => {
    const e = new Engine();
    e.run(100, () => {});
    for (const d of [-1, 0.5, NaN, Infinity]) {
      expect(() => e.schedule(d, 0, 0), `schedule ${d}`).toThrow(RangeError);
      expect(() => e.post(d, 0, 0), `post ${d}`).toThrow(RangeError);
    }
    for (const t of [99, 100.5, NaN, 2 ** 53]) expect(() => e.at(t, 0, 0), `at ${t}`).toThrow(RangeError);
    for (const k of [-1, 0.5, 2 ** 31]) expect(() => e.post(1, k, 0), `kind ${k}`).toThrow(RangeError);
    for (const s of [0.5, 2 ** 31, NaN]) expect(() => e.post(1, 0, s), `subject ${s}`).toThrow(RangeError);
    expect(() => e.run(99, () => {})).toThrow(RangeError);
    expect(() => e.run(100.5, () => {})).toThrow(RangeError);
    expect(e.pending).toBe(0);
    expect(() => e.post(1, 2 ** 31 - 1, -(2 ** 31))).not.toThrow();
  });
});

describe("Engine determinism", () => {
  /** A toy model: random delays, cancels and zero-delay follow-ups from one stream. */
  function model(queue: EventQueue, seed: number, fp: Fingerprint): Trace {
    const r = streamRng(seed, "test.model");
    const handles = new Float64Array(64);
    const { e, trace, dispatch } = recorder({ queue }, (en, kind, subject) => {
      fp.add(en.now, kind, subject);
      if (kind === 1) return; // a TTL that fired
      const u = r.float();
      if (u < 0.2) handles[subject & 63] = en.schedule(ms(150) + r.int(ms(350)), 1, subject);
      else if (u < 0.35) en.cancel(handles[r.int(64)]);
      else if (u < 0.45 && kind === 0) en.post(0, 2, subject); // a zero-delay follow-up
      if (kind === 0) en.post(r.bernoulli(0.5) ? r.int(us(500)) : Math.round(r.exp(ms(5))), 0, subject);
    });
    for (let i = 0; i < 200; i++) e.post(r.int(ms(10)), 0, i);
    for (let w = 1; w <= 400 && e.pending > 0; w++) e.run(w * ms(1), dispatch);
    return trace;
  }

  it("gives the same trace and fingerprint with the calendar queue (any geometry) and the heap", () => {
    const fps = [new Fingerprint(), new Fingerprint(), new Fingerprint()];
    const a = model(new HeapQueue(), 5, fps[0]);
    const b = model(new CalendarQueue(), 5, fps[1]);
    const c = model(new CalendarQueue({ bucketShift: 6, levelBits: 5 }), 5, fps[2]);
    expect(a.length).toBeGreaterThan(20_000);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(fps[1].hex()).toBe(fps[0].hex());
    expect(fps[2].hex()).toBe(fps[0].hex());
  });

  it("folds the dispatched events into an optional fingerprint, order-sensitive", () => {
    const run = (order: number[]): string => {
      const fp = new Fingerprint();
      const e = new Engine({ fingerprint: fp });
      for (const s of order) e.post(10, 1, s);
      e.run(Infinity, () => {});
      expect(fp.count).toBe(order.length);
      return fp.hex();
    };
    expect(run([1, 2, 3])).toBe(run([1, 2, 3]));
    expect(run([1, 2, 3])).not.toBe(run([2, 1, 3]));
    expect(run([1, 2, 3])).toMatch(/^[0-9a-f]{16}$/);
  });
});
