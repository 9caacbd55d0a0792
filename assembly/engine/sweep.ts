// A timer ring's sweep event (src/sim/timer-sweep.ts sweep) on the host's
// task table, for the host whose arrivals engineArrive materialises
// (arrive.ts): every timer of the ring due within the sweep period is
// handed to the task table's timerDue (src/laminar/task-table.ts) here. A
// timer whose slot has another generation is stale; a pending task's timer
// becomes its exact event (the timer's bit set in the task's timers); a
// resolved task's regeneration check only clears its armed bit. Then the
// ring's next sweep is armed. The slots' generations are the tasks block's
// GEN; the posts are recorded where its POSTS asks, as engineArrive's are.
import { E_ARG, E_ID } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { BLOCK_BYTES, F_HEAP_CAP, F_HEAP_SIZE, F_NOW, ROOM_HEAP } from "./layout";
import { getf, geti, MX, room } from "./state";
import { histOn } from "./history";
import { post, postsCount, ringOk, startPosts } from "./arrive";
import {
  C_STATE, C_TIMERS, column, EXACT_DEADLINE, EXACT_REGEN, GT_BASE, GT_BYTES, GT_CAP, GT_GEN, GT_POSTS, GT_POSTS_N, GT_RING_DEADLINE,
  GT_RING_REGEN, GT_SWEEP, gtf, gti, gtSeti, REGEN_ARMED, RING_BYTES, RING_CAP, RING_DATA, RING_HEAD, RING_SIZE, RING_SWEEP_AT, T_PENDING,
  TASK_BYTES,
  K_DEADLINE, K_DEADLINE_SWEEP, K_REGEN, K_REGEN_SWEEP,
} from "./tasks";


/** The call's regions, checked (0 or a region code); with posts > 0, the posts' records too. */
function checked(block: usize, gt: usize, base: usize, cap: i32, gens: usize, r: usize, data: usize, dataBytes: i64, postsAt: usize, posts: i32): i32 {
  regionsReset();
  region(block, BLOCK_BYTES, 1, 8, false);
  region(gt, GT_BYTES, 1, 8, true);
  region(base, <i64>cap * TASK_BYTES, 1, 8, true);
  region(gens, <i64>cap * 4, 1, 8, true);
  region(r, RING_BYTES, 1, 8, true);
  region(data, dataBytes, 1, 8, true);
  if (posts > 0) region(postsAt, <i64>posts * 3, 8, 0, true);
  return regionsCheck();
}

/**
 * engineSweep (run.ts) on a ready block: ring `which` of the tasks block
 * (0 the deadlines', 1 the regeneration checks') swept at the clock, as its
 * sweep event does; returns the timers handed over (0 when the event was
 * superseded: the ring's sweep time is not the clock's). E_ARG (nothing
 * done): `which` not 0 or 1, the memory model or lag mode, no GEN, a CAP
 * below 1, a ring that is not sound, a sweep period not >= 1; region codes;
 * E_ID (nothing done) for a due timer whose slot is outside [0, CAP);
 * E_FULL (nothing done) without room for a post per due timer and one more.
 * With POSTS set, room there for a record per due timer and one more.
 */
export function sweep(block: usize, gt: usize, which: i32): i32 {
  if (MX != 0 || histOn() || (which != 0 && which != 1)) return E_ARG;
  const base = <usize>gti(gt, GT_BASE), cap = gti(gt, GT_CAP), gens = <usize>gti(gt, GT_GEN), period = gtf(gt, GT_SWEEP);
  const r = <usize>gti(gt, which == 0 ? GT_RING_DEADLINE : GT_RING_REGEN), postsAt = <usize>gti(gt, GT_POSTS);
  if (cap < 1 || gens == 0 || !(period >= 1 && period < Infinity)) return E_ARG;
  const sound = r >= __heap_base, data = sound ? <usize>load<u32>(r, RING_DATA) : 0, dataBytes = sound ? <i64>load<i32>(r, RING_CAP) * 16 : 0;
  let e = checked(block, gt, base, cap, gens, r, data, dataBytes, 0, 0); if (e != 0) return e;
  if (!ringOk(r, 0)) return E_ARG;
  const now = getf(F_NOW);
  startPosts(postsAt);
  gtSeti(gt, GT_POSTS_N, 0);
  if (now != load<f64>(r, RING_SWEEP_AT)) return 0; // superseded
  const rcap = load<i32>(r, RING_CAP), mask = rcap - 1;
  const times = data, subjects = data + (<usize>rcap << 3), tags = data + <usize>rcap * 12;
  let head = load<i32>(r, RING_HEAD), size = load<i32>(r, RING_SIZE);
  const limit = now + period;
  // the timers due, checked before any is handed over
  let due = 0;
  while (due < size) {
    const j = <usize>((head + due) & mask);
    if (!(load<f64>(times + (j << 3)) < limit)) break;
    const s = load<i32>(subjects + (j << 2));
    if (s < 0 || s >= cap) return E_ID;
    due++;
  }
  // room for a post per due timer and one more, apart from everything else
  if (postsAt != 0) { e = checked(block, gt, base, cap, gens, r, data, dataBytes, postsAt, due + 1); if (e != 0) return e; }
  if (geti(F_HEAP_SIZE) + due + 1 > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + due + 1);
  const c = <usize>cap, state = column(base, c, C_STATE), timers = column(base, c, C_TIMERS);
  const bit: u8 = which == 0 ? EXACT_DEADLINE : EXACT_REGEN, kind = which == 0 ? K_DEADLINE : K_REGEN;
  store<f64>(r, Infinity, RING_SWEEP_AT);
  for (let i = 0; i < due; i++) {
    const j = <usize>head;
    head = (head + 1) & mask;
    const s = <usize>load<i32>(subjects + (j << 2)), t = load<f64>(times + (j << 3));
    // task-table.ts timerDue
    if (load<i32>(gens + (s << 2)) != load<i32>(tags + (j << 2))) continue;
    if (load<u8>(state + s) == T_PENDING) {
      store<u8>(timers + s, load<u8>(timers + s) | bit);
      post(now + max(0, t - now), kind, <i32>s);
    } else if (which == 1) store<u8>(timers + s, load<u8>(timers + s) & ~REGEN_ARMED);
  }
  size -= due;
  store<i32>(r, head, RING_HEAD);
  store<i32>(r, size, RING_SIZE);
  if (size > 0) {
    const at = max(limit, load<f64>(times + (<usize>head << 3)) - period + 1);
    store<f64>(r, at, RING_SWEEP_AT);
    post(now + (at - now), which == 0 ? K_DEADLINE_SWEEP : K_REGEN_SWEEP, 0);
  }
  gtSeti(gt, GT_POSTS_N, postsCount());
  return due;
}
