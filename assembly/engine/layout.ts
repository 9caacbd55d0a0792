// The Zone admission engine's state block: one 8-byte slot per field (an
// i32 or pointer sits in the slot's first 4 bytes). The host writes the
// parameters; engineInit lays the tables out in a region the host gives
// and keeps their pointers here (src/core/engine-layout.ts mirrors these
// indices; docs/abi.md, "Zone engine"). The engine allocates nothing: when a
// table would overflow, it stops before the event and asks for room.

// clock and event queue
export const F_NOW = 0, F_SEQ = 1, F_HEAP = 2, F_HEAP_SIZE = 3, F_HEAP_CAP = 4;
/** Out: the host event popped (kind, subject); the room asked for (what, how much). */
export const F_HOST_KIND = 5, F_HOST_SUBJECT = 6, F_ROOM_WHAT = 7, F_ROOM_NEED = 8;
// durations (ns, f64)
export const F_HOP = 9, F_DELTA = 10, F_WINDOW = 11, F_SILENCE = 12, F_DEADLINE = 13, F_REPORT = 14, F_MIN_GAP = 15,
  F_BROADCAST = 16, F_STALE = 17, F_TTL = 18, F_REPORT_DELAY = 19, F_ROW_SILENCE = 20;
// parameters (f64)
export const F_LOSS = 21, F_OS_JITTER_MS = 22, F_PATIENCE_FLOOR = 23, F_ACTION_COST = 24, F_REDIRECT_COST = 25,
  F_BOUNCE_COST = 26, F_RESERVE = 27, F_DEPOSIT = 28, F_BITMAP_NS = 29, F_CANDIDATES = 30, F_REPORT_JITTER = 31,
  F_ALPHA = 32, F_GUARD = 33, F_PROJECTION = 34;
// sizes (i32)
export const F_RING = 35, F_COPIES = 36, F_ATOMS = 37, F_ROW_BYTES = 38, F_NODES = 39, F_ZONES = 40,
  F_N0 = 41, F_N1 = 42, F_Z0 = 43, F_Z1 = 44;
// per node (pointers)
export const F_ZONE_OF = 45, F_OFFSETS = 46, F_BITMAPS = 47, F_FREE = 48, F_Q_HEAD = 49, F_Q_TAIL = 50,
  F_WINDOW_AT = 51, F_NEXT_REPORT = 52, F_REPLICA = 53, F_LAST_HEARD = 54, F_LAST_MEAS = 55;
// per Zone (pointers; 64 unused)
export const F_TAKEN = 56, F_DELIVERED = 57, F_UPLOADED = 58, F_SNAP_TIME = 59, F_AGG_S = 60, F_AGG_H = 61,
  F_MASTER = 62, F_ZT_BYTES = 63, F_FORFEIT = 65, F_R_ZONE = 66, F_R_NET = 67, F_R_REPORT = 68,
  F_RINGS = 69, F_RING_REC = 70;
// DAs
export const F_DAS = 71, F_DA_CAP = 72, F_DA_LIVE = 73, F_DA_FRESH = 74, F_DA_FREE = 75, F_DA_FREE_TOP = 76, F_MASKS = 77;
// reservation wheels (own nodes)
export const F_WHEELS = 78, F_WHEEL_BYTES = 79, F_WHEEL_OWNER = 80, F_WHEEL_CHECK = 81, F_WHEEL_OUT = 82;
// outbox (its region also holds the inbox, inbox.ts: F_IN_N records after the outbox's F_OUT_CAP)
export const F_OUTBOX = 83, F_OUT_N = 84, F_OUT_CAP = 85, F_IN_N = 119;
// kernels' blocks and scratch
export const F_PROBE = 86, F_ROW0 = 88, F_BATCH = 89, F_RUN_OUT = 90, F_SIGMA = 94; // 91 to 93: unused
/** The memory extension block (MX_BYTES; 0: the memory model is off): runtime memory, the kernel OOM rule, Airlock. */
export const F_MEMX = 95;
/**
 * The lagged replay (history.ts): the step between the engine's own
 * sequence numbers (1 unless engineLagMode set it), and the history of the
 * sequence counter: a region of HIST_REC records, its capacity, its first
 * live record, its records, the counter before the first, and the time
 * before which it was trimmed.
 */
export const F_SEQ_STEP = 96, F_HIST = 97, F_HIST_CAP = 98, F_HIST_HEAD = 99, F_HIST_N = 152, F_HIST_BASE = 153, F_HIST_TRIM = 154;
/** A history record (bytes): the event's time and sequence number (-Infinity: the host's posts between events), the counter after it. */
export const HIST_REC = 24;
// counters (f64)
export const F_PROBE_ACTIONS = 100, F_SCORE_OPS = 101, F_PACKETS_LOST = 102, F_BOUNCES = 103, F_ARBITRATIONS = 104,
  F_BITMAP_OPS = 105, F_ARB_LOSSES = 106, F_FALSE_OPTIMISM = 107, F_RESERVATIONS = 108, F_RES_EXPIRED = 109,
  F_COMPLETED = 110, F_RUNNING = 111, F_SQUATTING = 112, F_REPORTS_SENT = 113, F_REPORTS_LOST = 114,
  F_COPIES_LOST = 115, F_UPLOADS_LOST = 116, F_STALE_READS = 117, F_PROCESSED = 118;
