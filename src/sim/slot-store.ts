// A recycled-slot allocator for struct-of-arrays stores (tasks, DAs, pending
// events). The store owns only the bookkeeping: which slots are live, a free
// list, and a generation per slot. The owner keeps its columns (typed arrays
// indexed by slot) and grows them to `capacity` whenever alloc() returns a
// slot at or past its own length; `growTyped` does the copy.
//
// Generations make stale handles detectable. A slot's generation is bumped on
// alloc and again on free, so it is odd exactly while the slot is live:
//
//   gen:    0 --alloc--> 1 --free--> 2 --alloc--> 3 --free--> 4 ...
//           free         live        free         live        free
//
// A handle is `gen * 2^32 + slot` taken while the slot is live (odd gen), an
// integer below 2^53, so it is exact in a JS number and in a Float64Array
// (store handles there, not in an Int32Array). It is valid exactly while the
// slot's generation still equals the one it was issued with: one comparison
// checks both "still allocated" and "not recycled since". Generations wrap at
// 2^21 (even, so parity survives the wrap): a handle is mistaken for a new
// one only after its slot has been recycled 2^20 times while the handle was
// kept, which no owner does by design.
//
// Reuse order is LIFO (the most recently freed slot first): deterministic and
// cache-friendly, since the hottest slots stay in cache. A store made with
// `cyclic` instead hands slots out in rising order from a cursor, skipping
// live ones, and wraps round: the gateway's task table, whose tasks leave
// it in about the order they came, so that a batch of arrivals fills
// neighbouring slots and each column's writes share cache lines (LIFO
// scatters them over the table). It keeps at most half its slots live
// (it grows before), so the cursor finds a free slot in a step or two.

export const MAX_SLOTS = 2 ** 31 - 1;
/** Handles are generation * HANDLE_SCALE + slot. */
export const HANDLE_SCALE = 4294967296;
const TWO32 = HANDLE_SCALE;
const GEN_MASK = 2 ** 21 - 1;

/** Any typed array that `growTyped` can copy. */
export type TypedArray =
  | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** A copy of `a` with length `n` (>= a.length), the new tail filled with `fill`. */
export function growTyped<T extends TypedArray>(a: T, n: number, fill = 0): T {
  const ctor = a.constructor as new (n: number) => T;
  const b = new ctor(n);
  b.set(a as ArrayLike<number> & T);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/** A full ring `a` whose first record is at `head`, unwrapped into a copy twice as long: a[head..], then a[..head]. */
export function growRing<T extends TypedArray>(a: T, head: number): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a.subarray(head) as ArrayLike<number> & T);
  b.set(a.subarray(0, head) as ArrayLike<number> & T, a.length - head);
  return b;
}

/**
 * Where a store's generations live when its owner keeps them (in core
 * memory, where the Zone engine frees slots: src/laminar/store.ts): a
 * region for n of them, the current ones copied in, as a view.
 */
export interface GenerationStorage {
  grow(n: number): Int32Array;
}

export class SlotStore {
  /** Slots [0, capacity) exist; the owner's columns must be at least this long. */
  capacity: number;
  /** Live (allocated, not freed) slots. */
  live = 0;
  /** Generation per slot: odd while live. */
  private gen: Int32Array;
  /** Free slots as a stack: free[0 .. freeTop) (empty and unused when cyclic) */
  private freeList: Int32Array;
  private freeTop = 0;
  /** Slots [0, fresh) have been handed out at least once; [fresh, capacity) never. */
  private fresh = 0;
  /** Cyclic: where the next search for a free slot starts. */
  private cursor = 0;

  constructor(initialCapacity = 1024, private readonly cyclic = false, private readonly storage: GenerationStorage | null = null) {
    if (!Number.isInteger(initialCapacity) || initialCapacity < 1 || initialCapacity > MAX_SLOTS) {
      throw new RangeError(`SlotStore: bad initial capacity ${initialCapacity}`);
    }
    this.capacity = initialCapacity;
    this.gen = storage !== null ? storage.grow(initialCapacity) : new Int32Array(initialCapacity);
    this.freeList = new Int32Array(cyclic ? 0 : initialCapacity); // cyclic: no free list (the generations say what is free)
  }

  /** A free slot, now live; grows (doubling) when none is free. */
  alloc(): number {
    let s: number;
    if (this.cyclic) s = this.nextFree();
    else if (this.freeTop > 0) s = this.freeList[--this.freeTop];
    else {
      if (this.fresh === this.capacity) this.grow();
      s = this.fresh++;
    }
    this.gen[s] = (this.gen[s] + 1) & GEN_MASK;
    this.live++;
    return s;
  }

