// The Zone admission engine's running exports (docs/abi.md, "Zone engine";
// its layout and start are setup.ts): the host hands the engine DA
// emissions and proxy verdicts, posts its own events into the same queue,
// and runs it to a time: the engine runs its Zones' events and stops at the
// first event of the host's (the gateway side's), at the first event at or
// after the host's next message (for a host that must apply it first), or
// when a table needs room (the host gives a region, engineGrow moves the
// table, and the call is made again; nothing of the event has happened yet).
import { checkBuf, E_ARG, E_COUNT, E_ID, OK } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { ready } from "./setup";
import {
  BLOCK_BYTES, DA_NEXT, DA_BYTES, DA_NODE, DA_STATE, DA_VERDICT, EMIT_BYTES, EV_BYTES, F_DA_CAP, F_DA_LIVE, F_HEAP_CAP,
  F_HEAP_SIZE, F_HOP, F_HOST_KIND, F_RUN_LEN, F_RUN_POS, F_TOUCH_BOUND, F_N0, F_N1, F_Z0, F_Z1, F_HOST_SUBJECT, F_NOW, F_OUT_CAP,
  F_OUT_N, F_PROCESSED, K_ADDRESS, K_ARBITRATE, K_BCAST, K_COMPLETE, K_PULL, K_SNAPSHOT, K_UPLOAD, K_WHEEL, ROOM_HEAP, ROOM_HIST,
  ROOM_OUTBOX, ROOM_RING, F_SEQ, DX_DONE_SEQ, DX_TIMER_SEQ, EMIT_MEM_BYTES, K_AIRLOCK, K_MEM, MX_TASK_CAP, ROOM_TASKS, TT_AWAITING,
  TT_HOME, F_ZONES, F_HIST_N, F_HIST_CAP, F_NODES, EM_NODE, F_DELTA, M_PULL, M_REACTIVATE, REC, TO_GATEWAY,
} from "./layout";
import { addf, copyWords, da, dc, dx, getf, geti, leave, mask, MX, offset, Q_HEAD, room, row, setf, seti, xi, zoneOf } from "./state";
import { emitCheck, emitTake } from "./emit";
import { exchange, pullDone } from "./inbox";
import { drain } from "./drain";
import { arrive } from "./arrive";
import { sweep } from "./sweep";
import { GT_BYTES } from "./tasks";
import { opened, pop, popKind, popSubject, push, pushSeq, runFrom, topTimeBefore } from "./events";
import { histNeed, histOn, histRecord } from "./history";
import { address, complete, pulled } from "./agent";
import { arbitrate } from "./arbitrate";
import { wheelFire } from "./reserve";
import { broadcastEvent, dueBound, ringRoom, snapshotEvent, snapshotRoom, uploadEvent } from "./zone";
import { clearFault, faultCode } from "./fault";
import { airlockTimer, memTickEvent } from "./airlock";
import { anchorOf, landAnswer, landRequest } from "./landing";
import { taskRec } from "./runtime";
import { traceEvent, traceOn } from "./trace";

/** Bytes of the state block, and of one DA record, one emission record and one event record. */
export function engineBlockBytes(): i32 { return BLOCK_BYTES; }
export function engineDaBytes(): i32 { return DA_BYTES; }
export function engineEmitBytes(): i32 { return EMIT_BYTES; }
export function engineEventBytes(): i32 { return EV_BYTES; }

/** An enginePostBatch record: f64 absolute time, i32 kind, i32 subject. */
const POST_BYTES: i32 = 16;

/** engineRun's outcomes besides errors. */
const RAN_TO = 0, HOST_EVENT = 1, HOST_MESSAGE = 2;

/** The engine's own kinds as bits (every kind is below 32), and those of the memory model. */
const OWN_KINDS: u32 = (1 << K_ADDRESS) | (1 << K_ARBITRATE) | (1 << K_PULL) | (1 << K_COMPLETE) | (1 << K_SNAPSHOT) | (1 << K_BCAST)
  | (1 << K_UPLOAD) | (1 << K_WHEEL);
const MEM_KINDS: u32 = (1 << K_MEM) | (1 << K_AIRLOCK);

