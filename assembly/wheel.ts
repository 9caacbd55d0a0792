// Hierarchical timing wheel (after tokio's runtime/time/wheel): 6 levels of 64
// slots; level L slot s covers 2^(6L) ticks. All state lives in a caller-provided
// region (layout below and in docs/abi.md, "Timing wheel"); nothing is allocated. The
// TypeScript twin src/core/reference/wheel.ts runs the same algorithm over the
// same byte layout, so both leave bit-identical regions.
//
// Invariants of a consistent wheel (E = the wheel's time, "elapsed"):
//  (I1) an entry of deadline d sits at level L = levelFor(E', d), slot
//       (d >> 6L) & 63, where E' is the time it was linked; E never passes the
//       start of an occupied slot without processing it, so while the entry
//       waits, E still agrees with d on all bits above level L (or, for the
//       top level only, d lies one rotation ahead: the "fudged" wrap).
//  (I2) level 0 entries satisfy d >= E and share E's 64-tick block, so every
//       entry of one level-0 slot has the same deadline;
//  (I3) at level L >= 1 an entry's slot starts strictly after E, so E's own
//       slot at that level holds only wrapped top-level entries;
//  (I4) every slot of a lower level expires before every slot of a higher one.
// Hence the next expiration is the first occupied slot, in rotation order from
// E's slot, of the lowest non-empty level (tokio's rotate + trailing zeros).
// Unlike tokio, levels >= 1 rotate from the slot after E's: tokio starts at E's
// own slot, so a wrapped top-level entry there would be found (one rotation
// ahead) before an entry of a later slot of the current rotation.
// Beyond tokio: ids due at one tick fire in ascending id order, and a full
// output buffer stops the wheel's time so the next call continues exactly.
import { checkBuf, E_ARG, E_CONFLICT, E_COUNT, E_HORIZON, E_ID, OK } from "./abi";

const LEVELS: i32 = 6;
const SLOTS: i32 = 64; // slots per level; 6 bits of the tick per level
const MAGIC: u32 = 0x4c57484c; // "LHWL" little-endian: region initialised
/** Deadlines at most this many ticks after the wheel's time: one top-level rotation. */
const MAX_HORIZON: u64 = (<u64>1 << 36) - 1;
const TICK_LIMIT: f64 = 9007199254740992.0; // 2^53: ticks are exact integers in f64
const MAX_CAPACITY: i32 = 1 << 26; // keeps wheelBytes(capacity) below 2^31

// Region layout, byte offsets from the region start (8-byte aligned).
const H_MAGIC: usize = 0; // u32
const H_CAP: usize = 4; // i32 capacity
const H_PENDING: usize = 8; // i32 entries scheduled now
const H_NOW: usize = 16; // u64 the wheel's time
const H_SORTED: usize = 24; // u64 bit s: level-0 slot s's list is ascending by id
const OCC: usize = 32; // u64[6] occupied-slot bitmap per level
const HEADS: usize = 80; // i32[384] first id of each slot list (level*64+slot), -1 = empty
const ENTRIES: usize = 1616; // u64 deadline[cap], i32 next[cap], prev[cap], where[cap]
const NONE: i32 = -1;

// Out-of-band results of nextExpiration (multi-value return without allocation).
let expSlot: i32 = 0;
let expDeadline: u64 = 0;

/** A tick argument: an integer-valued f64 in [0, 2^53). NaN fails every comparison. */
// @ts-ignore: decorator
@inline function tickOk(t: f64): bool {
  return t >= 0 && t < TICK_LIMIT && Math.floor(t) == t;
}

// @ts-ignore: decorator
@inline function bytesFor(cap: i32): i32 {
  return (<i32>ENTRIES + cap * 20 + 7) & ~7;
}

/**
 * Level for a deadline `when` seen from time `elapsed` (tokio's level_for):
 * the level of the highest bit where they differ; the low 6 bits are forced
 * on so level 0 is the minimum; a difference above bit 35 (only possible within
 * the horizon when `when` lies in the next 2^36 block) goes to the top level,
 * whose 64 slots then act as a ring.
 */
// @ts-ignore: decorator
@inline function levelFor(elapsed: u64, when: u64): i32 {
  const masked = (elapsed ^ when) | 63;
  if (masked > MAX_HORIZON) return LEVELS - 1;
  return (63 - <i32>clz(masked)) / 6;
}

