// The recycled-slot allocator: LIFO reuse and the cyclic order, generation-checked handles,
// growth, clear, and the bugs it refuses.
import { describe, expect, it } from "vitest";
import { growRing, growTyped, SlotStore } from "../../src/sim/slot-store.js";

describe("SlotStore", () => {
  it("hands out 0, 1, 2, ... then reuses the most recently freed slot first", () => {
    const s = new SlotStore(4);
    expect([s.alloc(), s.alloc(), s.alloc()]).toEqual([0, 1, 2]);
    s.release(1);
    s.release(0);
    expect(s.alloc()).toBe(0);
    expect(s.alloc()).toBe(1);
    expect(s.alloc()).toBe(3);
    expect(s.live).toBe(4);
  });

  it("cyclic: hands out slots in rising order from a cursor, skipping live ones, and wraps round", () => {
    const s = new SlotStore(8, true);
    expect([s.alloc(), s.alloc(), s.alloc()]).toEqual([0, 1, 2]);
    s.release(0);
    s.release(2);
    // not the freed 2 or 0 yet: the cursor goes on through the slots never handed out, to the end
    expect(s.alloc()).toBe(3);
    s.release(1);
    expect(s.alloc()).toBe(4);
    s.release(3);
    s.release(4);
    for (let i = 5; i < 8; i++) expect(s.alloc()).toBe(i);
    expect(s.live).toBe(3);
    // the end reached: round to 0, then 1, then 2 (all free), skipping live ones on the next turn
    expect([s.alloc(), s.alloc(), s.alloc()]).toEqual([0, 1, 2]);
    expect(s.live).toBe(6);
    expect(s.capacity).toBeGreaterThanOrEqual(12); // it grows before more than half its slots are live
  });

  it("cyclic: every slot it hands out is free, and it keeps at most half its slots live", () => {
    // a fixed pseudo-random schedule of allocations and frees against a set of the live slots
    const s = new SlotStore(4, true), live = new Set<number>();
    let x = 12345;
    const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let step = 0; step < 20000; step++) {
      if (live.size === 0 || rand() < 0.52) {
        const t = s.alloc();
        expect(live.has(t)).toBe(false);
        live.add(t);
      } else {
        const arr = [...live];
        const t = arr[Math.floor(rand() * arr.length)];
        s.release(t);
        live.delete(t);
      }
      expect(s.live).toBe(live.size);
      expect(2 * s.live).toBeLessThanOrEqual(s.capacity);
    }
  });

  it("handles name a live slot until it is freed, and never again after reuse", () => {
    const s = new SlotStore(2);
    const a = s.alloc();
    const h = s.handle(a);
    expect(s.slotOf(h)).toBe(a);
    expect(s.isLive(a)).toBe(true);
    s.release(a);
    expect(s.slotOf(h)).toBe(-1);
    expect(s.handle(a)).toBe(-1);
    const again = s.alloc();
    expect(again).toBe(a); // same slot ...
    const h2 = s.handle(again);
    expect(h2).not.toBe(h); // ... new generation
    expect(s.slotOf(h)).toBe(-1); // the stale handle stays stale
    expect(s.slotOf(h2)).toBe(again);
  });

  it("generations are odd while live and even while free; holds() checks both at once", () => {
    const s = new SlotStore(1);
    const a = s.alloc();
    const g = s.generation(a);
    expect(g & 1).toBe(1);
    expect(s.holds(a, g)).toBe(true);
    s.release(a);
    expect(s.generation(a) & 1).toBe(0);
    expect(s.holds(a, g)).toBe(false);
  });

  it("keeps handles exact past 2^32: the generation sits above bit 32", () => {
    const s = new SlotStore(1);
    for (let i = 0; i < 10; i++) s.release(s.alloc());
    const a = s.alloc();
    const h = s.handle(a);
    expect(h).toBe(21 * 2 ** 32 + a);
    expect(Number.isSafeInteger(h)).toBe(true);
  });

  it("wraps generations at 2^21 and keeps their parity", () => {
    const s = new SlotStore(1);
    for (let i = 0; i < 2 ** 20; i++) s.release(s.alloc());
    expect(s.generation(0)).toBe(0); // 2^21 bumps: back to 0, free
    const a = s.alloc();
    expect(s.generation(a)).toBe(1);
    expect(s.slotOf(s.handle(a))).toBe(a);
  });

  it("grows by doubling, keeping every live handle valid", () => {
    const s = new SlotStore(2);
    const hs: number[] = [];
    for (let i = 0; i < 100; i++) hs.push(s.handle(s.alloc()));
    expect(s.capacity).toBe(128);
    hs.forEach((h, i) => expect(s.slotOf(h)).toBe(i));
  });

  it("clear() frees everything, staling every handle, and hands slots out from 0 again", () => {
    const s = new SlotStore(4);
    const hs = [s.alloc(), s.alloc(), s.alloc()].map((x) => s.handle(x));
    s.release(1);
    s.clear();
    expect(s.live).toBe(0);
    for (const h of hs) expect(s.slotOf(h)).toBe(-1);
    expect([s.alloc(), s.alloc()]).toEqual([0, 1]);
  });

  it("refuses to free a slot that is not live, and ignores junk handles", () => {
    const s = new SlotStore(2);
    expect(() => s.release(0)).toThrow(RangeError);
    const a = s.alloc();
    s.release(a);
    expect(() => s.release(a)).toThrow(RangeError);
    for (const h of [-1, NaN, 0.5, Infinity, 2 ** 53, 5 * 2 ** 32 + 1, 2 ** 32 + 0.5]) expect(s.slotOf(h), `${h}`).toBe(-1);
    expect(() => new SlotStore(0)).toThrow(RangeError);
  });

  it("with its owner's storage for the generations: the same slots, generations there, slots freed there counted", () => {
    // the owner's storage: a region per growth, the generations copied in (as src/laminar/store.ts does in core memory)
    let region = new Int32Array(0), grows = 0;
    const s = new SlotStore(4, true, { grow: (n) => { const r = new Int32Array(n); r.set(region); region = r; grows++; return r; } });
    const twin = new SlotStore(4, true);
    for (let round = 0; round < 200; round++) {
      const a = s.alloc(), b = twin.alloc();
      expect(a).toBe(b);
      if (round % 3 !== 2) {
        // freed where the generations lie, as engineDrain does
        const t = (round * 7) % s.capacity;
        if (s.isLive(t)) {
          region[t] = (region[t] + 1) & ((1 << 21) - 1);
          s.releasedElsewhere(1);
          twin.release(t);
        }
      }
      expect(s.live).toBe(twin.live);
      expect(s.capacity).toBe(twin.capacity);
      for (let t = 0; t < s.capacity; t++) expect(s.generation(t)).toBe(twin.generation(t));
    }
    expect(grows).toBeGreaterThan(2);
    // a view anew (the owner's memory moved): the same generations
    s.rebindGenerations(region.slice());
    expect(s.generation(0)).toBe(twin.generation(0));
    expect(() => s.rebindGenerations(new Int32Array(3))).toThrow(/3 generations/);
  });

  it("cyclic: hands its allocation state to an owner that allocates elsewhere, and takes it back checked", () => {
    const c = new SlotStore(8, true);
    c.alloc();
    c.alloc();
    expect(c.cyclicState()).toEqual({ cursor: 2, fresh: 2, live: 2 });
    expect(() => c.resumeCyclic(0, 1, 0)).toThrow(/allocation state/); // fewer handed out than before
    expect(() => c.resumeCyclic(0, 9, 0)).toThrow(/allocation state/); // past the capacity
    expect(() => c.resumeCyclic(0, 4, 5)).toThrow(/allocation state/); // more live than handed out
    expect(() => new SlotStore(8).resumeCyclic(0, 0, 0)).toThrow(/allocation state/); // not cyclic
    c.resumeCyclic(5, 6, 4);
    expect(c.alloc()).toBe(5);
    expect(c.live).toBe(5);
  });

  it("growTyped copies and fills the tail", () => {
    const a = new Int32Array([1, 2]);
    expect(Array.from(growTyped(a, 4, -1))).toEqual([1, 2, -1, -1]);
    const f = growTyped(new Float64Array([0.5]), 3);
    expect(f).toBeInstanceOf(Float64Array);
    expect(Array.from(f)).toEqual([0.5, 0, 0]);
  });

  it("growRing unwraps a full ring from its head into a copy twice as long", () => {
    const r = growRing(new Uint8Array([3, 4, 1, 2]), 2);
    expect(r).toBeInstanceOf(Uint8Array);
    expect(Array.from(r)).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(Array.from(growRing(new Float64Array([0.5, 1.5]), 0))).toEqual([0.5, 1.5, 0, 0]);
  });
});