// @ts-ignore: decorator
@inline function isEngineKind(k: i32): bool {
  return <u32>k < 32 && (((MX != 0 ? OWN_KINDS | MEM_KINDS : OWN_KINDS) >>> <u32>k) & 1) != 0;
}

/** Whether the event at h was cancelled (the memory model's completions and Airlock timers): its DA holds another sequence number. */
// @ts-ignore: decorator
@inline function cancelled(h: usize, kind: i32, subject: i32): bool {
  if (MX == 0) return false;
  if (kind == K_COMPLETE) return load<f64>(dx(subject) + DX_DONE_SEQ) != load<f64>(h, 8);
  if (kind == K_AIRLOCK) return load<f64>(dx(subject) + DX_TIMER_SEQ) != load<f64>(h, 8);
  return false;
}

/** The node an event touches (its reports may fall due): -1 for none, or for a kind that touches a Zone or every node. */
// @ts-ignore: decorator
@inline function nodeOf(kind: i32, subject: i32): i32 {
  if (kind == K_ARBITRATE || kind == K_WHEEL) return subject;
  if (kind == K_PULL || kind == K_COMPLETE || kind == K_AIRLOCK) return load<i32>(da(subject) + DA_NODE);
  return -1;
}

/** The event heap's records an event may need with `live` DAs: each may post two, and an event a few of its own. */
// @ts-ignore: decorator
@inline function heapNeed(live: i32): i32 { return geti(F_HEAP_SIZE) + 2 * live + 8; }

/** The outbox's records an event may need with `live` DAs: a message each, and a few of its own. */
// @ts-ignore: decorator
@inline function outNeed(live: i32): i32 { return geti(F_OUT_N) + live + 4; }

/** Whether the next event (kind, subject at time t) has the room it may need; else E_FULL with the room asked for. */
function checkRoom(kind: i32, subject: i32, t: f64): i32 {
  const live = geti(F_DA_LIVE), heap = heapNeed(live);
  if (heap > geti(F_HEAP_CAP)) return room(ROOM_HEAP, heap);
  const out = outNeed(live);
  if (out > geti(F_OUT_CAP)) return room(ROOM_OUTBOX, out);
  const hist = histNeed();
  if (hist > 0) return room(ROOM_HIST, hist);
  const n = nodeOf(kind, subject);
  if (n >= 0) return nodeRoom(n, t);
  if (kind == K_MEM) {
    // the runtime tick may touch any own node: room for every report due in each Zone
    for (let z = geti(F_Z0), z1 = geti(F_Z1); z < z1; z++) {
      const have = ringRoom(z), off = offset(z), nz = offset(z + 1) - off;
      if (<i64>have >= <i64>nz * geti(F_TOUCH_BOUND)) continue;
      let need = 0;
      for (let m = off; m < off + nz; m++) need += dueBound(m, t);
      if (need > have) return room(ROOM_RING + 16 * z, need);
    }
  } else if (kind == K_SNAPSHOT) {
    const need = snapshotRoom(subject, t);
    if (need > ringRoom(subject)) return room(ROOM_RING + 16 * subject, need);
  }
  return 0;
}

/**
 * checkRoom's common case decided in a few loads (true: the event has its
 * room; false: checkRoom decides): the heap and the outbox have room, and
 * the event touches no node (nor a Zone's or every
 * node's reports) or one whose Zone's ring holds a touch's worth of them.
 * heapCap, outCap and touchBound do not change within a run call (a table
 * grows only through the host).
 */
// @ts-ignore: decorator
@inline function roomy(kind: i32, subject: i32, heapCap: i32, outCap: i32, touchBound: i32): bool {
  const live = geti(F_DA_LIVE);
  if (heapNeed(live) > heapCap || outNeed(live) > outCap) return false;
  const n = nodeOf(kind, subject);
  if (n < 0) return kind != K_MEM && kind != K_SNAPSHOT; // those two: checkRoom counts the reports due
  return ringRoom(zoneOf(n)) >= touchBound;
}

