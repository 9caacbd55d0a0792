// Airlock in the engine (src/laminar/airlock-ledger.ts and airlock.ts are
// the twins; docs/airlock.md): at each runtime tick, a node above the high
// watermark suspends running tasks in ascending E_v,init into its ledger
// (frozen, compressed, atoms kept) until use is at the safe watermark;
// suspended tasks resume in place while the node has room; at T_susp a ledger
// entry still waiting resumes if the node has, or can make, room (preempting
// lower-priority runners), or else its DA is reactivated as a secondary probe
// (the gateway side emits it; landing.ts); at T_surv it is reclaimed.
// Without Airlock the tick applies the kernel OOM rule (runtime.ts) alone.
import { memAdvance } from "../memory";
import {
  DA_EV, DA_FLAGS, DA_NODE, DA_STATE, DA_TASK, D_RESIDENT, D_SUSPENDED, DX_DECLARED, DX_DONE_SEQ, DX_DRIFT, DX_EPOCH_END,
  DX_FROZEN, DX_NEXT, DX_REMAINING, DX_SUSPENDED_AT, DX_TARGET, DX_TIMER_SEQ, F_N0, F_N1, F_NODES, F_RUNNING, F_SEQ,
  FLAG_REACTIVATED, K_AIRLOCK, K_MEM, M_CLOSED, M_REACTIVATE, MX_AIRLOCK, MX_BURST_RATE, MX_BURST_SCALE, MX_CAP,
  MX_COMPRESSION, MX_HIGH, MX_IN_WAIT, MX_KAPPA, MX_LEDGERS, MX_OUT, MX_PREEMPTIONS, MX_PRESSURED, MX_REACTIVATIONS,
  MX_REC_COUNT, MX_RECLAIMED, MX_RECS, MX_RESUMED, MX_SAFE, MX_SCOPE_ALL, MX_SEED, MX_SIGMA, MX_SUSPEND, MX_SUSPENDED,
  MX_SUSPENSIONS, MX_SURVIVAL, MX_TICK, MX_USAGE, MX_BASE, MX_WAIT_COUNT, MX_WAIT_LIST, MX_WAITING, R_CLOSED, R_KILLED,
  TO_GATEWAY, TT_ANCHOR,
} from "./layout";
import { addf, addxf, da, dx, E, getf, geti, jsRound, setxi, xf, xi, xp, zoneOf } from "./state";
import { post } from "./events";
import { releaseAtoms } from "./queue";
import { retire } from "./ends";
import { send } from "./outbox";
import { fault } from "./fault";
import {
  driftOf, execute, gatherRunning, keyOf, kib, link, oom, pickA, pickB, pickId, pickK, recField, setPick, shiftImage,
  stopExecution, targetOf, taskRec, unlink, updatePressure, use,
} from "./runtime";

// @ts-ignore: decorator
@inline function flags(d: i32): u8 { return load<u8>(da(d) + DA_FLAGS); }
// @ts-ignore: decorator
@inline function setFlags(d: i32, f: u8): void { store<u8>(da(d) + DA_FLAGS, f); }
// @ts-ignore: decorator
@inline function waitingAt(n: i32): usize { return xp(MX_WAITING) + (<usize>n << 2); }
// @ts-ignore: decorator
@inline function evOf(d: i32): f64 { return load<f64>(da(d) + DA_EV); }

/**
 * Sort the pick arrays' first k entries by A ascending, then B descending,
 * then K ascending, in place (airlock.ts orderBy; a node holds at most a few
 * dozen candidates, so insertion sort).
 */
function orderBy(k: i32): void {
  for (let i = 1; i < k; i++) {
    const id = pickId(i), p = pickA(i), s = pickB(i), t = pickK(i);
    let j = i - 1;
    while (j >= 0 && before(p, s, t, pickA(j), pickB(j), pickK(j))) {
      setPick(j + 1, pickId(j), pickA(j), pickB(j), pickK(j));
      j--;
    }
    setPick(j + 1, id, p, s, t);
  }
}

// @ts-ignore: decorator
@inline function before(p: f64, s: f64, t: f64, p2: f64, s2: f64, t2: f64): bool {
  if (p != p2) return p < p2;
  if (s != s2) return s > s2;
  return t < t2;
}