/** daEnds[END_*] from here, END_SLOTS of them. */
export const F_DA_ENDS = 120, END_SLOTS = 20;
// the event queue's own state (events.ts)
export const F_Q_CUR = 140, F_RUN_POS = 141, F_RUN_LEN = 142, F_POOL_FREE = 143, F_POOL_FRESH = 144, F_FAR_SIZE = 145,
  F_WHEEL_N = 146, F_WHEEL2_N = 87;
/** Reports one touch of a node can generate at most (the host sets it: broadcastNs / minReportGapNs + 2). */
export const F_TOUCH_BOUND = 147;
/** For engineInit: the utility's gamma (da.lambda) and a missing row's extra Heat (zhaf.degradeHeat). */
export const F_GAMMA = 148, F_DEGRADE_HEAT = 149;
/** i32: da.acceptProjected (a candidate is placable when its projected Slack covers the demand, or its replica row fits). */
export const F_ACCEPT_PROJECTED = 150;
/** The DAs' cold records (DA_COLD_BYTES each). */
export const F_DAS_COLD = 151;
/** The event trace (trace.ts): on or off, its two hash lanes (i32 each), events folded in. */
export const F_TRACE_ON = 155, F_TRACE_H0 = 156, F_TRACE_H1 = 157, F_TRACE_N = 158;
/** The lanes' starting values (src/sim/fingerprint.ts's). */
export const TRACE_SEED0: i32 = 0x6a09e667, TRACE_SEED1: i32 = 0x3c6ef372;
/** Set by engineInit: the block holds a laid-out engine (the other calls refuse a block without it). */
export const F_MAGIC = 159, MAGIC: i32 = 0x315a454c; // LEZ1 in little-endian bytes
export const FIELDS = 160;
export const BLOCK_BYTES = FIELDS * 8;

/**
 * A DA record, in two parts: the hot one (64 bytes, one cache line; what
 * addressing, arbitration and the reports read) and the cold one (32 bytes:
 * what only a win, a pull or a completion reads), in two tables.
 */
export const DA_BYTES = 64, DA_COLD_BYTES = 32;
export const DA_PATIENCE = 0, DA_EMITTED = 8, DA_ARRIVE = 16, DA_EV = 24, DA_ARRIVAL = 32,
  DA_NODE = 40, DA_NEXT = 44, DA_M = 48, DA_TASK = 52, DA_STATE = 56, DA_FLAGS = 57, DA_VERDICT = 58, DA_CLS = 59;
/** Cold part (at dc(d)). */
export const DA_DEPOSIT = 0, DA_SERVICE = 8, DA_FIRST_ATOM = 16, DA_KEY = 20;

/** An inbound DA emission (bytes): task, node, class, atoms, then emission time, arrival, E_v,init, budget, service, key. */
export const EMIT_BYTES = 64;
export const EM_TASK = 0, EM_NODE = 4, EM_CLS = 8, EM_M = 12, EM_EMITTED = 16, EM_ARRIVAL = 24, EM_EV = 32, EM_BUDGET = 40,
  EM_SERVICE = 48, EM_KEY = 56, EM_FLAGS = 60;

/** An event record (bytes): time, sequence number, kind, subject. */
export const EV_BYTES = 24;

/** A Zone's report ring descriptor (i32 x 4): records pointer, capacity, head, size. */
export const RING_DESC = 16;
/** A report record's fields (32-bit words): measure time (f64) at 0, node 2, S 3, H 4, bits from 6. */
export const RR_NODE = 2, RR_S = 3, RR_H = 4, RR_BITS = 6;

/** Stream state region per Zone stream: 4 state words, the deferred draw's index and word, padding. */
export const STREAM_BYTES = 32;

// Event kinds (src/laminar/state.ts): the engine's own, the rest go to the host.
export const K_ADDRESS = 4, K_ARBITRATE = 6, K_PULL = 7, K_COMPLETE = 8, K_SNAPSHOT = 13, K_BCAST = 14, K_UPLOAD = 15, K_WHEEL = 16;
/** The engine's own with the memory model on: the runtime tick, a ledger entry's Airlock timer (T_susp, T_surv). */
export const K_MEM = 18, K_AIRLOCK = 19;
// Messages
export const M_DA_END = 1, M_RETIRE = 2, M_PULL = 3, M_REACTIVATE = 4, M_CLOSED = 5, M_UPLOAD = 6, M_LAND_REQ = 7, M_LAND_RESP = 8;
/** M_RETIRE's bits: the task was killed; its secondary probes have nothing left to land. */
export const R_KILLED = 1, R_CLOSED = 2;
export const TO_GATEWAY: f64 = -1;
export const REC = 10;
// DA states and flags
export const D_MOVING: u8 = 1, D_QUEUED: u8 = 2, D_PENDING: u8 = 3, D_RESIDENT: u8 = 4, D_SQUATTING: u8 = 5, D_EXPIRED: u8 = 6,
  D_SUSPENDED: u8 = 7;
