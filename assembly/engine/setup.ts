// A Zone engine laid out and started by the core itself (engineInit), for
// a host that is not the TypeScript model: the host writes the parameters
// into the block (durations, costs, sizes, the Zone offsets, the nodes'
// bitmaps and each Zone's three stream states: docs/abi.md, "Zone
// engine"), gives one region of engineBytes(block) bytes, and the core lays
// out every table in it and sets the state the TypeScript model has after
// its start(): every node's row published in snapshot 0 and read by every
// replica, each node's first report time drawn, each Zone's first snapshot
// scheduled. A table that later needs room (E_FULL from a run) moves to a
// region of engineRoomBytes(block) bytes the host gives engineGrow.
import { checkBuf, E_ARG, E_ATOMS, E_BOUNDS, E_COUNT, E_ID, E_NULL, OK } from "../abi";
import { wheelBytes, wheelInit } from "../wheel";
import { fdExp, fdLog } from "../libm";
import { streamFloat, streamIsZero } from "../stream";
import { ENGINE_ZIG, PROBE_SEEN } from "./scratch";
import { ZIG_FN, ZIG_WN } from "../stream";
import {
  C_ATOMS, C_DEGRADE_AGE, C_GAMMA, PROBE_BYTES, P_SIGMA,
} from "../blocks";
import {
  DA_BYTES, DA_COLD_BYTES, F_DAS_COLD, F_AGG_H, F_AGG_S, F_ATOMS, F_BATCH, F_BITMAPS, F_BROADCAST, F_CANDIDATES,
  F_COPIES, F_DA_CAP, F_DA_FREE, F_DA_FREE_TOP, F_DA_FRESH, F_DA_LIVE, F_DAS, F_DEGRADE_HEAT, F_DELIVERED, F_FORFEIT, F_FREE,
  F_GAMMA, F_GUARD, F_HEAP_CAP, F_HEAP_SIZE, F_LAST_HEARD, F_LAST_MEAS, F_MASKS, F_MASTER, F_MIN_GAP, F_N0, F_N1,
  F_NEXT_REPORT, F_NODES, F_OFFSETS, F_OUT_CAP, F_OUT_N, F_OUTBOX, F_PROBE, F_Q_HEAD, F_Q_TAIL, F_R_REPORT, F_REPLICA,
  F_REPORT, F_REPORT_DELAY, F_RING, F_RING_REC, F_RINGS, F_ROOM_NEED, F_ROOM_WHAT, F_ROW0, F_ROW_BYTES,
  F_RUN_OUT, F_SIGMA, F_SNAP_TIME, F_TAKEN, F_TOUCH_BOUND, F_UPLOADED, F_WHEEL_BYTES, F_WHEEL_CHECK, F_WHEEL_OUT,
  F_WHEEL_OWNER, F_WHEELS, F_WINDOW_AT, F_Z0, F_Z1, F_ZONE_OF, F_ZONES, F_ZT_BYTES, F_RESERVE, F_STALE,
  BLOCK_BYTES, F_TRACE_H0, F_TRACE_H1, F_TRACE_N, TRACE_SEED0, TRACE_SEED1, F_TRACE_ON, F_DELTA, F_HOP, F_LOSS, F_MAGIC, F_R_NET, F_R_ZONE, F_WINDOW, F_ALPHA, MAGIC, K_SNAPSHOT, REC, RING_DESC, ROOM_HEAP, ROOM_OUTBOX, ROOM_RING, RR_BITS, STREAM_BYTES, EV_BYTES,
} from "./layout";
import { enter, forget, getf, geti, jsRound, leave, MX, ptr, refresh, setf, seti, setxi, xf, xi, xp } from "./state";
import {
  DX_BYTES, MEM_REC_BYTES, MX_BASE, MX_BURST_RATE, MX_BURST_SCALE, MX_BYTES, MX_CAP, MX_COMPRESSION, MX_DAX, MX_HIGH,
  MX_IN_WAIT, MX_KAPPA, MX_LEDGERS, MX_OUT, MX_OVERCLAIM_MAX, MX_OVERCLAIM_PROB, MX_PICK_A, MX_PICK_B, MX_PICK_IDS,
  MX_PICK_K, MX_PRESSURED, MX_R_MEM, MX_REC_COUNT, MX_REC_OWNER, MX_RECS, MX_RES_HEAD, MX_SAFE, MX_SEED, MX_SIGMA,
  MX_STATE_PULL, MX_SUSPEND, MX_SURVIVAL, MX_TASK_CAP, MX_TASKS, MX_TICK, MX_USAGE, MX_WAIT_COUNT, MX_WAIT_LIST, MX_WAITING,
  ROOM_TASKS, TT_ANCHOR, TT_AWAITING, TT_BYTES, TT_HOME,
} from "./layout";
import { F_HIST, F_HIST_BASE, F_HIST_CAP, F_HIST_HEAD, F_HIST_N, F_HIST_TRIM, F_NOW, F_SEQ, F_SEQ_STEP, HIST_REC, ROOM_HIST } from "./layout";
import { histMove } from "./history";
import { inboxAt, outboxBytes } from "./inbox";
import { F_IN_N } from "./layout";
import { push, queueBytes, queueInit, queueMove } from "./events";
import { initSnapshot } from "./zone";
import { REC_BYTES } from "../choose";

