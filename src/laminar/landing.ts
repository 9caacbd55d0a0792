// Secondary landing (paper §The Airlock Protocol; docs/airlock.md): a
// reactivated task's secondary probe that wins atoms elsewhere asks the
// suspended image's Zone for it; the first request while the ledger entry is
// still reactivated gets it (the entry leaves its ledger, its atoms and image
// freed), the image arrives a state pull later, and the task's new execution
// epoch opens at the probe's node. A refused probe frees its atoms.
import { CAUSE_DEADLINE, END_DUPLICATE, END_LATE } from "../metrics/run-metrics.js";
import { D_RESIDENT, T_STARTED } from "./store.js";
import type { NodeQueues } from "./queue.js";
import type { Reservations } from "./reservations.js";
import type { NodeRuntime } from "./runtime.js";
import type { AirlockLedger } from "./airlock-ledger.js";
import { FLAG_PULL, FLAG_REACTIVATED, FLAG_SECONDARY, K_PULL, M_LAND_RESP, R_CLOSED, V_START, type LaminarState } from "./state.js";

/** Secondary probes' state pulls, at the image's Zone and at the probe's node. */
export class SecondaryLanding {
  constructor(private readonly s: LaminarState, private readonly queues: NodeQueues, private readonly reservations: Reservations, private readonly runtime: NodeRuntime, private readonly airlock: AirlockLedger) {}

  /**
   * A secondary probe (DA pd in Zone pz) that won atoms asks Zone `home` for
   * task t's suspended image, half a hop after its win: the first request
   * while the reactivated ledger entry is still there gets it; the entry
   * leaves the ledger (its atoms and image freed) and the answer carries the
   * execution state. An entry resumed in place (and perhaps suspended again
   * since) is no longer the probe's to take.
   */
  landRequest(home: number, t: number, pd: number, pz: number, computeNs: number): void {
    const D = this.s.das, a = this.s.tasks.anchor[t];
    if (a < 0 || (D.flags[a] & FLAG_REACTIVATED) === 0) return this.s.send(home, M_LAND_RESP, pz, pd, 0, computeNs);
    const src = D.node[a], z = this.s.cluster.zoneOf[src];
    this.s.invariants?.landing(a);
    this.s.engine.cancelIn(D.timerHandle, a);
    this.airlock.leaveLedger(a, src);
    this.queues.releaseAtoms(a, src);
    this.runtime.updatePressure(src);
    this.s.send(z, M_LAND_RESP, pz, pd, 1, computeNs, D.remaining[a], D.target[a], D.drift[a]);
    this.s.retire(a, R_CLOSED);
  }

  /**
   * The answer to secondary probe d's state-pull request: the image arrives
   * statePullMs later (the pull completes, K_PULL); a refusal (landed through
   * another probe, resumed in place or reclaimed) frees its atoms now.
   */
  landAnswer(d: number, ok: number, computeNs: number, remaining: number, target: number, drift: number): void {
    const D = this.s.das, T = this.s.tasks, n = D.node[d], t = D.task[d];
    if (ok === 1) {
      D.remaining[d] = remaining;
      D.target[d] = target;
      D.drift[d] = drift;
      D.verdict[d] = V_START;
      this.s.engine.post(this.s.statePullNs + this.s.hopNs - 2 * this.s.deltaNs + computeNs, K_PULL, d);
      return;
    }
    D.flags[d] &= ~FLAG_PULL;
    if (this.reservations.enabled) this.reservations.disarmTtl(d, n);
    this.queues.releaseAtoms(d, n);
    this.s.daEnd(d, T.state[t] === T_STARTED ? END_DUPLICATE : END_LATE, CAUSE_DEADLINE);
  }

  /** A secondary probe's state pull completed at node n: the task's new execution epoch opens here. */
  secondaryLanded(d: number, t: number, n: number): void {
    const D = this.s.das;
    D.patience[d] += D.deposit[d];
    D.deposit[d] = 0;
    D.state[d] = D_RESIDENT;
    D.flags[d] &= ~FLAG_SECONDARY;
    this.s.running++;
    this.s.survival!.secondaryLandings++;
    this.runtime.execute(d, n, D.remaining[d], this.s.declaredGiB(t), D.target[d], D.drift[d]);
  }
}
