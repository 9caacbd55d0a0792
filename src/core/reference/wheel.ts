// TypeScript twin of assembly/wheel.ts: the same hierarchical timing wheel (6
// levels x 64 slots, tokio-style), the same status codes, and the same byte
// layout (docs/abi.md, "Timing wheel"), so after any sequence of calls a TimingWheel's
// `bytes` equal the WASM region byte for byte. It is the tests' oracle for the
// core and the fallback where WebAssembly is unavailable.
//
// u64 values (the wheel's time, deadlines, occupied bitmaps) are stored as two
// little-endian u32 words; ticks are integers < 2^53, exact in a JS number.
// No per-entry allocation: all state lives in one ArrayBuffer.
import { CoreError, Status } from "../status.js";
import { ctz32 } from "./bitmap.js";

export const WHEEL_LEVELS = 6;
export const WHEEL_SLOTS = 64;
/** Largest allowed deadline - now: one rotation of the top level. */
export const WHEEL_MAX_HORIZON = 2 ** 36 - 1;
export const WHEEL_MAX_CAPACITY = 2 ** 26;
/** Ticks are integers in [0, WHEEL_TICK_LIMIT). */
export const WHEEL_TICK_LIMIT = 2 ** 53;
export const WHEEL_MAGIC = 0x4c57484c;

/** Byte offsets of the region layout (see docs/abi.md, "Timing wheel"). */
export const WHEEL_LAYOUT = {
  magic: 0, // u32
  capacity: 4, // i32
  pending: 8, // i32
  now: 16, // u64
  sorted: 24, // u64: bit s set when level-0 slot s's list is ascending by id
  occupied: 32, // u64[6]
  heads: 80, // i32[6 * 64], -1 = empty slot
  entries: 1616, // u64 deadline[cap], i32 next[cap], i32 prev[cap], i32 where[cap]
} as const;

const NONE = -1;
const TWO32 = 4294967296;
// Word (4-byte) indices of the header fields.
const W_MAGIC = 0, W_CAP = 1, W_PENDING = 2, W_NOW = 4, W_SORTED = 6, W_OCC = 8, W_HEADS = 20, W_ENTRIES = 404;

/** Bytes of a wheel region for ids [0, capacity), or E_COUNT. */
export function wheelBytes(capacity: number): number {
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > WHEEL_MAX_CAPACITY) return Status.E_COUNT;
  return (WHEEL_LAYOUT.entries + capacity * 20 + 7) & ~7;
}

/** Byte offsets of the per-id arrays of a region of `capacity` ids. */
export function wheelLayout(capacity: number): { deadline: number; next: number; prev: number; where: number; bytes: number } {
  const e = WHEEL_LAYOUT.entries;
  return { deadline: e, next: e + 8 * capacity, prev: e + 12 * capacity, where: e + 16 * capacity, bytes: wheelBytes(capacity) };
}

/** A tick argument: an integer in [0, 2^53). */
export function isTick(t: number): boolean {
  return Number.isInteger(t) && t >= 0 && t < WHEEL_TICK_LIMIT;
}

/** Index of the highest set bit of the u64 (hi, lo); -1 for zero. */
function highBit(hi: number, lo: number): number {
  if (hi !== 0) return 63 - Math.clz32(hi);
  return lo !== 0 ? 31 - Math.clz32(lo) : -1;
}

/**
 * Level of `when` seen from `elapsed` (tokio's level_for): the level of the
 * highest differing bit, at least 0 (low 6 bits forced on); any difference above
 * bit 35 goes to the top level, whose slots then act as a ring.
 */
export function levelFor(elapsed: number, when: number): number {
  const hi = (Math.floor(elapsed / TWO32) ^ Math.floor(when / TWO32)) >>> 0;
  const lo = (((elapsed >>> 0) ^ (when >>> 0)) | 63) >>> 0;
  const bit = highBit(hi, lo);
  return bit >= 36 ? WHEEL_LEVELS - 1 : Math.floor(bit / 6);
}

/** Slot of `when` at `level`: bits [6 level, 6 level + 6) of the tick. */
export function slotFor(when: number, level: number): number {
  return Math.floor(when / 2 ** (6 * level)) & 63;
}