/** A bump allocator over the region being laid out. */
let top: u64 = 0;
// @ts-ignore: decorator
@inline function take(bytes: i64): usize {
  // in 64 bits: a layout past 4 GiB is reported by engineBytes (E_BOUNDS), not wrapped
  const p = (top + 15) & ~<u64>15;
  top = p + <u64>bytes;
  return <usize>p;
}

/** The sizes engineInit lays out, from the block's parameters (E_* when they are out of range). */
function check(block: usize): i32 {
  forget();
  let e = checkBuf(block, BLOCK_BYTES, 1, 8); if (e != OK) return e;
  enter(block);
  const N = geti(F_NODES), Z = geti(F_ZONES), A = geti(F_ATOMS);
  if (A < 64 || A > 1024 || (A & 63) != 0) return E_ATOMS;
  if (N < 1 || N > (1 << 22) || Z < 1 || Z > N) return E_COUNT;
  if (geti(F_ROW_BYTES) != A >> 3) return E_ARG;
  if (geti(F_RING) < 2 || geti(F_COPIES) < 1 || geti(F_COPIES) > geti(F_RING)) return E_ARG;
  if (geti(F_DA_CAP) < 16 || geti(F_HEAP_CAP) < 16 || geti(F_DA_CAP) > (1 << 24) || geti(F_HEAP_CAP) > (1 << 24)) return E_COUNT;
  const k = <i32>getf(F_CANDIDATES);
  if (k < 1 || k > 4096) return E_ARG;
  const offs = ptr(F_OFFSETS);
  e = checkBuf(offs, <i64>Z + 1, 4); if (e != OK) return e;
  e = checkBuf(ptr(F_BITMAPS), <i64>N * (A >> 6), 8); if (e != OK) return e;
  e = checkBuf(ptr(F_R_ZONE), <i64>Z * STREAM_BYTES, 1, 16); if (e != OK) return e;
  e = checkBuf(ptr(F_R_NET), <i64>Z * STREAM_BYTES, 1, 16); if (e != OK) return e;
  e = checkBuf(ptr(F_R_REPORT), <i64>Z * STREAM_BYTES, 1, 16); if (e != OK) return e;
  for (let z = 0; z < Z; z++) {
    for (let s = 0; s < 3; s++) {
      const p = ptr(s == 0 ? F_R_ZONE : s == 1 ? F_R_NET : F_R_REPORT) + <usize>z * STREAM_BYTES;
      if (streamIsZero(p)) return E_ARG; // xoshiro's fixed point
    }
  }
  if (!(getf(F_HOP) >= 0) || !(getf(F_DELTA) >= 1) || !(getf(F_WINDOW) >= 1) || !(getf(F_LOSS) >= 0 && getf(F_LOSS) < 1)) return E_ARG;
  if (!(getf(F_SIGMA) >= 0 && getf(F_SIGMA) <= 1e30) || !(getf(F_ALPHA) > 0 && getf(F_ALPHA) <= 1)) return E_ARG;
  if (load<i32>(offs) != 0 || load<i32>(offs + (<usize>Z << 2)) != N) return E_ID;
  for (let z = 0; z < Z; z++) {
    const nz = load<i32>(offs + (<usize>(z + 1) << 2)) - load<i32>(offs + (<usize>z << 2));
    if (nz < 1 || nz > 65536) return E_ID;
  }
  if (!(getf(F_REPORT) >= 1) || !(getf(F_BROADCAST) >= 1) || !(getf(F_MIN_GAP) >= 1)) return E_ARG;
  return MX != 0 ? checkMemory(Z) : OK;
}

