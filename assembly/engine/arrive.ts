// The gateway side's arrivals materialised on the host's task table
// (tasks.ts), for a host that runs every Zone on one engine without the
// memory model (src/laminar/ingress.ts, flushArrivals): for each of a run
// of arrivalsDraw's records (assembly/arrivals.ts), a share of squatters
// instead (the squatters' stream), the task's entry in the slot the host
// allocated for it (task-table.ts newTask), its first DA instance staged
// for the gateway's next micro-batch (an emission record, engineDispatch's
// input; ingress.ts emit) and whether its regeneration check is armed
// (regenerationDue, src/laminar/decisions.ts), and its deadline and
// regeneration timers armed in the host's timer rings (src/sim/timer-sweep.ts
// push, whose records and state the host keeps in core memory), or as exact
// events where a ring will not take them (task-table.ts exact), with the
// sweep event a ring's first timer arms: the host's posts, in its order.
// The slots: the host's (with their generations, the timers' tags), or,
// with the slots' generations in core memory, taken here as the host's
// store would take them.
import { E_ARG, E_COUNT, E_ID, E_K } from "../abi";
import { push } from "./events";
import { region, regionsCheck, regionsReset } from "../regions";
import { streamFloat, streamIsZero } from "../stream";
import {
  BLOCK_BYTES, CLASS_SQUATTER, EM_ARRIVAL, EM_BUDGET, EM_CLS, EM_EMITTED, EM_EV, EM_FLAGS, EM_KEY, EM_M, EM_NODE, EM_SERVICE,
  EM_TASK, EMIT_BYTES, F_ATOMS, F_HEAP_CAP, F_HEAP_SIZE, F_NOW, ROOM_HEAP,
} from "./layout";
import { getf, geti, MX, room } from "./state";
import { histOn } from "./history";
import {
  C_ANCHOR, C_ARRIVAL, C_BUDGET, C_CLS, C_EV, C_INSTANCES, C_KEY, C_LIVE, C_M, C_MEM_GIB, C_SERVICE, C_STATE, C_TIMERS, column,
  GT_ARRIVED, GT_BASE, GT_BYTES, GT_CAP, GT_DEADLINE, GT_EMIT, GT_EMIT_CAP, GT_EMIT_N, GT_MAX_INSTANCES, GT_NEXT_KEY, GT_QUIET, GT_RNG,
  GT_SQUAT_ATOMS, GT_SQUAT_RATIO, gtf, gti, gtSetf, gtSeti, REGEN_ARMED, T_PENDING, TASK_BYTES, EXACT_DEADLINE, EXACT_REGEN,
  GT_RING_DEADLINE, GT_RING_REGEN, GT_SWEEP, GT_POSTS, GT_POSTS_N, POST_BYTES, RING_BYTES, RING_CAP, RING_DATA, RING_HEAD, RING_SIZE, RING_SWEEP_AT,
  GEN_MASK, GT_GEN, GT_SLOT_CURSOR, GT_SLOT_FRESH, GT_SLOT_LIVE,
  K_DEADLINE, K_DEADLINE_SWEEP, K_REGEN, K_REGEN_SWEEP,
} from "./tasks";


/** Whether the ring block at r is sound for n more timers: a power-of-two capacity with room, a head inside it. */
export function ringOk(r: usize, n: i32): bool {
  const cap = load<i32>(r, RING_CAP), head = load<i32>(r, RING_HEAD), size = load<i32>(r, RING_SIZE), at = load<f64>(r, RING_SWEEP_AT);
  return cap >= 1 && (cap & (cap - 1)) == 0 && head >= 0 && head < cap && size >= 0 && size + n <= cap && !isNaN(at);
}

/** Where this call records its posts (the block's POSTS; 0: nowhere), and how many it has. */
let posts: usize = 0, postsN: i32 = 0;

/** A call's posts recorded at p from here on (0: nowhere; sweep.ts too); how many so far. */
export function startPosts(p: usize): void {
  posts = p;
  postsN = 0;
}
export function postsCount(): i32 { return postsN; }

/** Schedule (kind, subject) at `time`, recorded where the host asked. */
export function post(time: f64, kind: i32, subject: i32): void {
  push(time, kind, subject);
  if (posts == 0) return;
  const p = posts + <usize>postsN * POST_BYTES;
  store<f64>(p, time);
  store<f64>(p, <f64>kind, 8);
  store<f64>(p, <f64>subject, 16);
  postsN++;
}

/**
 * TimerSweep.push at the clock `now`: the timer (time, subject, tag) joins
 * the ring at r unless it is due within a period or before the ring's last
 * (false); the ring's first timer arms its sweep event (kind, subject 0).
 */
