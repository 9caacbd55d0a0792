// What a partition's thread shares with the others, whichever way the
// gateway side runs (thread-worker.ts: a replica in each thread;
// thread-once.ts: once, on thread 0): the barrier, the idle vote at a
// slice's end, progress, the tests' injected faults, and the error that
// names the partition. All of it over the control block of threads.ts.
import { performance } from "node:perf_hooks";
import { InvariantError } from "../laminar/invariants.js";
import { C_COUNT, C_ERROR, C_GEN, C_PARTS, C_PROGRESS_MS, INVARIANT_TAG, P_IDLE, P_MS, P_WORDS, P_Z0, P_Z1, type ParallelTask } from "./threads.js";

/** Thrown where another partition failed first: passed on as it is (the first failure is the one reported). */
export class PartitionFailed extends Error {}

export class ThreadSync {
  readonly ctl: Int32Array;
  /** Wall ms spent waiting (at the barrier, and whatever else the thread adds). */
  waitMs = 0;
  /** Simulated ns this partition has reached (for messages). */
  simNow = 0;
  private readonly me: number;

  /** Partition `task.index` of `task.count`, its Zones [z0, z1) (named `name` in errors). */
  constructor(private readonly task: ParallelTask, z0: number, z1: number, readonly name: string) {
    this.ctl = new Int32Array(task.control);
    this.me = C_PARTS + P_WORDS * task.index;
    Atomics.store(this.ctl, this.me + P_Z0, z0);
    Atomics.store(this.ctl, this.me + P_Z1, z1);
  }

  /** The error a waiting partition ends with when another failed. */
  stopped(): PartitionFailed {
    return new PartitionFailed(`partition ${this.task.index} (${this.name}) stopped at ${this.simNow / 1e6} ms: another partition failed`);
  }

  /** Throw if another partition has failed. */
  checkError(): void {
    if (Atomics.load(this.ctl, C_ERROR) !== 0) throw this.stopped();
  }

  /** Everybody waits here; a failed partition elsewhere ends this one too. */
  barrier(): void {
    const ctl = this.ctl, w0 = performance.now();
    try {
      const gen = Atomics.load(ctl, C_GEN);
      this.checkError();
      if (Atomics.add(ctl, C_COUNT, 1) === this.task.count - 1) {
        Atomics.store(ctl, C_COUNT, 0);
        Atomics.add(ctl, C_GEN, 1);
        Atomics.notify(ctl, C_GEN);
        return;
      }
      for (let spin = 0; Atomics.load(ctl, C_GEN) === gen; spin++) {
        if (spin > 2000) Atomics.wait(ctl, C_GEN, gen, 50);
      }
      this.checkError();
    } finally {
      this.waitMs += performance.now() - w0;
    }
  }

  /** A slice's end: whether every partition's Zones and the gateway side (voted by whoever holds it: `gatewayIdle`, else null) are idle. */
  quiescent(zonesIdle: boolean, gatewayIdle: boolean | null): boolean {
    const ctl = this.ctl, count = this.task.count;
    Atomics.store(ctl, this.me + P_IDLE, zonesIdle ? 1 : 0);
    if (gatewayIdle !== null) Atomics.store(ctl, C_PARTS + P_WORDS * count, gatewayIdle ? 1 : 0);
    this.barrier();
    let idle = Atomics.load(ctl, C_PARTS + P_WORDS * count) === 1;
    for (let w = 0; w < count; w++) idle &&= Atomics.load(ctl, C_PARTS + P_WORDS * w + P_IDLE) === 1;
    this.barrier();
    return idle;
  }

  /** Progress: this partition's simulated ms; partition 0's is the run's. */
  readonly onProgress = (now: number): void => {
    Atomics.store(this.ctl, this.me + P_MS, Math.floor(now / 1e6));
    if (this.task.index === 0) Atomics.store(this.ctl, C_PROGRESS_MS, Math.floor(now / 1e6));
  };

  /** Tests: partition `fault.index` throws (or its thread exits) once it has simulated `fault.ns`. */
  injectFault(): void {
    const f = this.task.fault;
    if (f?.index === this.task.index && this.simNow >= f.ns) {
      Atomics.store(this.ctl, this.me + P_MS, Math.floor(this.simNow / 1e6));
      if (f.exit === true) process.exit(1);
      throw f.invariant === true ? new InvariantError("injected violation") : new Error("injected fault");
    }
  }

  /** The error a partition's failure leaves its thread with: its Zones and simulated time (an invariant violation tagged as one). */
  failure(e: unknown): Error {
    if (e instanceof PartitionFailed) return e;
    const msg = e instanceof Error ? e.message : String(e);
    // the error's class does not survive the thread boundary: its name travels in the message
    const kind = e instanceof InvariantError ? INVARIANT_TAG : "";
    return new Error(`partition ${this.task.index} (${this.name}) failed at simulated ${this.simNow / 1e6} ms: ${kind}${msg}`);
  }
}