/** First set bit of the u64 (hi, lo) at or after `start`, cyclically (rotate + trailing zeros). */
export function firstSetFrom(lo: number, hi: number, start: number): number {
  if (start < 32) {
    const m = lo & (-1 << start);
    if (m !== 0) return ctz32(m);
    if (hi !== 0) return 32 + ctz32(hi);
    return ctz32(lo);
  }
  const m = hi & (-1 << (start - 32));
  if (m !== 0) return 32 + ctz32(m);
  if (lo !== 0) return ctz32(lo);
  return 32 + ctz32(hi);
}

/** Result of nextExpiration: the slot to process next and its start time. */
interface Expiration { level: number; slot: number; deadline: number }

export class TimingWheel {
  readonly capacity: number;
  /** The region, laid out exactly as the WASM core's. */
  readonly bytes: Uint8Array;
  private readonly i: Int32Array;
  private readonly u: Uint32Array;
  private readonly wNext: number;
  private readonly wPrev: number;
  private readonly wWhere: number;
  private readonly exp: Expiration = { level: -1, slot: 0, deadline: 0 };

  /** A wheel for ids [0, capacity) at time `now`; throws CoreError (E_COUNT, E_ARG) as wheelInit would return. */
  constructor(capacity: number, now = 0) {
    const size = wheelBytes(capacity);
    if (size < 0) throw new CoreError(size, "TimingWheel");
    if (!isTick(now)) throw new CoreError(Status.E_ARG, "TimingWheel");
    this.capacity = capacity;
    const buf = new ArrayBuffer(size);
    this.bytes = new Uint8Array(buf);
    this.i = new Int32Array(buf);
    this.u = new Uint32Array(buf);
    this.wNext = W_ENTRIES + 2 * capacity;
    this.wPrev = this.wNext + capacity;
    this.wWhere = this.wPrev + capacity;
    this.i.fill(NONE, W_HEADS, W_HEADS + WHEEL_LEVELS * WHEEL_SLOTS);
    this.i.fill(NONE, this.wNext, this.wWhere + capacity);
    this.u[W_MAGIC] = WHEEL_MAGIC;
    this.i[W_CAP] = capacity;
    this.setNow(now);
  }

  /** Ids scheduled now (scheduled - fired - cancelled). */
  get pending(): number { return this.i[W_PENDING]; }
  /** The wheel's time. */
  get now(): number { return this.u[W_NOW + 1] * TWO32 + this.u[W_NOW]; }
  private setNow(t: number): void { this.u[W_NOW] = t >>> 0; this.u[W_NOW + 1] = Math.floor(t / TWO32); }
  private deadline(id: number): number { return this.u[W_ENTRIES + 2 * id + 1] * TWO32 + this.u[W_ENTRIES + 2 * id]; }
  private okId(id: number): boolean { return Number.isInteger(id) && id >= 0 && id < this.capacity; }
  private scheduled(id: number): boolean { return (this.i[this.wWhere + id] >>> 0) < WHEEL_LEVELS * WHEEL_SLOTS; }
  private inRange(id: number): boolean { return (id >>> 0) < this.capacity; }

  /** Level an id sits at now (0..5), or -1 when it is not scheduled (for tests and diagnostics). */
  levelOf(id: number): number {
    if (!this.okId(id)) return Status.E_ID;
    return this.scheduled(id) ? this.i[this.wWhere + id] >> 6 : -1;
  }

  private link(id: number, when: number, elapsed: number): void {
    const { i, u } = this;
    const level = levelFor(elapsed, when);
    const slot = slotFor(when, level);
    const idx = (level << 6) | slot;
    const head = i[W_HEADS + idx];
    i[this.wNext + id] = head;
    i[this.wPrev + id] = NONE;
    if (this.inRange(head)) i[this.wPrev + head] = id;
    i[W_HEADS + idx] = id;
    i[this.wWhere + id] = idx;
    u[W_ENTRIES + 2 * id] = when >>> 0;
    u[W_ENTRIES + 2 * id + 1] = Math.floor(when / TWO32);
    u[W_OCC + 2 * level + (slot >> 5)] |= 1 << (slot & 31);
    if (level === 0) u[W_SORTED + (slot >> 5)] &= ~(1 << (slot & 31));
  }

