// Two-phase reservations (src/laminar/reservations.ts is the twin): a
// winner's atoms are held under a TTL on its node's timing wheel (one per
// own node; a reservation's id is its first atom) until the payload pull
// completes (disarm) or the TTL passes (expire: the atoms go back, the
// deposit is forfeited).
import { wheelAdvance, wheelCancel, wheelNextDeadline, wheelSchedule } from "../wheel";
import {
  DA_DEPOSIT, DA_FIRST_ATOM, DA_FLAGS, DA_STATE, D_EXPIRED, D_SQUATTING, F_FORFEIT, F_N0, F_RES_EXPIRED, F_SQUATTING, F_TTL,
  F_WHEEL_BYTES, F_WHEEL_CHECK, F_WHEEL_OUT, F_WHEEL_OWNER, F_WHEELS, FLAG_PULL, K_WHEEL, US,
} from "./layout";
import { addf, ATOMS, da, dc, E, f64At, geti, getf, mask, ptr, ROW_BYTES, setF64At, zoneOf } from "./state";
import { post } from "./events";
import { releaseAtoms } from "./queue";
import { daEnd } from "./ends";
import { touch } from "./zone";
import { fault } from "./fault";

const END_EXPIRED = 6, CAUSE_EXPIRED = 5;

// @ts-ignore: decorator
@inline function wheel(n: i32): usize { return ptr(F_WHEELS) + <usize>(n - geti(F_N0)) * <usize>geti(F_WHEEL_BYTES); }
// @ts-ignore: decorator
@inline function ownerAt(o: i32, id: i32): usize { return ptr(F_WHEEL_OWNER) + ((<usize>o * <usize>ATOMS + <usize>id) << 2); }

export function armTtl(d: i32, n: i32): void {
  const first = firstAtom(d);
  store<i32>(dc(d) + DA_FIRST_ATOM, first);
  const now = load<f64>(E);
  const deadlineTick = Math.ceil((now + getf(F_TTL)) / US);
  const r = wheelSchedule(wheel(n), first, deadlineTick);
  if (r != 0) { fault(r); return; }
  const o = n - geti(F_N0);
  store<i32>(ownerAt(o, first), d);
  const at = deadlineTick * US;
  if (at < f64At(F_WHEEL_CHECK, o)) {
    setF64At(F_WHEEL_CHECK, o, at);
    post(at - now, K_WHEEL, n);
  }
}

/** Lowest atom of DA d's mask. */
function firstAtom(d: i32): i32 {
  const p = mask(d), words = ROW_BYTES >> 2;
  for (let w = 0; w < words; w++) {
    const x = load<u32>(p + (<usize>w << 2));
    if (x != 0) return 32 * w + <i32>ctz(x);
  }
  fault(-2000);
  return 0;
}

export function disarmTtl(d: i32, n: i32): void {
  const first = load<i32>(dc(d) + DA_FIRST_ATOM);
  const r = wheelCancel(wheel(n), first);
  if (r != 1) { fault(r == 0 ? -2001 : r); return; }
  store<i32>(ownerAt(n - geti(F_N0), first), -1);
}

/** Node n's wheel check: expire every reservation whose TTL has passed, then re-arm for the next. */
export function wheelFire(n: i32): void {
  const now = load<f64>(E), w = wheel(n), o = n - geti(F_N0), out = ptr(F_WHEEL_OUT);
  if (f64At(F_WHEEL_CHECK, o) != now) return; // superseded
  setF64At(F_WHEEL_CHECK, o, Infinity);
  touch(n);
  const tick = Math.floor(now / US);
  for (;;) {
    const got = wheelAdvance(w, tick, out, ATOMS);
    if (got < 0) { fault(got); return; }
    for (let i = 0; i < got; i++) {
      const id = load<i32>(out + (<usize>i << 2));
      const d = load<i32>(ownerAt(o, id));
      store<i32>(ownerAt(o, id), -1);
      expire(d, n);
    }
    if (got < ATOMS) break;
  }
  const next = wheelNextDeadline(w);
  if (next != Infinity) {
    const at = next * US;
    setF64At(F_WHEEL_CHECK, o, at);
    post(at - now, K_WHEEL, n);
  }
}

/** TTL expiry: the atoms return to the bitmap and the deposit is forfeited. */
function expire(d: i32, n: i32): void {
  const r = da(d);
  addf(F_RES_EXPIRED, 1);
  const fz = ptr(F_FORFEIT) + (<usize>zoneOf(n) << 3);
  store<f64>(fz, load<f64>(fz) + load<f64>(dc(d) + DA_DEPOSIT));
  store<f64>(dc(d) + DA_DEPOSIT, 0);
  releaseAtoms(d, n);
  if (load<u8>(r + DA_STATE) == D_SQUATTING) addf(F_SQUATTING, -1);
  if ((load<u8>(r + DA_FLAGS) & FLAG_PULL) != 0) {
    store<u8>(r + DA_STATE, D_EXPIRED); // the pull still in flight finds the reservation gone
    return;
  }
  daEnd(d, END_EXPIRED, CAUSE_EXPIRED);
}
