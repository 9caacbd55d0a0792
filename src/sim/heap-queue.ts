// The baseline event queue: one 4-ary KeyedHeap over every pending event,
// with the contract of event-queue.ts. It is the property tests' oracle
// (simple enough to trust by reading) and the benchmark's baseline, with the
// same economies as CalendarQueue: posted events carry kind and subject in
// the heap entry (item = ~kind, tag = subject) and own no slot; pushed events
// own a slot (item = slot, tag = generation). Cancellation frees the slot at
// once; the entry is dropped when it reaches the top.
import { badEvent, badPost, checkClock, checkEvent, MAX_QUEUE_TIME, okPayload, type EventQueue } from "./event-queue.js";
import { KeyedHeap } from "./keyed-heap.js";
import { growTyped, HANDLE_SCALE, SlotStore } from "./slot-store.js";

export class HeapQueue implements EventQueue {
  now = 0;
  limit = Infinity;
  size = 0;
  pushes = 0;
  kind = 0;
  subject = 0;

  private readonly heap: KeyedHeap;
  private readonly slots: SlotStore;
  private cap: number;
  private kinds: Int32Array;
  private subjects: Int32Array;

  constructor(initialCapacity = 1024, start = 0) {
    checkClock(start);
    this.now = start;
    this.heap = new KeyedHeap(initialCapacity);
    this.slots = new SlotStore(initialCapacity);
    this.cap = this.slots.capacity;
    this.kinds = new Int32Array(this.cap);
    this.subjects = new Int32Array(this.cap);
  }

  push(t: number, kind: number, subject: number): number {
    checkEvent(this.now, t, kind, subject);
    const s = this.enqueueSlot(kind, subject);
    this.heap.push(t, this.pushes++, s, this.slots.generation(s));
    this.size++;
    return this.slots.handle(s);
  }

  /** A slot for a cancellable event, holding its kind and subject. */
  private enqueueSlot(kind: number, subject: number): number {
    const s = this.slots.alloc();
    if (s >= this.cap) {
      this.cap = this.slots.capacity;
      this.kinds = growTyped(this.kinds, this.cap);
      this.subjects = growTyped(this.subjects, this.cap);
    }
    this.kinds[s] = kind;
    this.subjects[s] = subject;
    return s;
  }

  post(delay: number, kind: number, subject: number): void {
    const t = this.now + delay;
    if (!(delay >= 0 && Math.floor(delay) === delay && t <= MAX_QUEUE_TIME && okPayload(kind, subject))) badPost(this.now, delay, kind, subject);
    this.heap.push(t, this.pushes++, ~kind, subject);
    this.size++;
  }

  postInto(delay: number, kind: number, subject: number, out: Float64Array, index: number): void {
    const t = this.now + delay;
    if (!(delay >= 0 && Math.floor(delay) === delay && t <= MAX_QUEUE_TIME && okPayload(kind, subject))) badPost(this.now, delay, kind, subject);
    const s = this.enqueueSlot(kind, subject);
    const g = this.slots.generation(s);
    this.heap.push(t, this.pushes++, s, g);
    this.size++;
    out[index] = g * HANDLE_SCALE + s;
  }

  cancelIn(column: Float64Array, index: number): boolean {
    return this.cancel(column[index]);
  }

  cancel(h: number): boolean {
    const s = this.slots.slotOf(h);
    if (s < 0) return false;
    this.slots.release(s);
    this.size--;
    return true;
  }

  isPending(h: number): boolean {
    return this.slots.slotOf(h) >= 0;
  }

  peekTime(): number {
    this.dropCancelled();
    return this.heap.topTime();
  }

  popBefore(limit: number): boolean {
    this.limit = limit;
    return this.pop();
  }

  pop(): boolean {
    this.dropCancelled();
    const heap = this.heap;
    if (heap.size === 0 || !(heap.time[0] < this.limit)) return false;
    const s = heap.item[0];
    this.now = heap.time[0];
    if (s >= 0) {
      this.kind = this.kinds[s];
      this.subject = this.subjects[s];
      this.slots.release(s);
    } else {
      this.kind = ~s;
      this.subject = heap.tag[0];
    }
    heap.pop();
    this.size--;
    return true;
  }

  advance(t: number): void {
    checkClock(t);
    if (!(t >= this.now && t <= this.peekTime())) badEvent("advance to", t);
    this.now = t;
  }

  clear(): void {
    this.heap.clear();
    this.slots.clear();
    this.size = 0;
  }

  private dropCancelled(): void {
    const heap = this.heap;
    while (heap.size > 0 && heap.item[0] >= 0 && !this.slots.holds(heap.item[0], heap.tag[0])) heap.pop();
  }
}
