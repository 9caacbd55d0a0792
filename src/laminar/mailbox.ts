// Timestamped messages between a Zone partition and the gateway side, or
// between two Zones (docs/parallel.md). Every message is delivered exactly
// one delay (half a network hop) after it is sent, so the messages a
// partition sends during one synchronisation window are only ever delivered
// in a later window: windows run without hearing from anybody, and the
// exchange at each window's end is all the coupling there is.
//
// Determinism: a window's messages are put in canonical order, (delivery
// time, source Zone, order of sending within that Zone), whoever ran the
// Zone. The order of sending within a Zone never depends on the partition
// (a Zone's events run in the same order in every partition that could hold
// it), so sorting by (time, Zone) with a stable sort, then merging the
// partitions' sorted boxes by the same key, gives the same sequence for any
// number of partitions.
//
// A message is REC doubles in one Float64Array (a SharedArrayBuffer's, when
// partitions run on worker threads): no object per message.

/** Doubles per message. */
export const REC = 10;
/** Field offsets in a record. */
export const F_TIME = 0, F_ZONE = 1, F_KIND = 2, F_DEST = 3, F_A = 4, F_B = 5, F_C = 6, F_X = 7, F_Y = 8, F_W = 9;
/** Destination of a message for the gateway side (every partition holds a replica of it). */
export const TO_GATEWAY = -1;

export class Mailbox {
  /** Messages held. */
  n = 0;
  buf: Float64Array;
  private perm = new Int32Array(0);
  private tmp = new Float64Array(0);

  constructor(capacity = 1024) {
    this.buf = new Float64Array(capacity * REC);
  }

  /** Append a message from Zone `zone`, delivered at `time` to `dest` (a Zone, or TO_GATEWAY). */
  push(time: number, zone: number, kind: number, dest: number, a: number, b: number, c: number, x: number, y: number, w: number): void {
    if ((this.n + 1) * REC > this.buf.length) {
      const g = new Float64Array(this.buf.length * 2);
      g.set(this.buf);
      this.buf = g;
    }
    const b0 = this.n++ * REC, f = this.buf;
    f[b0] = time; f[b0 + 1] = zone; f[b0 + 2] = kind; f[b0 + 3] = dest;
    f[b0 + 4] = a; f[b0 + 5] = b; f[b0 + 6] = c; f[b0 + 7] = x; f[b0 + 8] = y; f[b0 + 9] = w;
  }

  /** Room for n more records (the buffer doubles as often as needed). */
  private room(n: number): void {
    let cap = this.buf.length;
    while ((this.n + n) * REC > cap) cap *= 2;
    if (cap !== this.buf.length) {
      const g = new Float64Array(cap);
      g.set(this.buf);
      this.buf = g;
    }
  }

  /** Append n records (REC doubles each) from f at `at`, in order. */
  append(f: Float64Array, at: number, n: number): void {
    this.room(n);
    this.buf.set(f.subarray(at, at + n * REC), this.n * REC);
    this.n += n;
  }

  clear(): void {
    this.n = 0;
  }

  /**
   * Canonical order in place: by (time, Zone), stable. Every message takes
   * the same delay and a partition sends in time order, so times never
   * decrease within a box; only runs of equal time (many nodes settle their
   * windows at the same nanosecond) need ordering by Zone: a stable
   * counting sort of each such run.
   */
  sort(): void {
    const n = this.n, f = this.buf;
    let i = 0;
    while (i < n) {
      let j = i + 1, sorted = true;
      while (j < n && f[j * REC] === f[i * REC]) {
        if (f[j * REC + F_ZONE] < f[(j - 1) * REC + F_ZONE]) sorted = false;
        j++;
      }
      if (j < n && f[j * REC] < f[i * REC]) throw new Error("mailbox: messages out of time order (every message must take the same delay)");
      if (!sorted) this.sortRunByZone(i, j);
      i = j;
    }
  }