/** The memory extension's parameters (F_MEMX; E_* when out of range). */
function checkMemory(Z: i32): i32 {
  let e = checkBuf(MX, MX_BYTES, 1, 8); if (e != OK) return e;
  const seed = xf(MX_SEED);
  if (!(xf(MX_TICK) >= 1) || !(seed >= 0 && seed < 4294967296.0 && seed == Math.floor(seed))) return E_ARG;
  if (!(xf(MX_KAPPA) >= 0 && xf(MX_KAPPA) <= 1) || !(xf(MX_BURST_RATE) >= 0 && xf(MX_BURST_RATE) <= 1)) return E_ARG;
  if (!(xf(MX_SIGMA) >= 0 && xf(MX_SIGMA) < Infinity) || !(xf(MX_BURST_SCALE) >= 0 && xf(MX_BURST_SCALE) < Infinity)) return E_ARG;
  if (!(xf(MX_CAP) >= 0 && xf(MX_CAP) < Infinity) || !(xf(MX_HIGH) >= 0 && xf(MX_HIGH) < Infinity) || !(xf(MX_SAFE) >= 0 && xf(MX_SAFE) < Infinity)) return E_ARG;
  if (!(xf(MX_COMPRESSION) >= 1 && xf(MX_COMPRESSION) < Infinity) || !(xf(MX_SUSPEND) >= 0 && xf(MX_SUSPEND) < Infinity)) return E_ARG;
  if (!(xf(MX_SURVIVAL) >= 1 && xf(MX_SURVIVAL) < Infinity) || !(xf(MX_STATE_PULL) >= 0 && xf(MX_STATE_PULL) < Infinity)) return E_ARG;
  if (!(xf(MX_OVERCLAIM_PROB) >= 0 && xf(MX_OVERCLAIM_PROB) <= 1) || !(xf(MX_OVERCLAIM_MAX) >= 0 && xf(MX_OVERCLAIM_MAX) < Infinity)) return E_ARG;
  if (xi(MX_TASK_CAP) < 16 || xi(MX_TASK_CAP) > (1 << 24)) return E_COUNT;
  e = checkBuf(xp(MX_R_MEM), <i64>Z * STREAM_BYTES, 1, 16); if (e != OK) return e;
  for (let z = 0; z < Z; z++) {
    const p = xp(MX_R_MEM) + <usize>z * STREAM_BYTES;
    if (streamIsZero(p)) return E_ARG;
  }
  return OK;
}

/** Bytes per DA of the DA tables: hot and cold records, free list, batch, mask, and with the memory model its memory record, task record and owner. */
function perDa(): i64 {
  return <i64>(DA_BYTES + DA_COLD_BYTES + 8 + geti(F_ROW_BYTES)) + (MX != 0 ? <i64>(DX_BYTES + MEM_REC_BYTES + 4) : 0);
}

/** Nodes of the Zones [Z0, Z1) (checked by engineInit; 0 when out of range here). */
function ownNodes(): i32 {
  const offs = ptr(F_OFFSETS), Z = geti(F_ZONES), z0 = geti(F_Z0), z1 = geti(F_Z1);
  if (z0 < 0 || z1 > Z || z0 > z1) return 0;
  return load<i32>(offs + (<usize>z1 << 2)) - load<i32>(offs + (<usize>z0 << 2));
}

function maxZone(): i32 {
  const offs = ptr(F_OFFSETS), Z = geti(F_ZONES);
  let m = 1;
  for (let z = 0; z < Z; z++) m = max(m, load<i32>(offs + (<usize>(z + 1) << 2)) - load<i32>(offs + (<usize>z << 2)));
  return m;
}

