// A DA's emission from the gateway side into the engine (engineEmit,
// engineEmitAt, engineDispatch): the records' checks and the room they need,
// then a DA slot each, addressing its launchpad.
import { checkBuf, E_ARG, E_COUNT, E_ID, E_K, OK } from "../abi";
import {
  DA_ARRIVAL, DA_CLS, DA_DEPOSIT, DA_EMITTED, DA_EV, DA_FLAGS, DA_KEY, DA_M, DA_NODE, DA_PATIENCE, DA_SERVICE, DA_STATE, DA_TASK,
  DA_VERDICT, D_MOVING, DX_DECLARED, DX_DONE_SEQ, DX_REC, DX_TIMER_SEQ, EM_ARRIVAL, EM_BUDGET, EM_CLS, EM_DECLARED, EM_EMITTED,
  EM_EV, EM_FLAGS, EM_KEY, EM_M, EM_NODE, EM_SERVICE, EM_TASK, EMIT_BYTES, EMIT_MEM_BYTES, F_ATOMS, F_DA_CAP, F_DA_LIVE,
  F_HEAP_CAP, F_HEAP_SIZE, F_N0, F_N1, FLAG_SECONDARY, K_ADDRESS, MX_TASK_CAP, ROOM_HEAP, ROOM_TASKS,
} from "./layout";
import { da, dc, dx, geti, MX, room, xi } from "./state";
import { push, pushSeq } from "./events";
import { allocDa } from "./ends";

/**
 * engineEmit's checks of n records at src, and the room they need: 0, or a
 * code (nothing taken). `nodes`: check each record's launchpad too (false:
 * engineDispatch, which draws them). `take`: check the room their taking
 * needs too (false: engineDispatchAll, which takes none).
 */
// @ts-ignore: decorator
@inline export function emitCheck(src: usize, n: i32, nodes: bool, take: bool = true): i32 {
  if (n < 0) return E_COUNT;
  const stride = <usize>(MX != 0 ? EMIT_MEM_BYTES : EMIT_BYTES);
  const e = checkBuf(src, <i64>n * stride, 1, 8); if (e != OK) return e;
  // every emission is checked before any is taken: a node of this engine's, a demand that fits a row, a task id
  const n0 = geti(F_N0), n1 = geti(F_N1), atoms = geti(F_ATOMS);
  let maxTask = -1;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * stride, node = load<i32>(r + EM_NODE), m = load<i32>(r + EM_M), cls = load<i32>(r + EM_CLS);
    const task = load<i32>(r + EM_TASK), flags = load<i32>(r + EM_FLAGS);
    if ((nodes && (node < n0 || node >= n1)) || task < 0) return E_ID;
    if (m < 1 || m > atoms) return E_K;
    // a secondary probe (a reactivated suspended task's) only with the memory model, whose Airlock sends them
    if (cls < 0 || cls > 2 || !(flags == 0 || (MX != 0 && flags == FLAG_SECONDARY)) || isNaN(load<f64>(r + EM_EV)) || isNaN(load<f64>(r + EM_BUDGET)) || !(load<f64>(r + EM_SERVICE) >= 0)) return E_ARG;
    if (MX != 0 && !(load<f64>(r + EM_DECLARED) >= 0 && load<f64>(r + EM_DECLARED) < Infinity)) return E_ARG;
    if (task > maxTask) maxTask = task;
  }
  if (!take) return 0;
  if (geti(F_DA_LIVE) + n > geti(F_DA_CAP)) return room(0, geti(F_DA_LIVE) + n);
  if (geti(F_HEAP_SIZE) + n > geti(F_HEAP_CAP)) return room(ROOM_HEAP, geti(F_HEAP_SIZE) + n);
  if (MX != 0 && maxTask >= xi(MX_TASK_CAP)) return room(ROOM_TASKS, maxTask + 1);
  return 0;
}

/**
 * Take n checked emissions: a DA each, addressing at `time` with sequence
 * numbers seq0 + i (given) or the engine's next. `skip`: a record whose
 * node is negative takes none (engineDispatch's lost and other Zones' DAs).
 */
// @ts-ignore: decorator
@inline export function emitTake(src: usize, n: i32, time: f64, given: bool, seq0: f64, skip: bool): void {
  const stride = <usize>(MX != 0 ? EMIT_MEM_BYTES : EMIT_BYTES);
  for (let i = 0; i < n; i++) {
    const e = src + <usize>i * stride;
    if (skip && load<i32>(e + EM_NODE) < 0) continue;
    const d = allocDa(), r = da(d);
    store<i32>(r + DA_TASK, load<i32>(e + EM_TASK));
    store<i32>(r + DA_NODE, load<i32>(e + EM_NODE));
    store<u8>(r + DA_CLS, <u8>load<i32>(e + EM_CLS));
    store<i32>(r + DA_M, load<i32>(e + EM_M));
    store<f64>(r + DA_EMITTED, load<f64>(e + EM_EMITTED));
    store<f64>(r + DA_ARRIVAL, load<f64>(e + EM_ARRIVAL));
    store<f64>(r + DA_EV, load<f64>(e + EM_EV));
    store<f64>(r + DA_PATIENCE, load<f64>(e + EM_BUDGET));
    const c = dc(d);
    store<f64>(c + DA_SERVICE, load<f64>(e + EM_SERVICE));
    store<u32>(c + DA_KEY, load<u32>(e + EM_KEY));
    store<u8>(r + DA_FLAGS, <u8>load<i32>(e + EM_FLAGS));
    store<u8>(r + DA_STATE, D_MOVING);
    store<f64>(c + DA_DEPOSIT, 0);
    store<u8>(r + DA_VERDICT, 0);
    if (MX != 0) {
      const x = dx(d);
      store<f64>(x + DX_DECLARED, load<f64>(e + EM_DECLARED));
      store<f64>(x + DX_DONE_SEQ, -1);
      store<f64>(x + DX_TIMER_SEQ, -1);
      store<i32>(x + DX_REC, -1);
    }
    if (given) pushSeq(time, seq0 + <f64>i, K_ADDRESS, d);
    else push(time, K_ADDRESS, d);
  }
}
