// Struct-of-arrays stores for logical tasks and their Decentralized Agents,
// with recycled slots (SlotStore). A task lives from arrival until it is
// resolved (started or failed) and nothing refers to it any more (no live
// DA, no pending exact timer event; timers still in a sweep ring carry the
// slot's generation and are recognised as stale). A DA lives from emission until it dies or, after
// its task started, until the task completes (the resident phase II record).
// Each DA owns one bitmap row in core memory: the atoms it holds.
import { growTyped, SlotStore } from "../sim/slot-store.js";
import { followGrowth } from "../sim/timer-sweep.js";
import type { Arena } from "../core/arena.js";

/** Task states (T_KILLED: started, then OOM-killed or reclaimed by Airlock). */
export const T_PENDING = 0, T_STARTED = 1, T_FAILED = 2, T_KILLED = 3;

/**
 * DA states. D_SUSPENDED: the resident DA of a task in the node's Airlock
 * ledger (its source anchor: it keeps the task's atoms and suspended image).
 */
export const D_MOVING = 1, D_QUEUED = 2, D_PENDING = 3, D_RESIDENT = 4, D_SQUATTING = 5, D_EXPIRED = 6, D_SUSPENDED = 7;

/**
 * The task table's columns in core memory (TaskStore.columnsAt), each a run
 * of `capacity` values, in this order: the f64 columns, the 32-bit ones, the
 * bytes. COLUMNS gives each one's element size; a task takes TASK_BYTES.
 * The Zone engine reads and writes them where they lie
 * (assembly/engine/drain.ts and arrive.ts; docs/abi.md, "The gateway's
 * task table").
 */
export const COLUMNS = [
  ["arrival", 8], ["ev", 8], ["budget", 8], ["service", 8], ["memGiB", 8],
  ["live", 4], ["instances", 4], ["m", 4], ["key", 4], ["anchor", 4], ["home", 4],
  ["state", 1], ["timers", 1], ["cls", 1], ["awaiting", 1],
] as const;
export const TASK_BYTES = COLUMNS.reduce((n, [, b]) => n + b, 0);

/** Where column `name` starts in a region of `cap` tasks (bytes from its start). */
export function columnAt(name: (typeof COLUMNS)[number][0], cap: number): number {
  let at = 0;
  for (const [n, b] of COLUMNS) {
    if (n === name) return at;
    at += b * cap;
  }
  throw new Error(`no task column ${name}`);
}

export class TaskStore {
  /**
   * Cyclic (sim/slot-store.ts): a batch's arrivals take neighbouring slots.
   * Its generations are in core memory too (genAt), where the Zone engine
   * takes slots (engineArrive), frees them (engineDrain) and tells stale
   * timers apart (engineSweep).
   */
  readonly slots: SlotStore;
  /** The slots' generations in core memory (byte offset, 8-aligned; i32 per slot) and how many it holds. */
  genAt = 0;
  private genCap = 0;
  // In core memory, where the Zone engine reads and writes them (COLUMNS above). The views are
  // rebuilt when memory grows (Arena.onGrow) and when the region moves (grow).
  cls!: Uint8Array;
  state!: Uint8Array;
  m!: Int32Array;
  instances!: Int32Array;
  live!: Int32Array;
  /** Bit 0: deadline timer pending; bit 1: regeneration timer pending; bit 2: regeneration armed. */
  timers!: Uint8Array;
  arrival!: Float64Array;
  service!: Float64Array;
  ev!: Float64Array;
  budget!: Float64Array;
  /** Declared memory (GiB) a workload gave the task (a trace's column); NaN: its atoms times memory.declaredPerAtomGiB. */
  memGiB!: Float64Array;
  /** Identity for the memory process (arrival order, mod 2^32). */
  key!: Uint32Array;
  /**
   * The Airlock ledger entry (a D_SUSPENDED DA) of a suspended task, else -1:
   * the source Zone's own record (only the partition that owns that Zone sets it).
   */
  anchor!: Int32Array;
  /** Gateway side: 1 while a reactivated task waits for a secondary landing (learnt one message delay late). */
  awaiting!: Uint8Array;
  /** Gateway side: the Zone of a reactivated task's ledger entry (where its secondary probes pull the image from). */
  home!: Int32Array;
  /** The core-memory region of the columns (byte offset, 8-aligned). */
  columnsAt: number;
  /** Slots the columns hold. */
  capacity: number;

  constructor(private readonly arena: Arena) {
    this.slots = new SlotStore(1 << 14, true, { grow: (n) => this.generations(n) });
    this.capacity = this.slots.capacity;
    this.columnsAt = this.region(this.capacity);
    this.rebind();
    followGrowth(arena, this);
  }

  /** A zeroed region for the columns of `cap` tasks. */
  private region(cap: number): number {
    return this.arena.allocZeroed(cap * TASK_BYTES, 8);
  }

  /**
   * The slot store grows (or starts) to n slots: a region for n
   * generations, the current ones copied in (the rest 0: never handed
   * out), as a view; the columns grow with it, so that they always hold
   * every slot the store may hand out (the Zone engine takes slots too).
   */
  private generations(n: number): Int32Array {
    const first = this.genCap === 0;
    const p = this.arena.allocZeroed(4 * n, 8); // may grow memory: rebind() follows the old region
    let u8 = this.arena.u8;
    u8.copyWithin(p, this.genAt, this.genAt + 4 * this.genCap);
    this.genAt = p;
    this.genCap = n;
    if (!first) this.grow(n);
    u8 = this.arena.u8;
    return new Int32Array(u8.buffer, p, n);
  }

  /** (Re)build the columns' views (memory's current buffer), and the generations'. */
  rebind(): void {
    if (this.genCap > 0) this.slots.rebindGenerations(new Int32Array(this.arena.u8.buffer, this.genAt, this.genCap));
    const b = this.arena.u8.buffer as ArrayBuffer, cap = this.capacity;
    let p = this.columnsAt;
    const next = <T>(make: new (b: ArrayBuffer, at: number, n: number) => T, bytes: number): T => {
      const v = new make(b, p, cap);
      p += bytes * cap;
      return v;
    };
    this.arrival = next(Float64Array, 8); this.ev = next(Float64Array, 8); this.budget = next(Float64Array, 8);
    this.service = next(Float64Array, 8); this.memGiB = next(Float64Array, 8);
    this.live = next(Int32Array, 4); this.instances = next(Int32Array, 4); this.m = next(Int32Array, 4);
    this.key = next(Uint32Array, 4); this.anchor = next(Int32Array, 4); this.home = next(Int32Array, 4);
    this.state = next(Uint8Array, 1); this.timers = next(Uint8Array, 1); this.cls = next(Uint8Array, 1);
    this.awaiting = next(Uint8Array, 1);
  }

  alloc(): number {
    return this.slots.alloc();
  }

  /** The columns for n tasks. */
  private grow(n: number): void {
    const old = this.capacity, from = this.columnsAt, to = this.region(n);
    // each column from the old region into its place in the new one (region() may have grown memory: read anew)
    const u8 = this.arena.u8;
    let a = 0, b = 0;
    for (const [, bytes] of COLUMNS) {
      u8.copyWithin(to + b, from + a, from + a + bytes * old);
      a += bytes * old;
      b += bytes * n;
    }
    this.columnsAt = to;
    this.capacity = n;
    this.rebind();
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
