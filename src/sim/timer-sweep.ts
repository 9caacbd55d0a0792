// Timers that almost never matter: every task arms a deadline (500 ms) and a
// regeneration check (150 ms), and nearly every task has started long before
// either. One engine event per timer would double the event count. Instead a
// TimerSweep keeps the timers in a FIFO ring (pushed in time order) and looks
// at them in sweeps, one engine event per `period` while any are armed: a
// sweep at T hands every timer due before T + period to `due(subject, time)`,
// and the owner posts an exact engine event at `time` only for timers that
// still matter (the task is still pending). So a timer still fires at exactly
// its time, and a moot one costs a ring slot instead of an event.
//
// Each timer carries a tag (say, the generation of the task slot it names),
// handed back with it, so the owner can free and reuse the slot before the
// sweep and recognise the stale timer then.
//
// A push earlier than the ring's tail (out of order) or sooner than one
// period from now is not ringed: push() returns false and the owner posts
// the exact event itself.
//
// The ring may live in a host memory (a WebAssembly core's: `memory` below),
// where the Zone engine pushes to it too (assembly/engine/arrive.ts): its
// records in one region of 16 bytes each (time f64[cap], then subject
// i32[cap], then tag i32[cap]), and, around such a call, its state in a
// 32-byte ring block (toBlock, fromBlock).
import type { Engine } from "./engine.js";

/** A memory the ring's records may live in (the core's arena): a bump allocator whose growth detaches its old views. */
export interface RingMemory {
  alloc(bytes: number, align: number): number;
  readonly u8: Uint8Array;
  onGrow(f: () => boolean): void;
}

/**
 * Have `owner.rebind()` called whenever `memory` grows, for as long as the
 * owner lives: it is held weakly, and dropped from the memory's list at the
 * first growth after it is gone.
 */
export function followGrowth(memory: RingMemory, owner: { rebind(): void }): void {
  const ref = new WeakRef(owner);
  memory.onGrow(() => {
    const o = ref.deref();
    o?.rebind();
    return o !== undefined;
  });
}

/** The ring block (bytes): sweep time f64 at 0, then i32 head, size, capacity and the records' region at 8, 12, 16, 20. */
export const RING_BLOCK_BYTES = 32;

export class TimerSweep {
  /** Ring capacity: a power of two (1024, doubled when full), so a position wraps with & (cap - 1). */
  private cap = 1024;
  private head = 0;
  size = 0;
  private time!: Float64Array;
  private subject!: Int32Array;
  private tag!: Int32Array;
  /** Time of the pending sweep event (Infinity: none). */
  private sweepAt = Infinity;
  /** The records' region in `memory` (byte offset; with no memory, 0). */
  private data = 0;

  /** `period`: integer ns > 0; sweep events are (kind, id). With `memory`, the records live there. */
  constructor(private readonly engine: Engine, readonly period: number, private readonly kind: number, private readonly id: number,
    private readonly memory: RingMemory | null = null) {
    if (!Number.isInteger(period) || period <= 0) throw new RangeError(`TimerSweep: period ${period} not a positive integer`);
    if (memory === null) {
      this.time = new Float64Array(this.cap);
      this.subject = new Int32Array(this.cap);
      this.tag = new Int32Array(this.cap);
      return;
    }
    this.data = memory.alloc(16 * this.cap, 8);
    this.rebind();
    followGrowth(memory, this);
  }

  /** The views of the records' region (memory's current buffer). */
  rebind(): void {
    const b = this.memory!.u8.buffer as ArrayBuffer, p = this.data, cap = this.cap;
    this.time = new Float64Array(b, p, cap);
    this.subject = new Int32Array(b, p + 8 * cap, cap);
    this.tag = new Int32Array(b, p + 12 * cap, cap);
  }

  /** Make room for n more timers (the Zone engine pushes without growing the ring): one growth at most, to the power of two that holds them. */
  reserve(n: number): void {
    let cap = this.cap;
    while (this.size + n > cap) cap *= 2;
    if (cap > this.cap) this.growTo(cap);
  }

