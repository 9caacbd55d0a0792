// The buckets of the CalendarQueue's wheel: one append-only list of event
// records per bucket, each list a chain of fixed-size chunks drawn from a
// shared pool. Appends write one record in place; opening a bucket sorts the
// positions of its records (the records stay put). Records are 24 bytes,
// interleaved in one ArrayBuffer, so an append or a read touches one cache
// line, not one line per column:
//
//   record r:  f64[3r] time | i32[6r+2] kind | i32[6r+3] subject | i32[6r+4] slot | i32[6r+5] generation
//   chunk c:   records [c C, (c+1) C), C = CHUNK; chunkNext[c] = the next chunk of its list
//   bucket b:  meta[4b] first chunk (-1: empty) | meta[4b+1] record index of the next append | meta[4b+2] records
//
// Slot -1 marks a posted event, which owns no slot. Records carry no
// sequence number: within a bucket, append order already breaks ties
// (calendar-queue.ts explains why). A bucket's records stay in append order.
// Chunks return to a free stack once their records are consumed (close,
// freeChain). Capacity grows by doubling; nothing is allocated per record.
// An Occupancy bitset tracks the non-empty buckets; the CalendarQueue gives
// each level of its wheel a contiguous range of bucket numbers.
import { Occupancy } from "./occupancy.js";
import { digits, type SortedRun } from "./sorted-run.js";

/** Records per chunk (768 bytes): long enough for the prefetcher, short enough for sparse buckets. */
export const CHUNK = 32;
export const CHUNK_SHIFT = 5;

export class BucketLists {
  readonly buckets: number;
  f64: Float64Array;
  i32: Int32Array;
  readonly occ: Occupancy;
  /** Per bucket b, one cache line's worth: [4b] first chunk (-1: empty), [4b+1] next append's record index, [4b+2] records. */
  private readonly meta: Int32Array;
  private chunkNext: Int32Array;
  private freeChunks: Int32Array;
  private freeTop = 0;
  /** Chunks [0, fresh) have been used at least once. */
  private fresh = 0;

  /** Record times are a W + rel with W = 2^shift (see append). */
  private readonly width: number;

  constructor(buckets: number, shift: number, initialChunks = 256) {
    this.width = 2 ** shift;
    this.occ = new Occupancy(buckets);
    this.buckets = buckets;
    this.meta = new Int32Array(4 * buckets);
    for (let b = 0; b < buckets; b++) this.meta[4 * b] = -1;
    const n = Math.max(1, initialChunks);
    const buf = new ArrayBuffer(n * CHUNK * 24);
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
    this.chunkNext = new Int32Array(n);
    this.freeChunks = new Int32Array(n);
  }

  /** Records in bucket b. */
  size(b: number): number {
    return this.meta[4 * b] < 0 ? 0 : this.meta[4 * b + 2];
  }

  /**
   * Append a record to bucket b (0 <= b < buckets), at time a W + rel. The
   * time comes as two integers (finest bucket a, offset rel < W) because a
   * double argument would be boxed, an allocation, whenever V8 does not
   * inline this call; integers below 2^31 never are.
   */
  append(b: number, a: number, rel: number, kind: number, subject: number, slot: number, gen: number): void {
    const meta = this.meta, m = 4 * b;
    let r = meta[m + 1];
    if (meta[m] < 0) {
      const c = this.newChunk();
      meta[m] = c;
      meta[m + 2] = 0;
      r = c << CHUNK_SHIFT;
      this.occ.set(b);
    } else if ((r & (CHUNK - 1)) === 0) {
      // The tail chunk is full: chain a new one after it.
      const c = this.newChunk();
      this.chunkNext[(r - 1) >> CHUNK_SHIFT] = c;
      r = c << CHUNK_SHIFT;
    }
    meta[m + 1] = r + 1;
    meta[m + 2]++;
    this.f64[3 * r] = a * this.width + rel;
    const i = 6 * r;
    this.i32[i + 2] = kind;
    this.i32[i + 3] = subject;
    this.i32[i + 4] = slot;
    this.i32[i + 5] = gen;
  }