/** Room in node n's Zone's ring for a touch at time t: at most F_TOUCH_BOUND reports (a snapshot of its Zone came at most broadcastNs ago). */
function nodeRoom(n: i32, t: f64): i32 {
  const z = zoneOf(n), have = ringRoom(z);
  if (have < geti(F_TOUCH_BOUND)) {
    const need = dueBound(n, t);
    if (need > have) return room(ROOM_RING + 16 * z, need);
  }
  return 0;
}

/** What the reads ahead read (kept, so that they are not dropped as dead). */
let aheadSum: i32 = 0;
/** The bucket openings the loop has read ahead for. */
let seenOpened: i32 = -1;

/**
 * Read a word of the first record each event of a newly opened bucket will
 * open (its DA's record, its node's queue head), all at once: the misses
 * are in flight together while the first events run, instead of one after
 * another as each event starts (WebAssembly has no prefetch).
 */
function readRunAhead(): void {
  const pos = geti(F_RUN_POS), len = geti(F_RUN_LEN);
  let p = runFrom(pos), sum = aheadSum;
  for (let i = pos; i < len; i++, p += EV_BYTES) {
    const kind = load<i32>(p, 16), subject = load<i32>(p, 20);
    if (kind == K_ADDRESS || kind == K_PULL || kind == K_COMPLETE) sum ^= load<i32>(da(subject) + DA_NODE);
    else if (kind == K_ARBITRATE) sum ^= load<i32>(Q_HEAD + (<usize>subject << 2));
  }
  // then what those name: a finishing DA's node row, atom mask and cold record; a window's first DA and row
  p = runFrom(pos);
  for (let i = pos; i < len; i++, p += EV_BYTES) {
    const kind = load<i32>(p, 16), subject = load<i32>(p, 20);
    if (kind == K_PULL || kind == K_COMPLETE) {
      sum ^= load<i32>(row(load<i32>(da(subject) + DA_NODE))) ^ load<i32>(mask(subject)) ^ load<i32>(dc(subject));
    } else if (kind == K_ARBITRATE) {
      const h = load<i32>(Q_HEAD + (<usize>subject << 2));
      sum ^= load<i32>(row(subject));
      if (h >= 0) sum ^= load<i32>(da(h) + DA_NEXT);
    }
  }
  aheadSum = sum;
}

/**
 * Run the events before `until` (ns): the engine's own, until the first of
 * the host's (HOST_EVENT: popped, the clock at its time, kind and subject in
 * the block), or the first at or after `msgAt` (HOST_MESSAGE: not popped,
 * the clock at its time; the host applies its messages due by then and calls
 * again), or none left before `until` (RAN_TO: the clock at `until`).
 * E_FULL: a table needs room (the block says which); an internal fault: its
 * negative code.
 */
export function engineRun(block: usize, until: f64, msgAt: f64): i32 {
  const r = engineRunIn(block, until, msgAt);
  leave();
  return r;
}

