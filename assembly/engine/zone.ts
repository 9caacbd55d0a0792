// Z-HAF on the engine's side (src/laminar/zhaf.ts and reports.ts are the
// twin): a node's reports, generated lazily just before anything changes
// its state and at each snapshot, travel to its Zone's report ring; a
// snapshot applies those that have arrived, publishes the master table as
// the next version (zoneAggregate's sums for its aggregates), a broadcast hands a
// version to the Zone's replicas (each copy lossy), an upload sends the
// aggregates to the gateway side, and a DA reads its node's replica.
import { projH, projS, REC_BYTES, REC_DH, REC_DS, REC_H, REC_S, REC_STAMP, REC_STEP, rowStats } from "../choose";
import { fdLog, fdLog1p } from "../libm";
import { streamFloat, streamNormal } from "../stream";
import { ENGINE_ZIG } from "./scratch";
import {
  F_AGG_H, F_AGG_S, F_ALPHA, F_DEGRADE_HEAT, F_BROADCAST, F_COPIES, F_COPIES_LOST, F_DELIVERED, F_GUARD,
  F_HOP, F_DELTA, F_LAST_HEARD, F_LAST_MEAS, F_LOSS, F_MASTER, F_MIN_GAP, F_NEXT_REPORT, F_PROJECTION, F_REPLICA, F_REPORT,
  F_REPORT_DELAY, F_REPORT_JITTER, F_REPORTS_LOST, F_REPORTS_SENT, F_RING, F_RING_REC, F_RINGS, F_ROW_SILENCE,
  F_R_NET, F_R_REPORT, F_SNAP_TIME, F_STALE, F_STALE_READS, F_TAKEN, F_UPLOADED, F_UPLOADS_LOST, F_ZT_BYTES,
  DA_ARRIVE, DA_NEXT, K_BCAST, K_SNAPSHOT, K_UPLOAD, M_UPLOAD, NS_PER_MS, RING_DESC, RR_BITS, RR_H, RR_NODE, RR_S,
  STREAM_BYTES, TO_GATEWAY,
} from "./layout";
import { addf, copyWords, da, E, f64At, freeOf, getf, geti, i32At, jsRound, offset, pressured, ptr, Q_HEAD, row, ROW_BYTES, setF64At, setI32At, zoneOf } from "./state";
import { post } from "./events";
import { send } from "./outbox";

/** Stamp of a missing row (src/laminar/zhaf.ts MISSING_STAMP). */
const MISSING_STAMP: f32 = <f32>-1e30;

/** The bytes of a node's record in the Zone tables (choose.ts REC_*: its five values and its row's summary). */
// @ts-ignore: decorator
@inline export function nodeRecBytes(): usize { return REC_BYTES; }

/** Zone z's network and report streams. */
// @ts-ignore: decorator
@inline export function netStream(z: i32): usize { return ptr(F_R_NET) + <usize>z * STREAM_BYTES; }
// @ts-ignore: decorator
@inline function reportStream(z: i32): usize { return ptr(F_R_REPORT) + <usize>z * STREAM_BYTES; }

/** Heat of node n at time r: DAs in its queue that have arrived by r. */
// @ts-ignore: decorator
@inline export function heatAt(n: i32, r: f64): i32 {
  let h = 0;
  for (let d = load<i32>(Q_HEAD + (<usize>n << 2)); d >= 0; d = load<i32>(da(d) + DA_NEXT)) if (load<f64>(da(d) + DA_ARRIVE) <= r) h++;
  return h;
}

/** Upper bound of the reports node n has due before (or at) now: the room a touch may need in its Zone's ring. */
export function dueBound(n: i32, now: f64): i32 {
  const next = f64At(F_NEXT_REPORT, n);
  return now >= next ? <i32>Math.min(Math.floor((now - next) / getf(F_MIN_GAP)) + 1, <f64>(1 << 30)) : 0;
}

/** Free records in Zone z's ring. */
export function ringRoom(z: i32): i32 {
  const desc = ptr(F_RINGS) + <usize>z * RING_DESC;
  return load<i32>(desc, 4) - load<i32>(desc, 12);
}

/** Generate node n's reports due before now (its state has not changed since they were due). */
// @ts-ignore: decorator
@inline export function touch(n: i32): void {
  const now = load<f64>(E);
  while (f64At(F_NEXT_REPORT, n) < now) report(n, f64At(F_NEXT_REPORT, n));
}