/** Runtime tick: every running task's memory moves (memTick's kernel); nodes over the line are relieved; suspended tasks may resume. */
export function memTickEvent(): void {
  const now = load<f64>(E), tickNs = xf(MX_TICK);
  post(tickNs, K_MEM, 0);
  const tick = jsRound(now / tickNs) % 4294967296;
  const airlock = xi(MX_AIRLOCK) != 0, N = geti(F_NODES), out = xp(MX_OUT);
  const count = memAdvance(xp(MX_RECS), xi(MX_REC_COUNT), N, xp(MX_BASE), xp(MX_USAGE), out, N, <u32>tick, <u32>xf(MX_SEED),
    xf(MX_KAPPA), xf(MX_SIGMA), xf(MX_BURST_RATE), xf(MX_BURST_SCALE), airlock ? xf(MX_HIGH) : xf(MX_CAP));
  if (count < 0) { fault(count); return; }
  if (airlock) {
    // pressure flags: nodes that left pressure, then those over the line now
    const high = xf(MX_HIGH), pr = xp(MX_PRESSURED);
    for (let n = geti(F_N0), n1 = geti(F_N1); n < n1; n++) if (load<u8>(pr + <usize>n) == 1 && use(n) <= high) updatePressure(n);
    for (let i = 0; i < count; i++) {
      const n = load<i32>(out + (<usize>i << 2));
      updatePressure(n);
      relieve(n);
    }
    resumeWaiting();
  } else {
    for (let i = 0; i < count; i++) oom(load<i32>(out + (<usize>i << 2)));
  }
}

/**
 * Node n is above the high watermark: suspend residents in ascending
 * E_v,init until use is at the safe watermark (scope `lower`: only those
 * below the node's highest running E_v,init); what Airlock could not
 * relieve, the kernel still kills.
 */
function relieve(n: i32): void {
  const k = gatherRunning(n);
  orderBy(k);
  const top = xi(MX_SCOPE_ALL) != 0 || k == 0 ? Infinity : pickA(k - 1), safe = xf(MX_SAFE);
  for (let i = 0; i < k && pickA(i) < top && use(n) > safe; i++) suspend(pickId(i), n);
  updatePressure(n);
  if (use(n) > xf(MX_CAP)) oom(n);
}

/** Suspend DA d's task on node n into the Airlock ledger: frozen, compressed, atoms kept, T_susp armed. */
function suspend(d: i32, n: i32): void {
  const x = dx(d), now = load<f64>(E);
  store<f64>(x + DX_DONE_SEQ, -1);
  store<f64>(x + DX_REMAINING, load<f64>(x + DX_EPOCH_END) - now);
  store<f64>(x + DX_DRIFT, driftOf(d));
  store<f64>(x + DX_TARGET, targetOf(d));
  const image = recField(d, 4) / xf(MX_COMPRESSION);
  stopExecution(d, n);
  store<f64>(x + DX_FROZEN, image);
  shiftImage(n, image, 1);
  store<u8>(da(d) + DA_STATE, D_SUSPENDED);
  setFlags(d, flags(d) & ~FLAG_REACTIVATED);
  store<f64>(x + DX_SUSPENDED_AT, now);
  link(xp(MX_LEDGERS), n, d);
  store<i32>(taskRec(load<i32>(da(d) + DA_TASK)) + TT_ANCHOR, d);
  store<f64>(x + DX_TIMER_SEQ, getf(F_SEQ));
  post(xf(MX_SUSPEND), K_AIRLOCK, d);
  addf(F_RUNNING, -1);
  addxf(MX_SUSPENDED, 1);
  addxf(MX_SUSPENSIONS, 1);
  store<i32>(waitingAt(n), load<i32>(waitingAt(n)) + 1);
  const inWait = xp(MX_IN_WAIT) + <usize>n;
  if (load<u8>(inWait) == 0) {
    store<u8>(inWait, 1);
    const c = xi(MX_WAIT_COUNT);
    store<i32>(xp(MX_WAIT_LIST) + (<usize>c << 2), n);
    setxi(MX_WAIT_COUNT, c + 1);
  }
}