function engineRunIn(block: usize, until: f64, msgAt: f64): i32 {
  if (!ready(block)) return E_ARG;
  clearFault();
  if (isNaN(until) || until < getf(F_NOW) || isNaN(msgAt)) return E_ARG;
  // roomy's constants for this call; with a history kept (lag mode), also room for the one record an event may add
  const heapCap = geti(F_HEAP_CAP), outCap = geti(F_OUT_CAP), touchBound = geti(F_TOUCH_BOUND), lag = histOn();
  for (;;) {
    // the run's next event read where it lies while the run has one; else topTimeBefore opens the next bucket
    let pos = geti(F_RUN_POS), t: f64;
    if (pos != geti(F_RUN_LEN)) t = load<f64>(runFrom(pos));
    else {
      t = topTimeBefore(until);
      pos = geti(F_RUN_POS);
    }
    if (opened != seenOpened) {
      seenOpened = opened;
      readRunAhead();
    }
    if (!(t < until)) {
      if (until != Infinity) setf(F_NOW, until);
      return RAN_TO;
    }
    if (t >= msgAt) {
      setf(F_NOW, t);
      return HOST_MESSAGE;
    }
    const h = runFrom(pos), kind = load<i32>(h, 16), subject = load<i32>(h, 20);
    if (!isEngineKind(kind)) {
      pop();
      if (traceOn()) traceEvent(t, popKind, popSubject);
      seti(F_HOST_KIND, popKind);
      seti(F_HOST_SUBJECT, popSubject);
      return HOST_EVENT;
    }
    if (cancelled(h, kind, subject)) {
      pop(); // cancelled when it was scheduled already: it never runs (nor counts)
      continue;
    }
    if (!(roomy(kind, subject, heapCap, outCap, touchBound) && (!lag || geti(F_HIST_N) < geti(F_HIST_CAP)))) {
      const rc = checkRoom(kind, subject, t);
      if (rc != 0) return rc;
    }
    const seq = load<f64>(h, 8), counter = getf(F_SEQ);
    // pop's work on what is known here (checkRoom moves nothing): the clock to the event, the run past it
    setf(F_NOW, t);
    seti(F_RUN_POS, pos + 1);
    seti(F_HEAP_SIZE, geti(F_HEAP_SIZE) - 1);
    addf(F_PROCESSED, 1);
    if (traceOn()) traceEvent(t, kind, subject);
    switch (kind) {
      case K_ADDRESS: address(subject); break;
      case K_ARBITRATE: arbitrate(subject); break;
      case K_PULL: pulled(subject); break;
      case K_COMPLETE: complete(subject); break;
      case K_SNAPSHOT: snapshotEvent(subject); break;
      case K_BCAST: broadcastEvent(subject); break;
      case K_UPLOAD: uploadEvent(subject); break;
      case K_WHEEL: wheelFire(subject); break;
      case K_MEM: memTickEvent(); break;
      case K_AIRLOCK: airlockTimer(subject); break;
    }
    if (faultCode != 0) return faultCode;
    if (histOn() && getf(F_SEQ) != counter) histRecord(t, seq);
  }
  return RAN_TO; // not reached
}

/** E_ID / E_ARG when (kind, subject) at `time` is not an event the engine can take; 0 otherwise. */
function checkEvent(time: f64, kind: i32, subject: i32): i32 {
  if (!(time >= getf(F_NOW)) || time != Math.floor(time) || time > 9007199254740991 || kind < 0) return E_ARG;
  // an engine event's subject names one of its DAs, own nodes or own Zones
  if (kind == K_ADDRESS || kind == K_PULL || kind == K_COMPLETE || (MX != 0 && kind == K_AIRLOCK)) {
    if (subject < 0 || subject >= geti(F_DA_CAP)) return E_ID;
  } else if (kind == K_ARBITRATE || kind == K_WHEEL) {
    if (subject < geti(F_N0) || subject >= geti(F_N1)) return E_ID;
  } else if (kind == K_SNAPSHOT || kind == K_BCAST || kind == K_UPLOAD) {
    if (subject < geti(F_Z0) || subject >= geti(F_Z1)) return E_ID;
  }
  return 0;
}

/** Schedule (kind, subject) `delay` ns (an integer >= 0) from now, in the engine's queue; E_FULL when it has no room. */
export function enginePost(block: usize, delay: f64, kind: i32, subject: i32): i32 {
  const r = enginePostIn(block, delay, kind, subject);
  leave();
  return r;
}

function enginePostIn(block: usize, delay: f64, kind: i32, subject: i32): i32 {
  if (!ready(block)) return E_ARG;
  const e = checkEvent(getf(F_NOW) + delay, kind, subject);
  if (e != 0 || !(delay >= 0)) return e != 0 ? e : E_ARG;
  if (geti(F_HEAP_SIZE) + 1 > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + 1);
  const hist = histNeed();
  if (hist > 0) return room(ROOM_HIST, hist);
  push(getf(F_NOW) + delay, kind, subject);
  if (histOn()) histRecord(getf(F_NOW), -Infinity);
  return 0;
}

/**
 * Lag mode (history.ts): schedule (kind, subject) at absolute `time` (an
 * integer >= the clock) with sequence number `seq` (from engineSeqAt),
 * not the engine's next; its counter does not move. Codes as enginePost.
 */
