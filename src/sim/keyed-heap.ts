// A 4-ary min-heap of (time, seq, item, tag) records in parallel typed
// arrays (item and tag: two int32s of payload). Keys sit inline, side by
// side, so a sift compares without chasing the item into another array.
// Order: time, then seq (callers make seq unique, so the order is total and
// pops are deterministic).
//
// Layout: node i has children 4i+1 .. 4i+4 and parent (i-1) >> 2. A 4-ary
// heap is half as deep as a binary one, and a node's four children share a
// cache line or two of each key array: the usual choice for event lists. It
// is the whole pending set of the baseline HeapQueue, and the CalendarQueue's
// small heap of late events.
//
// Invariant: for 0 < i < size, key(parent(i)) < key(i).
// Grows by doubling; never shrinks; allocates nothing on push/pop otherwise.

export class KeyedHeap {
  time: Float64Array;
  seq: Float64Array;
  item: Int32Array;
  tag: Int32Array;
  size = 0;

  constructor(initialCapacity = 256) {
    const n = Math.max(4, initialCapacity | 0);
    this.time = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.item = new Int32Array(n);
    this.tag = new Int32Array(n);
  }

  /** Insert, keeping the heap order. Tiny, so it inlines; siftUp takes only an index (no boxed double). */
  push(t: number, s: number, item: number, tag: number): void {
    this.append(t, s, item, tag);
    this.siftUp(this.size - 1);
  }

  /** Move the record at i up to its place. */
  private siftUp(i: number): void {
    const time = this.time, seq = this.seq, it = this.item, tg = this.tag;
    const t = time[i], s = seq[i], item = it[i], tag = tg[i];
    // Move the hole up while the parent is larger, then drop the record in.
    while (i > 0) {
      const p = (i - 1) >> 2;
      const pt = time[p];
      if (pt < t || (pt === t && seq[p] < s)) break;
      time[i] = pt; seq[i] = seq[p]; it[i] = it[p]; tg[i] = tg[p];
      i = p;
    }
    time[i] = t; seq[i] = s; it[i] = item; tg[i] = tag;
  }

  /** Append without restoring the order; call heapify() before the next push/pop. */
  append(t: number, s: number, item: number, tag: number): void {
    if (this.size === this.time.length) this.grow();
    const i = this.size++;
    this.time[i] = t; this.seq[i] = s; this.item[i] = item; this.tag[i] = tag;
  }

  /** Restore the heap order after append() calls (Floyd: O(size)). */
  heapify(): void {
    const n = this.size;
    for (let i = (n - 2) >> 2; i >= 0; i--) {
      this.siftDown(i, i, n);
    }
  }

  /** Time of the minimum; Infinity when empty. */
  topTime(): number {
    return this.size > 0 ? this.time[0] : Infinity;
  }

  /** Remove the minimum (the record at index 0). Precondition: size > 0. */
  pop(): void {
    const n = --this.size;
    if (n > 0) this.siftDown(0, n, n);
  }

  clear(): void {
    this.size = 0;
  }

  /**
   * Place the record now at index src into hole i of a heap of n records,
   * moving smaller children up. (Indices, not the record's time: a double
   * argument would be boxed wherever V8 does not inline the call.)
   */
  private siftDown(i: number, src: number, n: number): void {
    const time = this.time, seq = this.seq, it = this.item, tg = this.tag;
    const t = time[src], s = seq[src], item = it[src], tag = tg[src];
    for (;;) {
      const c = 4 * i + 1;
      if (c >= n) break;
      // Smallest of up to four children.
      let m = c;
      let mt = time[c];
      const end = c + 4 < n ? c + 4 : n;
      for (let j = c + 1; j < end; j++) {
        const jt = time[j];
        if (jt < mt || (jt === mt && seq[j] < seq[m])) { m = j; mt = jt; }
      }
      if (t < mt || (t === mt && s < seq[m])) break;
      time[i] = mt; seq[i] = seq[m]; it[i] = it[m]; tg[i] = tg[m];
      i = m;
    }
    time[i] = t; seq[i] = s; it[i] = item; tg[i] = tag;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const t = new Float64Array(n); t.set(this.time); this.time = t;
    const s = new Float64Array(n); s.set(this.seq); this.seq = s;
    const it = new Int32Array(n); it.set(this.item); this.item = it;
    const tg = new Int32Array(n); tg.set(this.tag); this.tag = tg;
  }
}