/** Lay the tables out from `base` (when write), returning the end. */
function layout(base: usize, write: bool): u64 {
  top = <u64>base;
  const N = geti(F_NODES), Z = geti(F_ZONES), A = geti(F_ATOMS), rb = geti(F_ROW_BYTES), ring = geti(F_RING);
  const copies = geti(F_COPIES), offs = ptr(F_OFFSETS), dc = geti(F_DA_CAP);
  // (no arrays of field indices here: a literal would allocate, and the core never allocates)
  let p = take(<i64>N << 2); if (write) seti(F_ZONE_OF, <i32>p);
  p = take(<i64>N << 2); if (write) seti(F_FREE, <i32>p);
  p = take(<i64>N << 2); if (write) seti(F_Q_HEAD, <i32>p);
  p = take(<i64>N << 2); if (write) seti(F_Q_TAIL, <i32>p);
  p = take(<i64>N << 2); if (write) seti(F_REPLICA, <i32>p);
  p = take(<i64>N << 3); if (write) seti(F_WINDOW_AT, <i32>p);
  p = take(<i64>N << 3); if (write) seti(F_NEXT_REPORT, <i32>p);
  p = take(<i64>N << 3); if (write) seti(F_LAST_HEARD, <i32>p);
  p = take(<i64>N << 3); if (write) seti(F_LAST_MEAS, <i32>p);
  p = take(<i64>Z << 2); if (write) seti(F_TAKEN, <i32>p);
  p = take(<i64>Z << 2); if (write) seti(F_DELIVERED, <i32>p);
  p = take(<i64>Z << 2); if (write) seti(F_UPLOADED, <i32>p);
  p = take(<i64>Z << 2); if (write) seti(F_MASTER, <i32>p);
  p = take(<i64>Z << 2); if (write) seti(F_ZT_BYTES, <i32>p);
  p = take(<i64>Z * ring << 3); if (write) seti(F_SNAP_TIME, <i32>p);
  p = take(<i64>Z * ring << 3); if (write) seti(F_AGG_S, <i32>p);
  p = take(<i64>Z * ring << 3); if (write) seti(F_AGG_H, <i32>p);
  p = take(<i64>Z << 3); if (write) seti(F_FORFEIT, <i32>p);
  // Zone tables: a record of REC_BYTES per node (zone.ts nodeRecBytes; choose.ts: its five values and its row's
  // summary; two to a cache line), a master and `copies` published versions each, 64-aligned
  const nodeRec = REC_BYTES;
  for (let z = 0; z < Z; z++) {
    const nz = load<i32>(offs + (<usize>(z + 1) << 2)) - load<i32>(offs + (<usize>z << 2));
    const zt = ((<usize>nz * nodeRec + 63) >> 6) << 6;
    const p = (take(<i64>(1 + copies) * zt + 48) + 63) & ~<usize>63;
    if (write) {
      store<i32>(ptr(F_MASTER) + (<usize>z << 2), <i32>p);
      store<i32>(ptr(F_ZT_BYTES) + (<usize>z << 2), <i32>zt);
    }
  }
  // report rings
  const rec = ((4 * (RR_BITS + (rb >> 2)) + 63) >> 6) << 4;
  { const p = take(<i64>Z * RING_DESC); if (write) { seti(F_RINGS, <i32>p); seti(F_RING_REC, rec); } }
  for (let z = 0; z < Z; z++) {
    const nz = load<i32>(offs + (<usize>(z + 1) << 2)) - load<i32>(offs + (<usize>z << 2));
    const cap = 4 * nz + 16, p = take(<i64>cap * rec * 4);
    if (write) {
      const d = ptr(F_RINGS) + <usize>z * RING_DESC;
      store<i32>(d, <i32>p); store<i32>(d, cap, 4); store<i32>(d, 0, 8); store<i32>(d, 0, 12);
    }
  }
  // DAs: records, free list, masks, the arbitration batch
  { const p = take(<i64>dc * perDa() + 48); if (write) placeDas(p, dc); }
  // the memory model: per node use, lists and flags; the pick arrays; the task table
  if (MX != 0) {
    let q = take(<i64>N << 3); if (write) setxi(MX_BASE, <i32>q);
    q = take(<i64>N << 3); if (write) setxi(MX_USAGE, <i32>q);
    q = take(<i64>N << 2); if (write) setxi(MX_OUT, <i32>q);
    q = take(<i64>N << 2); if (write) setxi(MX_RES_HEAD, <i32>q);
    q = take(<i64>N << 2); if (write) setxi(MX_LEDGERS, <i32>q);
    q = take(<i64>N << 2); if (write) setxi(MX_WAITING, <i32>q);
    q = take(<i64>N << 2); if (write) setxi(MX_WAIT_LIST, <i32>q);
    q = take(<i64>N); if (write) setxi(MX_PRESSURED, <i32>q);
    q = take(<i64>N); if (write) setxi(MX_IN_WAIT, <i32>q);
    q = take(<i64>A << 2); if (write) setxi(MX_PICK_IDS, <i32>q);
    q = take(<i64>A << 3); if (write) setxi(MX_PICK_A, <i32>q);
    q = take(<i64>A << 3); if (write) setxi(MX_PICK_B, <i32>q);
    q = take(<i64>A << 3); if (write) setxi(MX_PICK_K, <i32>q);
    q = take(<i64>xi(MX_TASK_CAP) * TT_BYTES); if (write) setxi(MX_TASKS, <i32>q);
  }
  // wheels
  const wb = wheelBytes(A);
  // wheels and their owners for the own nodes only, and only with reservations on
  const own = ownNodes(), wn = getf(F_RESERVE) != 0 ? own : 0;
  { const p = take(<i64>wn * wb); if (write) { seti(F_WHEELS, <i32>p); seti(F_WHEEL_BYTES, wb); } }
  { const p = take(<i64>wn * A << 2); if (write) seti(F_WHEEL_OWNER, <i32>p); }
  { const p = take(<i64>own << 3); if (write) seti(F_WHEEL_CHECK, <i32>p); }
  { const p = take(<i64>A << 2); if (write) seti(F_WHEEL_OUT, <i32>p); }
  // outbox
  { const p = take(outboxBytes(1024, geti(F_ZONES))); if (write) { seti(F_OUTBOX, <i32>p); seti(F_OUT_CAP, 1024); seti(F_OUT_N, 0); seti(F_IN_N, 0); } }
  // probe action: its block (the ziggurat's tables, the sampling scratch, candidates and noise are the core's own:
  // scratch.ts)
  { const p = take(PROBE_BYTES); if (write) seti(F_PROBE, <i32>p); }
  if (write) {
    const b = ptr(F_PROBE);
    memory.fill(b, 0, PROBE_BYTES);
    store<i32>(b + C_ATOMS, A);
    store<f32>(b + C_GAMMA, <f32>getf(F_GAMMA));
    store<f32>(b + C_DEGRADE_AGE, <f32>1e20);
    store<f64>(b + P_SIGMA, getf(F_SIGMA));
    memory.fill(PROBE_SEEN, 0, <usize>((maxZone() + 31) >> 5) << 2);
  }
  // scratch: a row copy, a bitmap query's answer
  { const p = take(rb); if (write) seti(F_ROW0, <i32>p); }
  { const p = take(16); if (write) seti(F_RUN_OUT, <i32>p); }
  // the event queue
  { const p = take(queueBytes(geti(F_HEAP_CAP))); if (write) queueInit(p, geti(F_HEAP_CAP)); }
  return top;
}

