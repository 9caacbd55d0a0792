// The engine's pending events, in (time, seq) order with seq the block's
// count of scheduled events, so simultaneous events run in the order they
// were scheduled (as on the TypeScript engine, src/sim/engine.ts), whoever
// scheduled them, the engine or the host. (In lag mode, history.ts, the
// count goes in steps, and the host may schedule an event with a number
// between two of the engine's own: pushSeq.)
//
// A timing wheel of S buckets of W ns over [cur, cur + S) (cur: the open
// bucket, absolute), a second wheel of S2 coarse buckets of R of those
// beyond it, and a 4-ary heap for what lies beyond both. Most events
// are a hop, a window or a batch ahead: they are appended to their bucket
// in O(1); a bucket is sorted when it opens, into the run, which pop reads
// in order. A run call opens no bucket that starts at or after its end;
// an event for the open bucket or an earlier one (the host posts after a
// run call has opened a later bucket) is inserted into the run in order.
// A long task's completion (tens to hundreds of milliseconds ahead) goes to
// the coarse wheel, also in O(1): coarse bucket c holds fine buckets
// [cR, cR + R), and once the fine wheel's span takes all of them in, its
// events move to their fine buckets (an append each). The coarse wheel
// holds coarse buckets [L, L + S2), L = floor((cur + S) / R), the first not
// yet wholly inside the fine span. When the wheels move on, the heap's
// events that fall inside their new spans move to their buckets, so every
// heap event lies past both.
//
// A bucket is a list of 64-byte blocks (one cache line) of two events each:
// events posted at about the same time for about the same time share a
// block, so a bucket opens with a miss per two events, not one per event.
// The list's links are in an array of their own (4 bytes a block, mostly in
// cache), not in the blocks: a bucket's blocks are all read at once when it
// opens, so their misses overlap instead of each waiting for the one before.
//
// One region of the host's (queueBytes(cap)) holds it all for up to cap
// pending events: the blocks, the run, the heap, both wheels' buckets'
// first and last blocks, a bit per non-empty bucket, and the blocks' links.
import {
  EV_BYTES, F_FAR_SIZE, F_HEAP, F_HEAP_CAP, F_HEAP_SIZE, F_NOW, F_POOL_FREE, F_POOL_FRESH, F_Q_CUR, F_RUN_LEN, F_RUN_POS,
  F_SEQ, F_SEQ_STEP, F_WHEEL_N, F_WHEEL2_N,
} from "./layout";
import { QUEUE_COUNTS } from "./scratch";
import { copyWords, E, getf, geti, ptr, seti, setf } from "./state";

const SHIFT: i32 = 9;
const W: f64 = <f64>(1 << SHIFT);
const INV_W: f64 = 1.0 / W;
const S: i32 = 32768;
const MASK: i32 = S - 1;
/** The coarse wheel: S2 buckets of R = 2^R_SHIFT fine ones (262 us each; the two wheels reach about 1.09 s ahead). */
const R_SHIFT: i32 = 9;
const INV_R: f64 = 1.0 / <f64>(1 << R_SHIFT);
const S2: i32 = 4096;
const MASK2: i32 = S2 - 1;
/** A block: 4 bytes unused, events in it (i32), two event records, 8 bytes unused (its link: linkAt). */
const BLOCK: usize = 64;
const B_N: usize = 4, B_REC: usize = 8;