// @ts-ignore: decorator
@inline function ringPush(r: usize, now: f64, period: f64, time: f64, subject: i32, tag: i32, kind: i32): bool {
  if (time < now + period) return false;
  const cap = load<i32>(r, RING_CAP), head = load<i32>(r, RING_HEAD), size = load<i32>(r, RING_SIZE);
  const data = <usize>load<u32>(r, RING_DATA), mask = cap - 1;
  if (size > 0 && time < load<f64>(data + (<usize>((head + size - 1) & mask) << 3))) return false;
  const j = <usize>((head + size) & mask);
  store<f64>(data + (j << 3), time);
  store<i32>(data + (<usize>cap << 3) + (j << 2), subject);
  store<i32>(data + (<usize>cap * 12) + (j << 2), tag);
  store<i32>(r, size + 1, RING_SIZE);
  if (load<f64>(r, RING_SWEEP_AT) == Infinity) {
    const at = max(now, time - period + 1);
    store<f64>(r, at, RING_SWEEP_AT);
    post(now + (at - now), kind, 0);
  }
  return true;
}

/** Doubles per arrivalsDraw record: time, class, service time, atoms, price. */
const A_REC: usize = 5;

/**
 * engineArrive (run.ts) on a ready block: n arrivals (records at src) into
 * the task table's slots, in order, the i-th's at ids[2i] with its
 * generation (the timers' tag) at ids[2i + 1]; returns n. Reads the tasks
 * block's start deadline, quiet interval, most instances (0: regeneration
 * off), squatter share and atoms, and its squatters' stream (written back);
 * writes its next key, its emission count and its arrivals by class (F,
 * L, squatters). E_COUNT, region codes, E_ARG (nothing done: the memory
 * model on, a bad block field, a record whose time, class, service time or
 * price is not one of arrivalsDraw's), E_ID (a slot outside the columns),
 * E_K (atoms outside [1, ATOMS]), E_FULL (the event queue without room for
 * 2n + 2 events, which it asks for: nothing done); E_ARG too for fewer than
 * n emission records free, a ring block without room for n more timers, a
 * sweep period not >= 1. With the block's POSTS set (a host that records
 * its posts, src/laminar/gateway-log.ts), each event posted is recorded
 * there too, in order (POST_BYTES each: time, kind, subject as f64; room
 * for 2n + 2), and POSTS_N counts them. With ids 0, the engine takes the
 * slots itself, as the host's cyclic SlotStore (src/sim/slot-store.ts)
 * would, from the block's GEN and SLOT_CURSOR, SLOT_FRESH and SLOT_LIVE
 * (written back): E_ARG (nothing done) without GEN, with that state
 * unsound, or unless 2 (SLOT_LIVE + n) <= CAP (the store would grow).
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
  // the slots: the host's (ids), or taken here from the generations (GEN) as the host's store would
  const own = ids == 0, gens = <usize>gti(gt, GT_GEN);
  let cursor = gti(gt, GT_SLOT_CURSOR), fresh = gti(gt, GT_SLOT_FRESH), liveN = gti(gt, GT_SLOT_LIVE);
  if (own) {
    if (gens == 0 || fresh < 0 || fresh > cap || liveN < 0 || liveN > fresh || cursor < 0 || <i64>2 * (<i64>liveN + n) > <i64>cap) return E_ARG;
    region(gens, <i64>cap * 4, 1, 8, true);
  } else region(ids, <i64>n * 2, 4, 0, false);
  if (ratio > 0) region(rng, 4, 4, 0, true);
  const postsAt = <usize>gti(gt, GT_POSTS);
  if (postsAt != 0) region(postsAt, <i64>(2 * n + 2) * 3, 8, 0, true);
  const dl = <usize>gti(gt, GT_RING_DEADLINE), rg = <usize>gti(gt, GT_RING_REGEN), period = gtf(gt, GT_SWEEP);
  region(dl, RING_BYTES, 1, 8, true);
  region(dl >= __heap_base ? <usize>load<u32>(dl, RING_DATA) : 0, dl >= __heap_base ? <i64>load<i32>(dl, RING_CAP) * 16 : 0, 1, 8, true);
  if (maxInst > 0) {
    region(rg, RING_BYTES, 1, 8, true);
    region(rg >= __heap_base ? <usize>load<u32>(rg, RING_DATA) : 0, rg >= __heap_base ? <i64>load<i32>(rg, RING_CAP) * 16 : 0, 1, 8, true);
  }
  const e = regionsCheck(); if (e != 0) return e;
  if (!(period >= 1 && period < Infinity) || !ringOk(dl, n) || (maxInst > 0 && !ringOk(rg, n)) || histOn()) return E_ARG;
  if (ratio > 0 && streamIsZero(rng)) return E_ARG; // xoshiro's fixed point
  if (ratio > 0 && (squatAtoms < 1 || squatAtoms > atoms)) return E_K;
  if (emitN + n > emitCap) return E_ARG;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * A_REC * 8, t = own ? 0 : load<i32>(ids + (<usize>i << 3)), m = load<f64>(r, 24), cls = load<f64>(r, 8);
    if (t < 0 || t >= cap) return E_ID;
    if (!(m >= 1 && m <= <f64>atoms && m == Math.floor(m))) return E_K;
    if (!(load<f64>(r) >= 0 && load<f64>(r) < Infinity) || !(cls == 0 || cls == 1) || !(load<f64>(r, 16) >= 0 && load<f64>(r, 16) < Infinity)
      || !(load<f64>(r, 32) >= 0 && load<f64>(r, 32) < Infinity)) return E_ARG;
  }
  // each arrival posts at most its two exact timers, each ring at most its sweep
  if (geti(F_HEAP_SIZE) + 2 * n + 2 > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + 2 * n + 2);
  const c = <usize>cap;
  const arrival = column(base, c, C_ARRIVAL), ev = column(base, c, C_EV), budget = column(base, c, C_BUDGET);
  const service = column(base, c, C_SERVICE), memGiB = column(base, c, C_MEM_GIB), live = column(base, c, C_LIVE);
  const instances = column(base, c, C_INSTANCES), mm = column(base, c, C_M), keys = column(base, c, C_KEY);
  const anchor = column(base, c, C_ANCHOR), state = column(base, c, C_STATE), timers = column(base, c, C_TIMERS), classes = column(base, c, C_CLS);
  let key = <u32>key0, f = 0, l = 0, sq = 0;
  startPosts(postsAt);
  const now = getf(F_NOW);
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * A_REC * 8;
    let t: usize, gen: i32;
    if (own) {
      // SlotStore.alloc, cyclic: the first free slot at the cursor or after (a slot never handed out at the end), wrapping round
      let q = cursor;
      for (;;) {
        if (q >= fresh) {
          if (fresh < cap) {
            q = fresh++;
            break;
          }
          q = 0;
        }
        if ((load<i32>(gens + (<usize>q << 2)) & 1) == 0) break;
        q++;
      }
      cursor = q + 1;
      t = <usize>q;
      gen = (load<i32>(gens + (t << 2)) + 1) & GEN_MASK;
      store<i32>(gens + (t << 2), gen);
      liveN++;
    } else {
      t = <usize>load<i32>(ids + (<usize>i << 3));
      gen = load<i32>(ids + (<usize>i << 3), 4);
    }
    const tA = load<f64>(r);
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
    // the deadline (ingress.ts arrive), then the regeneration check (emit, armRegenAt: decisions.ts regenerationDue,
    // for the first instance; not a squatter's, which never starts): in a ring, else an exact event (task-table.ts exact)
    let bits: u8 = 0;
    const due = tA + deadline;
    if (!ringPush(dl, now, period, due, <i32>t, gen, K_DEADLINE_SWEEP)) {
      bits |= EXACT_DEADLINE;
      post(now + max(0, due - now), K_DEADLINE, <i32>t);
    }
    const check = tA + quiet;
    if (maxInst > 0 && cls != CLASS_SQUATTER && 1 < maxInst && check < tA + deadline) {
      bits |= REGEN_ARMED;
      if (!ringPush(rg, now, period, check, <i32>t, gen, K_REGEN_SWEEP)) {
        bits |= EXACT_REGEN;
        post(now + max(0, check - now), K_REGEN, <i32>t);
      }
    }
    store<u8>(timers + t, bits);
  }
  gtSetf(gt, GT_NEXT_KEY, <f64>key);
  if (own) {
    gtSeti(gt, GT_SLOT_CURSOR, cursor);
    gtSeti(gt, GT_SLOT_FRESH, fresh);
    gtSeti(gt, GT_SLOT_LIVE, liveN);
  }
  gtSeti(gt, GT_POSTS_N, postsN);
  gtSeti(gt, GT_EMIT_N, emitN + n);
  gtSeti(gt, GT_ARRIVED, f);
  gtSeti(gt, GT_ARRIVED + 1, l);
  gtSeti(gt, GT_ARRIVED + 2, sq);
  return n;
}