  /**
   * Make bucket b the open run: list its record positions in `run`, sorted
   * by time, stably; its times lie in [a 2^shift, (a + 1) 2^shift). (An
   * integer a, not the double base, so that nothing is boxed.) The bucket becomes
   * empty, but its chunks stay allocated, and its records in place, until
   * close(run). Precondition: run is closed.
   */
  open(b: number, run: SortedRun, a: number, shift: number): void {
    const base = a * 2 ** shift;
    const meta = this.meta, m = 4 * b;
    const first = meta[m];
    run.len = 0;
    run.pos = 0;
    if (first < 0) return;
    const end = meta[m + 1], k = meta[m + 2];
    meta[m] = -1;
    this.occ.clear(b);
    run.chain = first;
    run.chainEnd = end;
    run.reserve(k);
    run.len = k;
    const f64 = this.f64, d = digits(k, shift);
    // Positions in append order: straight into idx, or into tmp for a counting pass.
    const list = d > 0 ? run.tmp : run.idx;
    let n = 0;
    for (let c = first; ; c = this.chunkNext[c]) {
      const r0 = c << CHUNK_SHIFT, r1 = ((end - 1) >> CHUNK_SHIFT) === c ? end : r0 + CHUNK;
      for (let r = r0; r < r1; r++) list[n++] = r;
      if (r1 === end) break;
    }
    if (d > 0) {
      const counts = run.counts, idx = run.idx, lo = shift - d, dm = (1 << d) - 1;
      counts.fill(0, 0, dm + 1);
      for (let i = 0; i < k; i++) counts[((f64[3 * list[i]] - base) >>> lo) & dm]++;
      let sum = 0;
      for (let x = 0; x <= dm; x++) {
        const c = counts[x];
        counts[x] = sum;
        sum += c;
      }
      for (let i = 0; i < k; i++) {
        const r = list[i];
        idx[counts[((f64[3 * r] - base) >>> lo) & dm]++] = r;
      }
    }
    run.insertionSort(f64);
  }

  /** Free the chunks of a consumed (or abandoned) run and mark it closed. */
  close(run: SortedRun): void {
    if (run.chain >= 0) this.freeChain(run.chain, run.chainEnd);
    run.chain = -1;
    run.len = 0;
    run.pos = 0;
  }

  /** First chunk of bucket b (-1: empty), and the record index after its last. */
  first(b: number): number {
    return this.meta[4 * b];
  }
  end(b: number): number {
    return this.meta[4 * b + 1];
  }

  /** The chunk after c in its chain. */
  next(c: number): number {
    return this.chunkNext[c];
  }

  /** Empty bucket b without freeing its chunks (the caller reads them, then calls freeChain). */
  detach(b: number): void {
    const m = 4 * b;
    if (this.meta[m] < 0) return;
    this.meta[m] = -1;
    this.occ.clear(b);
  }

  /** Return a detached chain [first, end) to the free stack. */
  freeChain(first: number, end: number): void {
    for (let c = first; ; c = this.chunkNext[c]) {
      this.freeChunks[this.freeTop++] = c;
      if (((end - 1) >> CHUNK_SHIFT) === c) break;
    }
  }

  /** Empty every bucket. */
  clear(): void {
    for (let b = 0; b < this.buckets; b++) this.meta[4 * b] = -1;
    this.occ.clearAll();
    this.freeTop = 0;
    this.fresh = 0;
  }

  private newChunk(): number {
    if (this.freeTop > 0) return this.freeChunks[--this.freeTop];
    if (this.fresh === this.chunkNext.length) this.grow();
    return this.fresh++;
  }
  private grow(): void {
    const n = this.chunkNext.length * 2;
    const buf = new ArrayBuffer(n * CHUNK * 24);
    new Uint8Array(buf).set(new Uint8Array(this.f64.buffer));
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
    const next = new Int32Array(n);
    next.set(this.chunkNext);
    this.chunkNext = next;
    const free = new Int32Array(n);
    free.set(this.freeChunks);
    this.freeChunks = free;
  }
}
