// Pull, start and completion (paper §DA, §Implementation): a winner's
// payload pull completes with the proxy's answer (task-table.ts): the first
// winner in time starts the task (its DA becomes resident; with the memory
// model its execution epoch opens, runtime.ts), a duplicate or late winner
// releases its atoms and dissipates, and one whose reservation expired first
// ends; a secondary probe's pull completes its landing (landing.ts). At
// completion the atoms go back and the resident DA retires.
import { CAUSE_DEADLINE, CAUSE_EXPIRED, END_DUPLICATE, END_EXPIRED, END_LATE } from "../metrics/run-metrics.js";
import { D_EXPIRED, D_RESIDENT } from "./store.js";
import type { NodeQueues } from "./queue.js";
import type { Reservations } from "./reservations.js";
import type { NodeRuntime } from "./runtime.js";
import type { SecondaryLanding } from "./landing.js";
import { FLAG_PULL, FLAG_SECONDARY, K_COMPLETE, V_DUP, V_NONE, V_START, type LaminarState } from "./state.js";

/** Payload pulls, task starts and completions on this instance's nodes. */
export class PullAndStart {
  constructor(private readonly s: LaminarState, private readonly queues: NodeQueues, private readonly reservations: Reservations, private readonly runtime: NodeRuntime, private readonly landing: SecondaryLanding) {}

  /** The payload pull completes with the proxy's answer (or a suspended image arrives). */
  pulled(d: number): void {
    const D = this.s.das;
    D.flags[d] &= ~FLAG_PULL;
    const t = D.task[d], n = D.node[d];
    if (D.state[d] === D_EXPIRED) {
      if (D.verdict[d] !== V_NONE) throw new Error(`laminar: DA ${d}'s reservation expired after the proxy answered`);
      return this.s.daEnd(d, END_EXPIRED, CAUSE_EXPIRED);
    }
    if (D.verdict[d] === V_NONE) throw new Error(`laminar: DA ${d}'s pull completed without an answer`);
    if (this.reservations.enabled) this.reservations.disarmTtl(d, n);
    if (D.flags[d] & FLAG_SECONDARY) return this.landing.secondaryLanded(d, t, n);
    if (D.verdict[d] !== V_START) {
      // a late or duplicate winner: it releases its atoms and dissipates
      this.queues.releaseAtoms(d, n);
      return this.s.daEnd(d, D.verdict[d] === V_DUP ? END_DUPLICATE : END_LATE, CAUSE_DEADLINE);
    }
    D.patience[d] += D.deposit[d];
    D.deposit[d] = 0;
    D.state[d] = D_RESIDENT;
    this.s.running++;
    if (this.s.mem === null) {
      this.s.invariants?.executing(d);
      return this.s.engine.post(D.service[d], K_COMPLETE, d); // the task's entry may be gone (task-table.ts)
    }
    const declared = this.s.declaredGiB(t), mc = this.s.c.memory, rz = this.s.rMem[this.s.cluster.zoneOf[n]];
    const target = rz.float() < mc.overclaimProb ? declared * (1 + rz.float() * mc.overclaimMax) : declared;
    this.runtime.execute(d, n, D.service[d], declared, target, declared);
  }

  /** The task completes: atoms released, the resident DA retired with it. */
  complete(d: number): void {
    const n = this.s.das.node[d];
    if (this.s.mem !== null) {
      this.runtime.stopExecution(d, n);
      this.runtime.updatePressure(n);
    } else {
      this.s.invariants?.stopped(d);
    }
    this.queues.releaseAtoms(d, n);
    this.s.metrics.completed++;
    this.s.running--;
    this.s.retire(d, 0);
  }
}