export function enginePostAt(block: usize, time: f64, seq: f64, kind: i32, subject: i32): i32 {
  const r = enginePostAtIn(block, time, seq, kind, subject);
  leave();
  return r;
}

function enginePostAtIn(block: usize, time: f64, seq: f64, kind: i32, subject: i32): i32 {
  if (!ready(block) || !histOn() || !isFinite(seq)) return E_ARG;
  const e = checkEvent(time, kind, subject);
  if (e != 0) return e;
  if (geti(F_HEAP_SIZE) + 1 > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + 1);
  pushSeq(time, seq, kind, subject);
  return 0;
}

/**
 * n events at once, in order (POST_BYTES records at `src`: f64 absolute
 * time, i32 kind, i32 subject), as n enginePost calls would schedule them.
 * Every record is checked before any is scheduled; E_FULL (nothing done)
 * when the queue lacks room.
 */
export function enginePostBatch(block: usize, src: usize, n: i32): i32 {
  const r = enginePostBatchIn(block, src, n);
  leave();
  return r;
}

function enginePostBatchIn(block: usize, src: usize, n: i32): i32 {
  if (!ready(block)) return E_ARG;
  if (n < 0) return E_COUNT;
  let e = checkBuf(src, <i64>n * POST_BYTES, 1, 8); if (e != OK) return e;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * POST_BYTES;
    e = checkEvent(load<f64>(r), load<i32>(r, 8), load<i32>(r, 12));
    if (e != 0) return e;
  }
  if (geti(F_HEAP_SIZE) + n > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + n);
  const hist = histNeed();
  if (hist > 0) return room(ROOM_HIST, hist);
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * POST_BYTES;
    push(load<f64>(r), load<i32>(r, 8), load<i32>(r, 12));
  }
  if (histOn() && n > 0) histRecord(getf(F_NOW), -Infinity);
  return 0;
}

/**
 * n DA emissions from the gateway side (EMIT_BYTES records at `src`, with
 * the memory model EMIT_MEM_BYTES): each gets a slot and addresses its
 * launchpad node one hop from now, in order. E_FULL (nothing done) when the
 * DA table, the queue or the task table lacks room.
 */
export function engineEmit(block: usize, src: usize, n: i32): i32 {
  const r = engineEmitIn(block, src, n);
  leave();
  return r;
}

function engineEmitIn(block: usize, src: usize, n: i32): i32 {
  if (!ready(block)) return E_ARG;
  const e = emitCheck(src, n, true);
  if (e != 0) return e;
  const hist = histNeed();
  if (hist > 0) return room(ROOM_HIST, hist);
  emitTake(src, n, getf(F_NOW) + getf(F_HOP), false, 0, false);
  if (histOn() && n > 0) histRecord(getf(F_NOW), -Infinity);
  return 0;
}

/**
 * Lag mode (history.ts): n emissions as engineEmit's, made at an earlier
 * point of the run: each addresses its launchpad at absolute `time` (an
 * integer >= the clock), with sequence numbers seq0, seq0 + 1, ... (from
 * engineSeqAt); the engine's counter does not move. Codes as engineEmit.
 */
export function engineEmitAt(block: usize, src: usize, n: i32, time: f64, seq0: f64): i32 {
  const r = engineEmitAtIn(block, src, n, time, seq0);
  leave();
  return r;
}

function engineEmitAtIn(block: usize, src: usize, n: i32, time: f64, seq0: f64): i32 {
  if (!ready(block) || !histOn() || !isFinite(seq0) || !(time >= getf(F_NOW)) || time != Math.floor(time) || time > 9007199254740991) return E_ARG;
  const e = emitCheck(src, n, true);
  if (e != 0) return e;
  emitTake(src, n, time, true, seq0, false);
  return 0;
}

/**
 * A batch of the gateway's log at a Zone partition (engineDispatchAll's n
 * emission records at src, each DA's launchpad drawn, -1 for one lost on
 * the hop): the records whose launchpad is one of this engine's nodes moved
 * to the front, in their order, bit for bit; the rest is left as it falls.
 * Returns how many (the host hands them over with engineEmitAt). E_COUNT,
 * region codes for src, E_ID when a launchpad lies outside the cluster
 * (below -1, or at or past its node count); an error moves nothing.
 */
