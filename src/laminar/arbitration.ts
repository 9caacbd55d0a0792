// Windowed arbitration at a node (paper §Node Arbitration): when a node's
// window closes, the DAs that have arrived compete in descending E_v,init on
// the node's real bitmap; a winner takes its atoms (with a deposit and a TTL
// when reservations are on, reservations.ts) and asks the proxy for its
// payload (or, a secondary probe, the suspended image's Zone); a loser
// bounces (addressing.ts). With Airlock, the physical pre-admission check
// drops a probe the node's memory cannot take.
import { CLASS_F, CLASS_SQUATTER } from "../workload/bimodal.js";
import { CAUSE_DEADLINE, CAUSE_PROBE_DROP, CAUSE_SILENCE, END_DEADLINE, END_LATE, END_PROBE_DROP, END_SILENCE } from "../metrics/run-metrics.js";
import { TO_GATEWAY } from "./mailbox.js";
import { D_PENDING, D_SQUATTING } from "./store.js";
import { kib } from "./memory.js";
import { byPriority } from "./decisions.js";
import type { ZoneReports } from "./reports.js";
import type { NodeQueues } from "./queue.js";
import type { Addressing } from "./addressing.js";
import type { Reservations } from "./reservations.js";
import { FLAG_PULL, FLAG_SECONDARY, K_PULL, M_LAND_REQ, M_PULL, US, V_NONE, type LaminarState } from "./state.js";

/** The arbitration of this instance's nodes' windows. */
export class Arbitration {
  /** The DAs competing in the window being settled. */
  private batch = new Int32Array(256);
  /** A copy of the arbitrating node's row as it was when the window closed (in core memory). */
  private readonly row0: number;
  /** Parameters, read once: modelled bitmap time per DA, two-phase reservation and its deposit, Airlock's projected admission check. */
  private readonly bitmapNs: number;
  private readonly reserve: boolean;
  private readonly deposit: number;
  private readonly admitProjected: boolean;

  constructor(private readonly s: LaminarState, private readonly reports: ZoneReports, private readonly queues: NodeQueues, private readonly addressing: Addressing, private readonly reservations: Reservations) {
    this.bitmapNs = s.c.costs.bitmapNs;
    this.reserve = s.c.reservation.enabled;
    this.deposit = s.c.reservation.deposit;
    this.admitProjected = s.c.airlock.admitCheck === "projected";
    this.row0 = s.core.arena.alloc(s.cluster.rowBytes, 16);
  }