  private unlink(id: number): void {
    const { i, u } = this;
    const idx = i[this.wWhere + id];
    i[this.wWhere + id] = NONE;
    if (idx >>> 0 >= WHEEL_LEVELS * WHEEL_SLOTS) return;
    let p = i[this.wPrev + id];
    let n = i[this.wNext + id];
    if (!this.inRange(p)) p = NONE;
    if (!this.inRange(n)) n = NONE;
    if (n !== NONE) i[this.wPrev + n] = p;
    if (p !== NONE) {
      i[this.wNext + p] = n;
    } else {
      i[W_HEADS + idx] = n;
      if (n === NONE) u[W_OCC + 2 * (idx >> 6) + ((idx & 63) >> 5)] &= ~(1 << (idx & 31));
    }
  }

  /** Next slot to process (see assembly/wheel.ts); level -1 when empty. */
  private nextExpiration(elapsed: number): Expiration {
    const e = this.exp;
    for (let level = 0; level < WHEEL_LEVELS; level++) {
      const lo = this.u[W_OCC + 2 * level], hi = this.u[W_OCC + 2 * level + 1];
      if (lo === 0 && hi === 0) continue;
      const nowSlot = slotFor(elapsed, level);
      const start = level === 0 ? nowSlot : (nowSlot + 1) & 63;
      const slot = firstSetFrom(lo, hi, start);
      const slotRange = 2 ** (6 * level), levelRange = slotRange * 64;
      let deadline = Math.floor(elapsed / levelRange) * levelRange + slot * slotRange;
      if (deadline < elapsed || (level > 0 && deadline === elapsed)) deadline += levelRange;
      e.level = level; e.slot = slot; e.deadline = deadline;
      return e;
    }
    e.level = -1;
    return e;
  }

  private place(id: number, when: number): number {
    const elapsed = this.now;
    if (when <= elapsed) return 1;
    if (when - elapsed > WHEEL_MAX_HORIZON) return Status.E_HORIZON;
    this.link(id, when, elapsed);
    this.i[W_PENDING]++;
    return 0;
  }

  /** 0 scheduled, 1 already due (not inserted), E_ID, E_ARG, E_CONFLICT, E_HORIZON. */
  schedule(id: number, deadline: number): number {
    if (!this.okId(id)) return Status.E_ID;
    if (!isTick(deadline)) return Status.E_ARG;
    if (this.scheduled(id)) return Status.E_CONFLICT;
    return this.place(id, deadline);
  }

  /** Cancel-then-schedule; on E_HORIZON (or any error) the old entry is kept. */
  reschedule(id: number, deadline: number): number {
    if (!this.okId(id)) return Status.E_ID;
    if (!isTick(deadline)) return Status.E_ARG;
    const elapsed = this.now;
    if (deadline > elapsed && deadline - elapsed > WHEEL_MAX_HORIZON) return Status.E_HORIZON;
    if (this.scheduled(id)) { this.unlink(id); this.i[W_PENDING]--; }
    return this.place(id, deadline);
  }

  /** 1 cancelled, 0 not scheduled, E_ID. */
  cancel(id: number): number {
    if (!this.okId(id)) return Status.E_ID;
    if (!this.scheduled(id)) return 0;
    this.unlink(id);
    this.i[W_PENDING]--;
    return 1;
  }

  /**
   * Move time to `now`, writing due ids into out[0 .. outCap) by deadline, then
   * ascending id; returns the count. When more are due than fit, the wheel's
   * time stops at the earliest deadline still due and a later call continues
   * (more is due iff 0 <= nextDeadline() <= now). outCap > out.length: E_BOUNDS.
   */
  advance(now: number, out: Int32Array, outCap: number = out.length): number {
    if (!Number.isInteger(outCap) || outCap < 0) return Status.E_COUNT;
    if (outCap > out.length) return Status.E_BOUNDS;
    if (!isTick(now)) return Status.E_ARG;
    let elapsed = this.now;
    if (now < elapsed) return Status.E_ARG;
    let n = 0;
    let guard = 6 * this.capacity + 2;
    while (guard-- > 0) {
      const e = this.nextExpiration(elapsed);
      if (e.level < 0 || e.deadline > now) { elapsed = now; break; }
      elapsed = e.deadline;
      if (e.level === 0) {
        if (n === outCap) break;
        n += this.fire(e.slot, out, n, outCap - n);
      } else {
        this.cascade(e.level, e.slot, elapsed);
      }
    }
    this.setNow(elapsed);
    return n;
  }

