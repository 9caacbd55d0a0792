// Two-phase reservation (paper §Node Arbitration, reservation.enabled): a
// winner's atoms are held under a TTL on the node's timing wheel in the core
// (one wheel per own node; a reservation's id is its first atom) until its
// payload pull completes (disarm) or the TTL passes (expire: the atoms go
// back and the deposit is forfeited).
import { CAUSE_EXPIRED, END_EXPIRED } from "../metrics/run-metrics.js";
import { D_EXPIRED, D_SQUATTING } from "./store.js";
import type { ZoneReports } from "./reports.js";
import type { NodeQueues } from "./queue.js";
import { FLAG_PULL, K_WHEEL, US, type LaminarState } from "./state.js";

/** The TTLs of this instance's reservations. */
export class Reservations {
  // one timing wheel per own node (ids = first atom of the reservation, ticks of 1 us), indexed from n0
  private readonly wheels: number;
  private readonly wheelBytes: number;
  /** Per own node and atom: the DA whose reservation has that id (-1: none). */
  private readonly wheelOwner: Int32Array | null;
  /** Per own node: time of its pending wheel check (Infinity: none). */
  private readonly wheelCheck: Float64Array | null;
  /** Core buffer for the ids a wheel check expires. */
  private readonly wheelOut: number;
  /** reservation.enabled: winners hold their atoms under a TTL. */
  readonly enabled: boolean;

  constructor(private readonly s: LaminarState, private readonly reports: ZoneReports, private readonly queues: NodeQueues) {
    this.enabled = s.c.reservation.enabled;
    if (this.enabled) {
      // wheels for this instance's own nodes only (a partition never reserves on another's), indexed from n0
      const A = s.cluster.atoms, own = s.n1 - s.n0;
      this.wheelBytes = s.k.wheelBytes(A);
      this.wheels = s.core.arena.alloc(own * this.wheelBytes, 16);
      for (let i = 0; i < own; i++) {
        const r = s.k.wheelInit(this.wheels + i * this.wheelBytes, A, 0);
        if (r < 0) throw new Error(`reservation: wheelInit failed with status ${r}`);
      }
      this.wheelOwner = new Int32Array(own * A).fill(-1);
      this.wheelCheck = new Float64Array(own).fill(Infinity);
      this.wheelOut = s.core.arena.alloc(4 * A, 16);
    } else {
      this.wheels = 0;
      this.wheelBytes = 0;
      this.wheelOwner = null;
      this.wheelCheck = null;
      this.wheelOut = 0;
    }
  }

  /** Node n's wheel (n one of this instance's nodes). */
  wheel(n: number): number {
    return this.wheels + (n - this.s.n0) * this.wheelBytes;
  }

  armTtl(d: number, n: number): void {
    const first = this.firstAtom(d);
    this.s.das.firstAtom[d] = first;
    const now = this.s.engine.now;
    const deadlineTick = Math.ceil((now + this.s.ttlNs) / US);
    const r = this.s.k.wheelSchedule(this.wheel(n), first, deadlineTick);
    if (r !== 0) throw new Error(`reservation: wheelSchedule on node ${n} returned ${r}`);
    const i = n - this.s.n0;
    this.wheelOwner![i * this.s.cluster.atoms + first] = d;
    const at = deadlineTick * US;
    if (at < this.wheelCheck![i]) {
      this.wheelCheck![i] = at;
      this.s.engine.post(at - now, K_WHEEL, n);
    }
  }

  /** Lowest atom of DA d's mask (its id on the node's wheel: atoms are exclusive, so ids are unique). */
  firstAtom(d: number): number {
    const u32 = this.s.views.u32, base = this.s.mask(d) >> 2, words = this.s.rowBytes / 4;
    for (let w = 0; w < words; w++) {
      const x = u32[base + w];
      if (x !== 0) return 32 * w + (31 - Math.clz32(x & -x));
    }
    throw new Error("reservation: empty mask");
  }

  disarmTtl(d: number, n: number): void {
    const first = this.s.das.firstAtom[d];
    const r = this.s.k.wheelCancel(this.wheel(n), first);
    if (r !== 1) throw new Error(`reservation: wheelCancel on node ${n} returned ${r}`);
    this.wheelOwner![(n - this.s.n0) * this.s.cluster.atoms + first] = -1;
  }

  /** The node's wheel check: expire every reservation whose TTL has passed, then re-arm for the next one. */
  wheelFire(n: number): void {
    const now = this.s.engine.now, w = this.wheel(n), A = this.s.cluster.atoms, o = n - this.s.n0;
    if (this.wheelCheck![o] !== now) return; // superseded
    this.wheelCheck![o] = Infinity;
    this.reports.touch(n);
    const tick = Math.floor(now / US);
    for (;;) {
      const got = this.s.k.wheelAdvance(w, tick, this.wheelOut, A);
      if (got < 0) throw new Error(`reservation: wheelAdvance on node ${n} returned ${got}`);
      const i32 = this.s.views.i32, base = this.wheelOut >> 2;
      for (let i = 0; i < got; i++) {
        const id = i32[base + i];
        const d = this.wheelOwner![o * A + id];
        this.wheelOwner![o * A + id] = -1;
        this.expire(d, n);
      }
      if (got < A) break;
    }
    const next = this.s.k.wheelNextDeadline(w);
    if (next !== Infinity) {
      const at = next * US;
      this.wheelCheck![o] = at;
      this.s.engine.post(at - now, K_WHEEL, n);
    }
  }

  /** TTL expiry: the atoms return to the bitmap and the deposit is forfeited. */
  expire(d: number, n: number): void {
    const D = this.s.das, met = this.s.metrics;
    met.reservationsExpired++;
    this.s.forfeit[this.s.cluster.zoneOf[n]] += D.deposit[d];
    D.deposit[d] = 0;
    this.queues.releaseAtoms(d, n);
    if (D.state[d] === D_SQUATTING) this.s.squatting--;
    if (D.flags[d] & FLAG_PULL) {
      D.state[d] = D_EXPIRED; // the pull still in flight finds the reservation gone
      return;
    }
    this.s.daEnd(d, END_EXPIRED, CAUSE_EXPIRED);
  }
}
