// The simulator's event queue: a hierarchical timing wheel (tokio's layout)
// whose buckets are unsorted append-only record lists, and whose finest
// bucket is sorted only when it is opened.
//
// Workload: 10^6-10^7 events per simulated second, most a short fixed delay
// ahead (hops 0.05-1 ms, 1 ms windows, 10 ms reports), some 150-500 ms (TTLs,
// deadlines), service times with a heavy tail. A heap pays O(log n) levels,
// most of them cache misses, per event for n ~ 10^5-10^6 pending. Here an
// event is written once into the tail of a bucket list, read once when its
// bucket opens, and copied once per level it cascades through (most events
// through none or one), and every append lands on one of a few hundred hot
// list tails.
//
//   level 0:  S buckets of W ns        (W = 2^shift, S = 2^bits; default 16.4 us x 256 = 4.2 ms)
//   level 1:  S buckets of W S ns      (4.2 ms x 256 = 1.07 s)
//   level i:  S buckets of W S^i ns    (enough levels to cover every time below 2^53)
//
// With a = floor(t / W) an event's absolute bucket and `cur` the open one,
// an event with a > cur sits at the lowest level i whose aligned blocks of
// S^(i+1) buckets hold both a and cur, in bucket floor(a / S^i) mod S of
// that level; events with a <= cur are "late" and sit in a small heap. When
// run (the open bucket's records, sorted in place) and late are both
// consumed, openNext() opens the next level-0 bucket of the current block, or
// else cascades the first non-empty bucket of the lowest level that has one
// after cur's position: cur moves to that bucket's start and its records are
// refiled lower down, those of bucket cur into its own level-0 list, which is
// opened next.
//
// Why sorting by time alone yields (time, seq) order: records of one bucket
// sit in the order they arrived there. For a fixed absolute bucket, the level
// an event is filed at only decreases as cur advances, and a bucket is
// cascaded before anything is filed directly below it, so records arrive
// grouped by the level they were filed at, highest first, and each group is
// in push order. Push order is seq order, so among equal times the bucket
// order is seq order, and the stable sort of BucketLists.open keeps it. The
// run needs no seq at all, and against the late heap a tie goes to the run:
// every late event was pushed after the run's bucket was opened.
//
// Invariants (the property tests compare every pop with HeapQueue's): run and
// late hold exactly the events with a <= cur, so the smaller of their heads
// is the global minimum; every wheel record has a > cur (outside openNext,
// which briefly fills bucket cur's list by a cascade and opens it at once)
// and sits where the rule above puts it; run[pos, len) is in (time, seq)
// order.
//
// Cancellation: push() and postInto() events own a slot of a SlotStore;
// their record carries slot and generation. cancel() frees the slot at once;
// the record is dropped when it surfaces (or cascades), its generation no
// longer matching. post() events own no slot (slot -1) and skip that
// bookkeeping entirely.
//
// Nothing is allocated per event: arrays grow by doubling, rarely, and are
// reused; and no double (a time past 2^31 ns, a handle) is passed to a call
// V8 might not inline, since it would be boxed into a fresh heap number.
// Times travel as (bucket, offset) integer pairs, bounds sit in fields.
import { BucketLists, CHUNK, CHUNK_SHIFT } from "./bucket-lists.js";
import { badEvent, badPost, badPush, checkClock, MAX_QUEUE_TIME, okPayload, type EventQueue } from "./event-queue.js";
import { KeyedHeap } from "./keyed-heap.js";
import { growTyped, HANDLE_SCALE, SlotStore } from "./slot-store.js";
import { SortedRun } from "./sorted-run.js";

export interface CalendarOptions {
  /** Finest bucket width W = 2^bucketShift time units, 0..24 (default 14: 16.4 us). */
  bucketShift?: number;
  /** Buckets per level S = 2^levelBits, 5..12 (default 8: 256). */
  levelBits?: number;
  /** Initial slots for cancellable events (grows by doubling). */
  initialCapacity?: number;
  /** Initial clock (default 0). */
  start?: number;
}