/** Node n's report at time r: S, H and bitmap as they were at r (lossy); the next one after the interval plus jitter. */
// @ts-ignore: decorator
@inline function report(n: i32, r: f64): void {
  const z = zoneOf(n);
  sendReport(n, heatAt(n, r), r, z);
  const jitter = getf(F_REPORT_JITTER);
  const gap = getf(F_REPORT) * (1 + (jitter > 0 ? jitter * streamNormal(reportStream(z), ENGINE_ZIG) : 0));
  setF64At(F_NEXT_REPORT, n, r + Math.max(getf(F_MIN_GAP), jsRound(gap)));
}

// @ts-ignore: decorator
@inline function sendReport(n: i32, heat: i32, measNs: f64, z: i32): void {
  addf(F_REPORTS_SENT, 1);
  const loss = getf(F_LOSS);
  if (loss > 0 && streamFloat(netStream(z)) < loss) {
    addf(F_REPORTS_LOST, 1);
    return;
  }
  const desc = ptr(F_RINGS) + <usize>z * RING_DESC;
  const recs = <usize>load<u32>(desc), cap = load<i32>(desc, 4), head = load<i32>(desc, 8), size = load<i32>(desc, 12);
  // the engine made room before the event (ringRoom)
  let j = head + size;
  if (j >= cap) j -= cap;
  store<i32>(desc, size + 1, 12);
  const rec = recs + <usize>j * (<usize>geti(F_RING_REC) << 2);
  store<f64>(rec, measNs);
  store<i32>(rec + (RR_NODE << 2), n);
  store<i32>(rec + (RR_H << 2), heat);
  if (pressured(n)) {
    // a node under memory pressure (Airlock) reports no free atoms
    store<i32>(rec + (RR_S << 2), 0);
    for (let o: usize = 0; o < <usize>ROW_BYTES; o += 8) store<u64>(rec + (RR_BITS << 2) + o, 0);
  } else {
    store<i32>(rec + (RR_S << 2), freeOf(n));
    copyWords(rec + (RR_BITS << 2), row(n), <usize>ROW_BYTES);
  }
}

/** Zone z's snapshot: due reports first, then the publication; the broadcast, upload and next snapshot are scheduled. */
export function snapshotEvent(z: i32): void {
  const now = load<f64>(E);
  for (let n = offset(z), end = offset(z + 1); n < end; n++) {
    while (f64At(F_NEXT_REPORT, n) <= now) report(n, f64At(F_NEXT_REPORT, n));
  }
  snapshot(z, now);
  const hop = getf(F_HOP);
  post(hop, K_BCAST, z);
  post(hop - getf(F_DELTA), K_UPLOAD, z);
  post(getf(F_BROADCAST), K_SNAPSHOT, z);
}

/** Room Zone z's snapshot may need in its ring. */
export function snapshotRoom(z: i32, now: f64): i32 {
  let need: f64 = 0;
  for (let n = offset(z), end = offset(z + 1); n < end; n++) need += <f64>dueBound(n, now);
  return <i32>Math.min(need, <f64>(1 << 30));
}

