// Streaming log-linear (HDR-style) latency histogram over integer nanoseconds.
//
// Layout, with s = subBucketBits and S = 2^s:
//   - values v < 2S are stored exactly, one bucket per value (index = v);
//   - a value v >= 2S with highest set bit e (2^e <= v < 2^(e+1)) falls in one of
//     S equal sub-buckets of width 2^(e-s) covering [2^e, 2^(e+1)):
//       index = (e - s + 1) * S + (floor(v / 2^(e-s)) - S).
//   So a bucket's width is at most 2^-s of its lower edge, and a bucket's
//   midpoint is within 2^-(s+1) (relative) of any value in it. Values up to
//   2^53 are covered; one Float64Array of (54 - s) * S + 1 counts is allocated
//   once (the top octave holds only 2^53 itself).
//
// Quantile definition (nearest rank): quantile(q) is the value at 1-based rank
//   r = max(1, ceil(q * count)) of the sorted sample, where q * count is first
//   snapped to the nearest integer when within 1e-12 (relative) of it, so that
//   e.g. q = 0.07, count = 100 gives rank 7 despite floating-point rounding.
//   The value is reported as the midpoint (lowest value + floor(width / 2))
//   of the bucket holding rank r, clamped to [min, max]; ranks 1 and count
//   return min and max exactly (they are known exactly). Hence q = 0 gives
//   min, q = 1 gives max, a one-value histogram returns that value, and an
//   empty histogram returns NaN.
//   Relative error against the exact nearest-rank quantile is below 2^-s.
//
// The sum adds the recorded values themselves (not bucket midpoints) and is
// kept exactly in two limbs (units of 2^32 and a remainder), so it stays exact
// far past 2^53 (up to 2^85 ns). `sum` returns it as the nearest double,
// `sumExact()` as a bigint; toJSON writes it as a number while it is at most
// Number.MAX_SAFE_INTEGER and as a decimal string beyond, so JSON round-trips.

/** Largest recordable value: 2^53. */
export const MAX_RECORDABLE = 2 ** 53;

const TWO32 = 2 ** 32;
/** POW2[k] = 2^k for k in [0, 63]; exact doubles. */
const POW2 = new Float64Array(64);
for (let k = 0; k < 64; k++) POW2[k] = 2 ** k;

/** The compact serialised form: non-empty buckets only, as [index, count]. */
export interface HistogramJSON {
  subBucketBits: number;
  count: number;
  /** null when count is 0. */
  min: number | null;
  /** null when count is 0. */
  max: number | null;
  /** A number when <= Number.MAX_SAFE_INTEGER, else a decimal integer string. */
  sum: number | string;
  buckets: Array<[number, number]>;
}

/** Index of the highest set bit of a positive integer v <= 2^53. */
function highBit(v: number): number {
  const hi = Math.floor(v / TWO32);
  return hi > 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(v >>> 0);
}

function isCount(n: number): boolean {
  return Number.isInteger(n) && n >= 0;
}

export class LatencyHistogram {
  readonly subBucketBits: number;
  private readonly subCount: number;
  private readonly counts: Float64Array;
  private _count = 0;
  /** The exact sum is _sumHi * 2^32 + _sumLo, with _sumLo in [0, 2^32). */
  private _sumHi = 0;
  private _sumLo = 0;
  private _min = Infinity;
  private _max = -Infinity;

  constructor(subBucketBits = 7) {
    if (!Number.isInteger(subBucketBits) || subBucketBits < 1 || subBucketBits > 16) {
      throw new RangeError(`subBucketBits must be an integer in [1, 16], got ${subBucketBits}`);
    }
    this.subBucketBits = subBucketBits;
    this.subCount = POW2[subBucketBits];
    this.counts = new Float64Array((54 - subBucketBits) * this.subCount + 1);
  }

  /** Bucket index of a valid value (integer in [0, 2^53]). */
  private indexOf(v: number): number {
    const s = this.subBucketBits;
    if (v < 2 * this.subCount) return v;
    const e = highBit(v);
    return (e - s + 1) * this.subCount + (Math.floor(v / POW2[e - s]) - this.subCount);
  }

  /** Lowest value in bucket `idx`. */
  private lowOf(idx: number): number {
    const k = Math.floor(idx / this.subCount);
    if (k <= 1) return idx;
    return (this.subCount + (idx - k * this.subCount)) * POW2[k - 1];
  }

  /** Width of bucket `idx` (a power of two). */
  private widthOf(idx: number): number {
    const k = Math.floor(idx / this.subCount);
    return k <= 1 ? 1 : POW2[k - 1];
  }

