// Windowed arbitration at a node (src/laminar/arbitration.ts is the twin):
// when a node's window closes, the DAs that have arrived compete in
// descending E_v,init on the node's real bitmap; a winner takes its atoms
// (with a deposit and a TTL when reservations are on) and asks the proxy
// for its payload; a loser bounces.
import { bmFirstRun } from "../bitmap";
import { rowTakeAny, rowTakeRun } from "../row";
import { E_NOFIT } from "../abi";
import {
  CLASS_F, CLASS_SQUATTER, DA_ARRIVE, DA_CLS, DA_DEPOSIT, DA_EMITTED, DA_EV, DA_FLAGS, DA_M, DA_NEXT, DA_PATIENCE, DA_STATE,
  DA_TASK, DA_VERDICT, D_PENDING, D_SQUATTING, F_ARB_LOSSES, F_ARBITRATIONS, F_BATCH, F_BITMAP_NS, F_BITMAP_OPS, F_DEPOSIT,
  F_FALSE_OPTIMISM, F_HOP, F_RESERVATIONS, F_RESERVE, F_ROW0, F_RUN_OUT, F_SILENCE, F_SQUATTING, F_TTL, F_WINDOW,
  F_WINDOW_AT, FLAG_PULL, FLAG_SECONDARY, K_PULL, M_PULL, TO_GATEWAY, US, V_NONE, DX_DECLARED, M_LAND_REQ, MX_ADMIT_PROJECTED,
  MX_AIRLOCK, MX_HIGH, MX_PROBE_DROPS, MX_STATE_PULL, TT_HOME,
} from "./layout";
import {
  addf, addxf, ATOMS, copyWords, da, dc, dx, E, f64At, freeOf, getf, jsRound, mask, MX, ptr, Q_HEAD, Q_TAIL, row, ROW_BYTES, setF64At,
  setFree, xf, xi, zoneOf,
} from "./state";
import { post } from "./events";
import { openWindow } from "./queue";
import { armTtl } from "./reserve";
import { bounce, overdue } from "./agent";
import { daEnd } from "./ends";
import { send } from "./outbox";
import { touch } from "./zone";
import { fault } from "./fault";
import { kib, taskRec, use } from "./runtime";

const END_SILENCE = 2, END_DEADLINE = 3, END_LATE = 5, END_PROBE_DROP = 7;
const CAUSE_DEADLINE = 0, CAUSE_SILENCE = 3, CAUSE_PROBE_DROP = 8;

/** Settle node n's window. */
export function arbitrate(n: i32): void {
  const now = load<f64>(E);
  if (now != f64At(F_WINDOW_AT, n)) return; // superseded by an earlier window
  setF64At(F_WINDOW_AT, n, Infinity);
  touch(n);
  const batch = ptr(F_BATCH);
  let q = 0, head = -1, tail = -1, nextArrive = Infinity;
  for (let d = load<i32>(Q_HEAD + (<usize>n << 2)); d >= 0; ) {
    const r = da(d), nx = load<i32>(r + DA_NEXT);
    const a = load<f64>(r + DA_ARRIVE);
    if (a <= now) {
      store<i32>(batch + (<usize>q << 2), d);
      q++;
    } else {
      // still in flight: stays queued, in order
      if (tail < 0) head = d;
      else store<i32>(da(tail) + DA_NEXT, d);
      tail = d;
      store<i32>(r + DA_NEXT, -1);
      if (a < nextArrive) nextArrive = a;
    }
    d = nx;
  }
  store<i32>(Q_HEAD + (<usize>n << 2), head);
  store<i32>(Q_TAIL + (<usize>n << 2), tail);
  if (nextArrive != Infinity) openWindow(n, nextArrive + getf(F_WINDOW));
  addf(F_ARBITRATIONS, 1);
  addf(F_BITMAP_OPS, <f64>q);
  const computeNs = jsRound(<f64>q * getf(F_BITMAP_NS));
  byPriority(batch, q);
  // the node's state before this window's wins: a loser that did not fit even then was misled by stale state
  const free0 = freeOf(n), live = row(n), copy = ptr(F_ROW0);
  let row0 = live;
  const z = zoneOf(n), silence = getf(F_SILENCE);
  for (let i = 0; i < q; i++) {
    const d = load<i32>(batch + (<usize>i << 2)), r = da(d);
    if (now - load<f64>(r + DA_EMITTED) > silence) { daEnd(d, END_SILENCE, CAUSE_SILENCE); continue; }
    if (overdue(r, now)) { daEnd(d, (load<u8>(r + DA_FLAGS) & FLAG_SECONDARY) != 0 ? END_LATE : END_DEADLINE, CAUSE_DEADLINE); continue; }
    if (MX != 0 && xi(MX_AIRLOCK) != 0 && !admits(n, d)) {
      // a probe refused by the physical check dissipates (with regeneration off, a first-admission task fails)
      addxf(MX_PROBE_DROPS, 1);
      daEnd(d, END_PROBE_DROP, CAUSE_PROBE_DROP);
      continue;
    }
    const m = load<i32>(r + DA_M), contiguous = load<u8>(r + DA_CLS) != CLASS_F;
    if (i < q - 1 && row0 == live) {
      copyWords(copy, live, <usize>ROW_BYTES);
      row0 = copy;
    }
    if (take(n, m, contiguous, mask(d))) {
      win(d, n, computeNs);
    } else {
      addf(F_ARB_LOSSES, 1);
      if (free0 < m || (contiguous && bmFirstRun(row0, 1, ATOMS, m, ptr(F_RUN_OUT)) == 0)) addf(F_FALSE_OPTIMISM, 1);
      bounce(d, z, computeNs);
    }
  }
}