/** Slot of `when` at `level`: its 6 bits of the tick for that level. */
// @ts-ignore: decorator
@inline function slotFor(when: u64, level: i32): i32 {
  return <i32>((when >> <u64>(level * 6)) & 63);
}

// Addresses of the per-id arrays and of a slot's list head.
// @ts-ignore: decorator
@inline function dlAt(w: usize, id: i32): usize { return w + ENTRIES + (<usize>id << 3); }
// @ts-ignore: decorator
@inline function nextAt(w: usize, cap: i32, id: i32): usize { return w + ENTRIES + (<usize>cap << 3) + (<usize>id << 2); }
// @ts-ignore: decorator
@inline function prevAt(w: usize, cap: i32, id: i32): usize { return w + ENTRIES + <usize>cap * 12 + (<usize>id << 2); }
// @ts-ignore: decorator
@inline function whereAt(w: usize, cap: i32, id: i32): usize { return w + ENTRIES + (<usize>cap << 4) + (<usize>id << 2); }
// @ts-ignore: decorator
@inline function headAt(w: usize, idx: i32): usize { return w + HEADS + (<usize>idx << 2); }
/** An id in [0, cap); also rejects NONE and any corrupted link. */
// @ts-ignore: decorator
@inline function inRange(i: i32, cap: i32): bool { return <u32>i < <u32>cap; }
/** where[id] is level*64 + slot for a scheduled id, NONE otherwise. */
// @ts-ignore: decorator
@inline function isScheduled(w: usize, cap: i32, id: i32): bool { return <u32>load<i32>(whereAt(w, cap, id)) < <u32>(LEVELS * SLOTS); }

/**
 * Validate an initialised wheel region; returns its capacity or an error code.
 * The magic word catches an uninitialised region; the capacity read back is
 * re-checked so a corrupted header can never direct a write outside memory.
 */
function open(w: usize): i32 {
  let e = checkBuf(w, <i32>(ENTRIES >> 3), 8);
  if (e != OK) return e;
  if (load<u32>(w, H_MAGIC) != MAGIC) return E_ARG;
  const cap = load<i32>(w, H_CAP);
  if (cap < 0 || cap > MAX_CAPACITY) return E_ARG;
  e = checkBuf(w, bytesFor(cap) >> 3, 8);
  if (e != OK) return e;
  return cap;
}

/** Push `id` (deadline `when`) at the head of its slot list as seen from `elapsed`. */
function link(w: usize, cap: i32, id: i32, when: u64, elapsed: u64): void {
  const level = levelFor(elapsed, when);
  const slot = slotFor(when, level);
  const idx = (level << 6) | slot;
  const head = load<i32>(headAt(w, idx));
  store<i32>(nextAt(w, cap, id), head);
  store<i32>(prevAt(w, cap, id), NONE);
  if (inRange(head, cap)) store<i32>(prevAt(w, cap, head), id);
  store<i32>(headAt(w, idx), id);
  store<i32>(whereAt(w, cap, id), idx);
  store<u64>(dlAt(w, id), when);
  const o = w + OCC + (<usize>level << 3);
  store<u64>(o, load<u64>(o) | (<u64>1 << <u64>slot));
  if (level == 0) store<u64>(w + H_SORTED, load<u64>(w + H_SORTED) & ~(<u64>1 << <u64>slot));
}

/** Remove a scheduled `id` from its slot list in O(1); clears the slot's bit when it empties. */
function unlink(w: usize, cap: i32, id: i32): void {
  const wa = whereAt(w, cap, id);
  const idx = load<i32>(wa);
  store<i32>(wa, NONE);
  if (<u32>idx >= <u32>(LEVELS * SLOTS)) return;
  let p = load<i32>(prevAt(w, cap, id));
  let n = load<i32>(nextAt(w, cap, id));
  if (!inRange(p, cap)) p = NONE;
  if (!inRange(n, cap)) n = NONE;
  if (n != NONE) store<i32>(prevAt(w, cap, n), p);
  if (p != NONE) {
    store<i32>(nextAt(w, cap, p), n);
  } else {
    store<i32>(headAt(w, idx), n);
    if (n == NONE) {
      const o = w + OCC + (<usize>(idx >> 6) << 3);
      store<u64>(o, load<u64>(o) & ~(<u64>1 << <u64>(idx & 63)));
    }
  }
}