/**
 * The DA tables for cap DAs from p (16-aligned; the hot records start on a
 * 64-byte line, 48 bytes of slack allowed for): hot records, cold records,
 * free list, arbitration batch, masks.
 */
function placeDas(p: usize, cap: i32): void {
  const hot = (p + 63) & ~<usize>63, c = <usize>cap;
  seti(F_DAS, <i32>hot);
  seti(F_DAS_COLD, <i32>(hot + c * DA_BYTES));
  seti(F_DA_FREE, <i32>(hot + c * (DA_BYTES + DA_COLD_BYTES)));
  seti(F_BATCH, <i32>(hot + c * (DA_BYTES + DA_COLD_BYTES + 4)));
  seti(F_MASKS, <i32>(hot + c * (DA_BYTES + DA_COLD_BYTES + 8)));
  if (MX != 0) {
    const x = hot + c * <usize>(DA_BYTES + DA_COLD_BYTES + 8 + geti(F_ROW_BYTES));
    setxi(MX_DAX, <i32>x);
    setxi(MX_RECS, <i32>(x + c * DX_BYTES));
    setxi(MX_REC_OWNER, <i32>(x + c * (DX_BYTES + MEM_REC_BYTES)));
  }
  seti(F_DA_CAP, cap);
}

/** Task table entries [from, to): no ledger entry, Zone 0, not awaiting. */
function clearTasks(from: i32, to: i32): void {
  for (let t = from; t < to; t++) {
    const r = xp(MX_TASKS) + <usize>t * TT_BYTES;
    store<i32>(r + TT_ANCHOR, -1);
    store<i32>(r + TT_HOME, 0);
    store<i32>(r + TT_AWAITING, 0);
  }
}

/** Bytes engineInit needs for the parameters in the block (or an E_* code). */
export function engineBytes(block: usize): f64 {
  const r = engineBytesIn(block);
  forget(); // read only: nothing to copy back
  return r;
}

function engineBytesIn(block: usize): f64 {
  const e = check(block);
  if (e != OK) return <f64>e;
  const end = layout(0, false) + 16;
  return end > <u64>0xffff0000 ? <f64>E_BOUNDS : <f64>end;
}

