// TimerSweep hands every armed timer to its owner once, within one period
// before the timer's time, so the owner can post an exact event; pushes out
// of order or too soon are refused (the owner posts those itself).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Engine } from "../../src/sim/engine.js";
import { TimerSweep } from "../../src/sim/timer-sweep.js";
import { Arena } from "../../src/core/arena.js";

const K_SWEEP = 1, K_EXACT = 2, K_PUSH = 3;

describe("TimerSweep", () => {
  it("rejects a bad period", () => {
    const e = new Engine();
    expect(() => new TimerSweep(e, 0, K_SWEEP, 0)).toThrow(RangeError);
    expect(() => new TimerSweep(e, 1.5, K_SWEEP, 0)).toThrow(RangeError);
  });

  it("refuses pushes sooner than one period, or earlier than the tail", () => {
    const e = new Engine();
    const sw = new TimerSweep(e, 1000, K_SWEEP, 0);
    expect(sw.push(999, 1, 0)).toBe(false);
    expect(sw.push(5000, 1, 0)).toBe(true);
    expect(sw.push(4999, 2, 0)).toBe(false);
    expect(sw.push(5000, 3, 0)).toBe(true);
    expect(sw.size).toBe(2);
  });

  it("hands each timer over once, within one period before its time, and exact events fire on time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 50_000 })), { minLength: 1, maxLength: 60 }),
        (period, raw) => {
          const e = new Engine();
          const sw = new TimerSweep(e, period, K_SWEEP, 0);
          // pushes happen at sorted times; each asks for a timer `delay` later
          const pushes = raw.map(([at, delay]) => ({ at, delay })).sort((a, b) => a.at - b.at);
          pushes.forEach((p, i) => e.post(p.at, K_PUSH, i));
          const fired = new Map<number, number>();
          const handed = new Set<number>();
          const due = (s: number, time: number) => {
            expect(handed.has(s)).toBe(false);
            handed.add(s);
            expect(time).toBeGreaterThanOrEqual(e.now);
            expect(time - e.now).toBeLessThan(period);
            e.post(time - e.now, K_EXACT, s);
          };
          const want = new Map<number, number>();
          e.run(Infinity, (kind, s) => {
            if (kind === K_PUSH) {
              const time = e.now + pushes[s].delay;
              want.set(s, time);
              if (!sw.push(time, s, 0)) e.post(time - e.now, K_EXACT, s);
            } else if (kind === K_SWEEP) sw.sweep(due);
            else {
              expect(fired.has(s)).toBe(false);
              fired.set(s, e.now);
            }
          });
          expect(sw.size).toBe(0);
          expect(fired.size).toBe(pushes.length);
          for (const [s, t] of want) expect(fired.get(s)).toBe(t);
        },
      ),
      { numRuns: 200 },
    );
  });

  /**
   * A ring of period 10 with timers i at 100 + i (tag i ^ 5), the first 1,000 pushed and those due before 701
   * handed over (591: the sweeps hand over what is due within a period, up to the one at 681), so that its head
   * is inside the ring of 1,024; `more(from, to)` pushes timers [from, to), `rest()` runs the sweeps to the end.
   */
  function wrapped(memory: Arena | null = null) {
    const e = new Engine();
    const sw = new TimerSweep(e, 10, K_SWEEP, 0, memory);
    for (let i = 0; i < 1000; i++) expect(sw.push(100 + i, i, i ^ 5)).toBe(true);
    const handed: number[] = [];
    const due = (s: number, time: number, tag: number) => {
      expect(time).toBe(100 + s);
      expect(tag).toBe(s ^ 5);
      handed.push(s);
    };
    e.run(691, (kind) => { if (kind === K_SWEEP) sw.sweep(due); });
    expect(handed.length).toBe(591);
    const more = (from: number, to: number) => { for (let i = from; i < to; i++) expect(sw.push(100 + i, i, i ^ 5)).toBe(true); };
    const rest = () => e.run(Infinity, (kind) => { if (kind === K_SWEEP) sw.sweep(due); });
    return { sw, handed, more, rest };
  }

  it("counts the timers due before a time (dueBefore) with its head inside the ring and across its wrap", () => {
    const { sw, more } = wrapped();
    more(1000, 1400); // timers 591..1399 at 691..1499, wrapping round the ring of 1,024
    for (const limit of [0, 691, 692, 700, 1100, 1123, 1124, 1499, 1500, 1e9]) {
      expect(sw.dueBefore(limit)).toBe(Math.max(0, Math.min(1500, limit) - 691));
    }
  });

  it("keeps the timers in order when it grows with its head inside the ring", () => {
    // 2,000 more: the ring wraps, then doubles twice with its head inside it
    const { handed, more, rest } = wrapped();
    more(1000, 3000);
    rest();
    expect(handed).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  it("reserves room in one growth, its timers kept in order from a head inside the ring, in host memory or not", () => {
    for (const memory of [null, new Arena(new WebAssembly.Memory({ initial: 1, maximum: 256 }), 1024)]) {
      // 600 more: the ring of 1,024 holds 1,009, wrapped with its head inside it
      const { sw, handed, more, rest } = wrapped(memory);
      more(1000, 1600);
      const bytes = memory?.u8.length ?? 0;
      // room for 5,000 more: 8,192 records (128 KiB of memory at most, one region), not a doubling at a time
      sw.reserve(5000);
      if (memory !== null) expect(memory.u8.length - bytes).toBeLessThanOrEqual(2 * 65536);
      more(1600, 6000);
      rest();
      expect(handed).toEqual(Array.from({ length: 6000 }, (_, i) => i));
    }
  });

  it("needs one sweep per period while armed, not one event per timer", () => {
    const e = new Engine();
    const sw = new TimerSweep(e, 1000, K_SWEEP, 0);
    for (let i = 0; i < 1000; i++) e.post(i * 10, K_PUSH, i); // 1000 timers over 10 us, each 100 us later
    let sweeps = 0, handed = 0;
    e.run(Infinity, (kind, s) => {
      if (kind === K_PUSH) expect(sw.push(e.now + 100_000, s, 7)).toBe(true);
      else if (kind === K_SWEEP) { sweeps++; sw.sweep((_s, _t, tag) => { expect(tag).toBe(7); handed++; }); }
    });
    expect(handed).toBe(1000);
    expect(sweeps).toBeLessThanOrEqual(12);
  });
});
