// Running tasks and node memory (paper §Node Arbitration, runtime survival;
// docs/airlock.md; memory.enabled): a started task's execution epoch, its
// memory record in the core's memory field (memory.ts), the node's list of
// running residents, its pressure flag (use above Airlock's high watermark),
// and the kernel OOM rule: while a node's use exceeds its capacity, a running
// task is killed (the largest, or a random one). Airlock, which acts before
// the kernel does, is airlock-ledger.ts.
import { CLASS_F } from "../workload/bimodal.js";
import { largestResident } from "./airlock.js";
import { D_RESIDENT, T_STARTED } from "./store.js";
import type { ZoneReports } from "./reports.js";
import type { TaskTable } from "./task-table.js";
import type { NodeQueues } from "./queue.js";
import { K_COMPLETE, R_KILLED, type LaminarState } from "./state.js";

/** Execution epochs, node memory and the kernel OOM rule on this instance's nodes. */
export class NodeRuntime {
  /** memory.oomRule=largest: the kernel kills the largest running task (else a random one). */
  private readonly oomLargest: boolean;

  constructor(private readonly s: LaminarState, private readonly reports: ZoneReports, private readonly taskTable: TaskTable, private readonly queues: NodeQueues) {
    this.oomLargest = s.c.memory.oomRule === "largest";
  }

  /** DA d's task runs on node n for `dur` ns from now, with memory (declared, true footprint, drift state) in GiB. */
  execute(d: number, n: number, dur: number, declared: number, target: number, drift: number): void {
    const D = this.s.das;
    this.s.invariants?.executing(d);
    D.epochEnd[d] = this.s.engine.now + dur;
    this.s.engine.scheduleInto(dur, K_COMPLETE, d, D.doneHandle, d);
    this.s.mem!.add(d, n, declared, target, drift, this.s.tasks.key[D.task[d]]);
    this.link(this.s.resHead, n, d);
    this.updatePressure(n);
  }

  /**
   * Place a running task directly on node n (no admission path), as if it had
   * just started: for tests and embedders that build a node's state by hand.
   * Its memory starts at its declaration and drifts towards targetGiB.
   * Returns the resident DA's slot, or -1 when the atoms do not fit.
   */
  inject(n: number, cls: number, atoms: number, serviceNs: number, targetGiB: number): number {
    if (this.s.mem === null) throw new Error("inject: the memory model is off (memory.enabled=false)");
    const T = this.s.tasks, D = this.s.das;
    const t = this.taskTable.newTask(cls, atoms, serviceNs, this.s.engine.now);
    T.state[t] = T_STARTED;
    T.instances[t] = 1;
    T.live[t] = 1;
    const d = D.alloc();
    D.task[d] = t; D.flags[d] = 0; D.patience[d] = T.budget[t]; D.emitted[d] = this.s.engine.now; D.deposit[d] = 0; D.node[d] = n;
    D.m[d] = atoms; D.service[d] = serviceNs; D.key[d] = T.key[t];
    this.reports.touch(n);
    if (!this.s.cluster.take(n, atoms, cls !== CLASS_F, this.s.mask(d))) {
      D.slots.release(d);
      T.slots.release(t);
      return -1;
    }
    this.s.held[n] += atoms;
    this.s.invariants?.took(n, d, atoms);
    this.s.gatewayMetrics.onArrive(cls);
    this.s.invariants?.started(t);
    this.s.gatewayMetrics.onStart(0, cls);
    D.state[d] = D_RESIDENT;
    this.s.running++;
    this.execute(d, n, serviceNs, this.s.declaredGiB(t), targetGiB, this.s.declaredGiB(t));
    return d;
  }

  /** DA d's task stops running on node n (completes, is killed or suspended): its memory leaves the node. */
  stopExecution(d: number, n: number): void {
    this.s.invariants?.stopped(d);
    this.s.mem!.remove(d);
    this.unlink(this.s.resHead, n, d);
  }

  link(head: Int32Array, n: number, d: number): void {
    const D = this.s.das, h = head[n];
    D.resPrev[d] = -1;
    D.resNext[d] = h;
    if (h >= 0) D.resPrev[h] = d;
    head[n] = d;
  }

  unlink(head: Int32Array, n: number, d: number): void {
    const D = this.s.das, p = D.resPrev[d], x = D.resNext[d];
    if (p >= 0) D.resNext[p] = x;
    else head[n] = x;
    if (x >= 0) D.resPrev[x] = p;
  }

  /** Keep node n's pressure flag (use above the high watermark) current; reports due before a change go out first. */
  updatePressure(n: number): void {
    if (!this.s.airlockOn) return;
    const p = this.s.mem!.use(n) > this.s.highKiB ? 1 : 0;
    if (p === this.s.pressured[n]) return;
    this.reports.touch(n);
    this.s.pressured[n] = p;
  }

  /** Gather node n's running residents into the pick arrays (ids, E_v,init, resident GiB); returns how many. */
  gatherRunning(n: number): number {
    const D = this.s.das, T = this.s.tasks, mem = this.s.mem!;
    let k = 0;
    for (let d = this.s.resHead[n]; d >= 0; d = D.resNext[d]) {
      this.s.pickIds[k] = d;
      this.s.pickA[k] = T.ev[D.task[d]];
      this.s.pickB[k] = mem.resident(d);
      this.s.pickK[k] = T.key[D.task[d]];
      k++;
    }
    return k;
  }

  /** The kernel OOM rule: while node n's use exceeds its capacity, kill a running task (the largest, or a random one). */
  oom(n: number): void {
    const mem = this.s.mem!;
    while (mem.use(n) > this.s.capKiB) {
      const k = this.gatherRunning(n);
      if (k === 0) return;
      const i = this.oomLargest ? largestResident(this.s.pickB, this.s.pickK, k) : this.s.rMem[this.s.cluster.zoneOf[n]].int(k);
      this.kill(this.s.pickIds[i], n);
    }
    this.updatePressure(n);
  }

  kill(d: number, n: number): void {
    const D = this.s.das, T = this.s.tasks, t = D.task[d];
    this.s.engine.cancelIn(D.doneHandle, d);
    this.stopExecution(d, n);
    this.queues.releaseAtoms(d, n);
    this.s.running--;
    if (T.cls[t] === CLASS_F) this.s.survival!.oomKillsF++;
    else this.s.survival!.oomKillsL++;
    this.s.retire(d, R_KILLED);
  }
}
