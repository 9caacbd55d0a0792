// The gateway side's drain of the engine's inbox (inbox.ts) on the host's
// task table, for a host that runs every Zone on one engine without the
// memory model (src/laminar/model.ts, one partition): the proxy's answer to
// each pull request (only a task's first request in time starts it; the
// starting DA is handed over) and each DA end (the task fails once its last
// hope is gone), as src/laminar/task-table.ts's proxy and taskLost, applied
// where the messages lie. The host keeps the task table's columns that
// these read and write in core memory (the tasks block's region) and is
// handed back what the rest of its state needs: each start's latency and
// class, each failure's cause and each slot the task table may now free, in
// order. A Z-HAF upload (M_UPLOAD) is the host's: the drain stops before it.
//
// The tasks block (GT_BYTES, 8-byte slots; docs/abi.md, "The gateway's
// drain"): the columns' region and capacity, the start deadline (ns), the
// inbox position (in and out), the out region and its capacity, the out
// counts. The columns, for cap tasks: arrival f64[cap], then live i32[cap],
// state u8[cap], timers u8[cap], class u8[cap]. The out region, for ocap
// records: start latency f64[ocap], start class i32[ocap], failure cause
// i32[ocap], freed slot i32[ocap].
import { E_ARG, E_ID } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { BLOCK_BYTES, CLASS_SQUATTER, DA_BYTES, DA_VERDICT, F_DA_CAP, F_DELTA, F_HOP, F_IN_N, M_DA_END, M_PULL, REC, V_DUP, V_LATE, V_START } from "./layout";
import { DAS, geti, getf, MX } from "./state";
import { inboxAt } from "./inbox";
import { histOn } from "./history";

/** The tasks block's fields (8-byte slots). */
export const GT_BASE = 0, GT_CAP = 1, GT_DEADLINE = 2, GT_HEAD = 3, GT_OUT = 4, GT_OUT_CAP = 5, GT_STARTS = 6, GT_FAILS = 7,
  GT_FREED = 8;
export const GT_BYTES = 80;
/** Bytes a task takes in the columns' region, and an out record in the out region. */
export const GT_TASK_BYTES = 15, GT_OUT_BYTES = 20;

/** Task states and timer bits (src/laminar/store.ts, state.ts). */
const T_PENDING: u8 = 0, T_STARTED: u8 = 1, T_FAILED: u8 = 2;
const EXACT_TIMERS: u8 = 1 | 2, REGEN_ARMED: u8 = 4;
/** Failure causes (src/metrics/run-metrics.ts): a squatter's, and how many there are. */
const CAUSE_SQUATTER = 4, FAIL_CAUSES = 11;

const RB: usize = <usize>REC << 3;

/**
 * engineDrain (run.ts) on a ready block: apply the inbox's messages from the
 * tasks block's position on, in order, up to the first delivered after
 * `now`, the first upload, the inbox's end or the out region's capacity;
 * returns how many were applied and moves the position past them. E_ARG
 * (nothing done) outside the inbox's configuration (inbox.ts) or with a bad
 * block, position, deadline or capacity; E_ID (nothing done) when a message
 * names a task outside the columns, a DA outside its table, or a cause that
 * does not exist.
 */