  /** The ring's state into its block at byte `at` of its memory (seen as f64 and i32), for the Zone engine. */
  toBlock(f64: Float64Array, i32: Int32Array, at: number): void {
    f64[at >> 3] = this.sweepAt;
    i32[(at >> 2) + 2] = this.head;
    i32[(at >> 2) + 3] = this.size;
    i32[(at >> 2) + 4] = this.cap;
    i32[(at >> 2) + 5] = this.data;
  }

  /** What the Zone engine changed: the timers it pushed or swept (the head and size) and the sweep it armed. */
  fromBlock(f64: Float64Array, i32: Int32Array, at: number): void {
    this.sweepAt = f64[at >> 3];
    this.head = i32[(at >> 2) + 2];
    this.size = i32[(at >> 2) + 3];
  }

  /**
   * Arm a timer at `time` (integer ns) for (subject, tag); false when the
   * caller must post the exact event itself. `now`: the engine's clock, for
   * a caller that has it at hand.
   */
  push(time: number, subject: number, tag: number, now = this.engine.now): boolean {
    if (time < now + this.period) return false;
    if (this.size > 0 && time < this.time[(this.head + this.size - 1) & (this.cap - 1)]) return false;
    if (this.size === this.cap) this.growTo(this.cap * 2);
    const j = (this.head + this.size) & (this.cap - 1);
    this.time[j] = time;
    this.subject[j] = subject;
    this.tag[j] = tag;
    this.size++;
    if (this.sweepAt === Infinity) this.arm(Math.max(now, time - this.period + 1), now);
    return true;
  }

  /** Whether push(time, ...) now would ring the timer without posting anything (the ring holds one already, in order). */
  ringsQuietly(time: number): boolean {
    return this.size > 0 && time >= this.engine.now + this.period && time >= this.time[(this.head + this.size - 1) & (this.cap - 1)];
  }

  /** How many timers are due before `limit` (a binary search: the ring is in time order). */
  dueBefore(limit: number): number {
    let lo = 0, hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time[(this.head + mid) & (this.cap - 1)] < limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The sweep event: hand every timer due before now + period to `due`, then arm the next sweep. */
  sweep(due: (subject: number, time: number, tag: number) => void): void {
    const now = this.engine.now;
    if (now !== this.sweepAt) return; // superseded
    this.sweepAt = Infinity;
    const limit = now + this.period;
    while (this.size > 0 && this.time[this.head] < limit) {
      const s = this.subject[this.head], t = this.time[this.head], g = this.tag[this.head];
      this.head = (this.head + 1) & (this.cap - 1);
      this.size--;
      due(s, t, g);
    }
    if (this.size > 0) this.arm(Math.max(limit, this.time[this.head] - this.period + 1), now);
  }

  private arm(at: number, now: number): void {
    this.sweepAt = at;
    this.engine.post(at - now, this.kind, this.id);
  }

  /** The ring at capacity `cap` (a larger power of two), its records from the head on. */
  private growTo(cap: number): void {
    const time = this.inOrder(this.time), subject = this.inOrder(this.subject), tag = this.inOrder(this.tag);
    this.cap = cap;
    this.head = 0;
    if (this.memory === null) {
      this.time = new Float64Array(cap);
      this.subject = new Int32Array(cap);
      this.tag = new Int32Array(cap);
    } else {
      this.data = this.memory.alloc(16 * cap, 8); // may grow memory: the records were copied out first
      this.rebind();
    }
    this.time.set(time);
    this.subject.set(subject);
    this.tag.set(tag);
  }

  /** A column's records from the head on, copied out. */
  private inOrder<T extends Float64Array | Int32Array>(a: T): T {
    const n = this.size, h = this.head, first = Math.min(n, this.cap - h);
    const b = new (a.constructor as new (n: number) => T)(n);
    b.set(a.subarray(h, h + first) as ArrayLike<number> & T);
    b.set(a.subarray(0, n - first) as ArrayLike<number> & T, first);
    return b;
  }
}
