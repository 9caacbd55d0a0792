// Struct-of-arrays stores for logical tasks and their Decentralized Agents,
// with recycled slots (SlotStore). A task lives from arrival until it is
// resolved (started or failed) and nothing refers to it any more (no live
// DA, no pending exact timer event; timers still in a sweep ring carry the
// slot's generation and are recognised as stale). A DA lives from emission until it dies or, after
// its task started, until the task completes (the resident phase II record).
// Each DA owns one bitmap row in core memory: the atoms it holds.
import { growTyped, SlotStore } from "../sim/slot-store.js";
import type { Arena } from "../core/arena.js";

/** Task states (T_KILLED: started, then OOM-killed or reclaimed by Airlock). */
export const T_PENDING = 0, T_STARTED = 1, T_FAILED = 2, T_KILLED = 3;

/**
 * DA states. D_SUSPENDED: the resident DA of a task in the node's Airlock
 * ledger (its source anchor: it keeps the task's atoms and suspended image).
 */
export const D_MOVING = 1, D_QUEUED = 2, D_PENDING = 3, D_RESIDENT = 4, D_SQUATTING = 5, D_EXPIRED = 6, D_SUSPENDED = 7;

/** Bytes a task takes in the columns kept in core memory (TaskStore.columnsAt): arrival f64, live i32, state, timers and class u8. */
const CORE_TASK_BYTES = 15;

export class TaskStore {
  readonly slots = new SlotStore(1 << 14);
  // In core memory, where the gateway side's drain on the Zone engine reads and writes them
  // (assembly/engine/drain.ts): one region of capacity x CORE_TASK_BYTES at columnsAt, arrival
  // f64[capacity], then live i32, state u8, timers u8 and class u8. The views are rebuilt when
  // memory grows (Arena.onGrow) and when the region moves (grow).
  cls!: Uint8Array;
  state!: Uint8Array;
  live!: Int32Array;
  /** Bit 0: deadline timer pending; bit 1: regeneration timer pending. */
  timers!: Uint8Array;
  arrival!: Float64Array;
  /** The core-memory region of the columns above (byte offset). */
  columnsAt: number;
  m = new Int32Array(this.slots.capacity);
  instances = new Int32Array(this.slots.capacity);
  service = new Float64Array(this.slots.capacity);
  ev = new Float64Array(this.slots.capacity);
  budget = new Float64Array(this.slots.capacity);
  memGiB = new Float64Array(this.slots.capacity);
  /** Identity for the memory process (arrival order, mod 2^32). */
  key = new Uint32Array(this.slots.capacity);
  /**
   * The Airlock ledger entry (a D_SUSPENDED DA) of a suspended task, else -1:
   * the source Zone's own record (only the partition that owns that Zone sets it).
   */
  anchor = new Int32Array(this.slots.capacity);
  /** Gateway side: 1 while a reactivated task waits for a secondary landing (learnt one message delay late). */
  awaiting = new Uint8Array(this.slots.capacity);
  /** Gateway side: the Zone of a reactivated task's ledger entry (where its secondary probes pull the image from). */
  home = new Int32Array(this.slots.capacity);

  constructor(private readonly arena: Arena) {
    this.columnsAt = this.region(this.slots.capacity);
    this.bind();
    // held weakly: a store that is gone is dropped from the arena's list at its next growth
    const self = new WeakRef(this);
    arena.onGrow(() => {
      const store = self.deref();
      store?.bind();
      return store !== undefined;
    });
  }

  /** A zeroed region for the core-memory columns of `cap` tasks. */
  private region(cap: number): number {
    const p = this.arena.alloc(cap * CORE_TASK_BYTES, 8);
    this.arena.u8.fill(0, p, p + cap * CORE_TASK_BYTES);
    return p;
  }

  /** (Re)build the core-memory columns' views. */
  private bind(): void {
    const b = this.arena.u8.buffer, p = this.columnsAt, cap = this.m.length;
    this.arrival = new Float64Array(b, p, cap);
    this.live = new Int32Array(b, p + 8 * cap, cap);
    this.state = new Uint8Array(b, p + 12 * cap, cap);
    this.timers = new Uint8Array(b, p + 13 * cap, cap);
    this.cls = new Uint8Array(b, p + 14 * cap, cap);
  }

  /** Slots the columns hold. */
  get capacity(): number {
    return this.m.length;
  }

  alloc(): number {
    const s = this.slots.alloc();
    if (s >= this.m.length) this.grow();
    return s;
  }

