// Shared by the timing-wheel tests: one interface over the three implementations
// (WASM SIMD build, WASM scalar build, TypeScript twin) plus a naive oracle that
// states the contract directly (a map of id -> deadline, sorted at each advance).
import { loadCore, type Core, type Flavor } from "../../src/core/wasm.js";
import { Status } from "../../src/core/status.js";
import { TimingWheel, isTick, wheelBytes, wheelLayout, WHEEL_MAX_HORIZON } from "../../src/core/reference/wheel.js";

export type Impl = Flavor | "twin";
export const IMPLS: Impl[] = ["simd", "scalar", "twin"];

export interface Advance { r: number; ids: number[] }

export interface WheelUnderTest {
  readonly name: string;
  schedule(id: number, deadline: number): number;
  reschedule(id: number, deadline: number): number;
  cancel(id: number): number;
  advance(now: number, outCap: number): Advance;
  nextDeadline(): number;
  deadlineOf(id: number): number;
  pending(): number;
  now(): number;
  /** A copy of the region (undefined for the naive oracle). */
  image(): Uint8Array | undefined;
}

const cores = new Map<Flavor, Core>();
/** One core per flavor, shared by a test file; callers reset its arena. */
export function sharedCore(flavor: Flavor): Core {
  let c = cores.get(flavor);
  if (!c) { c = loadCore(flavor); cores.set(flavor, c); }
  return c;
}

/** Level an id sits at, read from a region image (-1 when not scheduled). */
export function levelInImage(img: Uint8Array, capacity: number, id: number): number {
  const where = new DataView(img.buffer, img.byteOffset, img.byteLength).getInt32(wheelLayout(capacity).where + 4 * id, true);
  return where < 0 ? -1 : where >> 6;
}

class WasmWheel implements WheelUnderTest {
  readonly w: number;
  private out: number;
  private outMax: number;
  readonly bytes: number;
  constructor(readonly core: Core, readonly capacity: number, now: number, readonly name: string) {
    this.bytes = core.exports.wheelBytes(capacity);
    this.w = core.arena.alloc(this.bytes, 8);
    const r = core.exports.wheelInit(this.w, capacity, now);
    if (r !== 0) throw new Error(`wheelInit: ${r}`);
    this.outMax = 256;
    this.out = core.arena.alloc(4 * this.outMax, 4);
  }
  schedule(id: number, d: number): number { return this.core.exports.wheelSchedule(this.w, id, d); }
  reschedule(id: number, d: number): number { return this.core.exports.wheelReschedule(this.w, id, d); }
  cancel(id: number): number { return this.core.exports.wheelCancel(this.w, id); }
  advance(now: number, outCap: number): Advance {
    if (outCap > this.outMax) { this.outMax = outCap; this.out = this.core.arena.alloc(4 * outCap, 4); }
    const r = this.core.exports.wheelAdvance(this.w, now, this.out, outCap);
    const ids = r > 0 ? Array.from(this.core.arena.i32.subarray(this.out >> 2, (this.out >> 2) + r)) : [];
    return { r, ids };
  }
  nextDeadline(): number { return this.core.exports.wheelNextDeadline(this.w); }
  deadlineOf(id: number): number { return this.core.exports.wheelDeadlineOf(this.w, id); }
  pending(): number { return this.core.exports.wheelPending(this.w); }
  now(): number { return this.core.exports.wheelNow(this.w); }
  image(): Uint8Array { return this.core.arena.u8.slice(this.w, this.w + this.bytes); }
}

class TwinWheel implements WheelUnderTest {
  readonly name = "twin";
  readonly wheel: TimingWheel;
  private out = new Int32Array(256);
  constructor(capacity: number, now: number) { this.wheel = new TimingWheel(capacity, now); }
  schedule(id: number, d: number): number { return this.wheel.schedule(id, d); }
  reschedule(id: number, d: number): number { return this.wheel.reschedule(id, d); }
  cancel(id: number): number { return this.wheel.cancel(id); }
  advance(now: number, outCap: number): Advance {
    if (outCap > this.out.length) this.out = new Int32Array(outCap);
    const r = this.wheel.advance(now, this.out, outCap);
    return { r, ids: r > 0 ? Array.from(this.out.subarray(0, r)) : [] };
  }
  nextDeadline(): number { return this.wheel.nextDeadline(); }
  deadlineOf(id: number): number { return this.wheel.deadlineOf(id); }
  pending(): number { return this.wheel.pending; }
  now(): number { return this.wheel.now; }
  image(): Uint8Array { return this.wheel.bytes.slice(); }
}

/** The contract, stated naively: O(n log n) per advance, no levels. */
export class NaiveWheel implements WheelUnderTest {
  readonly name = "naive";
  private t: number;
  private readonly dl = new Map<number, number>();
  constructor(readonly capacity: number, now: number) { this.t = now; }
  private okId(id: number): boolean { return Number.isInteger(id) && id >= 0 && id < this.capacity; }
  private place(id: number, d: number): number {
    if (d <= this.t) return 1;
    if (d - this.t > WHEEL_MAX_HORIZON) return Status.E_HORIZON;
    this.dl.set(id, d);
    return 0;
  }
  schedule(id: number, d: number): number {
    if (!this.okId(id)) return Status.E_ID;
    if (!isTick(d)) return Status.E_ARG;
    if (this.dl.has(id)) return Status.E_CONFLICT;
    return this.place(id, d);
  }
  reschedule(id: number, d: number): number {
    if (!this.okId(id)) return Status.E_ID;
    if (!isTick(d)) return Status.E_ARG;
    if (d > this.t && d - this.t > WHEEL_MAX_HORIZON) return Status.E_HORIZON;
    this.dl.delete(id);
    return this.place(id, d);
  }
  cancel(id: number): number {
    if (!this.okId(id)) return Status.E_ID;
    return this.dl.delete(id) ? 1 : 0;
  }
  advance(now: number, outCap: number): Advance {
    if (outCap < 0) return { r: Status.E_COUNT, ids: [] };
    if (!isTick(now) || now < this.t) return { r: Status.E_ARG, ids: [] };
    const due = [...this.dl].filter(([, d]) => d <= now).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const fired = due.slice(0, outCap);
    for (const [id] of fired) this.dl.delete(id);
    // Out full with more due: time stops at the earliest deadline still due.
    this.t = due.length > outCap ? due[outCap][1] : now;
    return { r: fired.length, ids: fired.map(([id]) => id) };
  }
  nextDeadline(): number {
    let best = Infinity;
    for (const d of this.dl.values()) if (d < best) best = d;
    return best;
  }
  deadlineOf(id: number): number {
    if (!this.okId(id)) return Status.E_ID;
    return this.dl.get(id) ?? Infinity;
  }
  pending(): number { return this.dl.size; }
  now(): number { return this.t; }
  image(): undefined { return undefined; }
}

/** A fresh wheel of the given implementation (WASM wheels live in the shared core's arena). */
export function makeWheel(impl: Impl | "naive", capacity: number, now = 0): WheelUnderTest {
  if (impl === "twin") return new TwinWheel(capacity, now);
  if (impl === "naive") return new NaiveWheel(capacity, now);
  return new WasmWheel(sharedCore(impl), capacity, now, impl);
}

export { wheelBytes };
