// A run's fingerprint: a 64-bit hash over its event trace (time, kind,
// subject) in dispatch order, as OMNeT++'s fingerprint regression tests do.
// Tests pin the fingerprints of fixed-seed runs, so a change of behaviour is
// a conscious one. Two murmur3 lanes with different seeds; the hash depends
// on order, so it also catches two events swapping places.

const TWO32 = 4294967296;

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Fingerprint {
  /** Events added. */
  count = 0;
  private readonly h = new Int32Array([0x6a09e667, 0x3c6ef372 | 0]);

  /** Fold one event in; `time` an integer < 2^53, kind and subject int32. */
  add(time: number, kind: number, subject: number): void {
    this.mixIn(time % TWO32 | 0, (time / TWO32) | 0, kind, subject);
  }

  /** add(e.now, e.kind, e.subject), reading the time here: a double argument would be boxed. */
  addEvent(e: { readonly now: number; readonly kind: number; readonly subject: number }): void {
    const t = e.now;
    this.mixIn(t % TWO32 | 0, (t / TWO32) | 0, e.kind, e.subject);
  }

  private mixIn(lo: number, hi: number, kind: number, subject: number): void {
    const h = this.h;
    h[0] = mix(mix(mix(mix(h[0], lo), hi), kind), subject);
    h[1] = mix(mix(mix(mix(h[1], subject), kind), hi), lo);
    this.count++;
  }

  /** Take another fold's state (lanes and count): the core Zone engine's trace (assembly/engine/trace.ts) is this hash. */
  restore(h0: number, h1: number, count: number): void {
    this.h[0] = h0;
    this.h[1] = h1;
    this.count = count;
  }

  /** 16 hex digits, over the events and their count. */
  hex(): string {
    const a = fmix(this.h[0] ^ this.count), b = fmix(this.h[1] ^ Math.floor(this.count / TWO32) ^ this.count);
    return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
  }
}