/** Apply the reports that have arrived, then publish the master table as the next version. */
function snapshot(z: i32, nowNs: f64): void {
  const off = offset(z), nz = offset(z + 1) - off, m = <usize>i32At(F_MASTER, z);
  const desc = ptr(F_RINGS) + <usize>z * RING_DESC;
  const recs = <usize>load<u32>(desc), cap = load<i32>(desc, 4), head = load<i32>(desc, 8), size = load<i32>(desc, 12);
  const recBytes = <usize>geti(F_RING_REC) << 2, delay = getf(F_REPORT_DELAY), a = getf(F_ALPHA);
  const rec = nodeRecBytes(), words = ROW_BYTES;
  let keep = 0;
  for (let i = 0; i < size; i++) {
    let j = head + i;
    if (j >= cap) j -= cap;
    const rj = recs + <usize>j * recBytes;
    const measNs = load<f64>(rj), arrive = measNs + delay;
    if (arrive > nowNs) {
      let k = head + keep++;
      if (k >= cap) k -= cap;
      if (k != j) copyWords(recs + <usize>k * recBytes, rj, recBytes);
      continue;
    }
    const n = load<i32>(rj + (RR_NODE << 2)), sj = load<i32>(rj + (RR_S << 2)), hj = load<i32>(rj + (RR_H << 2));
    const b = m + <usize>(n - off) * rec;
    const measMs = measNs / NS_PER_MS;
    const dt = measMs - f64At(F_LAST_MEAS, n);
    if (dt > 0) {
      store<f32>(b + REC_DS, <f32>(a * ((<f64>sj - <f64>load<f32>(b + REC_S)) / dt) + (1 - a) * <f64>load<f32>(b + REC_DS)));
      store<f32>(b + REC_DH, <f32>(a * ((<f64>hj - <f64>load<f32>(b + REC_H)) / dt) + (1 - a) * <f64>load<f32>(b + REC_DH)));
    }
    store<f32>(b + REC_S, <f32>sj);
    store<f32>(b + REC_H, <f32>hj);
    store<f32>(b + REC_STAMP, <f32>measMs);
    setF64At(F_LAST_MEAS, n, measMs);
    setF64At(F_LAST_HEARD, n, arrive);
    rowStats(b, rj + (RR_BITS << 2), words >> 3);
  }
  store<i32>(desc, keep, 12);
  const v = i32At(F_TAKEN, z);
  setI32At(F_TAKEN, z, v + 1);
  const ring = geti(F_RING), copies = geti(F_COPIES), zt = <usize>i32At(F_ZT_BYTES, z);
  const slot = v % ring, dst = m + <usize>(1 + (v % copies)) * zt;
  memory.copy(dst, m, zt);
  if (geti(F_GUARD) != 0) {
    const silence = getf(F_ROW_SILENCE);
    for (let r = 0; r < nz; r++) {
      if (nowNs - f64At(F_LAST_HEARD, off + r) > silence) store<f32>(dst + <usize>r * rec + REC_STAMP, MISSING_STAMP);
    }
  }
  if (geti(F_PROJECTION) == 0) {
    for (let r = 0; r < nz; r++) store<u64>(dst + <usize>r * rec + REC_DS, 0);
  }
  const i = z * ring + slot;
  setF64At(F_SNAP_TIME, i, nowNs);
  aggregate(dst, nz, rec, <f32>(nowNs / NS_PER_MS), <f32>getf(F_DEGRADE_HEAT), i);
}

/**
 * The published version's aggregates (its mean projected Slack and total
 * projected Heat) into F_AGG_S and F_AGG_H at i: zoneAggregate's sums
 * (score.ts; choose.ts's projS and projH, with the records' step) on the records,
 * with no long-degrade (only a missing row, whose stamp makes its age past
 * any bound, counts as degraded), node r adding to lane r mod 4 and the
 * lanes combined as (l0 + l1) + (l2 + l3): the same f32 operations in the
 * same order.
 */
function aggregate(t: usize, nz: i32, rec: usize, now: f32, degradeHeat: f32, i: i32): void {
  let s0: f32 = 0, s1: f32 = 0, s2: f32 = 0, s3: f32 = 0;
  let h0: f32 = 0, h1: f32 = 0, h2: f32 = 0, h3: f32 = 0;
  let r = 0;
  for (; r + 4 <= nz; r += 4) {
    const p = t + <usize>r * rec;
    s0 += projS(p, REC_STEP, now, AGG_DEGRADE_AGE); h0 += projH(p, REC_STEP, now, AGG_DEGRADE_AGE, degradeHeat);
    s1 += projS(p + rec, REC_STEP, now, AGG_DEGRADE_AGE); h1 += projH(p + rec, REC_STEP, now, AGG_DEGRADE_AGE, degradeHeat);
    s2 += projS(p + 2 * rec, REC_STEP, now, AGG_DEGRADE_AGE); h2 += projH(p + 2 * rec, REC_STEP, now, AGG_DEGRADE_AGE, degradeHeat);
    s3 += projS(p + 3 * rec, REC_STEP, now, AGG_DEGRADE_AGE); h3 += projH(p + 3 * rec, REC_STEP, now, AGG_DEGRADE_AGE, degradeHeat);
  }
  for (; r < nz; r++) {
    const p = t + <usize>r * rec, sp = projS(p, REC_STEP, now, AGG_DEGRADE_AGE), hp = projH(p, REC_STEP, now, AGG_DEGRADE_AGE, degradeHeat), lane = r & 3;
    if (lane == 0) { s0 += sp; h0 += hp; }
    else if (lane == 1) { s1 += sp; h1 += hp; }
    else { s2 += sp; h2 += hp; } // at most three left: lane 3 is not reached
  }
  const slack: f32 = nz > 0 ? ((s0 + s1) + (s2 + s3)) / <f32>nz : 0;
  setF64At(F_AGG_S, i, <f64>slack);
  setF64At(F_AGG_H, i, <f64>((h0 + h1) + (h2 + h3)));
}