export function engineStageOwn(block: usize, src: usize, n: i32): i32 {
  const r = engineStageOwnIn(block, src, n);
  leave();
  return r;
}

function engineStageOwnIn(block: usize, src: usize, n: i32): i32 {
  if (!ready(block)) return E_ARG;
  if (n < 0) return E_COUNT;
  const stride = <usize>(MX != 0 ? EMIT_MEM_BYTES : EMIT_BYTES);
  const e = checkBuf(src, <i64>n * stride, 1, 8); if (e != OK) return e;
  const n0 = geti(F_N0), n1 = geti(F_N1), nodes = geti(F_NODES), end = src + <usize>n * stride;
  for (let r = src; r < end; r += stride) {
    const v = load<i32>(r + EM_NODE);
    if (v < -1 || v >= nodes) return E_ID;
  }
  let o = src, own = 0;
  for (let r = src; r < end; r += stride) {
    const v = load<i32>(r + EM_NODE);
    if (v < n0 || v >= n1) continue;
    if (o != r) copyWords(o, r, stride);
    o += stride;
    own++;
  }
  return own;
}

/**
 * A Zone partition's own messages back at a window's end, for a host that
 * runs the gateway side elsewhere (the simulator's threads with the gateway
 * once): n message records at src (REC f64 each, 8-aligned), all for the
 * gateway side; for each pull request from one of this engine's Zones, a
 * post record (POST_BYTES, as enginePostBatch takes them: f64 time, i32
 * K_PULL, i32 the DA) at dst, the pull's completion at its delivery plus
 * hop - delta plus its compute time (the clock plus that delay from the
 * clock, the host's arithmetic), in the records' order. Returns how many;
 * nothing is scheduled (the host posts them with the rest of its posts).
 * E_COUNT, region codes for src and dst (room for n records there), E_ARG
 * (a block not laid out, a record not for the gateway side, dst sharing a
 * byte with src); an error writes nothing.
 */
export function engineStagePulls(block: usize, src: usize, n: i32, dst: usize): i32 {
  const r = engineStagePullsIn(block, src, n, dst);
  leave();
  return r;
}

function engineStagePullsIn(block: usize, src: usize, n: i32, dst: usize): i32 {
  if (!ready(block)) return E_ARG;
  if (n < 0) return E_COUNT;
  regionsReset();
  region(src, <i64>n * REC, 8, 0, false);
  region(dst, <i64>n * (POST_BYTES >> 3), 8, 0, true);
  const e = regionsCheck(); if (e != 0) return e;
  const RB = <usize>REC << 3, end = src + <usize>n * RB;
  for (let p = src; p < end; p += RB) {
    if (load<f64>(p, 24) != TO_GATEWAY || <i32>load<f64>(p, 16) == M_REACTIVATE) return E_ARG;
  }
  const z0 = geti(F_Z0), z1 = geti(F_Z1), now = getf(F_NOW), hop = getf(F_HOP), delta = getf(F_DELTA);
  let o = dst;
  for (let p = src; p < end; p += RB) {
    if (<i32>load<f64>(p, 16) != M_PULL) continue;
    const z = load<f64>(p, 48);
    if (!(z >= <f64>z0 && z < <f64>z1)) continue;
    store<f64>(o, pullDone(p, now, hop, delta));
    store<i32>(o, K_PULL, 8);
    store<i32>(o, <i32>load<f64>(p, 40), 12);
    o += <usize>POST_BYTES;
  }
  return <i32>((o - dst) >> 4);
}

/**
 * The end of a window of an engine that holds every Zone, without the
 * memory model (inbox.ts): the outbox moves into the inbox (after the
 * outbox's F_OUT_CAP records; F_IN_N of them) in canonical order, each
 * pull request's completion is scheduled; returns the records moved.
 * E_ARG, E_FULL: inbox.ts.
 */
export function engineExchange(block: usize): i32 {
  const r = engineExchangeIn(block);
  leave();
  return r;
}

function engineExchangeIn(block: usize): i32 {
  if (!ready(block)) return E_ARG;
  return exchange();
}