// the region's parts for cap events (base: 64-aligned; a block per event at most, as a block is never empty)
// @ts-ignore: decorator
@inline function blockAt(base: usize, i: i32): usize { return base + <usize>i * BLOCK; }
// @ts-ignore: decorator
@inline function runAt(base: usize, cap: i32, i: i32): usize { return base + <usize>cap * BLOCK + <usize>i * EV_BYTES; }
// @ts-ignore: decorator
@inline function farAt(base: usize, cap: i32, i: i32): usize { return base + <usize>cap * (BLOCK + EV_BYTES) + <usize>i * EV_BYTES; }
// @ts-ignore: decorator
@inline function bucketsAt(base: usize, cap: i32): usize { return base + <usize>cap * (BLOCK + 2 * <usize>EV_BYTES); }
// @ts-ignore: decorator
@inline function bitsAt(base: usize, cap: i32): usize { return bucketsAt(base, cap) + (<usize>S << 3); }
/** The coarse wheel's buckets (as the fine wheel's: first and last block) and its bits. */
// @ts-ignore: decorator
@inline function buckets2At(base: usize, cap: i32): usize { return bitsAt(base, cap) + (<usize>S >> 3); }
// @ts-ignore: decorator
@inline function bits2At(base: usize, cap: i32): usize { return buckets2At(base, cap) + (<usize>S2 << 3); }
/** Bytes of both wheels' buckets and bits (one stretch, from bucketsAt). */
const WHEELS_BYTES: usize = (<usize>S << 3) + (<usize>S >> 3) + (<usize>S2 << 3) + (<usize>S2 >> 3);
/** Block i's link: the next block of its bucket, or of the free list (-1: none). */
// @ts-ignore: decorator
@inline function linkAt(base: usize, cap: i32, i: i32): usize { return bucketsAt(base, cap) + WHEELS_BYTES + (<usize>i << 2); }
/** The region's first 64-byte line (the host's regions are 16-aligned: 48 bytes of slack). */
// @ts-ignore: decorator
@inline function aligned(p: usize): usize { return (p + 63) & ~<usize>63; }

/** Bytes of a queue region for cap events. */
export function queueBytes(cap: i32): i32 {
  return 48 + cap * (<i32>BLOCK + 2 * EV_BYTES + 4) + <i32>WHEELS_BYTES;
}

/** An empty queue in the region at p (cap events), the clock at 0. */
export function queueInit(p: usize, cap: i32): void {
  const base = aligned(p);
  seti(F_HEAP, <i32>base);
  seti(F_HEAP_CAP, cap);
  seti(F_HEAP_SIZE, 0);
  setf(F_Q_CUR, 0);
  seti(F_RUN_POS, 0);
  seti(F_RUN_LEN, 0);
  seti(F_POOL_FREE, -1);
  seti(F_POOL_FRESH, 0);
  seti(F_FAR_SIZE, 0);
  seti(F_WHEEL_N, 0);
  seti(F_WHEEL2_N, 0);
  const b = bucketsAt(base, cap), b2 = buckets2At(base, cap);
  for (let i = 0; i < S; i++) {
    store<i32>(b + (<usize>i << 3), -1);
    store<i32>(b + (<usize>i << 3), -1, 4);
  }
  memory.fill(bitsAt(base, cap), 0, <usize>(S >> 3));
  for (let i = 0; i < S2; i++) {
    store<i32>(b2 + (<usize>i << 3), -1);
    store<i32>(b2 + (<usize>i << 3), -1, 4);
  }
  memory.fill(bits2At(base, cap), 0, <usize>(S2 >> 3));
}

/** Move the queue into a new region (at p, for cap >= its size); the old one is the host's to reuse. */
export function queueMove(p: usize, cap: i32): void {
  const base = aligned(p), old = ptr(F_HEAP), oc = geti(F_HEAP_CAP);
  const runLen = geti(F_RUN_LEN), pos = geti(F_RUN_POS);
  memory.copy(blockAt(base, 0), blockAt(old, 0), <usize>geti(F_POOL_FRESH) * BLOCK);
  memory.copy(runAt(base, cap, 0), runAt(old, oc, pos), <usize>(runLen - pos) * EV_BYTES);
  seti(F_RUN_POS, 0);
  seti(F_RUN_LEN, runLen - pos);
  memory.copy(farAt(base, cap, 0), farAt(old, oc, 0), <usize>geti(F_FAR_SIZE) * EV_BYTES);
  memory.copy(bucketsAt(base, cap), bucketsAt(old, oc), WHEELS_BYTES);
  memory.copy(linkAt(base, cap, 0), linkAt(old, oc, 0), <usize>geti(F_POOL_FRESH) << 2);
  seti(F_HEAP, <i32>base);
  seti(F_HEAP_CAP, cap);
}

/** Copy one event record (in 8-byte words: no bulk-memory call for 24 bytes). */
// @ts-ignore: decorator
@inline function copyRec(dst: usize, src: usize): void { copyWords(dst, src, EV_BYTES); }

/** Move run records [i, len) one place up (from the end: the ranges overlap). */
// @ts-ignore: decorator
@inline function shiftUp(base: usize, cap: i32, i: i32, len: i32): void {
  for (let j = len; j > i; j--) copyRec(runAt(base, cap, j), runAt(base, cap, j - 1));
}