/**
 * Next slot to process seen from `elapsed`: returns its level (or -1 when the
 * wheel is empty) and sets expSlot and expDeadline (the slot's start time).
 * Level 0 rotates from E's own slot (it may hold entries due exactly at E after
 * a partial advance); higher levels from the slot after E's (I3), so a wrapped
 * top-level entry in E's own slot comes last, one rotation ahead.
 */
function nextExpiration(w: usize, elapsed: u64): i32 {
  for (let level = 0; level < LEVELS; level++) {
    const occ = load<u64>(w + OCC + (<usize>level << 3));
    if (occ == 0) continue;
    const shift = <u64>(level * 6);
    const nowSlot = <i32>((elapsed >> shift) & 63);
    const start = level == 0 ? nowSlot : (nowSlot + 1) & 63;
    const slot = (start + <i32>ctz(rotr<u64>(occ, <u64>start))) & 63;
    const levelRange: u64 = <u64>1 << (shift + 6);
    let deadline = (elapsed & ~(levelRange - 1)) + (<u64>slot << shift);
    // A slot "behind" E is the next rotation (only wrapped top-level entries).
    if (deadline < elapsed || (level > 0 && deadline == elapsed)) deadline += levelRange;
    expSlot = slot;
    expDeadline = deadline;
    return level;
  }
  return -1;
}

/** Cut list `a` after its first `n` ids; returns the rest (NONE if none). */
function cut(w: usize, cap: i32, a: i32, n: i32): i32 {
  if (a == NONE) return NONE;
  for (let j = 1; j < n; j++) {
    const nx = load<i32>(nextAt(w, cap, a));
    if (nx == NONE) return NONE;
    a = nx;
  }
  const rest = load<i32>(nextAt(w, cap, a));
  store<i32>(nextAt(w, cap, a), NONE);
  return rest;
}

/**
 * Sort the list of slot `idx` ascending by id: bottom-up merge sort over the
 * next links, O(k log k), no scratch memory; prev links are rebuilt after.
 * The list is first cut after at most cap ids, so every loop is bounded even
 * on a corrupted region.
 */
function sortList(w: usize, cap: i32, idx: i32): void {
  let head = load<i32>(headAt(w, idx));
  let k = 0;
  let last = NONE;
  for (let i = head; inRange(i, cap) && k < cap; i = load<i32>(nextAt(w, cap, i))) { last = i; k++; }
  if (k == 0) return;
  store<i32>(nextAt(w, cap, last), NONE);
  for (let width = 1; width < k; width <<= 1) {
    let cur = head;
    let tail = NONE;
    head = NONE;
    while (cur != NONE) {
      let x = cur;
      let y = cut(w, cap, x, width);
      cur = cut(w, cap, y, width);
      while (x != NONE || y != NONE) {
        let take: i32;
        if (y == NONE || (x != NONE && x < y)) { take = x; x = load<i32>(nextAt(w, cap, x)); }
        else { take = y; y = load<i32>(nextAt(w, cap, y)); }
        if (tail == NONE) head = take; else store<i32>(nextAt(w, cap, tail), take);
        tail = take;
      }
    }
    store<i32>(nextAt(w, cap, tail), NONE);
  }
  let p = NONE;
  for (let i = head; i != NONE; i = load<i32>(nextAt(w, cap, i))) {
    store<i32>(prevAt(w, cap, i), p);
    p = i;
  }
  store<i32>(headAt(w, idx), head);
}

/**
 * Fire level-0 slot `slot` (all its ids are due at E, I2): write up to `room`
 * of its ids, ascending, at `dst` and unlink them. The slot's list is sorted
 * once and its bit set in the sorted bitmap (cleared by any link into the
 * slot), so when `room` runs out the rest stay in order and a continuing call
 * pops from the head: draining k ids costs O(k log k) in total for any outCap.
 */
