// A DA at a node (src/laminar/addressing.ts and pull.ts are the twins):
// addressing (lifetime, patience, payment, the probe action on the node's
// replica, the move to the chosen node's queue), the bounce, and the pull,
// start and completion of a winner.
import { probeCore } from "../probe-core";
import { utility } from "../score";
import { streamExp, streamFloat, streamInt } from "../stream";
import { C_ATOMS, C_DEGRADE_AGE, C_GAMMA, P_SIGMA } from "../blocks";
import { ENGINE_ZIG, PROBE_CAND, PROBE_NOISE, PROBE_SEEN } from "./scratch";
import { E_DEFER, E_NOFIT } from "../abi";
import {
  DA_ARRIVAL, DA_CLS, DA_DEPOSIT, DA_EMITTED, DA_FLAGS, DA_M, DA_NODE, DA_PATIENCE, DA_SERVICE, DA_STATE, DA_TASK, DA_VERDICT,
  CLASS_F, D_EXPIRED, D_MOVING, D_RESIDENT, F_ACTION_COST, F_BOUNCE_COST, F_BOUNCES, F_CANDIDATES, F_COMPLETED, F_DEADLINE,
  F_HOP, F_LOSS, F_OS_JITTER_MS, F_PACKETS_LOST, F_PATIENCE_FLOOR, F_PROBE, F_PROBE_ACTIONS, F_R_ZONE, F_REDIRECT_COST,
  F_RESERVE, F_RUNNING, F_SCORE_OPS, F_SILENCE, FLAG_PULL, FLAG_SECONDARY, K_ADDRESS, K_COMPLETE, NS_PER_MS,
  STREAM_BYTES, V_DUP, V_NONE, V_START, F_ACCEPT_PROJECTED, DX_DECLARED, MX_OVERCLAIM_MAX, MX_OVERCLAIM_PROB,
  TT_AWAITING,
} from "./layout";
import { addf, da, dc, dx, E, getf, geti, jsRound, MX, offset, ptr, xf, zoneOf } from "./state";
import { post } from "./events";
import { enqueue, releaseAtoms } from "./queue";
import { disarmTtl } from "./reserve";
import { daEnd, retire } from "./ends";
import { netStream, nodeRecBytes, replicaAt } from "./zone";
import { REC_DH, REC_DS, REC_FREE, REC_H, REC_RUN, REC_S, REC_STAMP } from "../choose";
import { streamNormalFinish } from "../stream";
import { fault } from "./fault";
import { execute, memStream, stopExecution, taskRec, updatePressure } from "./runtime";
import { secondaryLanded } from "./landing";

const END_FASTFAIL = 0, END_LOST = 1, END_SILENCE = 2, END_DEADLINE = 3, END_DUPLICATE = 4, END_LATE = 5, END_EXPIRED = 6;
const CAUSE_DEADLINE = 0, CAUSE_FASTFAIL = 1, CAUSE_LOST = 2, CAUSE_SILENCE = 3, CAUSE_EXPIRED = 5;

/** Zone z's stream for the DAs' choices. */
// @ts-ignore: decorator
@inline export function zoneStream(z: i32): usize { return ptr(F_R_ZONE) + <usize>z * STREAM_BYTES; }

/**
 * A first-admission DA is overdue at its task's start deadline; a secondary
 * probe once its suspended task is gone (landed by another probe, resumed in
 * place or reclaimed: the gateway side's word, in the task table).
 */
// @ts-ignore: decorator
@inline export function overdue(r: usize, now: f64): bool {
  if ((load<u8>(r + DA_FLAGS) & FLAG_SECONDARY) != 0) return load<i32>(taskRec(load<i32>(r + DA_TASK)) + TT_AWAITING) == 0;
  return now >= load<f64>(r + DA_ARRIVAL) + getf(F_DEADLINE);
}