// @ts-ignore: decorator
@inline function write(p: usize, time: f64, seq: f64, kind: i32, subject: i32): void {
  store<f64>(p, time);
  store<f64>(p, seq, 8);
  store<i32>(p, kind, 16);
  store<i32>(p, subject, 20);
}

// @ts-ignore: decorator
@inline function before(p: usize, q: usize): bool {
  const tp = load<f64>(p), tq = load<f64>(q);
  return tp < tq || (tp == tq && load<f64>(p, 8) < load<f64>(q, 8));
}

/** Schedule (kind, subject) at absolute time `time` (>= now); the caller has checked the room. */
export function push(time: f64, kind: i32, subject: i32): void {
  const seq = getf(F_SEQ);
  setf(F_SEQ, seq + getf(F_SEQ_STEP));
  pushSeq(time, seq, kind, subject);
}

/** Schedule (kind, subject) at `time` with sequence number `seq` (lag mode's replayed posts, history.ts); room checked. */
// @ts-ignore: decorator
@inline export function pushSeq(time: f64, seq: f64, kind: i32, subject: i32): void {
  const base = ptr(F_HEAP), cap = geti(F_HEAP_CAP);
  seti(F_HEAP_SIZE, geti(F_HEAP_SIZE) + 1);
  const b = Math.floor(time * INV_W), cur = getf(F_Q_CUR);
  if (b <= cur) runInsert(base, cap, time, seq, kind, subject);
  else if (b < cur + <f64>S) wheelAppend(base, cap, <i32>(<i64>b & MASK), time, seq, kind, subject);
  else beyond(base, cap, b, cur, time, seq, kind, subject);
}

/** An event past the fine wheel's span (fine bucket b >= cur + S): into its coarse bucket, or the heap past that wheel's span. */
function beyond(base: usize, cap: i32, b: f64, cur: f64, time: f64, seq: f64, kind: i32, subject: i32): void {
  const c = Math.floor(b * INV_R);
  if (c < Math.floor((cur + <f64>S) * INV_R) + <f64>S2) {
    seti(F_WHEEL2_N, geti(F_WHEEL2_N) + 1);
    append(base, cap, buckets2At(base, cap), bits2At(base, cap), <i32>(<i64>c & MASK2), time, seq, kind, subject);
  } else farPush(base, cap, time, seq, kind, subject);
}

/** Schedule `delay` ns from now. */
// @ts-ignore: decorator
@inline export function post(delay: f64, kind: i32, subject: i32): void {
  push(load<f64>(E) + delay, kind, subject);
}

/** Into the run, in (time, seq) order. */
function runInsert(base: usize, cap: i32, time: f64, seq: f64, kind: i32, subject: i32): void {
  let pos = geti(F_RUN_POS), len = geti(F_RUN_LEN);
  if (len == cap) {
    memory.copy(runAt(base, cap, 0), runAt(base, cap, pos), <usize>(len - pos) * EV_BYTES);
    len -= pos;
    pos = 0;
    seti(F_RUN_POS, 0);
  }
  let i = len;
  // after every event at an earlier time, or at the same time with a smaller seq (a lag-mode replayed post's seq may be smaller)
  while (i > pos) {
    const q = runAt(base, cap, i - 1), tq = load<f64>(q);
    if (tq < time || (tq == time && load<f64>(q, 8) < seq)) break;
    i--;
  }
  shiftUp(base, cap, i, len);
  write(runAt(base, cap, i), time, seq, kind, subject);
  seti(F_RUN_LEN, len + 1);
}

/**
 * Append to bucket `slot`: into its last block when that has room, else into
 * a new block at the end of its list. The bucket's second word is its last
 * block times two, plus one once that block is full (-1: no block), so an
 * append reads nothing of a block written long ago: it only writes there.
 */
// @ts-ignore: decorator
@inline function wheelAppend(base: usize, cap: i32, slot: i32, time: f64, seq: f64, kind: i32, subject: i32): void {
  seti(F_WHEEL_N, geti(F_WHEEL_N) + 1);
  append(base, cap, bucketsAt(base, cap), bitsAt(base, cap), slot, time, seq, kind, subject);
}

