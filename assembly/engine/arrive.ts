// The gateway side's arrivals materialised on the host's task table
// (tasks.ts), for a host that runs every Zone on one engine without the
// memory model (src/laminar/ingress.ts, flushArrivals): for each of a run
// of arrivalsDraw's records (assembly/arrivals.ts), a share of squatters
// instead (the squatters' stream), the task's entry in the slot the host
// allocated for it (task-table.ts newTask), its first DA instance staged
// for the gateway's next micro-batch (an emission record, engineDispatch's
// input; ingress.ts emit) and whether its regeneration check is armed
// (regenerationDue, src/laminar/decisions.ts). What stays the host's: the
// slots' allocation, and the deadline and regeneration timers, which it
// arms afterwards in the same order, task by task (its timer sweeps).
import { E_ARG, E_COUNT, E_FULL, E_ID, E_K } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { streamFloat, streamIsZero } from "../stream";
import {
  BLOCK_BYTES, CLASS_SQUATTER, EM_ARRIVAL, EM_BUDGET, EM_CLS, EM_EMITTED, EM_EV, EM_FLAGS, EM_KEY, EM_M, EM_NODE, EM_SERVICE,
  EM_TASK, EMIT_BYTES, F_ATOMS,
} from "./layout";
import { geti, MX } from "./state";
import {
  colAnchor, colArrival, colBudget, colCls, colEv, colInstances, colKey, colLive, colM, colMemGiB, colService, colState, colTimers,
  GT_ARRIVED, GT_BASE, GT_BYTES, GT_CAP, GT_DEADLINE, GT_EMIT, GT_EMIT_CAP, GT_EMIT_N, GT_MAX_INSTANCES, GT_NEXT_KEY, GT_QUIET, GT_RNG,
  GT_SQUAT_ATOMS, GT_SQUAT_RATIO, gtf, gti, gtSetf, gtSeti, REGEN_ARMED, T_PENDING, TASK_BYTES,
} from "./tasks";

/** Doubles per arrivalsDraw record: time, class, service time, atoms, price. */
const A_REC: usize = 5;

/**
 * engineArrive (run.ts) on a ready block: n arrivals (records at src) into
 * the task table's slots ids[0..n), in order; returns n. Reads the tasks
 * block's start deadline, quiet interval, most instances (0: regeneration
 * off), squatter share and atoms, and its squatters' stream (written back);
 * writes its next key, its emission count and its arrivals by class (F,
 * L, squatters). E_COUNT, region codes, E_ARG (nothing done: the memory
 * model on, a bad block field, a record whose time, class, service time or
 * price is not one of arrivalsDraw's), E_ID (a slot outside the columns),
 * E_K (atoms outside [1, ATOMS]), E_FULL (fewer than n emission records
 * free: nothing done).
 */