/** The ziggurat's tables (src/sim/ziggurat.ts setup, with V8's exp and log: the same bits). */
function zigTables(zig: usize): void {
  const m1: f64 = 2147483648, vn: f64 = 9.91256303526217e-3, R: f64 = 3.442619855899;
  let dn = R, tn = dn;
  const q = vn / fdExp(-0.5 * dn * dn);
  store<u32>(zig, <u32>Math.floor((dn / q) * m1));
  store<u32>(zig, 0, 4);
  store<f64>(zig + ZIG_WN, q / m1);
  store<f64>(zig + ZIG_WN + 127 * 8, dn / m1);
  store<f64>(zig + ZIG_FN, 1);
  store<f64>(zig + ZIG_FN + 127 * 8, fdExp(-0.5 * dn * dn));
  for (let i = 126; i >= 1; i--) {
    dn = Math.sqrt(-2 * fdLog(vn / dn + fdExp(-0.5 * dn * dn)));
    store<u32>(zig + (<usize>(i + 1) << 2), <u32>Math.floor((dn / tn) * m1));
    tn = dn;
    store<f64>(zig + ZIG_FN + (<usize>i << 3), fdExp(-0.5 * dn * dn));
    store<f64>(zig + ZIG_WN + (<usize>i << 3), dn / m1);
  }
}

/**
 * Lay the engine out in [base, base + bytes) and start it (see the file
 * header): E_COUNT / E_ARG / E_ATOMS / E_ID for parameters out of range,
 * E_BOUNDS when the region is too small or outside memory.
 */
export function engineInit(block: usize, base: usize, bytes: f64): i32 {
  const r = engineInitIn(block, base, bytes);
  leave();
  return r;
}

function engineInitIn(block: usize, base: usize, bytes: f64): i32 {
  const e = check(block);
  if (e != OK) return e;
  const end = layout(0, false) + 16;
  if (end > <u64>0xffff0000) return E_BOUNDS;
  const need = <f64>end;
  if (base < __heap_base) return E_NULL;
  if (!(bytes >= need) || <f64>base + bytes > <f64>memory.size() * 65536) return E_BOUNDS;
  // the region may not overlap the block or the host's tables the engine reads
  if (overlaps(base, bytes, block, BLOCK_BYTES) || overlaps(base, bytes, ptr(F_BITMAPS), <f64>geti(F_NODES) * <f64>geti(F_ROW_BYTES))
    || overlaps(base, bytes, ptr(F_OFFSETS), <f64>(geti(F_ZONES) + 1) * 4) || (MX != 0 && overlaps(base, bytes, MX, MX_BYTES))) return E_ARG;
  const N = geti(F_NODES), Z = geti(F_ZONES), A = geti(F_ATOMS), offs = ptr(F_OFFSETS);
  // the caller's tables: offsets, bitmaps and streams were checked by check() for sizes only
  // the Zones [z0, z1) this engine runs: all of them, or a partition's share (perhaps none)
  const z0 = geti(F_Z0), z1 = geti(F_Z1);
  if (z0 < 0 || z1 > Z || z0 > z1) return E_ID;
  layout(base, true);
  refresh(); // the tables' pointers are set now
  seti(F_Z0, z0); seti(F_Z1, z1);
  const n0 = load<i32>(offs + (<usize>z0 << 2)), n1 = load<i32>(offs + (<usize>z1 << 2));
  seti(F_N0, n0); seti(F_N1, n1);
  setf(F_NOW, 0); setf(F_SEQ, 0); setf(F_SEQ_STEP, 1);
  seti(F_HIST, 0); seti(F_HIST_CAP, 0); seti(F_HIST_HEAD, 0); seti(F_HIST_N, 0); setf(F_HIST_BASE, 0); setf(F_HIST_TRIM, -Infinity);
  for (let i = 100; i < 140; i++) setf(i, 0);
  seti(F_TRACE_ON, 0); seti(F_TRACE_H0, TRACE_SEED0); seti(F_TRACE_H1, TRACE_SEED1); setf(F_TRACE_N, 0); // the trace off, empty
  seti(F_DA_LIVE, 0); seti(F_DA_FRESH, 0); seti(F_DA_FREE_TOP, 0); seti(F_ROOM_WHAT, -1);
  seti(F_TOUCH_BOUND, <i32>Math.floor(getf(F_BROADCAST) / getf(F_MIN_GAP)) + 2);
  zigTables(ENGINE_ZIG);
  const rb = <usize>geti(F_ROW_BYTES), bitmaps = ptr(F_BITMAPS);
  for (let z = 0; z < Z; z++) {
    for (let n = load<i32>(offs + (<usize>z << 2)), end = load<i32>(offs + (<usize>(z + 1) << 2)); n < end; n++) {
      store<i32>(ptr(F_ZONE_OF) + (<usize>n << 2), z);
    }
  }
  for (let n = 0; n < N; n++) {
    let free = 0;
    const r = bitmaps + <usize>n * rb;
    for (let w: usize = 0; w < rb; w += 8) free += <i32>popcnt<u64>(load<u64>(r + w));
    store<i32>(ptr(F_FREE) + (<usize>n << 2), free);
    store<i32>(ptr(F_Q_HEAD) + (<usize>n << 2), -1);
    store<i32>(ptr(F_Q_TAIL) + (<usize>n << 2), -1);
    store<f64>(ptr(F_WINDOW_AT) + (<usize>n << 3), Infinity);
    store<f64>(ptr(F_LAST_HEARD) + (<usize>n << 3), getf(F_REPORT_DELAY));
    store<f64>(ptr(F_LAST_MEAS) + (<usize>n << 3), 0);
  }
  for (let n = n0; n < n1; n++) {
    store<f64>(ptr(F_WHEEL_CHECK) + (<usize>(n - n0) << 3), Infinity);
    if (getf(F_RESERVE) != 0) wheelInit(ptr(F_WHEELS) + <usize>(n - n0) * <usize>geti(F_WHEEL_BYTES), A, 0);
  }
  if (getf(F_RESERVE) != 0) memory.fill(ptr(F_WHEEL_OWNER), 0xff, <usize>(n1 - n0) * <usize>A << 2);
  memory.fill(ptr(F_FORFEIT), 0, <usize>Z << 3);
  if (MX != 0) {
    memory.fill(xp(MX_BASE), 0, <usize>N << 3);
    memory.fill(xp(MX_USAGE), 0, <usize>N << 3);
    memory.fill(xp(MX_RES_HEAD), 0xff, <usize>N << 2);
    memory.fill(xp(MX_LEDGERS), 0xff, <usize>N << 2);
    memory.fill(xp(MX_WAITING), 0, <usize>N << 2);
    memory.fill(xp(MX_PRESSURED), 0, <usize>N);
    memory.fill(xp(MX_IN_WAIT), 0, <usize>N);
    setxi(MX_WAIT_COUNT, 0);
    setxi(MX_REC_COUNT, 0);
    for (let i = 48; i < 64; i++) store<f64>(MX + (<usize>i << 3), 0);
    clearTasks(0, xi(MX_TASK_CAP));
  }
  // Z-HAF: every master row from the node's state at time 0, published as version 0 to every replica
  for (let z = 0; z < Z; z++) initSnapshot(z);
  // each own node's first report, then each own Zone's first snapshot
  for (let n = n0; n < n1; n++) {
    const z = load<i32>(ptr(F_ZONE_OF) + (<usize>n << 2));
    const u = streamFloat(ptr(F_R_REPORT) + <usize>z * STREAM_BYTES);
    store<f64>(ptr(F_NEXT_REPORT) + (<usize>n << 3), jsRound(u * getf(F_REPORT)));
  }
  for (let z = z0; z < z1; z++) push(getf(F_BROADCAST), K_SNAPSHOT, z);
  seti(F_MAGIC, MAGIC);
  return OK;
}