/** wheelAppend's work on either wheel, whose buckets and bits lie at `heads` and `bits`. */
// @ts-ignore: decorator
@inline function append(base: usize, cap: i32, heads: usize, bits: usize, slot: i32, time: f64, seq: f64, kind: i32, subject: i32): void {
  const bk = heads + (<usize>slot << 3), last = load<i32>(bk, 4);
  if (last >= 0 && (last & 1) == 0) {
    const t = blockAt(base, last >> 1);
    store<i32>(t, 2, B_N);
    write(t + B_REC + EV_BYTES, time, seq, kind, subject);
    store<i32>(bk, last | 1, 4);
    return;
  }
  let r = geti(F_POOL_FREE);
  if (r >= 0) seti(F_POOL_FREE, load<i32>(linkAt(base, cap, r)));
  else {
    r = geti(F_POOL_FRESH);
    seti(F_POOL_FRESH, r + 1);
  }
  const b = blockAt(base, r);
  store<i32>(linkAt(base, cap, r), -1);
  store<i32>(b, 1, B_N);
  write(b + B_REC, time, seq, kind, subject);
  if (last < 0) {
    store<i32>(bk, r);
    const w = bits + (<usize>(slot >> 6) << 3);
    store<u64>(w, load<u64>(w) | (<u64>1 << <u64>(slot & 63)));
  } else store<i32>(linkAt(base, cap, last >> 1), r);
  store<i32>(bk, r << 1, 4);
}

function farPush(base: usize, cap: i32, time: f64, seq: f64, kind: i32, subject: i32): void {
  let i = geti(F_FAR_SIZE);
  seti(F_FAR_SIZE, i + 1);
  while (i > 0) {
    const p = (i - 1) >> 2, pp = farAt(base, cap, p);
    const tp = load<f64>(pp);
    if (tp < time || (tp == time && load<f64>(pp, 8) < seq)) break;
    copyRec(farAt(base, cap, i), pp);
    i = p;
  }
  write(farAt(base, cap, i), time, seq, kind, subject);
}

/** Remove the heap's first event into `dst`. */
function farPop(base: usize, cap: i32, dst: usize): void {
  copyRec(dst, farAt(base, cap, 0));
  const n = geti(F_FAR_SIZE) - 1;
  seti(F_FAR_SIZE, n);
  if (n == 0) return;
  const last = farAt(base, cap, n);
  let i = 0;
  for (;;) {
    const c0 = (i << 2) + 1;
    if (c0 >= n) break;
    let c = c0;
    const cEnd = min(c0 + 4, n);
    for (let j = c0 + 1; j < cEnd; j++) if (before(farAt(base, cap, j), farAt(base, cap, c))) c = j;
    if (before(last, farAt(base, cap, c))) break;
    copyRec(farAt(base, cap, i), farAt(base, cap, c));
    i = c;
  }
  if (i != n) copyRec(farAt(base, cap, i), last);
}

/** Block r back on the free list (its events read: a bucket opened or cascaded). */
// @ts-ignore: decorator
@inline function freeBlock(base: usize, cap: i32, r: i32): void {
  store<i32>(linkAt(base, cap, r), geti(F_POOL_FREE));
  seti(F_POOL_FREE, r);
}

/** The first set bit of a wheel's n bits at bit p or after, else from bit 0 (-1: none). */
function firstSet(bits: usize, n: i32, p: i32): i32 {
  for (let pass = 0; pass < 2; pass++) {
    const from = pass == 0 ? p : 0, to = pass == 0 ? n : p;
    if (from >= to) continue;
    let w = from >> 6;
    let word = load<u64>(bits + (<usize>w << 3)) & (~(<u64>0) << <u64>(from & 63));
    for (;;) {
      if (word != 0) {
        const j = (w << 6) + <i32>ctz(word);
        if (j < to) return j;
        break;
      }
      w++;
      if ((w << 6) >= to) break;
      word = load<u64>(bits + (<usize>w << 3));
    }
  }
  return -1;
}

/**
 * The run is empty and an event is pending: the next bucket (absolute) that
 * has one. With the fine wheel empty: the fine bucket of the coarse wheel's
 * earliest event or of the heap's first, whichever comes first.
 */
