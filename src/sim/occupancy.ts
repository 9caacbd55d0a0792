// An occupancy bitset over bucket numbers: bit b = 1 <=> bucket b holds
// records. scan(start, end) finds the first occupied bucket in a range with
// one word read per 32 buckets (count-trailing-zeros within a word), as
// tokio's wheel does with one u64 per level; the CalendarQueue keeps each
// level's buckets in one contiguous range of 2^bits.

export class Occupancy {
  readonly size: number;
  private readonly bits: Int32Array;

  /** `size` buckets, a multiple of 32. */
  constructor(size: number) {
    if (!Number.isInteger(size) || size < 32 || size % 32 !== 0 || size > 2 ** 30) {
      throw new RangeError(`Occupancy: size must be a multiple of 32 in [32, 2^30], got ${size}`);
    }
    this.size = size;
    this.bits = new Int32Array(size >>> 5);
  }

  set(b: number): void {
    this.bits[b >>> 5] |= 1 << (b & 31);
  }

  clear(b: number): void {
    this.bits[b >>> 5] &= ~(1 << (b & 31));
  }

  has(b: number): boolean {
    return ((this.bits[b >>> 5] >>> (b & 31)) & 1) === 1;
  }

  clearAll(): void {
    this.bits.fill(0);
  }

  /** First set bucket in [start, end), or -1. Requires 0 <= start, end <= size, and end a multiple of 32. */
  scan(start: number, end: number): number {
    if (start >= end) return -1;
    const bits = this.bits;
    let w = start >>> 5;
    let m = bits[w] & (-1 << (start & 31));
    const last = end >>> 5;
    while (m === 0) {
      if (++w >= last) return -1;
      m = bits[w];
    }
    return (w << 5) + ctz32(m);
  }
}

/** Trailing zeros of a non-zero 32-bit word. */
export function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}
