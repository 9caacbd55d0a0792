// The gateway's start latencies as the Zone engine counts them
// (assembly/engine/starts.ts): the tasks block's HIST region, taken into
// the run's metrics whenever they are read (RunMetrics.foldStarts), so
// that a start costs the host nothing where engineDrain applies it.
import type { Arena } from "../core/arena.js";
import { START_HIST } from "../core/engine-layout.js";
import type { RunMetrics } from "../metrics/run-metrics.js";

export class CoreStartHist {
  /** The region's byte offset in core memory (8-aligned). */
  readonly at: number;

  constructor(private readonly arena: Arena) {
    this.at = arena.alloc(START_HIST.BYTES, 8);
    arena.u8.fill(0, this.at, this.at + START_HIST.BYTES);
  }

  /** The starts counted since the last call (engineDrain's own; their latencies are in the histograms). */
  take(): number {
    const f = this.arena.f64, h = this.at >> 3, n = f[h];
    if (n !== 0) f[h] = 0;
    return n;
  }

  /** Add each class's histogram into met's start latencies and empty it. */
  foldInto(met: RunMetrics): void {
    const f = this.arena.f64, i32 = this.arena.i32;
    for (let c = 0; c < 3; c++) {
      const b = (this.at + START_HIST.CLASS + c * START_HIST.CLASS_BYTES) >> 3, n = f[b];
      if (n === 0) continue;
      // the sum: f64 units of 2^32, plus an i64 below 2^62 (its high word more units, its low word the rest)
      const hi = f[b + 1] + i32[2 * (b + 2) + 1], lo = i32[2 * (b + 2)] >>> 0;
      const [from, to] = met.addStarts(c, f, b + 8, n, hi, lo, f[b + 3], f[b + 4]);
      f.fill(0, b + 8 + from, b + 9 + to);
      f.fill(0, b, b + 5);
    }
  }
}
