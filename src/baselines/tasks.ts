// What the Ray- and Flux-like models keep per task in flight: a
// struct-of-arrays table with recycled slots (arrival, service, class,
// demand, hops or retries taken, a queue link, where the task is), the atoms
// it holds as a bitmap row in core memory; and FIFO queues of task slots, one
// per server (raylet, GCS shard, broker), linked through the table.
import type { Core } from "../core/wasm.js";
import { Views } from "../core/views.js";
import { growTyped, SlotStore } from "../sim/slot-store.js";

export class TaskTable {
  readonly slots = new SlotStore(1 << 14);
  arrival = new Float64Array(1 << 14);
  service = new Float64Array(1 << 14);
  cls = new Uint8Array(1 << 14);
  m = new Int32Array(1 << 14);
  /** Spillbacks or rollbacks so far. */
  hops = new Int32Array(1 << 14);
  next = new Int32Array(1 << 14);
  /** The node the task was submitted at (workload entry skew). */
  entry = new Int32Array(1 << 14);
  /** The node, raylet, shard or broker the task is at or heading to. */
  at = new Int32Array(1 << 14);
  /** 1 once the task holds its atoms (placed, or running). */
  running = new Uint8Array(1 << 14);
  /** 1 once the task has started on its node (what the invariant checker counts as running). */
  started = new Uint8Array(1 << 14);
  private maskBase: number;
  private readonly views: Views;

  constructor(private readonly core: Core, private readonly rowBytes: number) {
    this.maskBase = core.arena.alloc(this.slots.capacity * rowBytes, 16);
    this.views = new Views(core.exports.memory);
  }

  alloc(): number {
    const t = this.slots.alloc();
    if (t >= this.arrival.length) this.grow();
    this.running[t] = 0;
    this.started[t] = 0;
    return t;
  }

  /** Tasks still waiting (allocated, not running) that arrived at or before `arrivedBy`. */
  countWaiting(arrivedBy: number): number {
    let n = 0;
    for (let t = 0; t < this.arrival.length; t++) {
      if (this.slots.isLive(t) && this.running[t] === 0 && this.arrival[t] <= arrivedBy) n++;
    }
    return n;
  }

  release(t: number): void {
    this.slots.release(t);
  }

  /** Pointer of task t's mask row. */
  mask(t: number): number {
    return this.maskBase + t * this.rowBytes;
  }

  private grow(): void {
    const n = this.slots.capacity, old = this.arrival.length;
    this.arrival = growTyped(this.arrival, n);
    this.service = growTyped(this.service, n);
    this.cls = growTyped(this.cls, n);
    this.m = growTyped(this.m, n);
    this.hops = growTyped(this.hops, n);
    this.next = growTyped(this.next, n);
    this.at = growTyped(this.at, n);
    this.entry = growTyped(this.entry, n);
    this.running = growTyped(this.running, n);
    this.started = growTyped(this.started, n);
    const fresh = this.core.arena.alloc(n * this.rowBytes, 16);
    this.views.sync();
    this.views.u8.copyWithin(fresh, this.maskBase, this.maskBase + old * this.rowBytes);
    this.maskBase = fresh;
  }
}

/** FIFO queues of task slots, one per server, linked through a TaskTable's next[] column. */
export class Queues {
  readonly head: Int32Array;
  readonly tail: Int32Array;
  readonly len: Int32Array;
  readonly busy: Uint8Array;

  constructor(n: number) {
    this.head = new Int32Array(n).fill(-1);
    this.tail = new Int32Array(n).fill(-1);
    this.len = new Int32Array(n);
    this.busy = new Uint8Array(n);
  }

  push(q: number, t: number, next: Int32Array): void {
    next[t] = -1;
    if (this.tail[q] < 0) this.head[q] = t;
    else next[this.tail[q]] = t;
    this.tail[q] = t;
    this.len[q]++;
  }

  shift(q: number, next: Int32Array): number {
    const t = this.head[q];
    this.head[q] = next[t];
    if (this.head[q] < 0) this.tail[q] = -1;
    this.len[q]--;
    return t;
  }
}