export function arrive(block: usize, gt: usize, src: usize, n: i32, ids: usize): i32 {
  if (MX != 0) return E_ARG;
  if (n < 0) return E_COUNT;
  const base = <usize>gti(gt, GT_BASE), cap = gti(gt, GT_CAP), emit = <usize>gti(gt, GT_EMIT), emitN = gti(gt, GT_EMIT_N);
  const emitCap = gti(gt, GT_EMIT_CAP), rng = <usize>gti(gt, GT_RNG), ratio = gtf(gt, GT_SQUAT_RATIO);
  const deadline = gtf(gt, GT_DEADLINE), quiet = gtf(gt, GT_QUIET), maxInst = gti(gt, GT_MAX_INSTANCES);
  const atoms = geti(F_ATOMS), squatAtoms = gti(gt, GT_SQUAT_ATOMS), key0 = gtf(gt, GT_NEXT_KEY);
  if (cap < 1 || emitN < 0 || emitCap < emitN || !(deadline >= 0 && deadline < Infinity) || !(quiet >= 0 && quiet < Infinity)) return E_ARG;
  if (maxInst < 0 || !(ratio >= 0 && ratio <= 1) || !(key0 >= 0 && key0 < 4294967296 && key0 == Math.floor(key0))) return E_ARG;
  regionsReset();
  region(block, BLOCK_BYTES, 1, 8, false);
  region(gt, GT_BYTES, 1, 8, true);
  region(base, <i64>cap * TASK_BYTES, 1, 8, true);
  region(emit, <i64>emitCap * EMIT_BYTES, 1, 8, true);
  region(src, <i64>n * A_REC, 8, 0, false);
  region(ids, n, 4, 0, false);
  if (ratio > 0) region(rng, 4, 4, 0, true);
  const e = regionsCheck(); if (e != 0) return e;
  if (ratio > 0 && streamIsZero(rng)) return E_ARG; // xoshiro's fixed point
  if (ratio > 0 && (squatAtoms < 1 || squatAtoms > atoms)) return E_K;
  if (emitN + n > emitCap) return E_FULL;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * A_REC * 8, t = load<i32>(ids + (<usize>i << 2)), m = load<f64>(r, 24), cls = load<f64>(r, 8);
    if (t < 0 || t >= cap) return E_ID;
    if (!(m >= 1 && m <= <f64>atoms && m == Math.floor(m))) return E_K;
    if (!(load<f64>(r) >= 0 && load<f64>(r) < Infinity) || !(cls == 0 || cls == 1) || !(load<f64>(r, 16) >= 0 && load<f64>(r, 16) < Infinity)
      || !(load<f64>(r, 32) >= 0 && load<f64>(r, 32) < Infinity)) return E_ARG;
  }
  const c = <usize>cap;
  const arrival = colArrival(base, c), ev = colEv(base, c), budget = colBudget(base, c), service = colService(base, c);
  const memGiB = colMemGiB(base, c), live = colLive(base, c), instances = colInstances(base, c), mm = colM(base, c);
  const keys = colKey(base, c), anchor = colAnchor(base, c), state = colState(base, c), timers = colTimers(base, c), classes = colCls(base, c);
  let key = <u32>key0, f = 0, l = 0, sq = 0;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * A_REC * 8, t = <usize>load<i32>(ids + (<usize>i << 2)), tA = load<f64>(r);
    // ingress.ts arrive: a squatter instead, drawn per arrival
    const squat = ratio > 0 && streamFloat(rng) < ratio;
    const cls: u8 = squat ? CLASS_SQUATTER : <u8>load<f64>(r, 8);
    const m = squat ? squatAtoms : <i32>load<f64>(r, 24), svc = squat ? 0.0 : load<f64>(r, 16);
    const v = squat ? Infinity : load<f64>(r, 32) * <f64>m;
    if (squat) sq++;
    else if (cls == 0) f++;
    else l++;
    // task-table.ts newTask, then emit (the first instance, alive)
    store<u8>(classes + t, cls);
    store<u8>(state + t, T_PENDING);
    store<i32>(instances + (t << 2), 1);
    store<i32>(live + (t << 2), 1);
    store<f64>(arrival + (t << 3), tA);
    store<u32>(keys + (t << 2), key);
    key++;
    store<i32>(anchor + (t << 2), -1);
    store<i32>(mm + (t << 2), m);
    store<f64>(service + (t << 3), svc);
    store<f64>(ev + (t << 3), v);
    store<f64>(budget + (t << 3), v);
    store<f64>(memGiB + (t << 3), NaN);
    const p = emit + <usize>(emitN + i) * EMIT_BYTES;
    store<i32>(p + EM_TASK, <i32>t);
    store<i32>(p + EM_NODE, -1);
    store<i32>(p + EM_CLS, cls);
    store<i32>(p + EM_M, m);
    store<f64>(p + EM_EMITTED, tA);
    store<f64>(p + EM_ARRIVAL, tA);
    store<f64>(p + EM_EV, v);
    store<f64>(p + EM_BUDGET, v);
    store<f64>(p + EM_SERVICE, svc);
    store<i32>(p + EM_KEY, <i32>(key - 1));
    store<i32>(p + EM_FLAGS, 0);
    // decisions.ts regenerationDue, for the first instance (not a squatter's: it never starts)
    const armed = maxInst > 0 && cls != CLASS_SQUATTER && 1 < maxInst && tA + quiet < tA + deadline;
    store<u8>(timers + t, armed ? REGEN_ARMED : 0);
  }
  gtSetf(gt, GT_NEXT_KEY, <f64>key);
  gtSeti(gt, GT_EMIT_N, emitN + n);
  gtSeti(gt, GT_ARRIVED, f);
  gtSeti(gt, GT_ARRIVED + 1, l);
  gtSeti(gt, GT_ARRIVED + 2, sq);
  return n;
}