/** The degrade bound of the engine's aggregates: only a missing row's age (MISSING_STAMP) is past it. */
const AGG_DEGRADE_AGE: f32 = <f32>1e20;

/**
 * Zone z at time 0 (engineInit; src/laminar/zhaf.ts init is the twin): every
 * master row holds its node's free count and bitmap, published as version
 * 0, which every replica holds and the first upload carries.
 */
export function initSnapshot(z: i32): void {
  const off = offset(z), nz = offset(z + 1) - off, m = <usize>i32At(F_MASTER, z), rec = nodeRecBytes();
  for (let r = 0; r < nz; r++) {
    const b = m + <usize>r * rec;
    store<f32>(b + REC_S, <f32>freeOf(off + r));
    store<f32>(b + REC_H, 0);
    store<f32>(b + REC_DS, 0);
    store<f32>(b + REC_DH, 0);
    store<f32>(b + REC_STAMP, 0);
    rowStats(b, row(off + r), ROW_BYTES >> 3);
  }
  snapshot(z, 0);
  setI32At(F_DELIVERED, z, 1);
  setI32At(F_UPLOADED, z, 1);
  for (let n = off; n < off + nz; n++) setI32At(F_REPLICA, n, 0);
}

/** Zone z's next broadcast reaches its nodes; each node's copy is lost with network.loss. */
export function broadcastEvent(z: i32): void {
  const v = i32At(F_DELIVERED, z);
  setI32At(F_DELIVERED, z, v + 1);
  const off = offset(z), end = offset(z + 1), rep = ptr(F_REPLICA), loss = getf(F_LOSS);
  if (loss <= 0) {
    for (let n = off; n < end; n++) store<i32>(rep + (<usize>n << 2), v);
    return;
  }
  // geometric gaps between lost copies: the same law as one Bernoulli draw per node
  const lq = fdLog1p(-loss), net = netStream(z);
  let i: f64 = <f64>off;
  const fend: f64 = <f64>end;
  for (;;) {
    const gap = Math.floor(fdLog(1 - streamFloat(net)) / lq);
    const stop = Math.min(fend, i + gap);
    for (let n = <i32>i; n < <i32>stop; n++) store<i32>(rep + (<usize>n << 2), v);
    i = stop;
    if (i >= fend) break;
    addf(F_COPIES_LOST, 1);
    i++;
  }
}

/** Zone z's aggregates leave for the gateway side (lossy). */
export function uploadEvent(z: i32): void {
  const v = i32At(F_UPLOADED, z);
  setI32At(F_UPLOADED, z, v + 1);
  const loss = getf(F_LOSS);
  if (loss > 0 && streamFloat(netStream(z)) < loss) {
    addf(F_UPLOADS_LOST, 1);
    return;
  }
  const i = z * geti(F_RING) + (v % geti(F_RING));
  send(z, M_UPLOAD, TO_GATEWAY, 0, 0, 0, f64At(F_AGG_S, i), f64At(F_AGG_H, i), f64At(F_SNAP_TIME, i));
}

/** The replica a DA reads at `node`: its Zone table's pointer, or 0 when stale under the missingness guard. */
// @ts-ignore: decorator
@inline export function replicaAt(node: i32, z: i32, nowNs: f64): usize {
  let v = i32At(F_REPLICA, node);
  const ring = geti(F_RING), taken = i32At(F_TAKEN, z);
  const oldest = taken - ring;
  if (v < oldest) v = oldest;
  const slot = v % ring;
  if (geti(F_GUARD) != 0 && nowNs - f64At(F_SNAP_TIME, z * ring + slot) > getf(F_STALE)) {
    addf(F_STALE_READS, 1);
    return 0;
  }
  return <usize>i32At(F_MASTER, z) + <usize>(1 + (v % geti(F_COPIES))) * <usize>i32At(F_ZT_BYTES, z);
}

