// The Zone engine's state block and records (assembly/engine/layout.ts is
// the source; docs/abi.md, "Zone engine", documents them): one 8-byte slot
// per field, an i32 or pointer in the slot's first 4 bytes.
export const EF = {
  NOW: 0, SEQ: 1, HEAP: 2, HEAP_SIZE: 3, HEAP_CAP: 4, HOST_KIND: 5, HOST_SUBJECT: 6, ROOM_WHAT: 7, ROOM_NEED: 8,
  HOP: 9, DELTA: 10, WINDOW: 11, SILENCE: 12, DEADLINE: 13, REPORT: 14, MIN_GAP: 15, BROADCAST: 16, STALE: 17, TTL: 18,
  REPORT_DELAY: 19, ROW_SILENCE: 20,
  LOSS: 21, OS_JITTER_MS: 22, PATIENCE_FLOOR: 23, ACTION_COST: 24, REDIRECT_COST: 25, BOUNCE_COST: 26, RESERVE: 27,
  DEPOSIT: 28, BITMAP_NS: 29, CANDIDATES: 30, REPORT_JITTER: 31, ALPHA: 32, GUARD: 33, PROJECTION: 34,
  RING: 35, COPIES: 36, ATOMS: 37, ROW_BYTES: 38, NODES: 39, ZONES: 40, N0: 41, N1: 42, Z0: 43, Z1: 44,
  ZONE_OF: 45, OFFSETS: 46, BITMAPS: 47, FREE: 48, Q_HEAD: 49, Q_TAIL: 50, WINDOW_AT: 51, NEXT_REPORT: 52, REPLICA: 53,
  LAST_HEARD: 54, LAST_MEAS: 55,
  TAKEN: 56, DELIVERED: 57, UPLOADED: 58, SNAP_TIME: 59, AGG_S: 60, AGG_H: 61, MASTER: 62, ZT_BYTES: 63, ROWS_AT: 64,
  FORFEIT: 65, R_ZONE: 66, R_NET: 67, R_REPORT: 68, RINGS: 69, RING_REC: 70,
  DAS: 71, DA_CAP: 72, DA_LIVE: 73, DA_FRESH: 74, DA_FREE: 75, DA_FREE_TOP: 76, MASKS: 77,
  WHEELS: 78, WHEEL_BYTES: 79, WHEEL_OWNER: 80, WHEEL_CHECK: 81, WHEEL_OUT: 82,
  OUTBOX: 83, OUT_N: 84, OUT_CAP: 85, IN_N: 119,
  PROBE: 86, ROW0: 88, BATCH: 89, RUN_OUT: 90, SIGMA: 94, MEMX: 95, // 91 to 93: unused
  SEQ_STEP: 96, HIST: 97, HIST_CAP: 98, HIST_HEAD: 99, HIST_N: 152, HIST_BASE: 153, HIST_TRIM: 154,
  TRACE_ON: 155, TRACE_H0: 156, TRACE_H1: 157, TRACE_N: 158,
  PROBE_ACTIONS: 100, SCORE_OPS: 101, PACKETS_LOST: 102, BOUNCES: 103, ARBITRATIONS: 104, BITMAP_OPS: 105,
  ARB_LOSSES: 106, FALSE_OPTIMISM: 107, RESERVATIONS: 108, RES_EXPIRED: 109, COMPLETED: 110, RUNNING: 111,
  SQUATTING: 112, REPORTS_SENT: 113, REPORTS_LOST: 114, COPIES_LOST: 115, UPLOADS_LOST: 116, STALE_READS: 117,
  PROCESSED: 118, DA_ENDS: 120, TOUCH_BOUND: 147, GAMMA: 148, DEGRADE_HEAT: 149, ACCEPT_PROJECTED: 150,
} as const;
export const END_SLOTS = 20;
export const ENGINE_BLOCK_BYTES = 160 * 8;
export const DA_BYTES = 64;
export const EMIT_BYTES = 64;
export const EM = { TASK: 0, NODE: 4, CLS: 8, M: 12, EMITTED: 16, ARRIVAL: 24, EV: 32, BUDGET: 40, SERVICE: 48, KEY: 56, FLAGS: 60 } as const;
export const EV_BYTES = 24;
/** The memory extension block (EF.MEMX; docs/abi.md, "The memory model and Airlock in the engine"): one 8-byte slot per field. */
export const MX = {
  TICK: 0, SEED: 1, KAPPA: 2, SIGMA: 3, BURST_RATE: 4, BURST_SCALE: 5, CAP: 6, HIGH: 7, SAFE: 8, COMPRESSION: 9, SUSPEND: 10,
  SURVIVAL: 11, STATE_PULL: 12, OVERCLAIM_PROB: 13, OVERCLAIM_MAX: 14,
  AIRLOCK: 16, SCOPE_ALL: 17, ADMIT_PROJECTED: 18, OOM_LARGEST: 19, R_MEM: 20, TASK_CAP: 21,
  OOM_L: 48, OOM_F: 49, SUSPENSIONS: 50, RESUMED: 51, REACTIVATIONS: 52, LANDINGS: 53, RECLAIMED: 54, PROBE_DROPS: 55,
  PREEMPTIONS: 56, SUSPENDED: 57,
} as const;
export const MX_BYTES = 64 * 8;
/** With the memory model on, emission records carry the task's declared memory (GiB) at EM_DECLARED. */
export const EMIT_MEM_BYTES = 80, EM_DECLARED = 64;
export const STREAM_BYTES = 32;
/**
 * The start-latency histograms' region a tasks block's HIST points to
 * (assembly/engine/starts.ts): f64 starts counted since the host took them
 * at 0, class c's block at CLASS + c * CLASS_BYTES (f64 count; the sum as
 * f64 units of 2^32 at 8 plus i64 at 16; f64 min and max at 24 and 32; from
 * byte 64 f64 counts[BUCKETS]), BYTES in all.
 */