function fire(w: usize, cap: i32, slot: i32, dst: usize, room: i32): i32 {
  const bit: u64 = <u64>1 << <u64>slot;
  const sorted = load<u64>(w + H_SORTED);
  if ((sorted & bit) == 0) {
    sortList(w, cap, slot);
    store<u64>(w + H_SORTED, sorted | bit);
  }
  let m = 0;
  while (m < room) {
    const i = load<i32>(headAt(w, slot)); // level 0: idx == slot
    if (!inRange(i, cap)) break;
    store<i32>(dst + (<usize>m << 2), i);
    unlink(w, cap, i);
    m++;
  }
  store<i32>(w + H_PENDING, load<i32>(w + H_PENDING) - m);
  return m;
}

/** Empty slot (level, slot) and relink each entry from `elapsed` (its slot start): it moves down. */
function cascade(w: usize, cap: i32, level: i32, slot: i32, elapsed: u64): void {
  const ha = headAt(w, (level << 6) | slot);
  let i = load<i32>(ha);
  store<i32>(ha, NONE);
  const o = w + OCC + (<usize>level << 3);
  store<u64>(o, load<u64>(o) & ~(<u64>1 << <u64>slot));
  let guard = cap;
  while (inRange(i, cap) && guard-- > 0) {
    const nx = load<i32>(nextAt(w, cap, i));
    link(w, cap, i, load<u64>(dlAt(w, i)), elapsed);
    i = nx;
  }
}

/** Link `id` at `when` unless already due (returns 1) or beyond the horizon. */
function place(w: usize, cap: i32, id: i32, when: u64): i32 {
  const elapsed = load<u64>(w, H_NOW);
  if (when <= elapsed) return 1;
  if (when - elapsed > MAX_HORIZON) return E_HORIZON;
  link(w, cap, id, when, elapsed);
  store<i32>(w + H_PENDING, load<i32>(w + H_PENDING) + 1);
  return 0;
}

/** Bytes of a wheel region for ids [0, capacity) (a multiple of 8); E_COUNT if capacity is outside [0, 2^26]. */
export function wheelBytes(capacity: i32): i32 {
  if (capacity < 0 || capacity > MAX_CAPACITY) return E_COUNT;
  return bytesFor(capacity);
}

/** Initialise (or reset) the wheel at `w` (8-byte aligned, wheelBytes(capacity) long) with time `now`. */
export function wheelInit(w: usize, capacity: i32, now: f64): i32 {
  if (capacity < 0 || capacity > MAX_CAPACITY) return E_COUNT;
  const e = checkBuf(w, bytesFor(capacity) >> 3, 8);
  if (e != OK) return e;
  if (!tickOk(now)) return E_ARG;
  // Every byte is defined (header, bitmaps, deadlines, tail padding = 0), so the
  // region is a pure function of the calls made: the twin's image matches it.
  memory.fill(w, 0, <usize>bytesFor(capacity));
  memory.fill(w + HEADS, 0xff, <usize>(LEVELS * SLOTS) << 2); // every slot empty (-1)
  memory.fill(w + ENTRIES + (<usize>capacity << 3), 0xff, <usize>capacity * 12); // next, prev, where = -1
  store<u32>(w + H_MAGIC, MAGIC);
  store<i32>(w + H_CAP, capacity);
  store<u64>(w + H_NOW, <u64>now);
  return OK;
}

/** Schedule `id` at `deadline`: 0, or 1 if already due (not inserted: the caller fires it). */
export function wheelSchedule(w: usize, id: i32, deadline: f64): i32 {
  const cap = open(w);
  if (cap < 0) return cap;
  if (!inRange(id, cap)) return E_ID;
  if (!tickOk(deadline)) return E_ARG;
  // Conflict before "due": answering 1 for a scheduled id would fire it twice.
  if (isScheduled(w, cap, id)) return E_CONFLICT;
  return place(w, cap, id, <u64>deadline);
}

/** Cancel-then-schedule `id` (1: cancelled and due, the caller fires it); on E_HORIZON nothing changes. */
export function wheelReschedule(w: usize, id: i32, deadline: f64): i32 {
  const cap = open(w);
  if (cap < 0) return cap;
  if (!inRange(id, cap)) return E_ID;
  if (!tickOk(deadline)) return E_ARG;
  const when = <u64>deadline;
  const elapsed = load<u64>(w, H_NOW);
  if (when > elapsed && when - elapsed > MAX_HORIZON) return E_HORIZON;
  if (isScheduled(w, cap, id)) {
    unlink(w, cap, id);
    store<i32>(w + H_PENDING, load<i32>(w + H_PENDING) - 1);
  }
  return place(w, cap, id, when);
}

