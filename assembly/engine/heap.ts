// The engine's pending events: a 4-ary min-heap of (time, seq, kind,
// subject) records in the host's region, ordered by (time, seq) with seq
// the block's counter of scheduled events, so simultaneous events run in
// the order they were scheduled (as the TypeScript engine runs them:
// src/sim/engine.ts), whoever scheduled them, the engine or the host.
import { EV_BYTES, F_HEAP, F_HEAP_SIZE, F_NOW, F_SEQ } from "./layout";
import { E, getf, geti, ptr, seti, setf } from "./state";

// @ts-ignore: decorator
@inline function at(h: usize, i: i32): usize { return h + <usize>i * EV_BYTES; }

// @ts-ignore: decorator
@inline function less(h: usize, a: i32, b: i32): bool {
  const ta = load<f64>(at(h, a)), tb = load<f64>(at(h, b));
  return ta < tb || (ta == tb && load<f64>(at(h, a), 8) < load<f64>(at(h, b), 8));
}

/** Schedule (kind, subject) at absolute time `time`; the caller has checked the heap's room. */
export function push(time: f64, kind: i32, subject: i32): void {
  const h = ptr(F_HEAP);
  let i = geti(F_HEAP_SIZE);
  seti(F_HEAP_SIZE, i + 1);
  const seq = getf(F_SEQ);
  setf(F_SEQ, seq + 1);
  // sift up with a hole
  while (i > 0) {
    const p = (i - 1) >> 2, pp = at(h, p);
    const tp = load<f64>(pp);
    if (tp < time || (tp == time && load<f64>(pp, 8) < seq)) break;
    memory.copy(at(h, i), pp, EV_BYTES);
    i = p;
  }
  const q = at(h, i);
  store<f64>(q, time);
  store<f64>(q, seq, 8);
  store<i32>(q, kind, 16);
  store<i32>(q, subject, 20);
}

/** Schedule `delay` ns from now. */
// @ts-ignore: decorator
@inline export function post(delay: f64, kind: i32, subject: i32): void {
  push(load<f64>(E) + delay, kind, subject);
}

/** Time of the earliest event (Infinity when none). */
export function topTime(): f64 {
  return geti(F_HEAP_SIZE) > 0 ? load<f64>(ptr(F_HEAP)) : Infinity;
}

export let popKind: i32 = 0, popSubject: i32 = 0;

/** Remove the earliest event: the clock moves to its time; its kind and subject in popKind, popSubject. */
export function pop(): void {
  const h = ptr(F_HEAP);
  setf(F_NOW, load<f64>(h));
  popKind = load<i32>(h, 16);
  popSubject = load<i32>(h, 20);
  const n = geti(F_HEAP_SIZE) - 1;
  seti(F_HEAP_SIZE, n);
  if (n == 0) return;
  // sift the last record down from the root
  const last = at(h, n);
  const lt = load<f64>(last), ls = load<f64>(last, 8);
  let i = 0;
  for (;;) {
    const c0 = (i << 2) + 1;
    if (c0 >= n) break;
    let c = c0;
    const cEnd = min(c0 + 4, n);
    for (let j = c0 + 1; j < cEnd; j++) if (less(h, j, c)) c = j;
    const pc = at(h, c), tc = load<f64>(pc);
    if (lt < tc || (lt == tc && ls < load<f64>(pc, 8))) break;
    memory.copy(at(h, i), pc, EV_BYTES);
    i = c;
  }
  if (i != n) memory.copy(at(h, i), last, EV_BYTES);
}