function overlaps(a: usize, an: f64, b: usize, bn: f64): bool {
  return <f64>a < <f64>b + bn && <f64>b < <f64>a + an;
}

/** Whether the block holds an engine engineInit laid out (else the call returns E_ARG). */
export function ready(block: usize): bool {
  forget();
  if (checkBuf(block, BLOCK_BYTES, 1, 8) != OK) return false;
  enter(block);
  if (geti(F_MAGIC) == MAGIC) return true;
  forget();
  return false;
}

/** Bytes the room the last E_FULL asked for needs (engineGrow's region). */
export function engineRoomBytes(block: usize): f64 {
  const r = engineRoomBytesIn(block);
  forget(); // read only: nothing to copy back
  return r;
}

function engineRoomBytesIn(block: usize): f64 {
  if (!ready(block)) return <f64>E_ARG;
  const what = geti(F_ROOM_WHAT), need = geti(F_ROOM_NEED);
  if (what < 0 || (what >= ROOM_RING && what != ROOM_TASKS && what != ROOM_HIST && (((what - ROOM_RING) & 15) != 0 || ((what - ROOM_RING) >> 4) >= geti(F_ZONES)))) return <f64>E_ARG;
  if (what == 0) return <f64>grownCap(geti(F_DA_CAP), need) * <f64>perDa() + 64;
  if (what == ROOM_TASKS) return MX != 0 ? <f64>grownCap(xi(MX_TASK_CAP), need) * TT_BYTES + 16 : <f64>E_ARG;
  if (what == ROOM_HEAP) return <f64>queueBytes(grownCap(geti(F_HEAP_CAP), need)) + 16;
  if (what == ROOM_OUTBOX) return <f64>outboxBytes(grownCap(geti(F_OUT_CAP), need), geti(F_ZONES)) + 16;
  if (what == ROOM_HIST) return <f64>grownCap(geti(F_HIST_N) - geti(F_HIST_HEAD), need) * HIST_REC + 16;
  const z = (what - ROOM_RING) >> 4, d = ptr(F_RINGS) + <usize>z * RING_DESC;
  return <f64>grownCap(load<i32>(d, 4), load<i32>(d, 12) + need) * <f64>(geti(F_RING_REC) * 4) + 16;
}

