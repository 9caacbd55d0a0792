// Running tasks and node memory in the engine, with the memory model on
// (src/laminar/runtime.ts and memory.ts are the twins): a started task's
// execution epoch, its memory record (assembly/memory.ts's format, advanced
// by the runtime tick), the node's list of running residents, its pressure
// flag (use above Airlock's high watermark), and the kernel OOM rule: while a
// node's use exceeds its capacity, a running task is killed (the largest, or
// a random one). Airlock, which acts before the kernel does, is airlock.ts.
import { streamInt } from "../stream";
import { kib } from "../memory";
import {
  CLASS_F, DA_CLS, DA_EV, DA_KEY, DX_DONE_SEQ, DX_EPOCH_END, DX_NEXT, DX_PREV, DX_REC,
  F_RUNNING, F_SEQ, K_COMPLETE, MEM_REC_BYTES, MX_AIRLOCK, MX_CAP, MX_HIGH, MX_OOM_F, MX_OOM_L, MX_OOM_LARGEST,
  MX_PICK_A, MX_PICK_B, MX_PICK_IDS, MX_PICK_K, MX_PRESSURED, MX_R_MEM, MX_REC_COUNT, MX_REC_OWNER, MX_RECS, MX_RES_HEAD,
  MX_BASE, MX_USAGE, MX_TASKS, R_KILLED, STREAM_BYTES, TT_BYTES,
} from "./layout";
import { addf, addxf, da, dc, dx, E, getf, setxi, xf, xi, xp, zoneOf } from "./state";
import { post } from "./events";
import { releaseAtoms } from "./queue";
import { retire } from "./ends";
import { touch } from "./zone";
import { fault } from "./fault";

export { kib } from "../memory";

/** Node n's use now, KiB. */
// @ts-ignore: decorator
@inline export function use(n: i32): f64 { return load<f64>(xp(MX_USAGE) + (<usize>n << 3)); }

/** Zone z's stream for the memory model's draws (overclaim, the random OOM victim). */
// @ts-ignore: decorator
@inline export function memStream(z: i32): usize { return xp(MX_R_MEM) + <usize>z * STREAM_BYTES; }

/** Task t's record in the task table (the host's task ids). */
// @ts-ignore: decorator
@inline export function taskRec(t: i32): usize { return xp(MX_TASKS) + <usize>t * TT_BYTES; }

