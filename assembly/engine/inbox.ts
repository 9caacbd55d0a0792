// The gateway side's inbox in core memory, for a host that runs every Zone
// on one engine without the memory model (src/laminar/model.ts, one
// partition): at a window's end, engineExchange moves the window's outbox
// into the inbox in canonical order (delivery time, then sending Zone,
// stable; src/laminar/mailbox.ts's Mailbox.sort) and schedules each pull
// request's completion, as the host's exchange would (model.ts, queued).
// The host then applies the inbox's messages in order, reading them where
// they lie, instead of copying the outbox out, sorting it and posting the
// completions back.
//
// The outbox region holds the inbox too (INBOX after the outbox's OUT_CAP
// records) and a count per Zone for the sort (after the inbox).
import { E_ARG } from "../abi";
import {
  F_DELTA, F_HEAP_CAP, F_HEAP_SIZE, F_HOP, F_IN_N, F_OUT_CAP, F_OUT_N, F_OUTBOX, F_Z0, F_Z1, F_ZONES, K_PULL, M_DA_END, M_PULL,
  M_UPLOAD, REC, ROOM_HEAP, TO_GATEWAY,
} from "./layout";
import { E, getf, geti, MX, ptr, room, seti } from "./state";
import { histOn } from "./history";
import { push } from "./events";

const RB: usize = <usize>REC << 3;

/** The inbox's first record (after the outbox's OUT_CAP records). */
// @ts-ignore: decorator
@inline export function inboxAt(): usize { return ptr(F_OUTBOX) + <usize>geti(F_OUT_CAP) * RB; }

/** Bytes of an outbox region for cap records: the outbox, the inbox, a count per Zone and one more. */
// @ts-ignore: decorator
@inline export function outboxBytes(cap: i32, zones: i32): i64 { return <i64>cap * 2 * <i64>RB + (<i64>(zones + 1) << 2); }

/**
 * engineExchange (run.ts) on a ready block: the window's outbox into the
 * inbox, in canonical order, each pull request's completion scheduled at
 * its delivery plus hop - delta plus its compute time (as a delay from the
 * clock, the host's arithmetic); the outbox empties. Returns the records
 * moved. E_ARG (nothing done) unless the engine holds every Zone, without
 * the memory model, outside lag mode, with the inbox empty (the host has
 * applied every message of the last window), and every record is for the
 * gateway side's queue (M_DA_END, M_PULL, M_UPLOAD) in time order, from one
 * of the cluster's Zones; E_FULL
 * (nothing done) when the event queue lacks room.
 */
export function exchange(): i32 {
  if (MX != 0 || histOn() || geti(F_Z0) != 0 || geti(F_Z1) != geti(F_ZONES) || geti(F_IN_N) != 0) return E_ARG;
  const n = geti(F_OUT_N), out = ptr(F_OUTBOX);
  let pulls = 0, last = -Infinity;
  for (let i = 0; i < n; i++) {
    const p = out + <usize>i * RB, t = load<f64>(p), kind = <i32>load<f64>(p, 16);
    if (t < last || !zoneOk(load<f64>(p, 8)) || load<f64>(p, 24) != TO_GATEWAY || (kind != M_DA_END && kind != M_PULL && kind != M_UPLOAD)) return E_ARG;
    last = t;
    if (kind == M_PULL) pulls++;
  }
  if (geti(F_HEAP_SIZE) + pulls > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + pulls);
  const inbox = inboxAt();
  for (let i = 0; i < n; ) {
    // a run of equal times: by Zone, stable (a counting sort, as Mailbox.sortRunByZone), unless in order already
    const t = load<f64>(out + <usize>i * RB);
    let j = i + 1, sorted = true;
    while (j < n && load<f64>(out + <usize>j * RB) == t) {
      if (load<f64>(out + <usize>j * RB, 8) < load<f64>(out + <usize>(j - 1) * RB, 8)) sorted = false;
      j++;
    }
    if (sorted) memory.copy(inbox + <usize>i * RB, out + <usize>i * RB, <usize>(j - i) * RB);
    else sortRun(out, inbox, i, j);
    i = j;
  }
  seti(F_OUT_N, 0);
  seti(F_IN_N, n);
  const now = load<f64>(E), hop = getf(F_HOP), delta = getf(F_DELTA);
  for (let i = 0; i < n; i++) {
    const p = inbox + <usize>i * RB;
    if (<i32>load<f64>(p, 16) != M_PULL) continue;
    push(pullDone(p, now, hop, delta), K_PULL, <i32>load<f64>(p, 40));
  }
  return n;
}

/**
 * When the pull request at p (a message record) completes: its delivery plus
 * hop - delta plus its compute time, in the host's arithmetic (model.ts
 * pullAnswered, ZoneEngine.post): the delay from the clock, then the clock
 * plus the delay.
 */
// @ts-ignore: decorator
@inline export function pullDone(p: usize, now: f64, hop: f64, delta: f64): f64 {
  const delay = load<f64>(p) + hop - delta + load<f64>(p, 56) - now;
  return now + delay;
}

/** Whether a record's sending Zone is one of the cluster's (sortRun counts by it). */
// @ts-ignore: decorator
@inline function zoneOk(z: f64): bool {
  return z >= 0 && z < <f64>geti(F_ZONES) && z == Math.floor(z);
}

/** Records [i, j) of `out` (equal times) into the same places of `inbox`, by Zone, stable. */
function sortRun(out: usize, inbox: usize, i: i32, j: i32): void {
  const counts = inbox + <usize>geti(F_OUT_CAP) * RB;
  let zmax = 0;
  for (let r = i; r < j; r++) zmax = max(zmax, <i32>load<f64>(out + <usize>r * RB, 8));
  memory.fill(counts, 0, <usize>(zmax + 1) << 2);
  for (let r = i; r < j; r++) {
    const c = counts + (<usize><i32>load<f64>(out + <usize>r * RB, 8) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  let at = i;
  for (let z = 0; z <= zmax; z++) {
    const c = counts + (<usize>z << 2), k = load<i32>(c);
    store<i32>(c, at);
    at += k;
  }
  for (let r = i; r < j; r++) {
    const src = out + <usize>r * RB, c = counts + (<usize><i32>load<f64>(src, 8) << 2), dst = load<i32>(c);
    store<i32>(c, dst + 1);
    memory.copy(inbox + <usize>dst * RB, src, RB);
  }
}