/** The DA is at its node: check lifetime and patience, pay, sample, score, and move. */
export function address(d: i32): void {
  const r = da(d), now = load<f64>(E);
  const n = load<i32>(r + DA_NODE), z = zoneOf(n);
  if (now - load<f64>(r + DA_EMITTED) > getf(F_SILENCE)) { daEnd(d, END_SILENCE, CAUSE_SILENCE); return; }
  if (overdue(r, now)) { daEnd(d, (load<u8>(r + DA_FLAGS) & FLAG_SECONDARY) != 0 ? END_LATE : END_DEADLINE, CAUSE_DEADLINE); return; }
  if (load<f64>(r + DA_PATIENCE) < getf(F_PATIENCE_FLOOR)) { daEnd(d, END_FASTFAIL, CAUSE_FASTFAIL); return; }
  store<f64>(r + DA_PATIENCE, load<f64>(r + DA_PATIENCE) - getf(F_ACTION_COST));
  addf(F_PROBE_ACTIONS, 1);
  addf(F_SCORE_OPS, 1);
  const off = offset(z), nz = offset(z + 1) - off;
  const best = chooseTarget(n, z, nz, load<i32>(r + DA_M), load<u8>(r + DA_CLS) != CLASS_F ? 1 : 0);
  if (best == -2) return; // a fault
  if (best < 0) { bounce(d, z, 0); return; }
  const target = off + best;
  if (target == n) { enqueue(d, n, now); return; }
  const loss = getf(F_LOSS);
  if (loss > 0 && streamFloat(netStream(z)) < loss) {
    addf(F_PACKETS_LOST, 1);
    daEnd(d, END_LOST, CAUSE_LOST);
    return;
  }
  store<f64>(r + DA_PATIENCE, load<f64>(r + DA_PATIENCE) - getf(F_REDIRECT_COST));
  const jm = getf(F_OS_JITTER_MS);
  const jitter = jm > 0 ? jsRound(streamExp(zoneStream(z), jm) * NS_PER_MS) : 0;
  enqueue(d, target, now + getf(F_HOP) + jitter);
}

/** The probe action on node n's replica (probeCandidates); the chosen node's index in the Zone, -1 when none, -2 on a fault. */
function chooseTarget(n: i32, z: i32, nz: i32, m: i32, contiguous: i32): i32 {
  const now = load<f64>(E);
  const zt = replicaAt(n, z, now);
  if (zt == 0) return -1;
  const k = min(<i32>getf(F_CANDIDATES), nz);
  const b = ptr(F_PROBE), rng = zoneStream(z);
  // the scratch and tables at fixed addresses (scratch.ts), constants in the loops
  const cand = PROBE_CAND, noise = PROBE_NOISE, sigma = load<f64>(b + P_SIGMA);
  const zig = ENGINE_ZIG, seen = PROBE_SEEN, atoms = load<i32>(b + C_ATOMS);
  const gamma = load<f32>(b + C_GAMMA), degradeAge = load<f32>(b + C_DEGRADE_AGE), nowMs = <f32>(now / NS_PER_MS);
  const rec = nodeRecBytes();
  const projected = geti(F_ACCEPT_PROJECTED) != 0;
  // one call site (probeCore is inlined), called again from the next candidate after each deferred draw; the
  // replica holds a record per node (choose.ts REC_*)
  let res: i32, start = 0;
  for (;;) {
    res = probeCore(zt, nz, 0, atoms, cand, k, nowMs, m, contiguous, gamma, degradeAge, noise, sigma, rng, zig, seen, start, !projected, true, true, rec);
    if (res != E_DEFER) break;
    // a normal draw off the ziggurat's fast path: finished here, from the word the probe stopped at
    const i = load<i32>(rng, 16);
    store<f32>(noise + (<usize>i << 2), <f32>(sigma * streamNormalFinish(rng, zig, load<i32>(rng, 20))));
    start = i + 1;
  }
  if (projected && res >= 0) res = scoreProjected(zt, rec, k, now / NS_PER_MS, m, contiguous, cand, noise, <f32>gamma);
  if (res == E_NOFIT) return -1;
  if (res < 0) { fault(res); return -2; }
  return load<i32>(cand + (<usize>res << 2));
}

/**
 * The artifact's wider acceptance (da.acceptProjected; addressing.ts
 * scoreProjected is the twin): a candidate is placable when its projected
 * Slack covers the demand, or else its replica row fits it; the same
 * utility and noise choose. The index into cand of the best, or E_NOFIT.
 */