export function drain(block: usize, gt: usize, now: f64): i32 {
  if (MX != 0 || histOn() || isNaN(now)) return E_ARG;
  const base = <usize>load<u32>(gt), cap = load<i32>(gt, GT_CAP << 3), deadline = load<f64>(gt, GT_DEADLINE << 3);
  const head = load<i32>(gt, GT_HEAD << 3), out = <usize>load<u32>(gt, GT_OUT << 3), ocap = load<i32>(gt, GT_OUT_CAP << 3);
  const n = geti(F_IN_N), daCap = geti(F_DA_CAP), inbox = inboxAt();
  if (cap < 1 || ocap < 1 || head < 0 || head > n || !(deadline >= 0)) return E_ARG;
  regionsReset();
  region(block, BLOCK_BYTES, 1, 8, false);
  region(gt, GT_BYTES, 1, 8, true);
  region(base, <i64>cap * GT_TASK_BYTES, 1, 8, true);
  region(out, <i64>ocap * GT_OUT_BYTES, 1, 8, true);
  region(DAS, <i64>daCap * DA_BYTES, 1, 8, true);
  region(inbox, <i64>n * RB, 1, 8, false);
  const e = regionsCheck(); if (e != 0) return e;
  // the messages this call applies, checked before any is
  let end = head;
  while (end < n && end - head < ocap) {
    const p = inbox + <usize>end * RB, kind = <i32>load<f64>(p, 16);
    if (!(load<f64>(p) <= now) || kind != M_DA_END && kind != M_PULL) break;
    const t = load<f64>(p, 32), b = load<f64>(p, 40);
    if (!(t >= 0 && t < <f64>cap && t == Math.floor(t))) return E_ID;
    if (kind == M_DA_END ? !(b >= 0 && b < <f64>FAIL_CAUSES && b == Math.floor(b)) : !(b >= 0 && b < <f64>daCap && b == Math.floor(b))) return E_ID;
    end++;
  }
  const live = base + <usize>cap * 8, state = live + <usize>cap * 4, timers = state + <usize>cap, cls = timers + <usize>cap;
  const startCls = out + <usize>ocap * 8, causes = startCls + <usize>ocap * 4, freed = causes + <usize>ocap * 4;
  const hop = getf(F_HOP), delta = getf(F_DELTA);
  let starts = 0, fails = 0, frees = 0;
  for (let i = head; i < end; i++) {
    const p = inbox + <usize>i * RB, t = <usize><i32>load<f64>(p, 32), b = <i32>load<f64>(p, 40);
    const lp = live + (t << 2);
    let st = load<u8>(state + t);
    if (<i32>load<f64>(p, 16) == M_PULL) {
      // the proxy (task-table.ts proxy, its arithmetic): the payload reaches the node half a hop and the compute time later
      const startAt = load<f64>(p) + hop - delta + load<f64>(p, 56), arrival = load<f64>(base + (t << 3));
      const go = st == T_PENDING && startAt < arrival + deadline;
      store<u8>(DAS + <usize>b * DA_BYTES + DA_VERDICT, go ? V_START : st == T_STARTED ? V_DUP : V_LATE);
      if (!go) continue;
      st = T_STARTED;
      store<u8>(state + t, st);
      store<f64>(out + (<usize>starts << 3), startAt - arrival);
      store<i32>(startCls + (<usize>starts << 2), load<u8>(cls + t));
      starts++;
      // handed over: the starting DA no longer counts among the task's live DAs
      store<i32>(lp, load<i32>(lp) - 1);
    } else {
      // a DA ended without starting its task (task-table.ts taskLost): the task's last hope fails it
      const left = load<i32>(lp) - 1;
      store<i32>(lp, left);
      if (st == T_PENDING && left == 0 && (load<u8>(timers + t) & REGEN_ARMED) == 0) {
        st = T_FAILED;
        store<u8>(state + t, st);
        store<i32>(causes + (<usize>fails << 2), load<u8>(cls + t) == CLASS_SQUATTER ? CAUSE_SQUATTER : b);
        fails++;
      }
    }
    // maybeFree: resolved, no DA left, no exact timer event pending
    if (st != T_PENDING && load<i32>(lp) == 0 && (load<u8>(timers + t) & EXACT_TIMERS) == 0) {
      store<i32>(freed + (<usize>frees << 2), <i32>t);
      frees++;
    }
  }
  store<i32>(gt, end, GT_HEAD << 3);
  store<i32>(gt, starts, GT_STARTS << 3);
  store<i32>(gt, fails, GT_FAILS << 3);
  store<i32>(gt, frees, GT_FREED << 3);
  return end - head;
}