/** In-situ resume: on each node with entries before T_susp, highest E_v,init first, while resuming keeps use at or below the safe watermark. */
function resumeWaiting(): void {
  const list = xp(MX_WAIT_LIST), count = xi(MX_WAIT_COUNT);
  let keep = 0;
  for (let w = 0; w < count; w++) {
    const n = load<i32>(list + (<usize>w << 2));
    resumePass(n);
    if (load<i32>(waitingAt(n)) > 0) {
      store<i32>(list + (<usize>keep << 2), n);
      keep++;
    } else store<u8>(xp(MX_IN_WAIT) + <usize>n, 0);
  }
  setxi(MX_WAIT_COUNT, keep);
}

/** Node n's in-situ pass over its entries not yet reactivated, in resume order; the first that does not fit stops it. */
function resumePass(n: i32): void {
  const now = load<f64>(E);
  let k = 0;
  for (let d = load<i32>(xp(MX_LEDGERS) + (<usize>n << 2)); d >= 0; d = load<i32>(dx(d) + DX_NEXT)) {
    if (flags(d) & FLAG_REACTIVATED) continue;
    setPick(k, d, -evOf(d), -load<f64>(dx(d) + DX_SUSPENDED_AT), keyOf(d));
    k++;
  }
  orderBy(k);
  const safe = xf(MX_SAFE);
  for (let i = 0; i < k; i++) {
    const d = pickId(i);
    if (load<f64>(dx(d) + DX_SUSPENDED_AT) == now) break; // suspended this very tick: not yet
    if (use(n) + resumeGrowth(d) > safe) break;
    resumeInPlace(d, n);
  }
}

/** Resume in place, in resume order, every entry of node n not yet reactivated that ranks ahead of e and has room now. */
function resumeAhead(n: i32, e: i32): void {
  const now = load<f64>(E), evE = evOf(e), sinceE = load<f64>(dx(e) + DX_SUSPENDED_AT), keyE = keyOf(e);
  let k = 0;
  for (let d = load<i32>(xp(MX_LEDGERS) + (<usize>n << 2)); d >= 0; d = load<i32>(dx(d) + DX_NEXT)) {
    const since = load<f64>(dx(d) + DX_SUSPENDED_AT);
    if (d == e || (flags(d) & FLAG_REACTIVATED) || since == now) continue;
    const ev = evOf(d), key = keyOf(d);
    if (ev < evE || (ev == evE && (since > sinceE || (since == sinceE && key > keyE)))) continue;
    setPick(k, d, -ev, -since, key);
    k++;
  }
  orderBy(k);
  const safe = xf(MX_SAFE);
  for (let i = 0; i < k; i++) {
    const d = pickId(i);
    if (use(n) + resumeGrowth(d) <= safe) resumeInPlace(d, n);
  }
}

function resumeInPlace(d: i32, n: i32): void {
  const x = dx(d), t = load<i32>(da(d) + DA_TASK);
  store<f64>(x + DX_TIMER_SEQ, -1);
  leaveLedger(d, n);
  if ((flags(d) & FLAG_REACTIVATED) == 0) store<i32>(waitingAt(n), load<i32>(waitingAt(n)) - 1);
  // a reactivated entry resumed here: its secondary probes have nothing to land any more
  else send(zoneOf(n), M_CLOSED, TO_GATEWAY, <f64>t, 0, 0, 0, 0, 0);
  setFlags(d, flags(d) & ~FLAG_REACTIVATED);
  store<u8>(da(d) + DA_STATE, D_RESIDENT);
  addf(F_RUNNING, 1);
  addxf(MX_RESUMED, 1);
  execute(d, n, load<f64>(x + DX_REMAINING), load<f64>(x + DX_DECLARED), load<f64>(x + DX_TARGET), load<f64>(x + DX_DRIFT));
}

/** Ledger entry d leaves node n's ledger: its image is dropped (resumed, pulled elsewhere or reclaimed). */
export function leaveLedger(d: i32, n: i32): void {
  unlink(xp(MX_LEDGERS), n, d);
  shiftImage(n, load<f64>(dx(d) + DX_FROZEN), -1);
  store<i32>(taskRec(load<i32>(da(d) + DA_TASK)) + TT_ANCHOR, -1);
  addxf(MX_SUSPENDED, -1);
}