  /**
   * Settle node n's window: the DAs that have arrived compete; feasible ones
   * win in descending E_v,init on the real bitmap; losers bounce. DAs still
   * on their way stay queued and open the next window.
   */
  arbitrate(n: number): void {
    const D = this.s.das, T = this.s.tasks, cl = this.s.cluster, now = this.s.engine.now, met = this.s.metrics;
    if (now !== this.queues.windowAt[n]) return; // superseded by an earlier window
    this.queues.windowAt[n] = Infinity;
    this.reports.touch(n);
    this.s.invariants?.queue(n);
    let q = 0, head = -1, tail = -1, nextArrive = Infinity;
    for (let d = this.s.qHead[n]; d >= 0; ) {
      const nx = D.next[d];
      if (D.arrive[d] <= now) {
        if (q === this.batch.length) {
          const b = new Int32Array(q * 2);
          b.set(this.batch);
          this.batch = b;
        }
        this.batch[q++] = d;
      } else {
        // still in flight: stays queued, in order
        if (tail < 0) head = d;
        else D.next[tail] = d;
        tail = d;
        D.next[d] = -1;
        if (D.arrive[d] < nextArrive) nextArrive = D.arrive[d];
      }
      d = nx;
    }
    this.s.qHead[n] = head;
    this.s.qTail[n] = tail;
    if (nextArrive !== Infinity) this.queues.openWindow(n, nextArrive + this.s.windowNs);
    met.arbitrations++;
    met.bitmapOps += q;
    const computeNs = Math.round(q * this.bitmapNs);
    byPriority(this.batch, q, D.task, T.ev, D.arrive);
    // the node's state before this window's wins: a loser that did not fit even then was misled by stale state
    const free0 = cl.free[n];
    let row0 = cl.row(n); // the live row until the first win changes it; then a copy taken just before
    const z = cl.zoneOf[n];
    for (let i = 0; i < q; i++) {
      const d = this.batch[i], t = D.task[d];
      this.s.invariants?.arbitrating(n, d, i);
      if (now - D.emitted[d] > this.s.silenceNs) { this.s.daEnd(d, END_SILENCE, CAUSE_SILENCE); continue; }
      if (this.addressing.overdue(d, t, now)) { this.s.daEnd(d, D.flags[d] & FLAG_SECONDARY ? END_LATE : END_DEADLINE, CAUSE_DEADLINE); continue; }
      if (this.s.airlockOn && !this.admits(n, t)) { this.dropProbe(d); continue; }
      const m = T.m[t], contiguous = T.cls[t] !== CLASS_F;
      if (i < q - 1 && row0 === cl.row(n)) {
        const u32 = this.s.views.u32, words = this.s.rowBytes >> 2, src = row0 >> 2, dst = this.row0 >> 2;
        for (let w = 0; w < words; w++) u32[dst + w] = u32[src + w];
        row0 = this.row0;
      }
      if (cl.take(n, m, contiguous, this.s.mask(d))) {
        this.s.held[n] += m;
        this.s.invariants?.took(n, d, m);
        this.win(d, n, t, computeNs);
      } else {
        met.arbitrationLosses++;
        if (free0 < m || (contiguous && this.s.k.bmFirstRun(row0, 1, cl.atoms, m, this.s.runOutPtr) === 0)) met.falseOptimism++;
        this.addressing.bounce(d, z, this.s.rZone[z], computeNs);
      }
    }
    this.s.invariants?.node(n);
  }

  /** A win: atoms are taken; with two-phase reservation a deposit is frozen and a TTL armed; then the payload pull. */
  win(d: number, n: number, t: number, computeNs: number): void {
    const D = this.s.das, T = this.s.tasks, met = this.s.metrics;
    D.state[d] = D_PENDING;
    if (this.reserve) {
      met.reservations++;
      const dep = Math.min(this.deposit, Math.max(0, D.patience[d]));
      D.patience[d] -= dep;
      D.deposit[d] = dep;
      this.reservations.armTtl(d, n);
    }
    if (T.cls[t] === CLASS_SQUATTER) {
      // a squatter never pulls: it holds the atoms until its reservation expires (or for ever without one)
      D.state[d] = D_SQUATTING;
      this.s.squatting++;
      return;
    }
    D.flags[d] |= FLAG_PULL;
    // the pull request reaches the proxy (or, for a secondary probe, the suspended image's node) half a hop
    // later, and the payload is here a hop after the win; a suspended image takes statePullMs more
    const secondary = (D.flags[d] & FLAG_SECONDARY) !== 0, now = this.s.engine.now;
    const pullAt = now + computeNs + this.s.hopNs + (secondary ? this.s.statePullNs : 0);
    D.verdict[d] = V_NONE;
    if (this.reserve && Math.ceil((now + this.s.ttlNs) / US) * US <= pullAt) {
      // the reservation expires before the pull could complete: nothing is asked
      this.s.engine.post(pullAt - now, K_PULL, d);
      return;
    }
    const z = this.s.cluster.zoneOf[n];
    if (secondary) this.s.send(z, M_LAND_REQ, T.home[t], t, d, z, computeNs);
    else this.s.send(z, M_PULL, TO_GATEWAY, t, d, z, computeNs);
  }

  /**
   * Airlock's pre-admission physical check for task t at node n: its use
   * (plus the task's declared memory when airlock.admitCheck=projected) must
   * be at or below the high watermark.
   */
  admits(n: number, t: number): boolean {
    const add = this.admitProjected ? kib(this.s.declaredGiB(t)) : 0;
    return this.s.mem!.use(n) + add <= this.s.highKiB;
  }

  /** A probe refused by the physical check dissipates (with regeneration off, a first-admission task fails). */
  dropProbe(d: number): void {
    this.s.survival!.probeDrops++;
    this.s.daEnd(d, END_PROBE_DROP, CAUSE_PROBE_DROP);
  }
}