/**
 * The gateway side's drain of the inbox on the host's task table (drain.ts),
 * with the tasks block at gt: the proxy's answers and the DA ends delivered
 * at or before `now`, from the block's inbox position on, up to the first
 * upload; returns how many messages were applied. E_ARG, E_ID: drain.ts.
 */
export function engineDrain(block: usize, gt: usize, now: f64): i32 {
  const r = engineDrainIn(block, gt, now);
  leave();
  return r;
}

function engineDrainIn(block: usize, gt: usize, now: f64): i32 {
  if (!ready(block) || checkBuf(gt, GT_BYTES, 1, 8) != OK) return E_ARG;
  return drain(block, gt, now);
}

/**
 * The gateway side's arrivals on the host's task table (arrive.ts), with
 * the tasks block at gt: n arrivalsDraw records at src into the slots at
 * ids (i32[n]), each task's first DA staged as an emission record; returns
 * n. E_COUNT, E_ARG, E_ID, E_K, E_FULL: arrive.ts.
 */
export function engineArrive(block: usize, gt: usize, src: usize, n: i32, ids: usize): i32 {
  const r = engineArriveIn(block, gt, src, n, ids);
  leave();
  return r;
}

function engineArriveIn(block: usize, gt: usize, src: usize, n: i32, ids: usize): i32 {
  if (!ready(block) || checkBuf(gt, GT_BYTES, 1, 8) != OK) return E_ARG;
  return arrive(block, gt, src, n, ids);
}

/**
 * A timer ring's sweep event on the host's task table (sweep.ts), with the
 * tasks block at gt: ring `which` (0 deadlines, 1 regeneration checks);
 * returns the timers handed over. E_ARG, E_ID, E_FULL: sweep.ts.
 */
export function engineSweep(block: usize, gt: usize, which: i32): i32 {
  const r = engineSweepIn(block, gt, which);
  leave();
  return r;
}

function engineSweepIn(block: usize, gt: usize, which: i32): i32 {
  if (!ready(block) || checkBuf(gt, GT_BYTES, 1, 8) != OK) return E_ARG;
  return sweep(block, gt, which);
}

/** Bytes of the tasks block engineDrain and engineArrive read. */
export function engineTasksBlockBytes(): i32 { return GT_BYTES; }

/** The proxy's answer (V_*) to DA d's pull request, read when its pull completes. */
export function engineSetVerdict(block: usize, d: i32, v: i32): i32 {
  const r = engineSetVerdictIn(block, d, v);
  leave();
  return r;
}

function engineSetVerdictIn(block: usize, d: i32, v: i32): i32 {
  if (!ready(block)) return E_ARG;
  if (d < 0 || d >= geti(F_DA_CAP)) return E_ID;
  if (v < 0 || v > 3) return E_ARG;
  store<u8>(da(d) + DA_VERDICT, <u8>v);
  return 0;
}

/** n answers at once (i32 pairs DA, verdict at `src`); every pair is checked before any is written. */
export function engineSetVerdicts(block: usize, src: usize, n: i32): i32 {
  const r = engineSetVerdictsIn(block, src, n);
  leave();
  return r;
}

function engineSetVerdictsIn(block: usize, src: usize, n: i32): i32 {
  if (!ready(block)) return E_ARG;
  if (n < 0) return E_COUNT;
  const e = checkBuf(src, <i64>n * 2, 4); if (e != OK) return e;
  const cap = geti(F_DA_CAP);
  for (let i = 0; i < n; i++) {
    const d = load<i32>(src + (<usize>i << 3)), v = load<i32>(src + (<usize>i << 3), 4);
    if (d < 0 || d >= cap) return E_ID;
    if (v < 0 || v > 3) return E_ARG;
  }
  for (let i = 0; i < n; i++) store<u8>(da(load<i32>(src + (<usize>i << 3))) + DA_VERDICT, <u8>load<i32>(src + (<usize>i << 3), 4));
  return 0;
}

// ---- the memory model's messages and the gateway side's word on a task (landing.ts)