function nextBucket(base: usize, cap: i32): f64 {
  const cur = getf(F_Q_CUR);
  if (geti(F_WHEEL_N) != 0) {
    const p = <i32>((<i64>cur + 1) & MASK);
    return cur + 1 + <f64>((firstSet(bitsAt(base, cap), S, p) - p) & MASK);
  }
  let next = Infinity;
  if (geti(F_FAR_SIZE) > 0) next = Math.floor(load<f64>(farAt(base, cap, 0)) * INV_W);
  if (geti(F_WHEEL2_N) != 0) {
    // the coarse wheel's first non-empty bucket holds its earliest events
    const p = <i32>(<i64>Math.floor((cur + <f64>S) * INV_R) & MASK2);
    const slot = firstSet(bits2At(base, cap), S2, p);
    for (let r = load<i32>(buckets2At(base, cap) + (<usize>slot << 3)); r >= 0; r = load<i32>(linkAt(base, cap, r))) {
      const q = blockAt(base, r);
      for (let e = 0, k = load<i32>(q, B_N); e < k; e++) next = Math.min(next, Math.floor(load<f64>(q + B_REC + <usize>e * EV_BYTES) * INV_W));
    }
  }
  return next;
}

/** What advance's reads of a bucket's blocks read (kept, so that they are not dropped as dead). */
let touched: i32 = 0;

/** The run is empty and an event is pending: open bucket `cur` (nextBucket's; moving the coarse wheel's and the heap's events in range first). */
function advance(base: usize, cap: i32, cur: f64): void {
  const limit = cur + <f64>S, from = Math.floor((getf(F_Q_CUR) + <f64>S) * INV_R), to = Math.floor(limit * INV_R);
  setf(F_Q_CUR, cur);
  // the coarse buckets now wholly inside the fine span go to their fine buckets
  if (to > from && geti(F_WHEEL2_N) != 0) cascade(base, cap, from, Math.min(to, from + <f64>S2));
  // the heap's events inside the new spans go to their buckets
  const tmp = runAt(base, cap, 0);
  while (geti(F_FAR_SIZE) > 0 && Math.floor(load<f64>(farAt(base, cap, 0)) * INV_W * INV_R) < to + <f64>S2) {
    farPop(base, cap, tmp); // the run is empty: its first record is scratch
    const t = load<f64>(tmp), b = Math.floor(t * INV_W);
    if (b < limit) wheelAppend(base, cap, <i32>(<i64>b & MASK), t, load<f64>(tmp, 8), load<i32>(tmp, 16), load<i32>(tmp, 20));
    else beyond(base, cap, b, cur, t, load<f64>(tmp, 8), load<i32>(tmp, 16), load<i32>(tmp, 20));
  }
  // open bucket cur: its blocks' events into the run, sorted by (time, seq)
  const slot = <i32>(<i64>cur & MASK), bk = bucketsAt(base, cap) + (<usize>slot << 3);
  let r = load<i32>(bk), n = 0, sum = touched, hint = 0, total = 0;
  // every block's line at once (the links are read, not the blocks, to find the next)
  for (let q = r; q >= 0; q = load<i32>(linkAt(base, cap, q))) {
    const k = load<i32>(blockAt(base, q), B_N);
    sum ^= k;
    total += k;
  }
  touched = sum;
  if (total >= BIG_BUCKET) {
    openBig(base, cap, cur, r, total);
    n = total;
    r = -1;
  }
  while (r >= 0) {
    const b = blockAt(base, r), next = load<i32>(linkAt(base, cap, r)), k = load<i32>(b, B_N);
    for (let e = 0; e < k; e++) {
      const p = b + B_REC + <usize>e * EV_BYTES;
      // insertion into the sorted prefix: mostly at its end (a bucket's events are mostly posted in order); else
      // after a binary search, the records after it moved up at once (the host's and a replayed log's posts come
      // after the engine's own for later times in the bucket, and would otherwise move one record at a time)
      let i = n;
      if (n > 0 && !before(runAt(base, cap, n - 1), p)) {
        // right after the last one inserted, as a replayed batch's DAs go (one time, rising numbers), or else
        // found by a binary search: the first record p is not after
        if (hint > 0 && hint < n && before(runAt(base, cap, hint - 1), p) && !before(runAt(base, cap, hint), p)) i = hint;
        else {
          let lo = 0, hi = n - 1; // the record at hi comes after p's
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (before(runAt(base, cap, mid), p)) lo = mid + 1;
            else hi = mid;
          }
          i = lo;
        }
        hint = i + 1;
        if (n - i <= 4) shiftUp(base, cap, i, n);
        else memory.copy(runAt(base, cap, i + 1), runAt(base, cap, i), <usize>(n - i) * EV_BYTES);
      }
      copyRec(runAt(base, cap, i), p);
      n++;
    }
    freeBlock(base, cap, r);
    r = next;
  }
  store<i32>(bk, -1);
  store<i32>(bk, -1, 4);
  const w = bitsAt(base, cap) + (<usize>(slot >> 6) << 3);
  store<u64>(w, load<u64>(w) & ~(<u64>1 << <u64>(slot & 63)));
  seti(F_WHEEL_N, geti(F_WHEEL_N) - n);
  seti(F_RUN_POS, 0);
  seti(F_RUN_LEN, n);
  opened++;
}

