// A DA's slot and its end: it dies without starting its task (the gateway
// side learns it one delay later, M_DA_END with the cause) or retires after
// its task ran (M_RETIRE, with the memory model only: without it the
// gateway side took the DA over when the proxy started its task and reads
// nothing of it any more, src/laminar/task-table.ts, so nothing is sent).
// Slots are reused last-freed first, as the TypeScript store's
// (src/sim/slot-store.ts).
import { DA_NODE, DA_STATE, DA_TASK, F_DA_ENDS, F_DA_FREE, F_DA_FREE_TOP, F_DA_FRESH, F_DA_LIVE, M_DA_END, M_RETIRE, TO_GATEWAY } from "./layout";
import { addf, da, geti, MX, ptr, seti, zoneOf } from "./state";
import { send } from "./outbox";

/** A slot for a new DA (the host made sure one is free). */
export function allocDa(): i32 {
  const top = geti(F_DA_FREE_TOP);
  let s: i32;
  if (top > 0) {
    s = load<i32>(ptr(F_DA_FREE) + (<usize>(top - 1) << 2));
    seti(F_DA_FREE_TOP, top - 1);
  } else {
    s = geti(F_DA_FRESH);
    seti(F_DA_FRESH, s + 1);
  }
  seti(F_DA_LIVE, geti(F_DA_LIVE) + 1);
  return s;
}

/** DA d ends without starting its task (`end`: END_*, `cause`: CAUSE_* for the gateway side). */
export function daEnd(d: i32, end: i32, cause: i32): void {
  addf(F_DA_ENDS + end, 1);
  release(d, M_DA_END, cause);
}

/** DA d's life ends after its task started; `how`: R_* bits. */
export function retire(d: i32, how: i32): void {
  release(d, M_RETIRE, how, MX != 0);
}

function release(d: i32, kind: i32, arg: i32, tell: bool = true): void {
  const r = da(d), t = load<i32>(r + DA_TASK), z = zoneOf(load<i32>(r + DA_NODE));
  store<u8>(r + DA_STATE, 0);
  const top = geti(F_DA_FREE_TOP);
  store<i32>(ptr(F_DA_FREE) + (<usize>top << 2), d);
  seti(F_DA_FREE_TOP, top + 1);
  seti(F_DA_LIVE, geti(F_DA_LIVE) - 1);
  if (tell) send(z, kind, TO_GATEWAY, <f64>t, <f64>arg, 0, 0, 0, 0);
}