/** Cancel `id`: 1 cancelled, 0 was not scheduled, E_ID. O(1) at any level. */
export function wheelCancel(w: usize, id: i32): i32 {
  const cap = open(w);
  if (cap < 0) return cap;
  if (!inRange(id, cap)) return E_ID;
  if (!isScheduled(w, cap, id)) return 0;
  unlink(w, cap, id);
  store<i32>(w + H_PENDING, load<i32>(w + H_PENDING) - 1);
  return 1;
}

/**
 * Move the wheel's time to `now`, writing due ids to `out: i32[outCap]` by
 * deadline, ascending id within a tick; returns how many. If more are due than
 * fit, the time stops at the earliest deadline still due and the next call
 * continues there (docs/abi.md, "Timing wheel", "Continuation"); otherwise it becomes `now`.
 */
export function wheelAdvance(w: usize, now: f64, out: usize, outCap: i32): i32 {
  if (outCap < 0) return E_COUNT;
  const cap = open(w);
  if (cap < 0) return cap;
  const e = checkBuf(out, outCap, 4);
  if (e != OK) return e;
  const outEnd: u64 = <u64>out + (<u64>outCap << 2);
  if (<u64>out < <u64>w + <u64>bytesFor(cap) && <u64>w < outEnd) return E_ARG;
  if (!tickOk(now)) return E_ARG;
  const target = <u64>now;
  let elapsed = load<u64>(w, H_NOW);
  if (target < elapsed) return E_ARG;
  let n = 0;
  // Each pass fires >= 1 id, moves >= 1 id down a level (<= 5 times per id),
  // or stops, so 6 * cap + 2 passes bound the loop even on a corrupted region.
  let guard = 6 * cap + 2;
  while (guard-- > 0) {
    const level = nextExpiration(w, elapsed);
    if (level < 0 || expDeadline > target) { elapsed = target; break; }
    elapsed = expDeadline; // never passes an unprocessed slot (I1)
    if (level == 0) {
      if (n == outCap) break; // out is full: stop at the earliest due deadline
      n += fire(w, cap, expSlot, out + (<usize>n << 2), outCap - n);
    } else {
      cascade(w, cap, level, expSlot, elapsed);
    }
  }
  store<u64>(w + H_NOW, elapsed);
  return n;
}

/** Exact earliest deadline among scheduled ids (f64), or +Infinity when none is scheduled. */
export function wheelNextDeadline(w: usize): f64 {
  const cap = open(w);
  if (cap < 0) return <f64>cap;
  const level = nextExpiration(w, load<u64>(w, H_NOW));
  if (level < 0) return Infinity;
  if (level == 0) return <f64>expDeadline; // one deadline per level-0 slot (I2)
  // (I4): the minimum is in this slot; its entries span the slot's range.
  let best: u64 = <u64>-1;
  let i = load<i32>(headAt(w, (level << 6) | expSlot));
  let guard = cap;
  while (inRange(i, cap) && guard-- > 0) {
    const d = load<u64>(dlAt(w, i));
    if (d < best) best = d;
    i = load<i32>(nextAt(w, cap, i));
  }
  return <f64>best;
}

/** Deadline of `id` (f64), +Infinity if it is not scheduled, E_ID. */
export function wheelDeadlineOf(w: usize, id: i32): f64 {
  const cap = open(w);
  if (cap < 0) return <f64>cap;
  if (!inRange(id, cap)) return <f64>E_ID;
  if (!isScheduled(w, cap, id)) return Infinity;
  return <f64>load<u64>(dlAt(w, id));
}

/** Ids scheduled now (scheduled - fired - cancelled). */
export function wheelPending(w: usize): i32 {
  const cap = open(w);
  if (cap < 0) return cap;
  return load<i32>(w + H_PENDING);
}

/** The wheel's time (f64 holding an integer tick). */
export function wheelNow(w: usize): f64 {
  const cap = open(w);
  if (cap < 0) return <f64>cap;
  return <f64>load<u64>(w + H_NOW);
}