/**
 * Airlock's pre-admission physical check for DA d at node n: the node's use
 * (plus the task's declared memory with airlock.admitCheck=projected) must
 * be at or below the high watermark.
 */
function admits(n: i32, d: i32): bool {
  const add = xi(MX_ADMIT_PROJECTED) != 0 ? kib(load<f64>(dx(d) + DX_DECLARED)) : 0;
  return use(n) + add <= xf(MX_HIGH);
}

/** Take m atoms on node n (a contiguous run when `contiguous`) into the mask; false when they do not fit. */
// @ts-ignore: decorator
@inline function take(n: i32, m: i32, contiguous: bool, maskPtr: usize): bool {
  if (freeOf(n) < m) return false;
  // the engine's own row and mask (laid out by setup.ts): the exports' checks would only say so again
  const r = contiguous ? rowTakeRun(row(n), ATOMS >> 6, m, maskPtr) : rowTakeAny(row(n), ATOMS >> 6, m, maskPtr);
  if (r == E_NOFIT) return false;
  if (r < 0) { fault(r); return false; }
  setFree(n, freeOf(n) - m);
  return true;
}

/** Descending E_v,init; ties by arrival at the node, then by position (insertion sort: batches are short). */
function byPriority(batch: usize, q: i32): void {
  for (let i = 1; i < q; i++) {
    const d = load<i32>(batch + (<usize>i << 2)), e = load<f64>(da(d) + DA_EV), a = load<f64>(da(d) + DA_ARRIVE);
    let j = i - 1;
    while (j >= 0) {
      const bj = load<i32>(batch + (<usize>j << 2)), ej = load<f64>(da(bj) + DA_EV);
      if (!(ej < e || (ej == e && load<f64>(da(bj) + DA_ARRIVE) > a))) break;
      store<i32>(batch + (<usize>(j + 1) << 2), bj);
      j--;
    }
    store<i32>(batch + (<usize>(j + 1) << 2), d);
  }
}

/** A win: atoms are taken; with two-phase reservation a deposit is frozen and a TTL armed; then the payload pull. */
// @ts-ignore: decorator
@inline function win(d: i32, n: i32, computeNs: f64): void {
  const r = da(d);
  store<u8>(r + DA_STATE, D_PENDING);
  const reserve = getf(F_RESERVE) != 0;
  if (reserve) {
    addf(F_RESERVATIONS, 1);
    const p = load<f64>(r + DA_PATIENCE);
    const dep = Math.min(getf(F_DEPOSIT), Math.max(0, p));
    store<f64>(r + DA_PATIENCE, p - dep);
    store<f64>(dc(d) + DA_DEPOSIT, dep);
    armTtl(d, n);
  }
  if (load<u8>(r + DA_CLS) == CLASS_SQUATTER) {
    // a squatter never pulls: it holds the atoms until its reservation expires (or for ever without one)
    store<u8>(r + DA_STATE, D_SQUATTING);
    addf(F_SQUATTING, 1);
    return;
  }
  store<u8>(r + DA_FLAGS, load<u8>(r + DA_FLAGS) | FLAG_PULL);
  // the pull request reaches the proxy (or, for a secondary probe, the suspended image's Zone) half a hop
  // later, and the payload is here a hop after the win; a suspended image takes statePullMs more
  const secondary = (load<u8>(r + DA_FLAGS) & FLAG_SECONDARY) != 0, now = load<f64>(E);
  const pullAt = now + computeNs + getf(F_HOP) + (secondary ? xf(MX_STATE_PULL) : 0);
  store<u8>(r + DA_VERDICT, V_NONE);
  if (reserve && Math.ceil((now + getf(F_TTL)) / US) * US <= pullAt) {
    // the reservation expires before the pull could complete: nothing is asked
    post(pullAt - now, K_PULL, d);
    return;
  }
  const z = zoneOf(n), t = load<i32>(r + DA_TASK);
  if (secondary) send(z, M_LAND_REQ, <f64>load<i32>(taskRec(t) + TT_HOME), <f64>t, <f64>d, <f64>z, computeNs, 0, 0);
  else send(z, M_PULL, TO_GATEWAY, <f64>t, <f64>d, <f64>z, computeNs, 0, 0);
}
