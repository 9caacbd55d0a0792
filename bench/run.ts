// The micro-benchmark driver behind `laminar bench`: times every (kernel,
// impl) case with benchmark.js, runs the native C reference in the same
// invocation, checks that every impl produced the same checksum, and reports
// medians side by side with the paper's figures.
import Benchmark from "benchmark";
import { JS_IMPLS, KERNELS, makeCase, type Impl, type Kernel } from "./cases.js";
import { runNative, type NativeRow } from "./native.js";

/** The paper's hot-path figures (AVX2, Xeon Platinum 8369B at 2.7 GHz), ns per op. */
export const PAPER_NS: Partial<Record<Kernel, number>> = {
  "mask-update": 4.02,
  "fastlog-score": 13.7,
  "zone-update": 29.3,
};

export interface BenchRow {
  name: Kernel;
  impl: Impl | "native" | "native-128";
  nsPerOp: number;
  /** Relative spread of the samples (benchmark.js rme, percent). */
  rmePercent: number | null;
  /** benchmark.js samples (null for native rows: the C driver takes the median of 7 runs). */
  samples: number | null;
  checksum: number;
}

export interface BenchOptions {
  kernels: Kernel[];
  impls: Impl[];
  native: boolean;
  /** Seconds of sampling per case (benchmark.js maxTime). */
  maxTime: number;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface BenchReport {
  rows: BenchRow[];
  nativeNote: string | null;
  checksumMismatches: string[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Time one case: median over benchmark.js samples of seconds per call, per op, in ns. */
function timeCase(run: () => void, opsPerCall: number, maxTime: number): { ns: number; rme: number; samples: number } {
  const b = new Benchmark("case", run, { maxTime, minSamples: 5, initCount: 1, minTime: Math.min(0.05, maxTime / 4) });
  b.run();
  if (b.error) throw b.error;
  const sample = b.stats.sample as number[];
  return { ns: (median(sample) * 1e9) / opsPerCall, rme: b.stats.rme, samples: sample.length };
}

export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const rows: BenchRow[] = [];
  const total = opts.kernels.length * opts.impls.length + (opts.native ? 1 : 0);
  let done = 0;
  let nativeNote: string | null = null;
  if (opts.native) {
    opts.onProgress?.(done, total, "native C (gcc -O3, AVX2 and 128-bit builds)");
    const nat = await runNative();
    done++;
    if (nat.ok) {
      for (const r of nat.rows as NativeRow[]) {
        if ((opts.kernels as string[]).includes(r.name)) {
          rows.push({ name: r.name as Kernel, impl: r.impl, nsPerOp: r.nsPerOp, rmePercent: null, samples: null, checksum: r.checksum });
        }
      }
    } else {
      nativeNote = nat.note;
    }
  }
  for (const kernel of opts.kernels) {
    for (const impl of opts.impls) {
      opts.onProgress?.(done, total, `${kernel} (${impl})`);
      const c = makeCase(kernel, impl);
      const t = timeCase(c.run, c.opsPerCall, opts.maxTime);
      rows.push({ name: kernel, impl, nsPerOp: t.ns, rmePercent: t.rme, samples: t.samples, checksum: c.checksum });
      done++;
    }
  }
  opts.onProgress?.(done, total, "done");
  // Every impl of a kernel must have computed the same answer.
  const checksumMismatches: string[] = [];
  for (const kernel of opts.kernels) {
    const rs = rows.filter((r) => r.name === kernel);
    const want = rs.find((r) => r.impl === "wasm-simd" || r.impl === "ts")?.checksum;
    for (const r of rs) {
      if (want !== undefined && r.checksum !== want) checksumMismatches.push(`${kernel}: ${r.impl} checksum ${r.checksum} != ${want}`);
    }
  }
  return { rows, nativeNote, checksumMismatches };
}

export { JS_IMPLS, KERNELS };