  /** Cyclic: the first free slot at the cursor or after (a slot never handed out at the end), wrapping round; the cursor moves past it. */
  private nextFree(): number {
    if (2 * (this.live + 1) > this.capacity) this.grow();
    const gen = this.gen;
    let s = this.cursor;
    for (;;) {
      if (s >= this.fresh) {
        if (this.fresh < this.capacity) {
          s = this.fresh++;
          break;
        }
        s = 0;
      }
      if ((gen[s] & 1) === 0) break;
      s++;
    }
    this.cursor = s + 1;
    return s;
  }

  /** Return a live slot; freeing a slot that is not live is a bug and throws. */
  release(s: number): void {
    const g = this.gen[s];
    if ((g & 1) === 0 || !(s >= 0 && s < this.fresh)) throw new RangeError(`SlotStore: slot ${s} is not live`);
    this.gen[s] = (g + 1) & GEN_MASK;
    if (!this.cyclic) this.freeList[this.freeTop++] = s;
    this.live--;
  }

  /** The generations' view anew (the owner's storage moved with its memory, or grew). */
  rebindGenerations(v: Int32Array): void {
    // (while the store grows, its owner's storage may already hold more)
    if (v.length < this.capacity) throw new RangeError(`SlotStore: ${v.length} generations for ${this.capacity} slots`);
    this.gen = v;
  }

  /** `n` live slots freed where the generations lie (each one's generation bumped there). */
  releasedElsewhere(n: number): void {
    this.live -= n;
  }

  /**
   * A cyclic store's allocation state, for an owner that allocates with it
   * where the generations lie (the Zone engine's engineArrive), and that
   * state back afterwards.
   */
  cyclicState(): { cursor: number; fresh: number; live: number } {
    return { cursor: this.cursor, fresh: this.fresh, live: this.live };
  }

  resumeCyclic(cursor: number, fresh: number, live: number): void {
    if (!this.cyclic || !(fresh >= this.fresh && fresh <= this.capacity && live >= 0 && live <= fresh && cursor >= 0 && cursor <= fresh)) {
      throw new RangeError(`SlotStore: allocation state (cursor ${cursor}, fresh ${fresh}, live ${live}) for ${this.capacity} slots`);
    }
    this.cursor = cursor;
    this.fresh = fresh;
    this.live = live;
  }

  /** Whether slot `s` is allocated. */
  isLive(s: number): boolean {
    return s >= 0 && s < this.fresh && (this.gen[s] & 1) === 1;
  }

  /** The generation of slot `s` (odd while live): a handle's high part. */
  generation(s: number): number {
    return this.gen[s];
  }

  /** Whether slot `s` is live with generation `g`, i.e. the handle (g, s) is still valid. */
  holds(s: number, g: number): boolean {
    return this.gen[s] === g;
  }

  /** The handle of live slot `s` (see the header); -1 when `s` is not live. */
  handle(s: number): number {
    return this.isLive(s) ? this.gen[s] * TWO32 + s : -1;
  }

  /** The slot a handle names, or -1 when the handle is stale, malformed or never issued. */
  slotOf(h: number): number {
    if (!(h >= 0 && h <= Number.MAX_SAFE_INTEGER)) return -1;
    const s = h % TWO32;
    const g = (h - s) / TWO32;
    if (!(s < this.fresh) || g !== this.gen[s] || (g & 1) === 0) return -1; // also rejects non-integers
    return s;
  }

  /** Free every slot; every handle issued so far becomes stale. */
  clear(): void {
    for (let s = 0; s < this.fresh; s++) {
      if (this.gen[s] & 1) this.gen[s] = (this.gen[s] + 1) & GEN_MASK;
    }
    // Hand slots out again from 0 upwards, in the order a fresh store would.
    this.freeTop = 0;
    if (!this.cyclic) for (let s = this.fresh - 1; s >= 0; s--) this.freeList[this.freeTop++] = s;
    this.cursor = 0;
    this.live = 0;
  }

  private grow(): void {
    if (this.capacity >= MAX_SLOTS) throw new RangeError("SlotStore: capacity exhausted");
    const n = Math.min(MAX_SLOTS, this.capacity * 2);
    this.gen = this.storage !== null ? this.storage.grow(n) : growTyped(this.gen, n);
    if (!this.cyclic) this.freeList = growTyped(this.freeList, n);
    this.capacity = n;
  }
}