  /** Adds an integer a in [0, 2^53] to the exact sum. */
  private addSum(a: number): void {
    const ah = Math.floor(a / TWO32);
    this.addLimbs(ah, a - ah * TWO32);
  }

  private addLimbs(hi: number, lo: number): void {
    let l = this._sumLo + lo;
    if (l >= TWO32) {
      l -= TWO32;
      hi += 1;
    }
    this._sumLo = l;
    this._sumHi += hi;
  }

  private static check(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v > MAX_RECORDABLE) {
      throw new RangeError(`latency must be an integer in [0, 2^53] ns, got ${v}`);
    }
  }

  /** Records one value. O(1), allocation-free. */
  record(v: number): void {
    LatencyHistogram.check(v);
    v = v + 0; // -0 -> 0
    const hi = Math.floor(v / TWO32);
    this.add(this.indexOf(v), v, hi, v - hi * TWO32);
  }

  /** One value v, in bucket idx, with sum limbs hi and lo (see addSum). */
  private add(idx: number, v: number, hi: number, lo: number): void {
    this.counts[idx] += 1;
    this._count += 1;
    this.addLimbs(hi, lo);
    if (v < this._min) this._min = v;
    if (v > this._max) this._max = v;
  }

  /** Records value `v` `n` times (n a non-negative integer; 0 is a no-op). */
  recordN(v: number, n: number): void {
    LatencyHistogram.check(v);
    if (!isCount(n)) throw new RangeError(`count must be a non-negative integer, got ${n}`);
    if (n === 0) return;
    v = v + 0;
    this.counts[this.indexOf(v)] += n;
    this._count += n;
    const p = v * n; // exact when below 2^53 (rounding is monotone)
    if (p < MAX_RECORDABLE) this.addSum(p);
    else {
      const b = BigInt(v) * BigInt(n);
      this.addLimbs(Number(b >> 32n), Number(b & 0xffffffffn));
    }
    if (v < this._min) this._min = v;
    if (v > this._max) this._max = v;
  }

  get count(): number {
    return this._count;
  }
  /** Smallest recorded value; NaN when empty. */
  get min(): number {
    return this._count === 0 ? NaN : this._min;
  }
  /** Largest recorded value; NaN when empty. */
  get max(): number {
    return this._count === 0 ? NaN : this._max;
  }
  /** Sum of the recorded values, as the nearest double. */
  get sum(): number {
    return this._sumHi * TWO32 + this._sumLo;
  }
  /** Sum of the recorded values, exactly. */
  sumExact(): bigint {
    return BigInt(this._sumHi) * 2n ** 32n + BigInt(this._sumLo);
  }
  /** Arithmetic mean of the recorded values; NaN when empty. */
  mean(): number {
    return this._count === 0 ? NaN : this.sum / this._count;
  }

  /** Nearest-rank quantile, q in [0, 1]; see the file header. */
  quantile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
    const n = this._count;
    if (n === 0) return NaN;
    let x = q * n;
    const r0 = Math.round(x);
    if (Math.abs(x - r0) <= 1e-12 * Math.max(1, x)) x = r0;
    const rank = Math.max(1, Math.ceil(x));
    if (rank <= 1) return this._min;
    if (rank >= n) return this._max;
    const last = this.indexOf(this._max);
    let seen = 0;
    for (let i = this.indexOf(this._min); i <= last; i++) {
      seen += this.counts[i];
      if (seen >= rank) {
        const mid = this.lowOf(i) + Math.floor(this.widthOf(i) / 2);
        return Math.min(this._max, Math.max(this._min, mid));
      }
    }
    return this._max; // unreachable while counts are consistent
  }

  /** Adds all of `other`'s values to this histogram (same subBucketBits). */
  merge(other: LatencyHistogram): void {
    if (other.subBucketBits !== this.subBucketBits) {
      throw new RangeError(`cannot merge histograms with subBucketBits ${other.subBucketBits} and ${this.subBucketBits}`);
    }
    const n = other._count;
    if (n === 0) return;
    const sumHi = other._sumHi;
    const sumLo = other._sumLo;
    const lo = other._min;
    const hi = other._max;
    const last = other.indexOf(hi);
    for (let i = other.indexOf(lo); i <= last; i++) this.counts[i] += other.counts[i];
    this._count += n;
    this.addLimbs(sumHi, sumLo);
    if (lo < this._min) this._min = lo;
    if (hi > this._max) this._max = hi;
  }

  /**
   * Adds values counted elsewhere in this layout: the bucket counts
   * counts[at + i], `count` values in all, their sum's limbs (sumHi units
   * of 2^32, sumLo below 2^32) and their min and max; what recording each
   * of them would have done. Returns the buckets read, [first, last].
   */
  addCounts(counts: Float64Array, at: number, count: number, sumHi: number, sumLo: number, min: number, max: number): [number, number] {
    if (!isCount(count) || count === 0 || !(min <= max) || !(sumLo >= 0 && sumLo < TWO32) || !Number.isInteger(sumHi)) {
      throw new RangeError(`addCounts: inconsistent counts (count ${count}, min ${min}, max ${max}, sum limbs ${sumHi}, ${sumLo})`);
    }
    LatencyHistogram.check(min);
    LatencyHistogram.check(max);
    const first = this.indexOf(min), last = this.indexOf(max);
    for (let i = first; i <= last; i++) this.counts[i] += counts[at + i];
    this._count += count;
    this.addLimbs(sumHi, sumLo);
    if (min < this._min) this._min = min;
    if (max > this._max) this._max = max;
    return [first, last];
  }

  /** Empties the histogram (keeps the storage). */
  reset(): void {
    this.counts.fill(0);
    this._count = 0;
    this._sumHi = 0;
    this._sumLo = 0;
    this._min = Infinity;
    this._max = -Infinity;
  }

  toJSON(): HistogramJSON {
    const buckets: Array<[number, number]> = [];
    if (this._count > 0) {
      const last = this.indexOf(this._max);
      for (let i = this.indexOf(this._min); i <= last; i++) {
        if (this.counts[i] !== 0) buckets.push([i, this.counts[i]]);
      }
    }
    return {
      subBucketBits: this.subBucketBits,
      count: this._count,
      min: this._count === 0 ? null : this._min,
      max: this._count === 0 ? null : this._max,
      sum: this.sum <= Number.MAX_SAFE_INTEGER ? this.sum : this.sumExact().toString(),
      buckets,
    };
  }

  /** Rebuilds a histogram from toJSON() output; checks it for consistency. */
  static fromJSON(obj: HistogramJSON): LatencyHistogram {
    const bad = (why: string): never => {
      throw new RangeError(`invalid histogram JSON: ${why}`);
    };
    if (typeof obj !== "object" || obj === null) bad("not an object");
    const h = new LatencyHistogram(obj.subBucketBits);
    if (!isCount(obj.count)) bad("count");
    let sum = 0n;
    if (typeof obj.sum === "number" && Number.isSafeInteger(obj.sum) && obj.sum >= 0) sum = BigInt(obj.sum);
    else if (typeof obj.sum === "string" && /^[0-9]+$/.test(obj.sum)) sum = BigInt(obj.sum);
    else bad("sum");
    if (!Array.isArray(obj.buckets)) bad("buckets");
    let total = 0;
    for (const b of obj.buckets) {
      if (!Array.isArray(b) || b.length !== 2) bad("bucket entry");
      const [i, c] = b;
      if (!Number.isInteger(i) || i < 0 || i >= h.counts.length) bad(`bucket index ${i}`);
      if (!isCount(c) || c === 0) bad(`bucket count ${c}`);
      if (h.counts[i] !== 0) bad(`duplicate bucket ${i}`);
      h.counts[i] = c;
      total += c;
    }
    if (total !== obj.count) bad(`bucket counts add to ${total}, count is ${obj.count}`);
    if (obj.count === 0) {
      if (obj.min !== null || obj.max !== null || sum !== 0n) bad("empty histogram with min, max or sum");
      return h;
    }
    const { min, max } = obj;
    if (min === null || max === null) return bad("min/max missing");
    LatencyHistogram.check(min);
    LatencyHistogram.check(max);
    if (min > max) bad("min > max");
    // min and max must sit in the first and last non-empty buckets.
    const lo = h.indexOf(min);
    const hi = h.indexOf(max);
    if (h.counts[lo] === 0 || h.counts[hi] === 0) bad("min/max not in a non-empty bucket");
    for (const [i] of obj.buckets) if (i < lo || i > hi) bad(`bucket ${i} outside [min, max]`);
    const n = BigInt(obj.count);
    if (sum < BigInt(min) * n || sum > BigInt(max) * n) bad("sum outside [min * count, max * count]");
    h._count = obj.count;
    h._sumHi = Number(sum >> 32n);
    h._sumLo = Number(sum & 0xffffffffn);
    h._min = min;
    h._max = max;
    return h;
  }
}
