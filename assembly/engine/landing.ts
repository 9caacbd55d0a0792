// Secondary landing in the engine (src/laminar/landing.ts is the twin;
// docs/airlock.md): a reactivated task's secondary probe that wins atoms
// asks the suspended image's Zone for it (M_LAND_REQ); the first request
// while the ledger entry is still reactivated gets it (the entry leaves its
// ledger, its atoms and image freed), the image arrives a state pull later,
// and the task's new execution epoch opens at the probe's node. A refused
// probe frees its atoms. The host delivers both messages (engineLandRequest,
// engineLandAnswer in run.ts).
import {
  DA_FLAGS, DA_NODE, DA_PATIENCE, DA_STATE, DA_VERDICT, DA_DEPOSIT, D_RESIDENT, DX_DECLARED, DX_DRIFT, DX_REMAINING,
  DX_TARGET, DX_TIMER_SEQ, F_DELTA, F_HOP, F_RESERVE, F_RUNNING, FLAG_PULL, FLAG_REACTIVATED, FLAG_SECONDARY, K_PULL,
  M_LAND_RESP, MX_LANDINGS, MX_STATE_PULL, MX_TASK_CAP, R_CLOSED, TT_ANCHOR, V_START,
} from "./layout";
import { addf, addxf, da, dc, dx, getf, xf, xi, zoneOf } from "./state";
import { post } from "./events";
import { releaseAtoms } from "./queue";
import { disarmTtl } from "./reserve";
import { daEnd, retire } from "./ends";
import { send } from "./outbox";
import { execute, taskRec, updatePressure } from "./runtime";
import { leaveLedger } from "./airlock";

const END_DUPLICATE = 4, END_LATE = 5, CAUSE_DEADLINE = 0;

/** Task t's ledger entry here (a suspended DA), or -1. */
export function anchorOf(t: i32): i32 {
  return t >= 0 && t < xi(MX_TASK_CAP) ? load<i32>(taskRec(t) + TT_ANCHOR) : -1;
}

/**
 * A secondary probe (DA pd in Zone pz) that won atoms asks Zone `home` for
 * task t's suspended image: the first request while the reactivated ledger
 * entry is still there gets it; the entry leaves the ledger (its atoms and
 * image freed) and the answer carries the execution state.
 */
export function landRequest(home: i32, t: i32, pd: f64, pz: f64, computeNs: f64): void {
  const a = anchorOf(t);
  if (a < 0 || (load<u8>(da(a) + DA_FLAGS) & FLAG_REACTIVATED) == 0) {
    send(home, M_LAND_RESP, pz, pd, 0, computeNs, 0, 0, 0);
    return;
  }
  const src = load<i32>(da(a) + DA_NODE), z = zoneOf(src), x = dx(a);
  store<f64>(x + DX_TIMER_SEQ, -1);
  leaveLedger(a, src);
  releaseAtoms(a, src);
  updatePressure(src);
  send(z, M_LAND_RESP, pz, pd, 1, computeNs, load<f64>(x + DX_REMAINING), load<f64>(x + DX_TARGET), load<f64>(x + DX_DRIFT));
  retire(a, R_CLOSED);
}

/**
 * The answer to secondary probe d's state-pull request: the image arrives a
 * state pull later (the pull completes, K_PULL); a refusal frees its atoms
 * now (`started`: whether the task has started, the gateway side's word).
 */
export function landAnswer(d: i32, ok: i32, computeNs: f64, remaining: f64, target: f64, drift: f64, started: bool): void {
  const r = da(d), n = load<i32>(r + DA_NODE);
  if (ok == 1) {
    const x = dx(d);
    store<f64>(x + DX_REMAINING, remaining);
    store<f64>(x + DX_TARGET, target);
    store<f64>(x + DX_DRIFT, drift);
    store<u8>(r + DA_VERDICT, V_START);
    post(xf(MX_STATE_PULL) + getf(F_HOP) - 2 * getf(F_DELTA) + computeNs, K_PULL, d);
    return;
  }
  store<u8>(r + DA_FLAGS, load<u8>(r + DA_FLAGS) & ~FLAG_PULL);
  if (getf(F_RESERVE) != 0) disarmTtl(d, n);
  releaseAtoms(d, n);
  daEnd(d, started ? END_DUPLICATE : END_LATE, CAUSE_DEADLINE);
}

/** A secondary probe's state pull completed at node n: the task's new execution epoch opens here. */
export function secondaryLanded(d: i32, n: i32): void {
  const r = da(d), c = dc(d), x = dx(d);
  store<f64>(r + DA_PATIENCE, load<f64>(r + DA_PATIENCE) + load<f64>(c + DA_DEPOSIT));
  store<f64>(c + DA_DEPOSIT, 0);
  store<u8>(r + DA_STATE, D_RESIDENT);
  store<u8>(r + DA_FLAGS, load<u8>(r + DA_FLAGS) & ~FLAG_SECONDARY);
  addf(F_RUNNING, 1);
  addxf(MX_LANDINGS, 1);
  execute(d, n, load<f64>(x + DX_REMAINING), load<f64>(x + DX_DECLARED), load<f64>(x + DX_TARGET), load<f64>(x + DX_DRIFT));
}
