// The open bucket of the CalendarQueue: the positions of its records in the
// BucketLists storage, sorted by time, consumed front to back. The records
// themselves do not move; only 4-byte positions are sorted, and the bucket's
// chunk chain stays allocated until the run is consumed (BucketLists.open,
// BucketLists.close). Why a stable sort by time yields (time, seq) order is
// explained in calendar-queue.ts.
//
// Sorting (BucketLists.open): positions are listed in append order; large
// runs get one stable counting pass on the top bits of rel = time - base
// (digits() below: about log2 k bits, so the counts cost O(k) and each group
// of equal digits holds about one record); a final insertion sort, stable,
// finishes in about one move per record.

const SMALL = 16;

/**
 * Digit bits of the counting pass for k records whose times span 2^shift:
 * 0 (insertion sort alone) for small runs; else about log2 k.
 */
export function digits(k: number, shift: number): number {
  return k > SMALL && shift > 4 ? Math.min(shift, 12, 32 - Math.clz32(k)) : 0;
}

export class SortedRun {
  /** Record positions, sorted by time: [pos, len) are still to be consumed. */
  idx: Int32Array;
  len = 0;
  pos = 0;
  /** The chunk chain holding the run's records ([chain, chainEnd) as in BucketLists), or -1. */
  chain = -1;
  chainEnd = 0;
  /** Scratch: the pre-pass positions, and the digit counts. */
  tmp: Int32Array;
  readonly counts = new Int32Array(4096);

  constructor(initial = 1024) {
    this.idx = new Int32Array(initial);
    this.tmp = new Int32Array(initial);
  }

  /** Room for n positions (contents dropped). */
  reserve(n: number): void {
    if (n <= this.idx.length) return;
    let m = this.idx.length;
    while (m < n) m *= 2;
    this.idx = new Int32Array(m);
    this.tmp = new Int32Array(m);
  }

  /** Stable insertion sort of idx[0, len) by f64[3 idx[i]] (the records' times). */
  insertionSort(f64: Float64Array): void {
    const idx = this.idx, k = this.len;
    for (let i = 1; i < k; i++) {
      const r = idx[i], t = f64[3 * r];
      let j = i;
      while (j > 0 && f64[3 * idx[j - 1]] > t) {
        idx[j] = idx[j - 1];
        j--;
      }
      idx[j] = r;
    }
  }
}