function scoreProjected(zt: usize, rec: usize, k: i32, nowMs: f64, m: i32, contiguous: i32, cand: usize, noise: usize, gamma: f32): i32 {
  let best = -Infinity, bi = -1;
  for (let i = 0; i < k; i++) {
    const f = zt + <usize>load<i32>(cand + (<usize>i << 2)) * rec;
    const age = Math.max(0, nowMs - <f64>load<f32>(f + REC_STAMP));
    if (age > 1e20) continue; // DEGRADE_AGE: a missing row
    const sp = Math.max(0, <f64>load<f32>(f + REC_S) + age * <f64>load<f32>(f + REC_DS));
    const hp = Math.max(0, <f64>load<f32>(f + REC_H) + age * <f64>load<f32>(f + REC_DH));
    // else its replica row fits the demand (the record's summary of it, choose.ts rowStats)
    const ok = sp >= <f64>m || load<i32>(f + (contiguous != 0 ? REC_RUN : REC_FREE)) >= m;
    if (!ok) continue;
    const u = <f64>utility(<f32>sp, <f32>hp, gamma) + <f64>load<f32>(noise + (<usize>i << 2));
    if (bi < 0 || u > best) { best = u; bi = i; }
  }
  return bi < 0 ? E_NOFIT : bi;
}

/** Bounce: pay, and go to a uniformly random node of the same Zone (one lossy hop), to address again. */
// @ts-ignore: decorator
@inline export function bounce(d: i32, z: i32, extraNs: f64): void {
  const r = da(d);
  addf(F_BOUNCES, 1);
  store<f64>(r + DA_PATIENCE, load<f64>(r + DA_PATIENCE) - getf(F_BOUNCE_COST));
  store<u8>(r + DA_STATE, D_MOVING);
  const off = offset(z);
  const node = off + <i32>streamInt(zoneStream(z), <f64>(offset(z + 1) - off));
  const loss = getf(F_LOSS);
  if (loss > 0 && streamFloat(netStream(z)) < loss) {
    addf(F_PACKETS_LOST, 1);
    daEnd(d, END_LOST, CAUSE_LOST);
    return;
  }
  store<i32>(r + DA_NODE, node);
  post(getf(F_HOP) + extraNs, K_ADDRESS, d);
}

/** The payload pull completes with the proxy's answer. */
// @ts-ignore: decorator
@inline export function pulled(d: i32): void {
  const r = da(d);
  store<u8>(r + DA_FLAGS, load<u8>(r + DA_FLAGS) & ~FLAG_PULL);
  const n = load<i32>(r + DA_NODE), verdict = load<u8>(r + DA_VERDICT);
  if (load<u8>(r + DA_STATE) == D_EXPIRED) {
    if (verdict != V_NONE) { fault(-3000); return; }
    daEnd(d, END_EXPIRED, CAUSE_EXPIRED);
    return;
  }
  if (verdict == V_NONE) { fault(-3001); return; }
  if (getf(F_RESERVE) != 0) disarmTtl(d, n);
  if ((load<u8>(r + DA_FLAGS) & FLAG_SECONDARY) != 0) { secondaryLanded(d, n); return; }
  if (verdict != V_START) {
    releaseAtoms(d, n);
    daEnd(d, verdict == V_DUP ? END_DUPLICATE : END_LATE, CAUSE_DEADLINE);
    return;
  }
  const c = dc(d);
  store<f64>(r + DA_PATIENCE, load<f64>(r + DA_PATIENCE) + load<f64>(c + DA_DEPOSIT));
  store<f64>(c + DA_DEPOSIT, 0);
  store<u8>(r + DA_STATE, D_RESIDENT);
  addf(F_RUNNING, 1);
  if (MX == 0) {
    post(load<f64>(c + DA_SERVICE), K_COMPLETE, d);
    return;
  }
  // the memory model: the task's true footprint may exceed its declaration; its execution epoch opens
  const declared = load<f64>(dx(d) + DX_DECLARED), rz = memStream(zoneOf(n));
  const target = streamFloat(rz) < xf(MX_OVERCLAIM_PROB) ? declared * (1 + streamFloat(rz) * xf(MX_OVERCLAIM_MAX)) : declared;
  execute(d, n, load<f64>(c + DA_SERVICE), declared, target, declared);
}

/** The task completes: atoms released, the resident DA retired with it. */
export function complete(d: i32): void {
  const n = load<i32>(da(d) + DA_NODE);
  if (MX != 0) {
    stopExecution(d, n);
    updatePressure(n);
  }
  releaseAtoms(d, n);
  addf(F_COMPLETED, 1);
  addf(F_RUNNING, -1);
  retire(d, 0);
}
