// The lagged replay of the gateway's log (docs/parallel.md, "The Zones a
// half behind"). A Zone partition that runs no gateway replays the
// gateway's events some time after it has run past them: what such an event
// posts must still take its place among simultaneous events as in the one
// run, just after the Zone events that ran before it. So in lag mode the
// engine's own sequence numbers go in steps of F_SEQ_STEP (leaving room for
// the gateway's posts in between), and the engine keeps a history of its
// counter: after every event that posted something, and after the host's
// posts between events, a record (time, sequence number, counter after).
// engineSeqAt (lag.ts, with the other exports) reads the counter at any
// point of the run the history still holds; the host posts the gateway's
// events there with enginePostAt and engineEmitAt, and trims the history
// behind it.
import { F_HIST, F_HIST_CAP, F_HIST_HEAD, F_HIST_N, F_SEQ, F_SEQ_STEP, HIST_REC } from "./layout";
import { getf, geti, ptr, seti } from "./state";

/** Whether the engine keeps a history (lag mode). */
// @ts-ignore: decorator
@inline export function histOn(): bool { return getf(F_SEQ_STEP) != 1; }

// @ts-ignore: decorator
@inline export function recAt(i: i32): usize { return ptr(F_HIST) + <usize>i * HIST_REC; }

/** Records the history needs room for before one more (0: none, it has room or made it by dropping trimmed records). */
export function histNeed(): i32 {
  if (!histOn()) return 0;
  const n = geti(F_HIST_N), cap = geti(F_HIST_CAP);
  if (n < cap) return 0;
  const head = geti(F_HIST_HEAD);
  if (head > 0) {
    memory.copy(recAt(0), recAt(head), <usize>(n - head) * HIST_REC);
    seti(F_HIST_N, n - head);
    seti(F_HIST_HEAD, 0);
    return 0;
  }
  return n + 1;
}

/** After an event at (time, seq) that posted, or the host's posts at `time` (seq -Infinity: before the events at that time): the counter now (room checked by histNeed). */
export function histRecord(time: f64, seq: f64): void {
  const n = geti(F_HIST_N), r = recAt(n);
  store<f64>(r, time);
  store<f64>(r, seq, 8);
  store<f64>(r, getf(F_SEQ), 16);
  seti(F_HIST_N, n + 1);
}

/** Move the history's live records to a new region of `cap` records at p. */
export function histMove(p: usize, cap: i32): void {
  const head = geti(F_HIST_HEAD), n = geti(F_HIST_N);
  if (n > head) memory.copy(p, recAt(head), <usize>(n - head) * HIST_REC);
  seti(F_HIST, <i32>p);
  seti(F_HIST_CAP, cap);
  seti(F_HIST_HEAD, 0);
  seti(F_HIST_N, n - head);
}