export const FLAG_PULL: u8 = 1, FLAG_SECONDARY: u8 = 2, FLAG_REACTIVATED: u8 = 4;
export const V_NONE: u8 = 0, V_START: u8 = 1, V_DUP: u8 = 2, V_LATE: u8 = 3;
export const CLASS_F: u8 = 0, CLASS_SQUATTER: u8 = 2;
// DA ends and failure causes (src/metrics/run-metrics.ts)
// room the engine may ask for
export const ROOM_HEAP = 1, ROOM_OUTBOX = 2, ROOM_RING = 3, ROOM_TASKS = 4, ROOM_HIST = 5;
export const US: f64 = 1000;
export const NS_PER_MS: f64 = 1e6;

// ---- the memory extension (F_MEMX; src/laminar/memory.ts, runtime.ts, airlock-ledger.ts, landing.ts are the twins)
/**
 * The memory extension block: one 8-byte slot per field, as the state
 * block. The host writes the parameters (0..23); engineInit lays the tables
 * out and keeps their pointers (24..47); the counters follow (48..63).
 */
export const MX_TICK = 0, MX_SEED = 1, MX_KAPPA = 2, MX_SIGMA = 3, MX_BURST_RATE = 4, MX_BURST_SCALE = 5, MX_CAP = 6, MX_HIGH = 7,
  MX_SAFE = 8, MX_COMPRESSION = 9, MX_SUSPEND = 10, MX_SURVIVAL = 11, MX_STATE_PULL = 12, MX_OVERCLAIM_PROB = 13,
  MX_OVERCLAIM_MAX = 14;
/** i32 parameters: Airlock on, suspension scope all, projected admission check, OOM rule largest; the Zones' memory streams; the task table's first capacity. */
export const MX_AIRLOCK = 16, MX_SCOPE_ALL = 17, MX_ADMIT_PROJECTED = 18, MX_OOM_LARGEST = 19, MX_R_MEM = 20, MX_TASK_CAP = 21;
/** Laid out by engineInit: per node (all nodes) base and use (f64 KiB), the over-the-line list, residents' and ledgers' heads, pressure, waiting entries. */
export const MX_BASE = 24, MX_USAGE = 25, MX_OUT = 26, MX_RES_HEAD = 27, MX_LEDGERS = 28, MX_PRESSURED = 29, MX_WAITING = 30,
  MX_WAIT_LIST = 31, MX_IN_WAIT = 32, MX_WAIT_COUNT = 33, MX_PICK_IDS = 34, MX_PICK_A = 35, MX_PICK_B = 36, MX_PICK_K = 37,
  MX_RECS = 38, MX_REC_OWNER = 39, MX_REC_COUNT = 40, MX_DAX = 41, MX_TASKS = 42;
/** Counters (f64): the run's SurvivalCounters, and the ledger entries now. */
export const MX_OOM_L = 48, MX_OOM_F = 49, MX_SUSPENSIONS = 50, MX_RESUMED = 51, MX_REACTIVATIONS = 52, MX_LANDINGS = 53,
  MX_RECLAIMED = 54, MX_PROBE_DROPS = 55, MX_PREEMPTIONS = 56, MX_SUSPENDED = 57;
export const MX_FIELDS = 64, MX_BYTES = MX_FIELDS * 8;

/**
 * A DA's memory record (DX_BYTES, in a third table beside the hot and cold
 * ones): its execution epoch's end, what a suspension keeps (remaining
 * service, drift, true footprint, the image's size, when), the sequence
 * numbers of its pending completion and Airlock timer (-1: none; an event
 * whose number differs was cancelled and is dropped when it comes up), its
 * declared memory, its links in a node's residents or ledger, and its
 * memory record's index (-1: not running).
 */
export const DX_BYTES = 96;
export const DX_EPOCH_END = 0, DX_REMAINING = 8, DX_DRIFT = 16, DX_TARGET = 24, DX_FROZEN = 32, DX_SUSPENDED_AT = 40,
  DX_DONE_SEQ = 48, DX_TIMER_SEQ = 56, DX_DECLARED = 64, DX_PREV = 72, DX_NEXT = 76, DX_REC = 80;
/** A running task's memory record (assembly/memory.ts's format, 6 f64): node, declared, target, drift, resident, key. */
export const MEM_REC_BYTES = 48;
/** With the memory model on, an emission record is longer: its task's declared memory (GiB, f64) at EM_DECLARED. */
export const EMIT_MEM_BYTES = 80, EM_DECLARED = 64;
/** The task table (by the host's task id): the suspended image's ledger entry (-1: none), the image's Zone, whether its secondary probes may still land. */
export const TT_BYTES = 16, TT_ANCHOR = 0, TT_HOME = 4, TT_AWAITING = 8;