/**
 * A bucket of many events (BIG_BUCKET or more: a batch's DAs reaching
 * their launchpads, each a random jitter late, so posted in no order of
 * time) opened by a counting sort on the nanosecond within the bucket (event
 * times are whole nanoseconds: checkEvent), its blocks freed; then an
 * insertion pass orders each nanosecond's events by sequence number, equal
 * ones the later posted first, as the insertion into the run does. (Inserting
 * them one by one moved a long tail of the run up for each: 34 records on
 * average in a Zone partition at 32,000 nodes on two threads.)
 */
function openBig(base: usize, cap: i32, cur: f64, first: i32, total: i32): void {
  const counts = QUEUE_COUNTS, t0 = cur * W;
  memory.fill(counts, 0, <usize>W << 2);
  for (let q = first; q >= 0; q = load<i32>(linkAt(base, cap, q))) {
    const b = blockAt(base, q);
    for (let e = 0, k = load<i32>(b, B_N); e < k; e++) {
      const c = nsCount(counts, load<f64>(b + B_REC + <usize>e * EV_BYTES), t0);
      store<i32>(c, load<i32>(c) + 1);
    }
  }
  let at = 0;
  for (let i: usize = 0; i < <usize>W; i++) {
    const c = counts + (i << 2), k = load<i32>(c);
    store<i32>(c, at);
    at += k;
  }
  let q = first;
  while (q >= 0) {
    const b = blockAt(base, q), next = load<i32>(linkAt(base, cap, q));
    for (let e = 0, k = load<i32>(b, B_N); e < k; e++) {
      const p = b + B_REC + <usize>e * EV_BYTES, c = nsCount(counts, load<f64>(p), t0), i = load<i32>(c);
      store<i32>(c, i + 1);
      copyRec(runAt(base, cap, i), p);
    }
    freeBlock(base, cap, q);
    q = next;
  }
  // each record down past the ones before it that it is not after (at its nanosecond: by sequence number)
  for (let i = 1; i < total; i++) {
    const p = runAt(base, cap, i);
    if (before(runAt(base, cap, i - 1), p)) continue;
    const time = load<f64>(p), seq = load<f64>(p, 8), kind = load<i32>(p, 16), subject = load<i32>(p, 20);
    let j = i;
    while (j > 0) {
      const o = runAt(base, cap, j - 1), to = load<f64>(o);
      if (to < time || (to == time && load<f64>(o, 8) < seq)) break;
      copyRec(runAt(base, cap, j), o);
      j--;
    }
    write(runAt(base, cap, j), time, seq, kind, subject);
  }
}

/** openBig's count for an event at `time` in the bucket that starts at t0 (its nanosecond within it). */
// @ts-ignore: decorator
@inline function nsCount(counts: usize, time: f64, t0: f64): usize {
  return counts + (<usize>(<i32>(time - t0) & (<i32>W - 1)) << 2);
}

/** Every pending event's sequence number less `offset` (lag mode's rebase, lag.ts): their order is unchanged. */
export function queueRebase(offset: f64): void {
  const base = ptr(F_HEAP), cap = geti(F_HEAP_CAP);
  for (let i = geti(F_RUN_POS), n = geti(F_RUN_LEN); i < n; i++) {
    const p = runAt(base, cap, i);
    store<f64>(p, load<f64>(p, 8) - offset, 8);
  }
  for (let i = 0, n = geti(F_FAR_SIZE); i < n; i++) {
    const p = farAt(base, cap, i);
    store<f64>(p, load<f64>(p, 8) - offset, 8);
  }
  rebaseWheel(base, cap, bucketsAt(base, cap), bitsAt(base, cap), S, offset);
  rebaseWheel(base, cap, buckets2At(base, cap), bits2At(base, cap), S2, offset);
}

