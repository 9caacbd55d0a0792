// Node memory for the runtime-survival path (Exp5): one record per running
// task in the core's memory, advanced once per runtime tick by the core's
// memTick kernel (assembly/memory.ts documents the process), and every node's
// use in KiB beside them. A suspended task's compressed image is part of its
// node's `base` (memory not in a record). Between ticks the use is kept
// current by hand, with the kernel's rounding, so the arbitrator's
// pre-admission check always reads the node's use now.
import type { Core } from "../core/wasm.js";
import type { Views } from "../core/views.js";
import { BLOCK_ALIGN, MEM, writeMem } from "../core/blocks.js";

const REC = 6;
export const KIB_PER_GIB = 1048576;
/** GiB to whole KiB, rounded as the core's memTick rounds. */
export const kib = (gib: number) => Math.round(gib * KIB_PER_GIB);

/** The process's parameters, fixed for a run (MemoryField writes them into memTick's block once). */
export interface MemoryProcess {
  seed: number;
  kappa: number;
  sigma: number;
  burstRate: number;
  burstScale: number;
}

export class MemoryField {
  private recs = 0;
  private cap = 0;
  count = 0;
  /** Record -> owner (a DA slot); owner -> record (-1: none). */
  private recOwner = new Int32Array(0);
  recOf = new Int32Array(0);
  readonly base: number;
  readonly usage: number;
  private readonly out: number;
  /** memTick's parameter block (src/core/blocks.ts). */
  private readonly block: number;
  private readonly nodes: number;

  constructor(private readonly core: Core, private readonly v: Views, nodes: number, private readonly p: MemoryProcess) {
    this.nodes = nodes;
    this.base = core.arena.alloc(8 * nodes, 8);
    this.usage = core.arena.alloc(8 * nodes, 8);
    this.out = core.arena.alloc(4 * nodes, 16);
    // memTick's block: the process's parameters and the buffers once; recs on growth, count, tick and threshold per tick
    this.block = core.arena.alloc(MEM.BYTES, BLOCK_ALIGN);
    v.sync();
    writeMem(v, this.block, {
      recs: 0, count: 0, nodes, base: this.base, usage: this.usage, out: this.out, outCap: nodes, tick: 0,
      seed: p.seed, kappa: p.kappa, sigma: p.sigma, burstRate: p.burstRate, burstScale: p.burstScale, threshold: 0,
    });
    this.growRecords(1024);
    v.sync();
  }

  /** Make room for owner slots [0, n). */
  growOwners(n: number): void {
    if (n <= this.recOf.length) return;
    const a = new Int32Array(n).fill(-1);
    a.set(this.recOf);
    this.recOf = a;
  }

  private growRecords(cap: number): void {
    const fresh = this.core.arena.alloc(cap * REC * 8, 8);
    this.v.sync();
    if (this.count > 0) this.v.f64.copyWithin(fresh >> 3, this.recs >> 3, (this.recs >> 3) + this.count * REC);
    this.recs = fresh;
    this.v.i32[(this.block + MEM.RECS) >> 2] = fresh;
    this.cap = cap;
    const o = new Int32Array(cap);
    o.set(this.recOwner.subarray(0, this.count));
    this.recOwner = o;
  }

  /** Node n's use now, KiB. */
  use(n: number): number {
    return this.v.f64[(this.usage >> 3) + n];
  }

  /** A task of owner `o` starts running on node n: declared d, true footprint T, drift state x (GiB). */
  add(o: number, n: number, d: number, T: number, x: number, key: number): void {
    if (this.count === this.cap) this.growRecords(this.cap * 2);
    const i = this.count++;
    const f = this.v.f64, b = (this.recs >> 3) + i * REC;
    f[b] = n; f[b + 1] = d; f[b + 2] = T; f[b + 3] = x; f[b + 4] = x; f[b + 5] = key;
    this.recOwner[i] = o;
    this.recOf[o] = i;
    f[(this.usage >> 3) + n] += kib(x);
  }

  /** Owner o's record fields (true footprint, drift, resident), GiB. */
  target(o: number): number { return this.field(o, 2); }
  drift(o: number): number { return this.field(o, 3); }
  resident(o: number): number { return this.field(o, 4); }

  private field(o: number, k: number): number {
    return this.v.f64[(this.recs >> 3) + this.recOf[o] * REC + k];
  }

  /** Owner o's task stops running (ends, is killed or suspended): its resident use leaves the node. */
  remove(o: number): void {
    const i = this.recOf[o];
    if (i < 0) throw new Error(`memory: owner ${o} has no record`);
    const f = this.v.f64, b = (this.recs >> 3) + i * REC;
    f[(this.usage >> 3) + f[b]] -= kib(f[b + 4]);
    const last = --this.count;
    if (i !== last) {
      f.copyWithin(b, (this.recs >> 3) + last * REC, (this.recs >> 3) + (last + 1) * REC);
      const lo = this.recOwner[last];
      this.recOwner[i] = lo;
      this.recOf[lo] = i;
    }
    this.recOf[o] = -1;
  }

  /** A suspended image of `gib` GiB stays on node n (memory outside records). */
  addImage(n: number, gib: number): void {
    this.shiftBase(n, kib(gib));
  }

  /** The image added by addImage(n, gib) leaves node n. */
  removeImage(n: number, gib: number): void {
    this.shiftBase(n, -kib(gib));
  }

  private shiftBase(n: number, k: number): void {
    const f = this.v.f64;
    f[(this.base >> 3) + n] += k;
    f[(this.usage >> 3) + n] += k;
  }

  /**
   * Consistency of the bookkeeping (for the invariant checker): every node's
   * use is its base plus its records' KiB-rounded resident use, and every
   * record's owner points back at it. Returns the first discrepancy, or null.
   */
  audit(): string | null {
    const f = this.v.f64, sums = new Float64Array(this.nodes);
    for (let n = 0; n < this.nodes; n++) sums[n] = f[(this.base >> 3) + n];
    for (let i = 0; i < this.count; i++) {
      const b = (this.recs >> 3) + i * REC;
      sums[f[b]] += kib(f[b + 4]);
      if (this.recOf[this.recOwner[i]] !== i) return `record ${i}: its owner ${this.recOwner[i]} points at record ${this.recOf[this.recOwner[i]]}`;
    }
    for (let n = 0; n < this.nodes; n++) {
      if (sums[n] !== f[(this.usage >> 3) + n]) return `node ${n}: use ${f[(this.usage >> 3) + n]} KiB, records and images sum to ${sums[n]}`;
    }
    return null;
  }

  /** Node n's memory outside records (suspended images), KiB. */
  baseOf(n: number): number {
    return this.v.f64[(this.base >> 3) + n];
  }

  /** Advance every record by one tick; returns the nodes whose use exceeds thresholdKiB (ascending), as a view valid until the next call. */
  tick(tick: number, thresholdKiB: number): Int32Array {
    const v = this.v, b = this.block;
    v.i32[(b + MEM.COUNT) >> 2] = this.count;
    v.f64[(b + MEM.TICK) >> 3] = tick;
    v.f64[(b + MEM.THRESHOLD) >> 3] = thresholdKiB;
    const r = this.core.exports.memTick(b);
    if (r < 0) throw new Error(`memory: memTick returned ${r}`);
    return this.v.i32.subarray(this.out >> 2, (this.out >> 2) + r);
  }
}