export const START_HIST = { CLASS: 64, CLASS_BYTES: 64 + 6017 * 8, BUCKETS: 6017, SUB_BUCKET_BITS: 7, BYTES: 64 + 3 * (64 + 6017 * 8) } as const;
/** engineRun's outcomes. */
export const RAN_TO = 0, HOST_EVENT = 1, HOST_MESSAGE = 2;
/**
 * The gateway's tasks block (assembly/engine/tasks.ts; docs/abi.md, "The
 * gateway's task table"), which engineDrain and engineArrive read: one
 * 8-byte slot per field. The columns' region holds CAP tasks of TASK_BYTES
 * (src/laminar/store.ts COLUMNS); the out region OUT_CAP records of
 * OUT_BYTES (start latency f64, start class i32, failure cause i32, freed
 * slot i32, each a column); ARRIVED is three slots (F, L, squatters);
 * RING_DEADLINE and RING_REGEN point to the timer rings' blocks
 * (src/sim/timer-sweep.ts RING_BLOCK_BYTES; RING_REGEN 0: regeneration off).
 */
export const GT = {
  BASE: 0, CAP: 1, DEADLINE: 2, HEAD: 3, OUT: 4, OUT_CAP: 5, STARTS: 6, FAILS: 7, FREED: 8, QUIET: 9, MAX_INSTANCES: 10,
  SQUAT_RATIO: 11, SQUAT_ATOMS: 12, NEXT_KEY: 13, EMIT: 14, EMIT_N: 15, EMIT_CAP: 16, RNG: 17, ARRIVED: 18, RING_DEADLINE: 21,
  RING_REGEN: 22, SWEEP: 23, POSTS: 24, POSTS_N: 25, IN: 26, IN_N: 27, VERDICTS: 28, VERDICTS_N: 29, HIST: 30, GEN: 31,
  SLOT_CURSOR: 32, SLOT_FRESH: 33, SLOT_LIVE: 34, BYTES: 280, TASK_BYTES: 68,
  OUT_BYTES: 20, POST_BYTES: 24, VERDICT_BYTES: 24,
} as const;
