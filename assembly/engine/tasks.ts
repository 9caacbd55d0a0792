// The gateway side's task table as the host keeps it in core memory
// (src/laminar/store.ts TaskStore, COLUMNS), and the tasks block that
// tells engineDrain (drain.ts) and engineArrive (arrive.ts) where it is and
// what they need besides (docs/abi.md, "The gateway's task table"). Not an
// export of the module.

/** The tasks block's fields (8-byte slots; an i32 or pointer in a slot's first 4 bytes). */
export const GT_BASE = 0, GT_CAP = 1, GT_DEADLINE = 2, GT_HEAD = 3, GT_OUT = 4, GT_OUT_CAP = 5, GT_STARTS = 6, GT_FAILS = 7,
  GT_FREED = 8, GT_QUIET = 9, GT_MAX_INSTANCES = 10, GT_SQUAT_RATIO = 11, GT_SQUAT_ATOMS = 12, GT_NEXT_KEY = 13, GT_EMIT = 14,
  GT_EMIT_N = 15, GT_EMIT_CAP = 16, GT_RNG = 17, GT_ARRIVED = 18, GT_RING_DEADLINE = 21, GT_RING_REGEN = 22, GT_SWEEP = 23,
  GT_POSTS = 24, GT_POSTS_N = 25, GT_IN = 26, GT_IN_N = 27, GT_VERDICTS = 28, GT_VERDICTS_N = 29, GT_HIST = 30, GT_GEN = 31,
  GT_SLOT_CURSOR = 32, GT_SLOT_FRESH = 33, GT_SLOT_LIVE = 34;
export const GT_BYTES = 280;

/** The host's event kinds the gateway's timers post (src/laminar/state.ts): each ring's sweep, each exact timer. */
export const K_REGEN_SWEEP = 9, K_DEADLINE_SWEEP = 10, K_REGEN = 11, K_DEADLINE = 12;

/** Slot generations wrap at 2^21 (src/sim/slot-store.ts GEN_MASK); odd while the slot is live. */
export const GEN_MASK = (1 << 21) - 1;

/** Bytes of a verdict record engineDrain writes where the block's VERDICTS asks for them: DA, Zone, verdict (f64 each). */
export const VERDICT_BYTES = 24;

/** Bytes of a post record engineArrive writes where the block's POSTS asks for them: time, kind, subject (f64 each). */
export const POST_BYTES = 24;

/**
 * A timer ring's block (src/sim/timer-sweep.ts, RING_BLOCK_BYTES): its
 * sweep event's time (f64; Infinity: none), head, size and capacity (a
 * power of two), and its records' region: time f64[cap], subject i32[cap],
 * tag i32[cap].
 */
export const RING_SWEEP_AT = 0, RING_HEAD = 8, RING_SIZE = 12, RING_CAP = 16, RING_DATA = 20, RING_BYTES = 32;

/** Bytes a task takes in the columns' region (the sum of the columns' element sizes), and an out record in the out region. */
export const TASK_BYTES = 68, OUT_BYTES = 20;

/** Task states and timer bits (src/laminar/store.ts, state.ts). */
export const T_PENDING: u8 = 0, T_STARTED: u8 = 1, T_FAILED: u8 = 2;
export const EXACT_DEADLINE: u8 = 1, EXACT_REGEN: u8 = 2, EXACT_TIMERS: u8 = 1 | 2, REGEN_ARMED: u8 = 4;

/**
 * The columns (store.ts COLUMNS' order): where each starts in a region for
 * cap tasks, in bytes per task of the region (column(base, cap, C_*)).
 */
export const C_ARRIVAL: usize = 0, C_EV: usize = 8, C_BUDGET: usize = 16, C_SERVICE: usize = 24, C_MEM_GIB: usize = 32,
  C_LIVE: usize = 40, C_INSTANCES: usize = 44, C_M: usize = 48, C_KEY: usize = 52, C_ANCHOR: usize = 56, C_STATE: usize = 64,
  C_TIMERS: usize = 65, C_CLS: usize = 66;

/** Where column `c` (C_*) of the region at `base` for `cap` tasks starts. */
// @ts-ignore: decorator
@inline export function column(base: usize, cap: usize, c: usize): usize { return base + cap * c; }

// @ts-ignore: decorator
@inline export function gti(gt: usize, f: i32): i32 { return load<i32>(gt + (<usize>f << 3)); }
// @ts-ignore: decorator
@inline export function gtSeti(gt: usize, f: i32, v: i32): void { store<i32>(gt + (<usize>f << 3), v); }
// @ts-ignore: decorator
@inline export function gtf(gt: usize, f: i32): f64 { return load<f64>(gt + (<usize>f << 3)); }
// @ts-ignore: decorator
@inline export function gtSetf(gt: usize, f: i32, v: f64): void { store<f64>(gt + (<usize>f << 3), v); }