/**
 * The gateway side's state of task t that the Zones read (with the memory
 * model): the Zone of its suspended image (`home`, where a secondary probe
 * asks for it) and whether its secondary probes may still land (`awaiting`,
 * 0 or 1). E_FULL when the task table needs room.
 */
export function engineTaskState(block: usize, t: i32, home: i32, awaiting: i32): i32 {
  const r = engineTaskStateIn(block, t, home, awaiting);
  leave();
  return r;
}

function engineTaskStateIn(block: usize, t: i32, home: i32, awaiting: i32): i32 {
  if (!ready(block) || MX == 0) return E_ARG;
  if (t < 0 || home < 0 || home >= geti(F_ZONES)) return E_ID;
  if (awaiting < 0 || awaiting > 1) return E_ARG;
  if (t >= xi(MX_TASK_CAP)) return room(ROOM_TASKS, t + 1);
  const r = taskRec(t);
  store<i32>(r + TT_HOME, home);
  store<i32>(r + TT_AWAITING, awaiting);
  return 0;
}

/**
 * M_LAND_REQ delivered to Zone `home` (one of this engine's), at the clock:
 * secondary probe pd (in Zone pz) asks for task t's suspended image; the
 * answer (M_LAND_RESP) goes to the outbox. E_FULL (nothing done) when a
 * table lacks room.
 */
export function engineLandRequest(block: usize, home: i32, t: i32, pd: i32, pz: i32, computeNs: f64): i32 {
  const r = engineLandRequestIn(block, home, t, pd, pz, computeNs);
  leave();
  return r;
}

function engineLandRequestIn(block: usize, home: i32, t: i32, pd: i32, pz: i32, computeNs: f64): i32 {
  if (!ready(block) || MX == 0) return E_ARG;
  clearFault();
  if (home < geti(F_Z0) || home >= geti(F_Z1) || pz < 0 || pz >= geti(F_ZONES) || pd < 0) return E_ID;
  if (!(computeNs >= 0 && computeNs < Infinity)) return E_ARG;
  if (geti(F_OUT_N) + 2 > geti(F_OUT_CAP)) return room(ROOM_OUTBOX, geti(F_OUT_N) + 2);
  const a = anchorOf(t);
  if (a >= 0) {
    const rc = nodeRoom(load<i32>(da(a) + DA_NODE), getf(F_NOW));
    if (rc != 0) return rc;
  }
  landRequest(home, t, <f64>pd, <f64>pz, computeNs);
  return faultCode;
}

/**
 * M_LAND_RESP delivered to secondary probe d (one of this engine's), at the
 * clock: ok 1 with the image's execution state, or 0 (refused; `started`:
 * whether the task has started, the gateway side's word). E_FULL (nothing
 * done) when a table lacks room.
 */
export function engineLandAnswer(block: usize, d: i32, ok: i32, computeNs: f64, remaining: f64, target: f64, drift: f64, started: i32): i32 {
  const r = engineLandAnswerIn(block, d, ok, computeNs, remaining, target, drift, started);
  leave();
  return r;
}

function engineLandAnswerIn(block: usize, d: i32, ok: i32, computeNs: f64, remaining: f64, target: f64, drift: f64, started: i32): i32 {
  if (!ready(block) || MX == 0) return E_ARG;
  clearFault();
  if (d < 0 || d >= geti(F_DA_CAP) || load<u8>(da(d) + DA_STATE) == 0) return E_ID;
  if (ok < 0 || ok > 1 || started < 0 || started > 1 || !(computeNs >= 0 && computeNs < Infinity)) return E_ARG;
  if (ok == 1 && !(remaining >= 0 && remaining < Infinity && target >= 0 && target < Infinity && drift >= 0 && drift < Infinity)) return E_ARG;
  if (geti(F_HEAP_SIZE) + 1 > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + 1);
  if (geti(F_OUT_N) + 1 > geti(F_OUT_CAP)) return room(ROOM_OUTBOX, geti(F_OUT_N) + 1);
  const rc = nodeRoom(load<i32>(da(d) + DA_NODE), getf(F_NOW));
  if (rc != 0) return rc;
  landAnswer(d, ok, computeNs, remaining, target, drift, started != 0);
  return faultCode;
}