/** queueRebase's work on one wheel's (n buckets) events. */
function rebaseWheel(base: usize, cap: i32, bk: usize, bits: usize, n: i32, offset: f64): void {
  for (let w = 0; w < (n >> 6); w++) {
    let word = load<u64>(bits + (<usize>w << 3));
    while (word != 0) {
      const slot = (w << 6) + <i32>ctz(word);
      word &= word - 1;
      for (let r = load<i32>(bk + (<usize>slot << 3)); r >= 0;) {
        const b = blockAt(base, r);
        for (let e = 0, k = load<i32>(b, B_N); e < k; e++) {
          const p = b + B_REC + <usize>e * EV_BYTES;
          store<f64>(p, load<f64>(p, 8) - offset, 8);
        }
        r = load<i32>(linkAt(base, cap, r));
      }
    }
  }
}

/** Coarse buckets [from, to) (absolute; at most S2 of them) into their fine buckets, their blocks freed. */
function cascade(base: usize, cap: i32, from: f64, to: f64): void {
  const heads = buckets2At(base, cap), bits = bits2At(base, cap);
  let moved = 0;
  for (let c = from; c < to; c++) {
    const slot = <i32>(<i64>c & MASK2), bk = heads + (<usize>slot << 3);
    let r = load<i32>(bk);
    if (r < 0) continue;
    while (r >= 0) {
      const q = blockAt(base, r), next = load<i32>(linkAt(base, cap, r)), k = load<i32>(q, B_N);
      for (let e = 0; e < k; e++) {
        const p = q + B_REC + <usize>e * EV_BYTES, t = load<f64>(p);
        wheelAppend(base, cap, <i32>(<i64>Math.floor(t * INV_W) & MASK), t, load<f64>(p, 8), load<i32>(p, 16), load<i32>(p, 20));
      }
      moved += k;
      freeBlock(base, cap, r);
      r = next;
    }
    store<i32>(bk, -1);
    store<i32>(bk, -1, 4);
    const w = bits + (<usize>(slot >> 6) << 3);
    store<u64>(w, load<u64>(w) & ~(<u64>1 << <u64>(slot & 63)));
  }
  seti(F_WHEEL2_N, geti(F_WHEEL2_N) - moved);
}

/** Events in a bucket from which it opens by openBig's counting sort. */
const BIG_BUCKET: i32 = 64;

/** Buckets opened so far (the run loop reads a new run's records ahead once per opening). */
export let opened: i32 = 0;

/** The run's record at position i (after topTimeBefore). */
export function runFrom(i: i32): usize {
  return runAt(ptr(F_HEAP), geti(F_HEAP_CAP), i);
}

/**
 * Time of the earliest event (Infinity when none; it may open the next
 * bucket), or, when the run is empty and the next bucket starts at `until`
 * or later, that start (a time no event comes before): the bucket stays
 * closed, so what the host posts before it still goes to its bucket instead
 * of into the run.
 */
export function topTimeBefore(until: f64): f64 {
  if (geti(F_HEAP_SIZE) == 0) return Infinity;
  const base = ptr(F_HEAP);
  const cap = geti(F_HEAP_CAP);
  if (geti(F_RUN_POS) == geti(F_RUN_LEN)) {
    const next = nextBucket(base, cap);
    if (next * W >= until) return next * W;
    advance(base, cap, next);
  }
  return load<f64>(runAt(base, cap, geti(F_RUN_POS)));
}

/** The earliest event's record (after topTimeBefore). */
export function top(): usize {
  return runFrom(geti(F_RUN_POS));
}

export let popKind: i32 = 0, popSubject: i32 = 0;

/** Remove the earliest event (after topTimeBefore): the clock moves to its time; its kind and subject in popKind, popSubject. */
export function pop(): void {
  const p = top();
  setf(F_NOW, load<f64>(p));
  popKind = load<i32>(p, 16);
  popSubject = load<i32>(p, 20);
  seti(F_RUN_POS, geti(F_RUN_POS) + 1);
  seti(F_HEAP_SIZE, geti(F_HEAP_SIZE) - 1);
}
