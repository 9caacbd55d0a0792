// The engine's event trace (src/sim/fingerprint.ts is the twin, word for
// word): while it is on, every event the run pops and runs, the engine's
// own and the host's alike (a cancelled one never runs and is not folded),
// is folded in dispatch order into two 32-bit murmur3 lanes, so a host can
// hold the engine's event order to a reference's, or pin it before a
// restructuring. Off by default: the run pays one test per event.
import { E_ARG, OK, checkBuf } from "../abi";
import { F_TRACE_H0, F_TRACE_H1, F_TRACE_N, F_TRACE_ON, TRACE_SEED0, TRACE_SEED1 } from "./layout";
import { addf, forget, getf, geti, leave, setf, seti } from "./state";
import { ready } from "./setup";

// @ts-ignore: decorator
@inline function mix(h: i32, k: i32): i32 {
  k *= 0xcc9e2d51;
  k = rotl<i32>(k, 15);
  k *= 0x1b873593;
  h ^= k;
  h = rotl<i32>(h, 13);
  return h * 5 + 0xe6546b64;
}

/** Whether the trace is on. */
// @ts-ignore: decorator
@inline export function traceOn(): bool { return geti(F_TRACE_ON) != 0; }

/** Fold one event in (time an integer below 2^53). */
export function traceEvent(time: f64, kind: i32, subject: i32): void {
  const t = <i64>time, lo = <i32>t, hi = <i32>(t >> 32);
  seti(F_TRACE_H0, mix(mix(mix(mix(geti(F_TRACE_H0), lo), hi), kind), subject));
  seti(F_TRACE_H1, mix(mix(mix(mix(geti(F_TRACE_H1), subject), kind), hi), lo));
  addf(F_TRACE_N, 1);
}

/** Start the trace afresh (on = 1) or stop it (on = 0; what it folded stays readable). */
export function engineTrace(block: usize, on: i32): i32 {
  const r = engineTraceIn(block, on);
  leave();
  return r;
}

function engineTraceIn(block: usize, on: i32): i32 {
  if (!ready(block) || on < 0 || on > 1) return E_ARG;
  if (on == 1) {
    seti(F_TRACE_H0, TRACE_SEED0);
    seti(F_TRACE_H1, TRACE_SEED1);
    setf(F_TRACE_N, 0);
  }
  seti(F_TRACE_ON, on);
  return OK;
}

/** The trace's state into 16 bytes at `out`: lane 0 and lane 1 (i32), then the events folded in (f64). */
export function engineTraceState(block: usize, out: usize): i32 {
  const r = engineTraceStateIn(block, out);
  forget(); // read only: nothing to copy back
  return r;
}

function engineTraceStateIn(block: usize, out: usize): i32 {
  if (!ready(block)) return E_ARG;
  const e = checkBuf(out, 16, 1, 8); if (e != OK) return e;
  store<i32>(out, geti(F_TRACE_H0));
  store<i32>(out, geti(F_TRACE_H1), 4);
  store<f64>(out, getf(F_TRACE_N), 8);
  return OK;
}