export class CalendarQueue implements EventQueue {
  now = 0; // initialised here, as a number: a field that starts undefined stores doubles boxed
  size = 0;
  pushes = 0;
  kind = 0;
  subject = 0;

  readonly bucketShift: number;
  readonly levelBits: number;
  /** Enough levels that the top level's buckets cover every time below 2^53. */
  readonly levels: number;
  private readonly width: number;
  private readonly invWidth: number;
  private readonly perLevel: number;
  private readonly invPerLevel: number;
  private readonly mask: number;
  /** The open bucket a = floor(t / W), and its level-0 block floor(a / S). */
  private cur = 0;
  private curBlock = 0;
  /** floor(cur / S^2): the level-1 block. */
  private curBlock2 = 0;
  /** pop()'s bound, also openNext's (see there); a field, since a double argument would be boxed. */
  limit = Infinity;

  private readonly slots: SlotStore;
  private cap: number;
  /** Per slot: kind and subject of cancellable events in the late heap (wheel records carry their own). */
  private sKind: Int32Array;
  private sSubject: Int32Array;

  /** Every level's S buckets, level i at [i S, (i + 1) S). */
  private readonly wheel: BucketLists;
  private readonly run = new SortedRun(1024);
  /** Late events: item = slot, tag = generation (cancellable), or item = ~kind, tag = subject (posted). */
  private readonly late = new KeyedHeap(256);

  constructor(opts: CalendarOptions = {}) {
    const shift = opts.bucketShift ?? 14;
    const bits = opts.levelBits ?? 8;
    const start = opts.start ?? 0;
    if (!Number.isInteger(shift) || shift < 0 || shift > 24) throw new RangeError(`bucketShift ${shift} outside [0, 24]`);
    if (!Number.isInteger(bits) || bits < 5 || bits > 12) throw new RangeError(`levelBits ${bits} outside [5, 12]`);
    checkClock(start);
    this.bucketShift = shift;
    this.levelBits = bits;
    this.levels = Math.ceil((53 - shift) / bits);
    this.width = 2 ** shift;
    this.invWidth = 2 ** -shift;
    this.perLevel = 2 ** bits;
    this.invPerLevel = 2 ** -bits;
    this.mask = this.perLevel - 1;
    this.wheel = new BucketLists(this.levels * this.perLevel, shift);
    this.now = start;
    this.setCur(Math.floor(start * this.invWidth));
    this.slots = new SlotStore(opts.initialCapacity ?? 1024);
    this.cap = this.slots.capacity;
    this.sKind = new Int32Array(this.cap);
    this.sSubject = new Int32Array(this.cap);
  }

  push(t: number, kind: number, subject: number): number {
    if (!(t >= this.now && t <= MAX_QUEUE_TIME && Math.floor(t) === t && okPayload(kind, subject))) badPush(this.now, t, kind, subject);
    const slots = this.slots;
    const s = slots.alloc();
    if (s >= this.cap) this.growColumns();
    const a = Math.floor(t * this.invWidth);
    this.enqueue(a, t - a * this.width, kind, subject, s, slots.generation(s));
    return slots.handle(s);
  }

  post(delay: number, kind: number, subject: number): void {
    const t = this.now + delay;
    if (!(delay >= 0 && Math.floor(delay) === delay && t <= MAX_QUEUE_TIME && okPayload(kind, subject))) badPost(this.now, delay, kind, subject);
    const a = Math.floor(t * this.invWidth);
    this.enqueue(a, t - a * this.width, kind, subject, -1, 0);
  }

  postInto(delay: number, kind: number, subject: number, out: Float64Array, index: number): void {
    const t = this.now + delay;
    if (!(delay >= 0 && Math.floor(delay) === delay && t <= MAX_QUEUE_TIME && okPayload(kind, subject))) badPost(this.now, delay, kind, subject);
    const slots = this.slots;
    const s = slots.alloc();
    if (s >= this.cap) this.growColumns();
    const g = slots.generation(s);
    const a = Math.floor(t * this.invWidth);
    this.enqueue(a, t - a * this.width, kind, subject, s, g);
    out[index] = g * HANDLE_SCALE + s;
  }

