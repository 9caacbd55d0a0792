// A node's queue (src/laminar/queue.ts is the twin): a DA sent to node n
// joins its list at once with its arrival time; the first arrival after a
// settled window opens the next one. Atoms a winner holds go back here.
import { rowApply } from "../row";
import { DA_ARRIVE, DA_M, DA_NEXT, DA_NODE, DA_STATE, D_QUEUED, F_WINDOW, F_WINDOW_AT, K_ARBITRATE } from "./layout";
import { ATOMS, da, E, f64At, freeOf, getf, mask, Q_HEAD, Q_TAIL, row, setF64At, setFree } from "./state";
import { post } from "./events";
import { touch } from "./zone";
import { fault } from "./fault";

// @ts-ignore: decorator
@inline export function enqueue(d: i32, n: i32, arriveAt: f64): void {
  const r = da(d);
  store<u8>(r + DA_STATE, D_QUEUED);
  store<i32>(r + DA_NODE, n);
  store<f64>(r + DA_ARRIVE, arriveAt);
  store<i32>(r + DA_NEXT, -1);
  const tail = load<i32>(Q_TAIL + (<usize>n << 2));
  if (tail < 0) store<i32>(Q_HEAD + (<usize>n << 2), d);
  else store<i32>(da(tail) + DA_NEXT, d);
  store<i32>(Q_TAIL + (<usize>n << 2), d);
  const close = arriveAt + getf(F_WINDOW);
  if (close < f64At(F_WINDOW_AT, n)) openWindow(n, close);
}

export function openWindow(n: i32, close: f64): void {
  setF64At(F_WINDOW_AT, n, close);
  post(close - load<f64>(E), K_ARBITRATE, n);
}

/** DA d's atoms on node n return to the bitmap (reports due before the change go out first). */
export function releaseAtoms(d: i32, n: i32): void {
  const m = load<i32>(da(d) + DA_M);
  touch(n);
  const r = rowApply(row(n), ATOMS >> 6, mask(d), true);
  if (r < 0) { fault(r); return; }
  setFree(n, freeOf(n) + r);
  if (r != m) fault(-1000 - n);
}