/** The capacity a table grows to: doubled until it holds `need`, then doubled once more. */
function grownCap(have: i32, need: i32): i32 {
  let c = max(have, 16);
  while (c < need) c <<= 1;
  return c << 1;
}

/** Move the table the last E_FULL asked room for into [base, base + bytes) (engineRoomBytes(block) of them). */
export function engineGrow(block: usize, base: usize, bytes: f64): i32 {
  const r = engineGrowIn(block, base, bytes);
  leave();
  return r;
}

function engineGrowIn(block: usize, base: usize, bytes: f64): i32 {
  const need = engineRoomBytesIn(block);
  if (need < 0) return <i32>need;
  if (base < __heap_base) return E_NULL;
  if (!(bytes >= need) || <f64>base + bytes > <f64>memory.size() * 65536) return E_BOUNDS;
  const p = (base + 15) & ~<usize>15, what = geti(F_ROOM_WHAT), want = geti(F_ROOM_NEED);
  if (what == 0) {
    const old = geti(F_DA_CAP), cap = grownCap(old, want), rb = <usize>geti(F_ROW_BYTES);
    const das = ptr(F_DAS), cold = ptr(F_DAS_COLD), free = ptr(F_DA_FREE), masks = ptr(F_MASKS);
    const dax = MX != 0 ? xp(MX_DAX) : 0, recs = MX != 0 ? xp(MX_RECS) : 0, owner = MX != 0 ? xp(MX_REC_OWNER) : 0;
    placeDas(p, cap);
    refresh();
    if (MX != 0) {
      memory.copy(xp(MX_DAX), dax, <usize>old * DX_BYTES);
      memory.copy(xp(MX_RECS), recs, <usize>old * MEM_REC_BYTES);
      memory.copy(xp(MX_REC_OWNER), owner, <usize>old << 2);
    }
    memory.copy(ptr(F_DAS), das, <usize>old * DA_BYTES);
    memory.copy(ptr(F_DAS_COLD), cold, <usize>old * DA_COLD_BYTES);
    memory.copy(ptr(F_DA_FREE), free, <usize>old << 2);
    memory.copy(ptr(F_MASKS), masks, <usize>old * rb);
  } else if (what == ROOM_TASKS) {
    const old = xi(MX_TASK_CAP), cap = grownCap(old, want);
    memory.copy(p, xp(MX_TASKS), <usize>old * TT_BYTES);
    setxi(MX_TASKS, <i32>p);
    setxi(MX_TASK_CAP, cap);
    clearTasks(old, cap);
  } else if (what == ROOM_HEAP) {
    queueMove(p, grownCap(geti(F_HEAP_CAP), want));
  } else if (what == ROOM_OUTBOX) {
    const cap = grownCap(geti(F_OUT_CAP), want), inbox = inboxAt();
    memory.copy(p, ptr(F_OUTBOX), <usize>geti(F_OUT_N) * REC * 8);
    memory.copy(p + <usize>cap * REC * 8, inbox, <usize>geti(F_IN_N) * REC * 8);
    seti(F_OUTBOX, <i32>p);
    seti(F_OUT_CAP, cap);
  } else if (what == ROOM_HIST) {
    histMove(p, grownCap(geti(F_HIST_N) - geti(F_HIST_HEAD), want));
  } else if (what >= ROOM_RING && ((what - ROOM_RING) & 15) == 0 && ((what - ROOM_RING) >> 4) < geti(F_ZONES)) {
    // a Zone's report ring: its records in order, from the head
    const z = (what - ROOM_RING) >> 4, d = ptr(F_RINGS) + <usize>z * RING_DESC;
    const recs = <usize>load<u32>(d), cap = load<i32>(d, 4), head = load<i32>(d, 8), size = load<i32>(d, 12);
    const bytesRec = <usize>geti(F_RING_REC) << 2, ncap = grownCap(cap, size + want);
    for (let i = 0; i < size; i++) memory.copy(p + <usize>i * bytesRec, recs + <usize>((head + i) % cap) * bytesRec, bytesRec);
    store<i32>(d, <i32>p); store<i32>(d, ncap, 4); store<i32>(d, 0, 8);
  } else return E_ARG;
  seti(F_ROOM_WHAT, -1);
  return OK;
}
