// The gateway's table of logical tasks (every partition replicates it): a
// task's creation, its start deadline and regeneration timers, the proxy's
// answer to a winner's pull request (only a task's first request in time
// starts it), and its end once no DA of it is left. The deadline and
// regeneration timers are swept in 1 ms passes (TimerSweep); only the timers
// of tasks still pending get an exact event.
//
// Without the memory model nothing on the gateway side reads a task once it
// has started: its running DA's retirement (M_RETIRE) only said that the
// entry could go. So the proxy hands the starting DA over at the start (it
// no longer counts among the task's live DAs, and its retirement is not
// sent: LaminarState.handsOver), and the entry is freed once no other DA of
// the task is left, not when the task completes. The table holds the tasks
// pending or with duplicates alive, not every running task too
// (docs/laminar-model.md). With the memory model, Airlock reads a running
// task's entry (its state, home and anchor) and its retirement says what
// happened to it (R_*).
import { CLASS_F, CLASS_SQUATTER } from "../workload/bimodal.js";
import { CAUSE_DEADLINE, CAUSE_SQUATTER } from "../metrics/run-metrics.js";
import { T_FAILED, T_KILLED, T_PENDING, T_STARTED } from "./store.js";
import { EXACT_DEADLINE, EXACT_REGEN, K_DEADLINE, K_REGEN, R_CLOSED, R_KILLED, REGEN_ARMED, V_DUP, V_LATE, V_START, type LaminarState } from "./state.js";

/** The gateway side's logical tasks. */
export class TaskTable {
  /** Arrival order of the next task: the tie-break among equal priorities (the Zone engine's arrivals take and return it: ingress.ts). */
  nextKey = 0;

  constructor(private readonly s: LaminarState) {}

  /** A pending task with no DA yet: its identity, demand, service time and E_v,init = price x atoms. */
  /** `price`: the task's token density (units/atom); by default its class's (workload.priceF, priceL). */
  newTask(cls: number, atoms: number, service: number, tA: number, price = cls === CLASS_F ? this.s.c.workload.priceF : this.s.c.workload.priceL, memGiB = NaN): number {
    const T = this.s.tasks, t = T.alloc();
    T.cls[t] = cls;
    T.state[t] = T_PENDING;
    T.instances[t] = 0;
    T.live[t] = 0;
    T.timers[t] = 0;
    T.arrival[t] = tA;
    T.key[t] = this.nextKey;
    this.nextKey = (this.nextKey + 1) >>> 0;
    T.anchor[t] = -1;
    T.m[t] = atoms;
    T.service[t] = service;
    T.ev[t] = T.budget[t] = price * atoms;
    T.memGiB[t] = memGiB;
    return t;
  }

  /**
   * The proxy receives DA d's pull request for task t (d in Zone z) at time
   * `at`: only a logical task's first request, in time to start before the
   * deadline, gets the payload, which reaches the node half a hop (and the
   * node's arbitration compute time) later. Every partition keeps the task
   * table. Without the memory model the starting DA is handed over (above):
   * the entry goes as soon as no other DA of the task is left.
   */
  proxy(t: number, d: number, z: number, at: number, computeNs: number): void {
    const T = this.s.tasks, startAt = at + this.s.hopNs - this.s.deltaNs + computeNs;
    let v: number;
    if (T.state[t] === T_PENDING && startAt < T.arrival[t] + this.s.deadlineNs) {
      this.s.invariants?.started(t);
      T.state[t] = T_STARTED;
      this.s.inFlight--;
      this.s.gatewayMetrics.onStart(startAt - T.arrival[t], T.cls[t]);
      v = V_START;
      if (this.s.handsOver) {
        T.live[t]--;
        this.maybeFree(t);
      }
    } else {
      v = T.state[t] === T_STARTED ? V_DUP : V_LATE;
    }
    // the partition simulating Zone z scheduled the pull's completion when the request reached it (accept); the
    // gateway run once answers in the engine, for its log (model.ts drainLogged)
    if (this.s.ownsZone(z)) this.s.setVerdict(d, v);
  }

  /** Gateway side: a DA of task t ended without starting it; if it was the task's last hope, the task fails with `cause`. */
  taskLost(t: number, cause: number): void {
    const T = this.s.tasks;
    T.live[t]--;
    if (T.state[t] === T_PENDING && T.live[t] === 0 && (T.timers[t] & REGEN_ARMED) === 0) {
      this.fail(t, T.cls[t] === CLASS_SQUATTER ? CAUSE_SQUATTER : cause);
    }
    this.maybeFree(t);
  }

  /** Gateway side: a DA of started task t retired (only with the memory model: without it the DA was handed over at the start, and sends none). */
  taskRetired(t: number, how: number): void {
    if (this.s.handsOver) throw new Error(`laminar: a retirement of task ${t} without the memory model, whose DAs send none`);
    const T = this.s.tasks;
    T.live[t]--;
    if (how & R_KILLED) T.state[t] = T_KILLED;
    if (how & R_CLOSED) {
      T.awaiting[t] = 0;
      this.s.taskStateChanged(t);
    }
    this.maybeFree(t);
  }

  fail(t: number, cause: number): void {
    this.s.tasks.state[t] = T_FAILED;
    this.s.inFlight--;
    this.s.gatewayMetrics.onFail(cause);
  }

  maybeFree(t: number): void {
    const T = this.s.tasks;
    if (T.state[t] !== T_PENDING && T.live[t] === 0 && (T.timers[t] & (EXACT_DEADLINE | EXACT_REGEN)) === 0 && T.slots.isLive(t)) {
      T.slots.release(t);
    }
  }

  /** Post the exact event of task t's timer at `time`; the slot stays allocated until it fires. */
  exact(t: number, time: number, kind: number, bit: number): void {
    this.s.tasks.timers[t] |= bit;
    // an arrival is materialised at the gateway's next batch: with a deadline or quiet interval shorter than
    // the batch period (task.deadlineMs, regeneration.quietMs), its timer is already due then, and fires at once
    this.s.engine.post(Math.max(0, time - this.s.engine.now), kind, t);
  }

  /**
   * A sweep hands over a timer due within the sweep period. A slot freed (and
   * perhaps reused) since the timer was armed has another generation: the
   * timer is stale. Otherwise it only matters, as an exact event, while the
   * task is pending.
   */
  timerDue(t: number, time: number, gen: number, kind: number, bit: number): void {
    const T = this.s.tasks;
    if (T.slots.generation(t) !== gen) return;
    if (T.state[t] === T_PENDING) this.exact(t, time, kind, bit);
    else if (bit === EXACT_REGEN) T.timers[t] &= ~REGEN_ARMED;
  }

  readonly deadlineDue = (t: number, time: number, gen: number): void => this.timerDue(t, time, gen, K_DEADLINE, EXACT_DEADLINE);

  readonly regenDue = (t: number, time: number, gen: number): void => this.timerDue(t, time, gen, K_REGEN, EXACT_REGEN);

  /** The task's start deadline: a task not started by now fails. */
  deadline(t: number): void {
    const T = this.s.tasks;
    T.timers[t] &= ~EXACT_DEADLINE;
    if (T.state[t] === T_PENDING) this.fail(t, T.cls[t] === CLASS_SQUATTER ? CAUSE_SQUATTER : CAUSE_DEADLINE);
    this.maybeFree(t);
  }
}