  private grow(): void {
    const n = this.slots.capacity, old = this.m.length, from = this.columnsAt, to = this.region(n);
    // each column from the old region into its place in the new one (region() may have grown memory: bound anew)
    const u8 = this.arena.u8;
    u8.copyWithin(to, from, from + 8 * old);
    u8.copyWithin(to + 8 * n, from + 8 * old, from + 12 * old);
    for (let c = 0; c < 3; c++) u8.copyWithin(to + (12 + c) * n, from + (12 + c) * old, from + (13 + c) * old);
    this.columnsAt = to;
    this.m = growTyped(this.m, n);
    this.bind();
    this.instances = growTyped(this.instances, n);
    this.service = growTyped(this.service, n);
    this.ev = growTyped(this.ev, n);
    this.budget = growTyped(this.budget, n);
    this.memGiB = growTyped(this.memGiB, n);
    this.key = growTyped(this.key, n);
    this.anchor = growTyped(this.anchor, n);
    this.awaiting = growTyped(this.awaiting, n);
    this.home = growTyped(this.home, n);
  }
}

export class DaStore {
  readonly slots = new SlotStore(1 << 14);
  task = new Int32Array(this.slots.capacity);
  node = new Int32Array(this.slots.capacity);
  state = new Uint8Array(this.slots.capacity);
  /** Bit 0: a payload pull is in flight. */
  flags = new Uint8Array(this.slots.capacity);
  next = new Int32Array(this.slots.capacity);
  firstAtom = new Int32Array(this.slots.capacity);
  patience = new Float64Array(this.slots.capacity);
  emitted = new Float64Array(this.slots.capacity);
  /** When the DA reaches (or reached) the node whose queue it is in. */
  arrive = new Float64Array(this.slots.capacity);
  deposit = new Float64Array(this.slots.capacity);
  /** The proxy's answer to the DA's pull request (V_* in state.ts), read when the pull completes. */
  verdict = new Uint8Array(this.slots.capacity);
  /**
   * Its task's atoms, service time and key, copied at emission: what the DA
   * reads once its task has started, when the gateway may have freed the
   * task's entry (task-table.ts), as the core's DA records carry them.
   */
  m = new Int32Array(this.slots.capacity);
  service = new Float64Array(this.slots.capacity);
  key = new Uint32Array(this.slots.capacity);
  // runtime survival (memory model on): the node's resident/ledger list links,
  // the end of the current execution epoch, the cancellable completion and
  // Airlock timer handles, and a suspended task's ledger data
  resNext = new Int32Array(this.slots.capacity);
  resPrev = new Int32Array(this.slots.capacity);
  epochEnd = new Float64Array(this.slots.capacity);
  doneHandle = new Float64Array(this.slots.capacity);
  timerHandle = new Float64Array(this.slots.capacity);
  suspendedAt = new Float64Array(this.slots.capacity);
  remaining = new Float64Array(this.slots.capacity);
  frozen = new Float64Array(this.slots.capacity);
  drift = new Float64Array(this.slots.capacity);
  target = new Float64Array(this.slots.capacity);
  /** Called with the new capacity whenever the columns grow (the owner grows its mask region). */
  onGrow: (capacity: number) => void = () => {};

  alloc(): number {
    const s = this.slots.alloc();
    if (s >= this.task.length) this.grow();
    return s;
  }

  private grow(): void {
    const n = this.slots.capacity;
    this.task = growTyped(this.task, n);
    this.node = growTyped(this.node, n);
    this.state = growTyped(this.state, n);
    this.flags = growTyped(this.flags, n);
    this.next = growTyped(this.next, n);
    this.firstAtom = growTyped(this.firstAtom, n);
    this.patience = growTyped(this.patience, n);
    this.emitted = growTyped(this.emitted, n);
    this.arrive = growTyped(this.arrive, n);
    this.deposit = growTyped(this.deposit, n);
    this.verdict = growTyped(this.verdict, n);
    this.m = growTyped(this.m, n);
    this.service = growTyped(this.service, n);
    this.key = growTyped(this.key, n);
    this.resNext = growTyped(this.resNext, n);
    this.resPrev = growTyped(this.resPrev, n);
    this.epochEnd = growTyped(this.epochEnd, n);
    this.doneHandle = growTyped(this.doneHandle, n);
    this.timerHandle = growTyped(this.timerHandle, n);
    this.suspendedAt = growTyped(this.suspendedAt, n);
    this.remaining = growTyped(this.remaining, n);
    this.frozen = growTyped(this.frozen, n);
    this.drift = growTyped(this.drift, n);
    this.target = growTyped(this.target, n);
    this.onGrow(n);
  }
}