/** The pick arrays (a node's candidates for suspension, resume or the kernel). */
// @ts-ignore: decorator
@inline export function pickId(i: i32): i32 { return load<i32>(xp(MX_PICK_IDS) + (<usize>i << 2)); }
// @ts-ignore: decorator
@inline export function pickA(i: i32): f64 { return load<f64>(xp(MX_PICK_A) + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function pickB(i: i32): f64 { return load<f64>(xp(MX_PICK_B) + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function pickK(i: i32): f64 { return load<f64>(xp(MX_PICK_K) + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function setPick(i: i32, id: i32, a: f64, b: f64, k: f64): void {
  store<i32>(xp(MX_PICK_IDS) + (<usize>i << 2), id);
  store<f64>(xp(MX_PICK_A) + (<usize>i << 3), a);
  store<f64>(xp(MX_PICK_B) + (<usize>i << 3), b);
  store<f64>(xp(MX_PICK_K) + (<usize>i << 3), k);
}

/** DA d's task's key (its identity: arrival order), as the model's number. */
// @ts-ignore: decorator
@inline export function keyOf(d: i32): f64 { return <f64>load<u32>(dc(d) + DA_KEY); }

// ---- the memory field (memory.ts's MemoryField)

// @ts-ignore: decorator
@inline function recAt(i: i32): usize { return xp(MX_RECS) + <usize>i * MEM_REC_BYTES; }

/** DA d's record field k (2 target, 3 drift, 4 resident), GiB. */
// @ts-ignore: decorator
@inline export function recField(d: i32, k: i32): f64 { return load<f64>(recAt(load<i32>(dx(d) + DX_REC)) + (<usize>k << 3)); }

function memAdd(d: i32, n: i32, declared: f64, target: f64, drift: f64, key: f64): void {
  const i = xi(MX_REC_COUNT);
  setxi(MX_REC_COUNT, i + 1);
  const p = recAt(i);
  store<f64>(p, <f64>n); store<f64>(p, declared, 8); store<f64>(p, target, 16); store<f64>(p, drift, 24); store<f64>(p, drift, 32);
  store<f64>(p, key, 40);
  store<i32>(xp(MX_REC_OWNER) + (<usize>i << 2), d);
  store<i32>(dx(d) + DX_REC, i);
  const u = xp(MX_USAGE) + (<usize>n << 3);
  store<f64>(u, load<f64>(u) + kib(drift));
}

function memRemove(d: i32): void {
  const i = load<i32>(dx(d) + DX_REC);
  if (i < 0) { fault(-4000); return; }
  const p = recAt(i), u = xp(MX_USAGE) + (<usize><i32>load<f64>(p) << 3);
  store<f64>(u, load<f64>(u) - kib(load<f64>(p, 32)));
  const last = xi(MX_REC_COUNT) - 1;
  setxi(MX_REC_COUNT, last);
  if (i != last) {
    const q = recAt(last);
    for (let o: usize = 0; o < <usize>MEM_REC_BYTES; o += 8) store<f64>(p + o, load<f64>(q + o));
    const lo = load<i32>(xp(MX_REC_OWNER) + (<usize>last << 2));
    store<i32>(xp(MX_REC_OWNER) + (<usize>i << 2), lo);
    store<i32>(dx(lo) + DX_REC, i);
  }
  store<i32>(dx(d) + DX_REC, -1);
}

/** A suspended image of `gib` GiB stays on node n (memory outside records); a negative size takes it off. */
export function shiftImage(n: i32, gib: f64, sign: f64): void {
  const k = sign * kib(gib), b = xp(MX_BASE) + (<usize>n << 3), u = xp(MX_USAGE) + (<usize>n << 3);
  store<f64>(b, load<f64>(b) + k);
  store<f64>(u, load<f64>(u) + k);
}

// ---- execution epochs

/** DA d's task runs on node n for `dur` ns from now, with memory (declared, true footprint, drift state) in GiB. */
export function execute(d: i32, n: i32, dur: f64, declared: f64, target: f64, drift: f64): void {
  const x = dx(d);
  store<f64>(x + DX_EPOCH_END, load<f64>(E) + dur);
  store<f64>(x + DX_DONE_SEQ, getf(F_SEQ));
  post(dur, K_COMPLETE, d);
  memAdd(d, n, declared, target, drift, keyOf(d));
  link(xp(MX_RES_HEAD), n, d);
  updatePressure(n);
}

/** DA d's task stops running on node n (completes, is killed or suspended): its memory leaves the node. */
export function stopExecution(d: i32, n: i32): void {
  memRemove(d);
  unlink(xp(MX_RES_HEAD), n, d);
}

/** DA d at the head of node n's list in `head` (residents or ledger). */
export function link(head: usize, n: i32, d: i32): void {
  const hp = head + (<usize>n << 2), h = load<i32>(hp), x = dx(d);
  store<i32>(x + DX_PREV, -1);
  store<i32>(x + DX_NEXT, h);
  if (h >= 0) store<i32>(dx(h) + DX_PREV, d);
  store<i32>(hp, d);
}

export function unlink(head: usize, n: i32, d: i32): void {
  const x = dx(d), p = load<i32>(x + DX_PREV), nx = load<i32>(x + DX_NEXT);
  if (p >= 0) store<i32>(dx(p) + DX_NEXT, nx);
  else store<i32>(head + (<usize>n << 2), nx);
  if (nx >= 0) store<i32>(dx(nx) + DX_PREV, p);
}

/** Keep node n's pressure flag (use above the high watermark) current; reports due before a change go out first. */
export function updatePressure(n: i32): void {
  if (xi(MX_AIRLOCK) == 0) return;
  const p: u8 = use(n) > xf(MX_HIGH) ? 1 : 0, at = xp(MX_PRESSURED) + <usize>n;
  if (p == load<u8>(at)) return;
  touch(n);
  store<u8>(at, p);
}


/** Gather node n's running residents into the pick arrays (ids, E_v,init, resident GiB, key); returns how many. */
export function gatherRunning(n: i32): i32 {
  let k = 0;
  for (let d = load<i32>(xp(MX_RES_HEAD) + (<usize>n << 2)); d >= 0; d = load<i32>(dx(d) + DX_NEXT)) {
    setPick(k, d, load<f64>(da(d) + DA_EV), recField(d, 4), keyOf(d));
    k++;
  }
  return k;
}

/** The kernel OOM rule "largest": the index in [0, k) of the largest resident footprint (earliest arrival among equals). */
function largestResident(k: i32): i32 {
  let best = -1;
  for (let i = 0; i < k; i++) {
    if (best < 0 || pickB(i) > pickB(best) || (pickB(i) == pickB(best) && pickK(i) < pickK(best))) best = i;
  }
  return best;
}

/** The kernel OOM rule: while node n's use exceeds its capacity, kill a running task (the largest, or a random one). */
export function oom(n: i32): void {
  while (use(n) > xf(MX_CAP)) {
    const k = gatherRunning(n);
    if (k == 0) return;
    const i = xi(MX_OOM_LARGEST) != 0 ? largestResident(k) : <i32>streamInt(memStream(zoneOf(n)), <f64>k);
    kill(pickId(i), n);
  }
  updatePressure(n);
}

function kill(d: i32, n: i32): void {
  store<f64>(dx(d) + DX_DONE_SEQ, -1);
  stopExecution(d, n);
  releaseAtoms(d, n);
  addf(F_RUNNING, -1);
  if (load<u8>(da(d) + DA_CLS) == CLASS_F) addxf(MX_OOM_F, 1);
  else addxf(MX_OOM_L, 1);
  retire(d, R_KILLED);
}

/** Running DA d's memory record fields: true footprint, drift (GiB). */
export function targetOf(d: i32): f64 { return recField(d, 2); }
export function driftOf(d: i32): f64 { return recField(d, 3); }