  /**
   * File a validated event at time a W + rel (slot -1: posted). The time
   * travels as two integers, a < 2^31 for the first 9.7 hours of simulated
   * time at W = 16.4 us: a double argument would be boxed, an allocation per
   * event, wherever V8 does not inline a call.
   */
  private enqueue(a: number, rel: number, kind: number, subject: number, s: number, g: number): void {
    const q = this.pushes++;
    if (a > this.cur) {
      this.wheel.append(this.bucketOf(a), a, rel, kind, subject, s, g);
    } else if (s >= 0) {
      this.late.push(a * this.width + rel, q, s, g);
      this.sKind[s] = kind;
      this.sSubject[s] = subject;
    } else {
      this.late.push(a * this.width + rel, q, ~kind, subject);
    }
    this.size++;
  }

  /** Wheel bucket of absolute bucket a > cur (see the header). */
  private bucketOf(a: number): number {
    const inv = this.invPerLevel;
    const a1 = Math.floor(a * inv);
    if (a1 === this.curBlock) return a & this.mask; // level 0
    if (Math.floor(a1 * inv) === this.curBlock2) return this.perLevel + (a1 & this.mask); // level 1
    let x = a, y = this.cur, i = 0;
    for (; i < this.levels - 1; i++) {
      const xu = Math.floor(x * inv), yu = Math.floor(y * inv);
      if (xu === yu) break;
      x = xu;
      y = yu;
    }
    return i * this.perLevel + (x & this.mask);
  }

  cancelIn(column: Float64Array, index: number): boolean {
    return this.cancel(column[index]);
  }

  cancel(h: number): boolean {
    const s = this.slots.slotOf(h);
    if (s < 0) return false;
    this.slots.release(s);
    this.size--;
    return true;
  }

  isPending(h: number): boolean {
    return this.slots.slotOf(h) >= 0;
  }

  /** Whether a record (slot, generation) is still pending: posted, or its slot not cancelled. */
  private live(s: number, g: number): boolean {
    return s < 0 || this.slots.holds(s, g);
  }

  peekTime(): number {
    const run = this.run, late = this.late;
    for (;;) {
      const wheel = this.wheel;
      while (run.pos < run.len && !this.live(wheel.i32[6 * run.idx[run.pos] + 4], wheel.i32[6 * run.idx[run.pos] + 5])) run.pos++;
      while (late.size > 0 && !this.live(late.item[0], late.tag[0])) late.pop();
      const a = run.pos < run.len ? wheel.f64[3 * run.idx[run.pos]] : Infinity;
      const b = late.size > 0 ? late.time[0] : Infinity;
      if (a !== Infinity || b !== Infinity) return a < b ? a : b;
      const limit = this.limit;
      this.limit = Infinity;
      const opened = this.openNext();
      this.limit = limit;
      if (!opened) return Infinity;
    }
  }

  popBefore(limit: number): boolean {
    this.limit = limit;
    return this.pop();
  }

  pop(): boolean {
    const run = this.run, late = this.late, wheel = this.wheel, limit = this.limit;
    for (;;) {
      let fromLate: boolean;
      if (run.pos < run.len) {
        const lt = late.size > 0 ? late.time[0] : Infinity;
        const rt = wheel.f64[3 * run.idx[run.pos]];
        fromLate = lt < rt; // on equal times the run's event is older (header)
      } else if (late.size > 0) {
        fromLate = true;
      } else {
        if (!this.openNext()) return false;
        continue;
      }
      if (fromLate) {
        const s = late.item[0], g = late.tag[0];
        if (!this.live(s, g)) {
          late.pop(); // cancelled
          continue;
        }
        const t = late.time[0];
        if (!(t < limit)) return false;
        late.pop();
        this.now = t;
        if (s >= 0) {
          this.kind = this.sKind[s];
          this.subject = this.sSubject[s];
          this.slots.release(s);
        } else {
          this.kind = ~s;
          this.subject = g;
        }
      } else {
        const p = run.pos, r = run.idx[p], i32 = wheel.i32;
        const s = i32[6 * r + 4];
        if (!this.live(s, i32[6 * r + 5])) {
          run.pos = p + 1; // cancelled
          continue;
        }
        const t = wheel.f64[3 * r];
        if (!(t < limit)) return false;
        run.pos = p + 1;
        this.now = t;
        this.kind = i32[6 * r + 2];
        this.subject = i32[6 * r + 3];
        if (s >= 0) this.slots.release(s);
      }
      this.size--;
      return true;
    }
  }