  /** Stable counting sort of records [i, j) by Zone. */
  private sortRunByZone(i: number, j: number): void {
    const f = this.buf, k = j - i;
    let zmax = 0;
    for (let r = i; r < j; r++) zmax = Math.max(zmax, f[r * REC + F_ZONE]);
    if (this.perm.length < zmax + 2) this.perm = new Int32Array((zmax + 2) * 2);
    const start = this.perm;
    start.fill(0, 0, zmax + 2);
    for (let r = i; r < j; r++) start[f[r * REC + F_ZONE] + 1]++;
    for (let z = 0; z <= zmax; z++) start[z + 1] += start[z];
    if (this.tmp.length < k * REC) this.tmp = new Float64Array(k * REC * 2);
    const t = this.tmp;
    for (let r = i; r < j; r++) {
      const dst = start[f[r * REC + F_ZONE]]++ * REC, src = r * REC;
      for (let x = 0; x < REC; x++) t[dst + x] = f[src + x];
    }
    f.set(t.subarray(0, k * REC), i * REC);
  }
}

/**
 * Advance from `now` to `until` in windows on the grid k * L: `runTo` each
 * piece (a window, or the part of one before `until`), and `exchange` at
 * every grid point reached. Returns `until`.
 */
export function runWindows(now: number, until: number, L: number, runTo: (t: number) => void, exchange: () => void): number {
  while (now < until) {
    const gridEnd = (Math.floor(now / L) + 1) * L;
    const stop = Math.min(until, gridEnd);
    runTo(stop);
    now = stop;
    if (stop === gridEnd) exchange();
  }
  return now;
}

/**
 * mergeRuns's order, copied: the runs' records written to `out` from
 * offset `o` on, merged in canonical order; returns how many.
 */
export function mergeInto(out: Float64Array, o: number, lists: Float64Array[], counts: ArrayLike<number>): number {
  const k = lists.length;
  let total = 0, some = -1;
  for (let r = 0; r < k; r++) {
    total += counts[r];
    if (counts[r] > 0) some = some === -1 ? r : -2;
  }
  if (some !== -2) {
    // one run holds them all: copied whole
    if (some >= 0) out.set(lists[some].subarray(0, total * REC), o);
    return total;
  }
  const pos = new Array<number>(k).fill(0);
  for (let end = o + total * REC; o < end; o += REC) {
    const best = nextRun(lists, counts, pos);
    copyRec(out, o, lists[best], pos[best]++ * REC);
  }
  return total;
}

/** One record (REC doubles) from f at `at` to out at o. */
function copyRec(out: Float64Array, o: number, f: Float64Array, at: number): void {
  out[o] = f[at];
  out[o + 1] = f[at + 1];
  out[o + 2] = f[at + 2];
  out[o + 3] = f[at + 3];
  out[o + 4] = f[at + 4];
  out[o + 5] = f[at + 5];
  out[o + 6] = f[at + 6];
  out[o + 7] = f[at + 7];
  out[o + 8] = f[at + 8];
  out[o + 9] = f[at + 9];
}

/** Whether the record at offset i goes strictly before the one at offset j (time, then Zone). */
function before(f: Float64Array, i: number, j: number, g = f): boolean {
  return f[i] < g[j] || (f[i] === g[j] && f[i + 1] < g[j + 1]);
}

/**
 * Merge sorted runs of records (each `lists[k]` holding `counts[k]` records
 * from offset 0) into `visit`, in canonical order; ties between runs go to
 * the lower run index, which cannot happen between different partitions
 * (a Zone belongs to one) and keeps the merge stable.
 */
export function mergeRuns(lists: Float64Array[], counts: number[], visit: (f: Float64Array, at: number) => void): void {
  const k = lists.length;
  if (k === 1) {
    const f = lists[0];
    for (let i = 0; i < counts[0]; i++) visit(f, i * REC);
    return;
  }
  const pos = new Array<number>(k).fill(0);
  for (;;) {
    const best = nextRun(lists, counts, pos);
    if (best < 0) return;
    visit(lists[best], pos[best]++ * REC);
  }
}

/** The run whose next record (at pos[r]) comes first in canonical order, ties to the lower run; -1 when all are done. */
function nextRun(lists: Float64Array[], counts: ArrayLike<number>, pos: number[]): number {
  let best = -1;
  for (let r = 0; r < lists.length; r++) {
    if (pos[r] >= counts[r]) continue;
    if (best < 0 || before(lists[r], pos[r] * REC, pos[best] * REC, lists[best])) best = r;
  }
  return best;
}
