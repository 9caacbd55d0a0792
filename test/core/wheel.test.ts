// Timing-wheel behaviour, after Kafka's TimingWheel tests and tokio's wheel
// tests. Every scenario runs on the WASM SIMD build, the WASM scalar build and
// the TypeScript twin; the region images of the three are compared at the end.
import { describe, expect, it } from "vitest";
import { Status } from "../../src/core/status.js";
import { levelFor, slotFor, WHEEL_MAX_HORIZON } from "../../src/core/reference/wheel.js";
import { IMPLS, levelInImage, makeWheel, NaiveWheel, type WheelUnderTest } from "./wheel.harness.js";

const H = WHEEL_MAX_HORIZON; // 2^36 - 1

/**
 * Advance to `now` in calls of `outCap`, returning every id in firing order.
 * Checks the continuation contract: a call returning outCap leaves more due
 * exactly when 0 <= nextDeadline <= now; one returning less leaves none.
 */
function drain(w: WheelUnderTest, now: number, outCap = 64): number[] {
  const all: number[] = [];
  for (let calls = 0; calls < 100000; calls++) {
    const { r, ids } = w.advance(now, outCap);
    expect(r).toBeGreaterThanOrEqual(0);
    all.push(...ids);
    const nd = w.nextDeadline();
    const more = nd >= 0 && nd <= now;
    if (more) {
      expect(r).toBe(outCap); // stopping early is only allowed with a full buffer
      expect(w.now()).toBe(nd); // ... at the earliest deadline still due
    } else {
      expect(w.now()).toBe(now);
      if (r < outCap) return all;
    }
  }
  throw new Error("drain did not finish");
}

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("pure helpers (twin)", () => {
  it("levelFor matches the level boundaries from time 0", () => {
    const cases: Array<[number, number]> = [
      [1, 0], [63, 0], [64, 1], [65, 1], [4095, 1], [4096, 2], [4097, 2],
      [2 ** 18 - 1, 2], [2 ** 18, 3], [2 ** 24 - 1, 3], [2 ** 24, 4], [2 ** 30 - 1, 4], [2 ** 30, 5], [H, 5],
    ];
    for (const [d, level] of cases) expect(levelFor(0, d), `d=${d}`).toBe(level);
  });
  it("levelFor uses the highest differing bit, not the distance", () => {
    expect(levelFor(63, 64)).toBe(1); // 1 tick away, but crosses a level-0 block
    expect(levelFor(4095, 4096)).toBe(2);
    expect(levelFor(2 ** 36 - 1, 2 ** 36)).toBe(5); // differs above bit 35: top level ring
    expect(levelFor(2 ** 40 + 5, 2 ** 40 + 6)).toBe(0);
  });
  it("slotFor extracts 6 bits per level, also above 2^32", () => {
    expect(slotFor(4097, 0)).toBe(1);
    expect(slotFor(4097, 2)).toBe(1);
    expect(slotFor(2 ** 36 + 2 ** 30, 5)).toBe(1); // wraps modulo 64
    expect(slotFor(2 ** 52 + 3 * 2 ** 30, 5)).toBe(3);
  });
});