  advance(t: number): void {
    checkClock(t);
    if (!(t >= this.now && t <= this.peekTime())) badEvent("advance to", t);
    this.now = t;
  }

  clear(): void {
    this.slots.clear();
    this.run.chain = -1; // its chunks go back with everything else
    this.run.len = this.run.pos = 0;
    this.wheel.clear();
    this.late.clear();
    this.size = 0;
  }

  /**
   * With run and late consumed, open the next non-empty bucket: the next one
   * in the current level-0 block, else cascade the first occupied bucket of
   * the lowest level that has one after cur's (cur moves to its start, its
   * records move down, those of bucket cur into level 0), and look again.
   * Never moves to a bucket that starts at or after this.limit (nothing in it
   * could be popped now, and staying keeps later pushes before it on the
   * wheel). False: nothing opened.
   */
  private openNext(): boolean {
    const wheel = this.wheel, occ = wheel.occ, S = this.perLevel, run = this.run, limit = this.limit;
    if (run.chain >= 0) wheel.close(run);
    for (;;) {
      const cur = this.cur;
      const i0 = cur & this.mask;
      // Bucket i0 itself is non-empty only right after a cascade into it.
      const j = occ.scan(i0, S);
      if (j >= 0) {
        const a = cur - i0 + j;
        if (a * this.width >= limit) return false;
        this.setCur(a);
        wheel.open(j, run, a, this.bucketShift);
        return true;
      }
      let cascaded = false;
      // span: level-0 buckets per level-i bucket (S^i)
      for (let i = 1, span = S; i < this.levels; i++, span *= S) {
        const idx = Math.floor(cur / span) & this.mask;
        const b = occ.scan(i * S + idx + 1, (i + 1) * S);
        if (b < 0) continue;
        const a = (Math.floor(cur / (span * S)) * S + (b - i * S)) * span;
        if (a * this.width >= limit) return false;
        this.setCur(a);
        this.cascade(b);
        cascaded = true;
        break;
      }
      if (!cascaded) return false;
    }
  }

  /**
   * Refile the records of wheel bucket b (above level 0) relative to the new
   * cur, in their order, dropping cancelled ones; records of bucket cur land
   * in its (empty) level-0 bucket, which openNext opens next.
   */
  private cascade(b: number): void {
    const wheel = this.wheel, first = wheel.first(b), end = wheel.end(b);
    wheel.detach(b); // its chunks stay ours until freeChain, so appends cannot reuse them
    for (let c = first; ; c = wheel.next(c)) {
      const r0 = c << CHUNK_SHIFT, r1 = ((end - 1) >> CHUNK_SHIFT) === c ? end : r0 + CHUNK;
      for (let r = r0; r < r1; r++) {
        const i32 = wheel.i32; // re-read: an append may grow the storage
        const s = i32[6 * r + 4], g = i32[6 * r + 5];
        if (!this.live(s, g)) continue;
        const t = wheel.f64[3 * r], a = Math.floor(t * this.invWidth);
        wheel.append(this.bucketOf(a), a, t - a * this.width, i32[6 * r + 2], i32[6 * r + 3], s, g);
      }
      if (r1 === end) break;
    }
    wheel.freeChain(first, end);
  }

  private setCur(a: number): void {
    this.cur = a;
    this.curBlock = Math.floor(a * this.invPerLevel);
    this.curBlock2 = Math.floor(this.curBlock * this.invPerLevel);
  }

  private growColumns(): void {
    this.cap = this.slots.capacity;
    this.sKind = growTyped(this.sKind, this.cap);
    this.sSubject = growTyped(this.sSubject, this.cap);
  }
}