  /** Write up to `room` ids of level-0 slot `slot`, ascending, at out[at..] and unlink them (see assembly/wheel.ts). */
  private fire(slot: number, out: Int32Array, at: number, room: number): number {
    const word = W_SORTED + (slot >> 5), bit = 1 << (slot & 31);
    if ((this.u[word] & bit) === 0) {
      this.sortList(slot);
      this.u[word] |= bit;
    }
    let m = 0;
    while (m < room) {
      const id = this.i[W_HEADS + slot];
      if (!this.inRange(id)) break;
      out[at + m++] = id;
      this.unlink(id);
    }
    this.i[W_PENDING] -= m;
    return m;
  }

  /** Cut list `a` after its first `n` ids; returns the rest. */
  private cut(a: number, n: number): number {
    const next = this.i, o = this.wNext;
    if (a === NONE) return NONE;
    for (let j = 1; j < n; j++) {
      const nx = next[o + a];
      if (nx === NONE) return NONE;
      a = nx;
    }
    const rest = next[o + a];
    next[o + a] = NONE;
    return rest;
  }

  /** Bottom-up merge sort of slot `idx`'s list by id, in place (same steps as the WASM core). */
  private sortList(idx: number): void {
    const a = this.i, o = this.wNext;
    let head = a[W_HEADS + idx];
    let k = 0, last = NONE;
    for (let id = head; this.inRange(id) && k < this.capacity; id = a[o + id]) { last = id; k++; }
    if (k === 0) return;
    a[o + last] = NONE;
    for (let width = 1; width < k; width *= 2) {
      let cur = head, tail = NONE;
      head = NONE;
      while (cur !== NONE) {
        let x = cur;
        let y = this.cut(x, width);
        cur = this.cut(y, width);
        while (x !== NONE || y !== NONE) {
          let take: number;
          if (y === NONE || (x !== NONE && x < y)) { take = x; x = a[o + x]; } else { take = y; y = a[o + y]; }
          if (tail === NONE) head = take; else a[o + tail] = take;
          tail = take;
        }
      }
      a[o + tail] = NONE;
    }
    let p = NONE;
    for (let id = head; id !== NONE; id = a[o + id]) { a[this.wPrev + id] = p; p = id; }
    a[W_HEADS + idx] = head;
  }

  private cascade(level: number, slot: number, elapsed: number): void {
    const idx = (level << 6) | slot;
    let id = this.i[W_HEADS + idx];
    this.i[W_HEADS + idx] = NONE;
    this.u[W_OCC + 2 * level + (slot >> 5)] &= ~(1 << (slot & 31));
    let guard = this.capacity;
    while (this.inRange(id) && guard-- > 0) {
      const nx = this.i[this.wNext + id];
      this.link(id, this.deadline(id), elapsed);
      id = nx;
    }
  }

  /** Exact earliest deadline among scheduled ids, or +Infinity when none is. */
  nextDeadline(): number {
    const e = this.nextExpiration(this.now);
    if (e.level < 0) return Infinity;
    if (e.level === 0) return e.deadline;
    let best = Infinity;
    let id = this.i[W_HEADS + ((e.level << 6) | e.slot)];
    let guard = this.capacity;
    while (this.inRange(id) && guard-- > 0) {
      best = Math.min(best, this.deadline(id));
      id = this.i[this.wNext + id];
    }
    return best;
  }

  /** Deadline of `id`, +Infinity if not scheduled, E_ID. */
  deadlineOf(id: number): number {
    if (!this.okId(id)) return Status.E_ID;
    return this.scheduled(id) ? this.deadline(id) : Infinity;
  }
}
