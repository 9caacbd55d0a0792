// The gateway side's drain of the engine's inbox (inbox.ts) on the host's
// task table, for a host that runs every Zone on one engine without the
// memory model (src/laminar/model.ts, one partition): the proxy's answer to
// each pull request (only a task's first request in time starts it; the
// starting DA is handed over) and each DA end (the task fails once its last
// hope is gone), as src/laminar/task-table.ts's proxy and taskLost, applied
// where the messages lie. The host keeps the task table's columns in core
// memory (the tasks block's region) and is handed back what the rest of its
// state needs: each start's latency and class, each failure's cause and
// each slot the task table may now free, in order. A Z-HAF upload (M_UPLOAD) is the host's: the drain stops before it.
// The gateway run once for Zone partitions elsewhere (src/laminar/gateway-log.ts) drains its own messages the same
// way, from a region of the host's, and gets the answers back for its log.
//
// The tasks block and the columns: tasks.ts. The out region, for ocap
// records: start latency f64[ocap], start class i32[ocap], failure cause
// i32[ocap], freed slot i32[ocap].
import { E_ARG, E_ID } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { BLOCK_BYTES, CLASS_SQUATTER, DA_BYTES, DA_VERDICT, F_DA_CAP, F_DELTA, F_HOP, F_IN_N, M_DA_END, M_PULL, REC, V_DUP, V_LATE, V_START } from "./layout";
import { DAS, geti, getf, MX } from "./state";
import { inboxAt } from "./inbox";
import {
  C_ARRIVAL, C_CLS, C_LIVE, C_STATE, C_TIMERS, column, EXACT_TIMERS, GT_BASE, GT_BYTES, GT_CAP, GT_DEADLINE, GT_FAILS, GT_FREED, GT_HEAD,
  GT_OUT, GT_OUT_CAP, GT_STARTS, gtf, gti, gtSeti, OUT_BYTES, REGEN_ARMED, T_FAILED, T_PENDING, T_STARTED, TASK_BYTES,
  GEN_MASK, GT_GEN, GT_HIST, GT_IN, GT_IN_N, GT_VERDICTS, GT_VERDICTS_N, VERDICT_BYTES,
} from "./tasks";
import { countStart, HIST_BYTES } from "./starts";
import { histOn } from "./history";

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
 * does not exist. With the block's IN set, the messages are the IN_N
 * records there instead of the inbox's (the gateway run once, whose
 * messages come from Zone partitions elsewhere); with its VERDICTS set, each
 * pull request's answer goes there instead of into the DA's record, in
 * order, VERDICT_BYTES each (DA, Zone, verdict as f64; room for OUT_CAP),
 * and VERDICTS_N counts them (a DA is then any id >= 0). With its HIST
 * set, a start's latency is counted in the histograms there (starts.ts)
 * instead of handed out, unless the histogram cannot hold it. With its
 * GEN set (the slots' generations, i32[CAP]), a slot to free is freed
 * there if live (its odd generation bumped), and FREED counts those.
 */
export function drain(block: usize, gt: usize, now: f64): i32 {
  if (MX != 0 || histOn() || isNaN(now)) return E_ARG;
  const base = <usize>gti(gt, GT_BASE), cap = gti(gt, GT_CAP), deadline = gtf(gt, GT_DEADLINE);
  const head = gti(gt, GT_HEAD), out = <usize>gti(gt, GT_OUT), ocap = gti(gt, GT_OUT_CAP);
  // the messages: the engine's inbox, or the host's (the gateway run once, whose messages come from the Zone partitions)
  const own = gti(gt, GT_IN) == 0, verdicts = <usize>gti(gt, GT_VERDICTS);
  const n = own ? geti(F_IN_N) : gti(gt, GT_IN_N), inbox = own ? inboxAt() : <usize>gti(gt, GT_IN);
  // the answers: into the DAs' records here, or, for DAs of other engines, out in order (DA, Zone, verdict)
  const daCap = verdicts == 0 ? geti(F_DA_CAP) : I32.MAX_VALUE;
  const hist = <usize>gti(gt, GT_HIST), gens = <usize>gti(gt, GT_GEN);
  if (cap < 1 || ocap < 1 || n < 0 || head < 0 || head > n || !(deadline >= 0)) return E_ARG;
  regionsReset();
  region(block, BLOCK_BYTES, 1, 8, false);
  region(gt, GT_BYTES, 1, 8, true);
  region(base, <i64>cap * TASK_BYTES, 1, 8, true);
  region(out, <i64>ocap * OUT_BYTES, 1, 8, true);
  if (verdicts == 0) region(DAS, <i64>daCap * DA_BYTES, 1, 8, true);
  else region(verdicts, <i64>ocap * 3, 8, 0, true);
  region(inbox, <i64>n * RB, 1, 8, false);
  if (hist != 0) region(hist, HIST_BYTES, 1, 8, true);
  if (gens != 0) region(gens, <i64>cap * 4, 1, 8, true);
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
  const c = <usize>cap, arrivals = column(base, c, C_ARRIVAL), live = column(base, c, C_LIVE), state = column(base, c, C_STATE);
  const timers = column(base, c, C_TIMERS), cls = column(base, c, C_CLS);
  const startCls = out + <usize>ocap * 8, causes = startCls + <usize>ocap * 4, freed = causes + <usize>ocap * 4;
  const hop = getf(F_HOP), delta = getf(F_DELTA);
  let starts = 0, fails = 0, frees = 0, answers = 0;
  for (let i = head; i < end; i++) {
    const p = inbox + <usize>i * RB, t = <usize><i32>load<f64>(p, 32), b = <i32>load<f64>(p, 40);
    const lp = live + (t << 2);
    let st = load<u8>(state + t);
    if (<i32>load<f64>(p, 16) == M_PULL) {
      // the proxy (task-table.ts proxy, its arithmetic): the payload reaches the node half a hop and the compute time later
      const startAt = load<f64>(p) + hop - delta + load<f64>(p, 56), arrival = load<f64>(arrivals + (t << 3));
      const go = st == T_PENDING && startAt < arrival + deadline, v = go ? V_START : st == T_STARTED ? V_DUP : V_LATE;
      if (verdicts == 0) store<u8>(DAS + <usize>b * DA_BYTES + DA_VERDICT, v);
      else {
        const q = verdicts + <usize>answers * VERDICT_BYTES;
        store<f64>(q, <f64>b);
        store<f64>(q, load<f64>(p, 48), 8);
        store<f64>(q, <f64>v, 16);
        answers++;
      }
      if (!go) continue;
      st = T_STARTED;
      store<u8>(state + t, st);
      if (hist == 0 || !countStart(hist, load<u8>(cls + t), startAt - arrival)) {
        store<f64>(out + (<usize>starts << 3), startAt - arrival);
        store<i32>(startCls + (<usize>starts << 2), load<u8>(cls + t));
        starts++;
      }
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
      if (gens == 0) {
        store<i32>(freed + (<usize>frees << 2), <i32>t);
        frees++;
      } else {
        // freed here (SlotStore.release): a live slot's generation is odd, and freeing bumps it
        const gp = gens + (t << 2), g = load<i32>(gp);
        if ((g & 1) != 0) {
          store<i32>(gp, (g + 1) & GEN_MASK);
          frees++;
        }
      }
    }
  }
  gtSeti(gt, GT_HEAD, end);
  gtSeti(gt, GT_STARTS, starts);
  gtSeti(gt, GT_FAILS, fails);
  gtSeti(gt, GT_FREED, frees);
  gtSeti(gt, GT_VERDICTS_N, answers);
  return end - head;
}
