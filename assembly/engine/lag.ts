// Lag mode's exports (docs/abi.md, "Zone engine"; history.ts keeps the
// history they read): on, the counter at a point of the run, the history
// trimmed, its size.
import { E_ARG, OK } from "../abi";
import { ready } from "./setup";
import { F_HIST_BASE, F_HIST_HEAD, F_HIST_N, F_HIST_TRIM, F_SEQ, F_SEQ_STEP } from "./layout";
import { forget, getf, geti, leave, MX, setf, seti } from "./state";
import { queueRebase } from "./events";
import { histOn, recAt } from "./history";

/**
 * Lag mode: the engine's own sequence numbers from now on go in steps of
 * `step` (a power of two from 2 to 2^30), each past every one given so far,
 * and the engine keeps the history (its region comes by E_FULL, ROOM_HIST).
 * Once per engine, before anything runs. E_ARG otherwise.
 */
export function engineLagMode(block: usize, step: f64): i32 {
  const r = engineLagModeIn(block, step);
  leave();
  return r;
}

function engineLagModeIn(block: usize, step: f64): i32 {
  if (!ready(block)) return E_ARG;
  if (histOn() || !(step >= 2 && step <= 1073741824) || step != Math.floor(step) || (<i64>step & (<i64>step - 1)) != 0) return E_ARG;
  setf(F_SEQ, (getf(F_SEQ) + 1) * step);
  setf(F_SEQ_STEP, step);
  setf(F_HIST_BASE, getf(F_SEQ));
  setf(F_HIST_TRIM, -Infinity);
  return OK;
}

/**
 * The sequence counter at the point of the run just before (time, seq): the
 * number the engine's next post there took (f64); a gateway's event there
 * posts at counter - step + 1, + 2, ... E_ARG outside lag mode, or for a
 * point the history no longer holds (before a trim).
 */
export function engineSeqAt(block: usize, time: f64, seq: f64): f64 {
  const r = engineSeqAtIn(block, time, seq);
  forget(); // read only: nothing to copy back
  return r;
}

function engineSeqAtIn(block: usize, time: f64, seq: f64): f64 {
  if (!ready(block) || !histOn() || isNaN(time) || isNaN(seq)) return <f64>E_ARG;
  if (time < getf(F_HIST_TRIM)) return <f64>E_ARG;
  let lo = geti(F_HIST_HEAD), hi = geti(F_HIST_N);
  // the last record before (time, seq): binary search over the records in run order
  while (lo < hi) {
    const mid = (lo + hi) >>> 1, r = recAt(mid), t = load<f64>(r);
    if (t < time || (t == time && load<f64>(r, 8) < seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo == geti(F_HIST_HEAD) ? getf(F_HIST_BASE) : load<f64>(recAt(lo - 1), 16);
}

/** Drop the history's records before `time` (the host asks nothing before it again); E_ARG outside lag mode. */
export function engineHistoryTrim(block: usize, time: f64): i32 {
  const r = engineHistoryTrimIn(block, time);
  leave();
  return r;
}

function engineHistoryTrimIn(block: usize, time: f64): i32 {
  if (!ready(block) || !histOn() || isNaN(time)) return E_ARG;
  let h = geti(F_HIST_HEAD);
  const n = geti(F_HIST_N);
  if (time > getf(F_HIST_TRIM)) setf(F_HIST_TRIM, time);
  while (h < n && load<f64>(recAt(h)) < time) {
    setf(F_HIST_BASE, load<f64>(recAt(h), 16));
    h++;
  }
  seti(F_HIST_HEAD, h);
  return OK;
}

/** Records the history holds (for tests and the host's checks); E_ARG outside lag mode. */
export function engineHistoryRecords(block: usize): i32 {
  const r = engineHistoryRecordsIn(block);
  forget(); // read only: nothing to copy back
  return r;
}

function engineHistoryRecordsIn(block: usize): i32 {
  if (!ready(block) || !histOn()) return E_ARG;
  return geti(F_HIST_N) - geti(F_HIST_HEAD);
}

/**
 * Lag mode: every sequence number the engine holds (its pending events',
 * its counter's and its history's) less `offset`, a multiple of the step
 * from 0 to the counter: their order is unchanged, and a long run's numbers
 * stay well inside the doubles' exact integers. E_ARG outside lag mode,
 * with the memory model (its DAs hold sequence numbers too), or for a bad
 * offset.
 */
export function engineSeqRebase(block: usize, offset: f64): i32 {
  const r = engineSeqRebaseIn(block, offset);
  leave();
  return r;
}

function engineSeqRebaseIn(block: usize, offset: f64): i32 {
  if (!ready(block) || !histOn() || MX != 0) return E_ARG;
  const step = getf(F_SEQ_STEP);
  if (!(offset >= 0 && offset <= getf(F_SEQ)) || Math.floor(offset / step) * step != offset) return E_ARG;
  queueRebase(offset);
  for (let i = geti(F_HIST_HEAD), n = geti(F_HIST_N); i < n; i++) {
    const r = recAt(i);
    store<f64>(r, load<f64>(r, 8) - offset, 8); // -Infinity (the host's posts) stays
    store<f64>(r, load<f64>(r, 16) - offset, 16);
  }
  setf(F_HIST_BASE, getf(F_HIST_BASE) - offset);
  setf(F_SEQ, getf(F_SEQ) - offset);
  return OK;
}