/** An Airlock timer of ledger entry d: T_susp (reactivate its DA) or T_surv (reclaim). */
export function airlockTimer(d: i32): void {
  if (load<u8>(da(d) + DA_STATE) != D_SUSPENDED) { fault(-4001); return; }
  const n = load<i32>(da(d) + DA_NODE), t = load<i32>(da(d) + DA_TASK);
  // before moving the task on or killing it, the node resumes it in place if it has room, or can make room
  if (recoverLocally(n, d)) return;
  if (flags(d) & FLAG_REACTIVATED) { reclaim(d); return; }
  setFlags(d, flags(d) | FLAG_REACTIVATED);
  store<i32>(waitingAt(n), load<i32>(waitingAt(n)) - 1);
  store<f64>(dx(d) + DX_TIMER_SEQ, getf(F_SEQ));
  post(xf(MX_SURVIVAL), K_AIRLOCK, d);
  addxf(MX_REACTIVATIONS, 1);
  // the reactivated DA re-enters through the gateway (half a hop away) with a fresh patience budget
  send(zoneOf(n), M_REACTIVATE, TO_GATEWAY, <f64>t, 0, 0, 0, 0, 0);
}

/** Ledger entry e at T_susp or T_surv: higher-ranked entries with room resume first; then e, if there is or can be made room. */
function recoverLocally(n: i32, e: i32): bool {
  if (load<i32>(waitingAt(n)) > 0) resumeAhead(n, e);
  if (use(n) + resumeGrowth(e) <= xf(MX_SAFE)) {
    resumeInPlace(e, n);
    return true;
  }
  return preemptFor(n, e);
}

/** Suspend node n's lower-priority runners (ascending, as many as needed) to resume entry e, when that makes room. */
function preemptFor(n: i32, e: i32): bool {
  const k = canMakeRoom(n, e);
  if (k == 0) return false;
  const grow = resumeGrowth(e), safe = xf(MX_SAFE);
  orderBy(k);
  for (let i = 0; i < k && use(n) + grow > safe; i++) suspend(pickId(i), n);
  addxf(MX_PREEMPTIONS, 1);
  resumeInPlace(e, n);
  return true;
}

/** How many lower-priority runners of node n there are when suspending them all would make room for e (left in the pick arrays), else 0. */
function canMakeRoom(n: i32, e: i32): i32 {
  const k = gatherLower(n, evOf(e));
  let relief: f64 = 0;
  for (let i = 0; i < k; i++) relief += suspensionRelief(pickId(i));
  return k > 0 && use(n) - relief + resumeGrowth(e) <= xf(MX_SAFE) ? k : 0;
}

/** Node n's running tasks with E_v,init below ev, into the pick arrays; returns how many. */
function gatherLower(n: i32, ev: f64): i32 {
  const k = gatherRunning(n);
  let j = 0;
  for (let i = 0; i < k; i++) {
    if (pickA(i) >= ev) continue;
    setPick(j, pickId(i), pickA(i), pickB(i), pickK(i));
    j++;
  }
  return j;
}

/** KiB that suspending running DA d frees (its resident use, less the image that stays). */
function suspensionRelief(d: i32): f64 {
  const r = recField(d, 4);
  return kib(r) - kib(r / xf(MX_COMPRESSION));
}

/** KiB that resuming ledger entry e adds (its drifting footprint, less its image). */
function resumeGrowth(e: i32): f64 {
  return kib(load<f64>(dx(e) + DX_DRIFT)) - kib(load<f64>(dx(e) + DX_FROZEN));
}

/** T_surv expired before a secondary landing: the suspended task and its DA are reclaimed. */
function reclaim(d: i32): void {
  const n = load<i32>(da(d) + DA_NODE);
  leaveLedger(d, n);
  releaseAtoms(d, n);
  updatePressure(n);
  addxf(MX_RECLAIMED, 1);
  retire(d, R_KILLED | R_CLOSED);
}
