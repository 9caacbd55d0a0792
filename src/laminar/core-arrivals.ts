// The bimodal workload's arrivals drawn by the core (assembly/arrivals.ts,
// arrivalsDraw) in batches: the same sequence as Arrivals (src/workload/arrivals.ts), task
// for task and bit for bit, with service times and without entry nodes (what
// Laminar's gateway side takes), at a fraction of the cost of drawing each
// task in JavaScript. The streams start as Arrivals starts them (the first
// arrival of each class drawn here), then live in core memory.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import { streamRng } from "../sim/rng.js";
import { bimodalStart } from "../workload/arrivals.js";
import type { ArrivalSource } from "../workload/source.js";

/** The block's fields (assembly/arrivals.ts; docs/abi.md, "Arrivals"): f64 at these byte offsets, the streams' u32[4] at 128, 144, 160. */
export const AB = {
  END: 0, GAP_F: 8, GAP_L: 16, NEXT_F: 24, NEXT_L: 32, F_ATOMS: 40, L_ATOMS: 48, PRICE_F: 56, PRICE_L: 64, F_MEAN_MS: 72,
  L_MU: 80, L_SIGMA: 88, NORMAL: 96, HAVE: 104, COUNT: 112, R_F: 128, R_L: 144, R_SERVICE: 160, BYTES: 176,
} as const;
/** Doubles per task in arrivalsDraw's output: time, class, service time, atoms, price. */
export const A_REC = 5;

export class CoreArrivals implements ArrivalSource {
  time = 0;
  cls = 0;
  service = 0;
  atoms = 0;
  price = 0;
  readonly memGiB = NaN;
  readonly entry = 0;
  count = 0;
  private readonly k: CoreExports;
  private readonly block: number;
  private readonly out: number;
  /** The batch taken from core memory, and where next() is in it. */
  private readonly buf: Float64Array;
  private n = 0;
  private i = 0;
  /** The next task's time (peek), Infinity once the window is over. */
  private head = Infinity;
  /** The last batch was short: the window is over after it. */
  private over = false;

  constructor(private readonly core: Core, c: Config, endNs: number, readonly batch = 512) {
    this.k = core.exports;
    if (this.k.arrivalsBlockBytes() !== AB.BYTES) throw new Error("arrivals: the core's block size differs from src/laminar/core-arrivals.ts (a stale build?)");
    const a = core.arena, w = c.workload;
    this.block = a.alloc(AB.BYTES, 16);
    this.out = a.alloc(batch * A_REC * 8, 16);
    this.buf = new Float64Array(batch * A_REC);
    // the streams and each one's first arrival, as Arrivals starts them
    const { gapF, gapL, rF, rL, nextF, nextL } = bimodalStart(c), rS = streamRng(c.sim.seed, "service");
    const f64 = a.f64, b = this.block;
    const set = (at: number, v: number) => { f64[(b + at) >> 3] = v; };
    set(AB.END, endNs); set(AB.GAP_F, gapF); set(AB.GAP_L, gapL); set(AB.NEXT_F, nextF); set(AB.NEXT_L, nextL);
    set(AB.F_ATOMS, w.fAtoms); set(AB.L_ATOMS, w.lAtoms); set(AB.PRICE_F, w.priceF); set(AB.PRICE_L, w.priceL);
    set(AB.F_MEAN_MS, w.fMeanMs); set(AB.L_MU, w.lMu); set(AB.L_SIGMA, w.lSigma); set(AB.NORMAL, 0); set(AB.HAVE, 0); set(AB.COUNT, 0);
    rF.saveState(a.i32, (b + AB.R_F) >> 2);
    rL.saveState(a.i32, (b + AB.R_L) >> 2);
    rS.saveState(a.i32, (b + AB.R_SERVICE) >> 2);
    this.fill();
  }

  /** The next batch from the core into buf; head is its first task's time (Infinity: none). */
  private fill(): void {
    const n = this.over ? 0 : this.k.arrivalsDraw(this.block, this.out, this.batch);
    if (n < 0) throw new Error(`arrivals: arrivalsDraw failed with status ${n}`);
    if (n < this.batch) this.over = true;
    const at = this.out >> 3;
    this.buf.set(this.core.arena.f64.subarray(at, at + n * A_REC));
    this.n = n;
    this.i = 0;
    this.head = n > 0 ? this.buf[0] : Infinity;
  }

  peek(): number {
    return this.head;
  }

  /**
   * How many of the batch's next arrivals are at or before `limit` (0 when
   * peek() is after it); they lie in core memory from at() on, until
   * skip() passes them (and may draw the next batch over them).
   */
  upTo(limit: number): number {
    const b = this.buf;
    let j = this.i;
    while (j < this.n && b[j * A_REC] <= limit) j++;
    return j - this.i;
  }

  /** Where the batch's next arrival lies in core memory (byte offset; arrivalsDraw's records). */
  at(): number {
    return this.out + this.i * A_REC * 8;
  }

  /** Pass the next k arrivals (at most those left in the batch) without reading them here. */
  skip(k: number): void {
    this.i += k;
    this.count += k;
    if (this.i < this.n) this.head = this.buf[this.i * A_REC];
    else this.fill();
  }

  next(): void {
    const b = this.buf, o = this.i * A_REC;
    this.time = b[o];
    this.cls = b[o + 1];
    this.service = b[o + 2];
    this.atoms = b[o + 3];
    this.price = b[o + 4];
    this.skip(1);
  }
}