describe.each(IMPLS)("timing wheel (%s)", (impl) => {
  it("reports an already-due deadline without inserting it", () => {
    const w = makeWheel(impl, 4, 100);
    expect(w.schedule(0, 100)).toBe(1);
    expect(w.schedule(0, 99)).toBe(1);
    expect(w.schedule(0, 0)).toBe(1);
    expect(w.pending()).toBe(0);
    expect(w.deadlineOf(0)).toBe(Infinity);
    expect(w.nextDeadline()).toBe(Infinity);
    expect(w.schedule(0, 101)).toBe(0);
    expect(w.schedule(1, 101)).toBe(0);
    expect(w.advance(100, 8)).toEqual({ r: 0, ids: [] });
    expect(w.advance(101, 8)).toEqual({ r: 2, ids: [0, 1] });
    expect(w.schedule(2, 101)).toBe(1); // the wheel's time is now 101
  });

  for (const now0 of [0, 12345, 2 ** 40 + 77]) {
    it(`fires exactly at every slot and level boundary (start ${now0})`, () => {
      const deltas = [1, 63, 64, 65, 4095, 4096, 4097];
      for (let l = 3; l <= 6; l++) deltas.push(2 ** (6 * l) - 1, 2 ** (6 * l), 2 ** (6 * l) + 1);
      for (const delta of deltas.filter((x) => x <= H)) {
        const w = makeWheel(impl, 2, now0);
        const d = now0 + delta;
        expect(w.schedule(1, d)).toBe(0);
        const img = w.image();
        if (img) expect(levelInImage(img, 2, 1), `delta ${delta}`).toBe(levelFor(now0, d));
        expect(w.nextDeadline()).toBe(d);
        expect(w.advance(d - 1, 4)).toEqual({ r: 0, ids: [] });
        expect(w.now()).toBe(d - 1);
        expect(w.pending()).toBe(1);
        expect(w.nextDeadline()).toBe(d);
        expect(w.advance(d, 4)).toEqual({ r: 1, ids: [1] });
        expect(w.pending()).toBe(0);
        expect(w.nextDeadline()).toBe(Infinity);
      }
    });
  }

  it("cascades an entry down one level at a time", () => {
    const w = makeWheel(impl, 1, 0);
    const d = 2 ** 30 + 2 ** 24 + 2 ** 18 + 2 ** 12 + 2 ** 6 + 1;
    expect(w.schedule(0, d)).toBe(0);
    const lv = () => { const img = w.image(); return img ? levelInImage(img, 1, 0) : levelFor(w.now(), d); };
    expect(lv()).toBe(5);
    const stops: Array<[number, number]> = [
      [2 ** 30 - 1, 5], [2 ** 30, 4], [2 ** 30 + 2 ** 24, 3], [2 ** 30 + 2 ** 24 + 2 ** 18, 2],
      [d - 2 ** 6 - 1, 1], [d - 1, 0],
    ];
    for (const [t, level] of stops) {
      expect(w.advance(t, 4).r).toBe(0);
      expect(lv(), `at ${t}`).toBe(level);
      expect(w.nextDeadline()).toBe(d);
    }
    expect(w.advance(d, 4).ids).toEqual([0]);
  });

  it("cancels before and after an entry has moved down a level", () => {
    const w = makeWheel(impl, 2, 0);
    expect(w.schedule(0, 5000)).toBe(0);
    expect(w.cancel(0)).toBe(1);
    expect(w.cancel(0)).toBe(0);
    expect(w.pending()).toBe(0);
    expect(w.advance(10000, 4).r).toBe(0);

    expect(w.schedule(0, 15000)).toBe(0); // level 2 from 10000
    expect(w.schedule(1, 15001)).toBe(0);
    expect(w.advance(14990, 4).r).toBe(0); // 14990 ^ 15000 -> now level 0
    const img = w.image();
    if (img) expect(levelInImage(img, 2, 0)).toBe(0);
    expect(w.cancel(0)).toBe(1);
    expect(w.pending()).toBe(1);
    expect(w.nextDeadline()).toBe(15001);
    expect(w.advance(20000, 4).ids).toEqual([1]);
    expect(w.nextDeadline()).toBe(Infinity);
  });

  it("reschedules earlier, later, to due and keeps the entry beyond the horizon", () => {
    const w = makeWheel(impl, 4, 1000);
    expect(w.reschedule(0, 5000)).toBe(0); // unscheduled id: acts as schedule
    expect(w.reschedule(0, 1200)).toBe(0); // earlier, different level
    expect(w.deadlineOf(0)).toBe(1200);
    expect(w.reschedule(0, 1000 + H + 1)).toBe(Status.E_HORIZON);
    expect(w.deadlineOf(0)).toBe(1200); // untouched on error
    expect(w.reschedule(0, 1000 + H)).toBe(0); // later, top level
    expect(w.schedule(0, 2000)).toBe(Status.E_CONFLICT);
    expect(w.reschedule(1, 3000)).toBe(0);
    expect(w.reschedule(1, 1000)).toBe(1); // due: cancelled, the caller fires it
    expect(w.deadlineOf(1)).toBe(Infinity);
    expect(w.pending()).toBe(1);
    expect(w.nextDeadline()).toBe(1000 + H);
    expect(w.advance(1000 + H - 1, 4).r).toBe(0);
    expect(w.advance(1000 + H, 4).ids).toEqual([0]);
  });

  it("fires ids due at the same tick in ascending order whatever their history", () => {
    const w = makeWheel(impl, 300, 0);
    const ids = Array.from({ length: 200 }, (_, i) => i);
    const r = rng(7);
    for (let i = ids.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [ids[i], ids[j]] = [ids[j], ids[i]]; }
    for (const id of ids) expect(w.schedule(id, 777)).toBe(0);
    expect(w.advance(777, 256).ids).toEqual([...Array(200).keys()]);

    // Ids 210..219 arrive via two cascades, 200..209 directly at level 0, 220 is inserted last.
    for (let id = 210; id < 220; id++) expect(w.schedule(id, 5000)).toBe(0);
    expect(w.advance(4999, 8).r).toBe(0);
    for (let id = 209; id >= 200; id--) expect(w.schedule(id, 5000)).toBe(0);
    expect(w.schedule(220, 5000)).toBe(0);
    expect(drain(w, 5000, 7)).toEqual([...Array(21).keys()].map((i) => 200 + i));
  });

  it("re-sorts a level-0 slot reused 64 ticks later", () => {
    const w = makeWheel(impl, 16, 0);
    for (const id of [5, 1, 3]) expect(w.schedule(id, 100)).toBe(0);
    expect(drain(w, 100, 2)).toEqual([1, 3, 5]); // slot 36 sorted once, then popped
    for (const id of [9, 2, 7, 0]) expect(w.schedule(id, 164)).toBe(0); // slot 36 again
    expect(w.schedule(4, 130)).toBe(0);
    expect(drain(w, 164, 3)).toEqual([4, 0, 2, 7, 9]);
  });

  it("drains a 20,000-id burst at one tick one id per call, in order", () => {
    const n = 20000;
    const w = makeWheel(impl, n, 0);
    let bad = 0;
    for (let k = 0; k < n; k++) bad += w.schedule((k * 7919) % n, 4097); // a permutation of the ids
    expect(bad).toBe(0);
    const got: number[] = [];
    for (;;) {
      const { r, ids } = w.advance(5000, 1);
      got.push(...ids);
      if (r < 1) break;
    }
    expect(got.length).toBe(n);
    expect(got.every((id, k) => id === k)).toBe(true);
    expect(w.now()).toBe(5000);
  });

  it("accepts exactly 2^36 - 1 ticks ahead and rejects 2^36", () => {
    for (const now0 of [0, 2 ** 36 - 6, 2 ** 40 + 12345, 2 ** 52]) {
      const w = makeWheel(impl, 2, now0);
      expect(w.schedule(0, now0 + H)).toBe(0);
      expect(w.schedule(1, now0 + H + 1)).toBe(Status.E_HORIZON);
      expect(w.reschedule(1, now0 + H + 1)).toBe(Status.E_HORIZON);
      expect(w.pending()).toBe(1);
      expect(w.nextDeadline()).toBe(now0 + H);
      expect(w.advance(now0 + H - 1, 2).r).toBe(0);
      expect(w.advance(now0 + H, 2).ids).toEqual([0]);
    }
  });

  it("orders wrapped top-level entries after the current rotation", () => {
    // now's top slot is 0; A wraps into top slot 0 (one rotation ahead), B is in slot 2.
    const w = makeWheel(impl, 3, 5);
    expect(w.schedule(0, 2 ** 36 + 1)).toBe(0);
    expect(w.schedule(1, 2 ** 31)).toBe(0);
    expect(w.nextDeadline()).toBe(2 ** 31);
    expect(w.advance(2 ** 31, 4).ids).toEqual([1]);
    expect(w.nextDeadline()).toBe(2 ** 36 + 1);
    expect(w.advance(2 ** 36, 4).r).toBe(0);
    expect(w.advance(2 ** 36 + 1, 4).ids).toEqual([0]);

    // A wrapped entry in the same top slot as now comes after everything else.
    const v = makeWheel(impl, 3, 2 ** 30 + 5);
    expect(v.schedule(0, 2 ** 36 + 2 ** 30 + 1)).toBe(0);
    expect(v.schedule(1, 3 * 2 ** 30)).toBe(0);
    expect(v.schedule(2, 2 ** 30 + 100)).toBe(0);
    expect(v.nextDeadline()).toBe(2 ** 30 + 100);
    expect(drain(v, 2 ** 36 + 2 ** 30, 1)).toEqual([2, 1]);
    expect(v.nextDeadline()).toBe(2 ** 36 + 2 ** 30 + 1);
    expect(drain(v, 2 ** 36 + 2 ** 30 + 1, 1)).toEqual([0]);
  });

  it("wraps slot indices correctly after advancing far (agrees with the naive oracle)", () => {
    const r = rng(42);
    const w = makeWheel(impl, 64, 0);
    const o = new NaiveWheel(64, 0);
    let t = 0;
    for (let round = 0; round < 12; round++) {
      t += Math.floor(r() * 2 ** (10 + 3 * round)); // jumps grow to ~2^43
      expect(w.advance(t, 64)).toEqual(o.advance(t, 64));
      for (let id = 0; id < 64; id++) {
        const mag = Math.floor(r() * 37);
        const d = t + 1 + Math.floor(r() * Math.min(H, 2 ** mag));
        expect(w.reschedule(id, d)).toBe(o.reschedule(id, d));
      }
      for (let step = 0; step < 20; step++) {
        t += Math.floor(r() * 2 ** Math.floor(r() * 36));
        const cap = 1 + Math.floor(r() * 8);
        expect(w.advance(t, cap)).toEqual(o.advance(t, cap));
        expect(w.now()).toBe(o.now());
      }
    }
  });

  it("keeps pending = scheduled - fired - cancelled", () => {
    const w = makeWheel(impl, 16, 0);
    for (let id = 0; id < 10; id++) expect(w.schedule(id, 10 + id * 100)).toBe(0);
    expect(w.schedule(10, 0)).toBe(1); // due: not counted
    expect(w.pending()).toBe(10);
    expect(w.cancel(3)).toBe(1);
    expect(w.cancel(3)).toBe(0);
    expect(w.pending()).toBe(9);
    expect(w.advance(250, 16).ids).toEqual([0, 1, 2]);
    expect(w.pending()).toBe(6);
    expect(w.reschedule(9, 300)).toBe(0); // moves, no change
    expect(w.pending()).toBe(6);
    expect(drain(w, 2000)).toEqual([9, 4, 5, 6, 7, 8]);
    expect(w.pending()).toBe(0);
  });

  it("reports the exact earliest deadline", () => {
    const r = rng(3);
    const w = makeWheel(impl, 50, 1000);
    const o = new NaiveWheel(50, 1000);
    let t = 1000;
    for (let i = 0; i < 400; i++) {
      const id = Math.floor(r() * 50);
      const x = r();
      if (x < 0.5) {
        const d = t + 1 + Math.floor(r() * 2 ** Math.floor(r() * 30));
        expect(w.reschedule(id, d)).toBe(o.reschedule(id, d));
      } else if (x < 0.7) {
        expect(w.cancel(id)).toBe(o.cancel(id));
      } else {
        t += Math.floor(r() * 2 ** Math.floor(r() * 20));
        expect(w.advance(t, 50)).toEqual(o.advance(t, 50));
      }
      expect(w.nextDeadline()).toBe(o.nextDeadline());
      expect(w.pending()).toBe(o.pending());
    }
  });

  it("continues exactly where a full output buffer stopped", () => {
    const w = makeWheel(impl, 32, 0);
    for (let id = 0; id < 10; id++) expect(w.schedule(id, 100)).toBe(0);
    for (let id = 10; id < 15; id++) expect(w.schedule(29 - id, 101)).toBe(0); // ids 15..19
    expect(w.schedule(20, 5000)).toBe(0);
    expect(w.advance(200, 0)).toEqual({ r: 0, ids: [] });
    expect(w.now()).toBe(100); // stopped at the earliest due deadline
    expect(w.advance(200, 3)).toEqual({ r: 3, ids: [0, 1, 2] });
    expect(w.now()).toBe(100);
    expect(w.schedule(21, 100)).toBe(1); // the wheel's time is 100: already due
    expect(w.schedule(21, 150)).toBe(0); // joins the remaining due set
    expect(w.advance(200, 3).ids).toEqual([3, 4, 5]);
    expect(w.advance(200, 3).ids).toEqual([6, 7, 8]);
    expect(w.advance(200, 3).ids).toEqual([9, 15, 16]);
    expect(w.now()).toBe(101);
    expect(w.advance(200, 3).ids).toEqual([17, 18, 19]);
    expect(w.now()).toBe(150);
    expect(w.advance(200, 1).ids).toEqual([21]);
    expect(w.now()).toBe(200); // nothing else due: a full buffer, and done
    expect(w.advance(200, 3)).toEqual({ r: 0, ids: [] });
    expect(w.pending()).toBe(1);
    expect(w.advance(199 + 4801, 3).ids).toEqual([20]);
  });

  it("rejects bad ids and a full id space", () => {
    const w = makeWheel(impl, 8, 0);
    for (let id = 0; id < 8; id++) expect(w.schedule(id, 50 + id)).toBe(0);
    expect(w.pending()).toBe(8);
    for (const id of [-1, 8, 2 ** 31 - 1]) {
      expect(w.schedule(id, 60)).toBe(Status.E_ID);
      expect(w.reschedule(id, 60)).toBe(Status.E_ID);
      expect(w.cancel(id)).toBe(Status.E_ID);
      expect(w.deadlineOf(id)).toBe(Status.E_ID);
    }
    expect(w.schedule(3, 60)).toBe(Status.E_CONFLICT);
    expect(w.schedule(3, 0)).toBe(Status.E_CONFLICT); // not "due": it would fire twice
    expect(w.pending()).toBe(8);
    const z = makeWheel(impl, 0, 5);
    expect(z.schedule(0, 6)).toBe(Status.E_ID);
    expect(z.advance(9, 4)).toEqual({ r: 0, ids: [] });
    expect(z.nextDeadline()).toBe(Infinity);
  });

  it("rejects bad ticks and advancing backwards", () => {
    const w = makeWheel(impl, 2, 10);
    for (const d of [NaN, -1, 0.5, 10.5, Infinity, -Infinity, 2 ** 53, 2 ** 60]) {
      expect(w.schedule(0, d), `schedule ${d}`).toBe(Status.E_ARG);
      expect(w.reschedule(0, d), `reschedule ${d}`).toBe(Status.E_ARG);
      expect(w.advance(d, 2).r, `advance ${d}`).toBe(Status.E_ARG);
    }
    expect(w.advance(9, 2).r).toBe(Status.E_ARG);
    expect(w.advance(10, -1).r).toBe(Status.E_COUNT);
    expect(w.now()).toBe(10);
    expect(w.schedule(0, -0)).toBe(1); // -0 is tick 0
    expect(w.schedule(0, 2 ** 36 + 9)).toBe(0);
    expect(w.advance(2 ** 53 - 1, 2).ids).toEqual([0]);
    expect(w.now()).toBe(2 ** 53 - 1);
  });
});

describe("the three implementations leave identical regions", () => {
  it("after a mixed scenario", () => {
    const ws = IMPLS.map((i) => makeWheel(i, 40, 3));
    const r = rng(11);
    for (let i = 0; i < 300; i++) {
      const id = Math.floor(r() * 40);
      const d = 3 + Math.floor(r() * 2 ** Math.floor(r() * 37));
      const res = ws.map((w) => (i % 7 === 6 ? w.advance(d, 3).r : i % 5 === 4 ? w.cancel(id) : w.reschedule(id, d)));
      expect(new Set(res).size).toBe(1);
    }
    const imgs = ws.map((w) => Buffer.from(w.image()!).toString("hex"));
    expect(imgs[1]).toBe(imgs[0]);
    expect(imgs[2]).toBe(imgs[0]);
  });
});
