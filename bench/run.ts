// The micro-benchmark driver behind `laminar bench`: times every (kernel,
// impl) case with benchmark.js, runs the native C reference in the same
// invocation, checks that every impl produced the same checksum, and reports
// medians side by side with the paper's figures.
//
// These machines are shared and noisy, so the impls are interleaved: the
// whole set (native binaries included) runs in several rounds, and each row's
// figure is the median of its per-round medians. A burst of noise then hits
// one round of every impl instead of all of one impl's samples.
import Benchmark from "benchmark";
import { JS_IMPLS, KERNELS, makeCase, type Case, type Impl, type Kernel } from "./cases.js";
import { buildNative, runNative } from "./native.js";

/** The paper's hot-path figures (AVX2, Xeon Platinum 8369B at 2.7 GHz), ns per op. */
export const PAPER_NS: Partial<Record<Kernel, number>> = {
  "mask-update": 4.02,
  "fastlog-score": 13.7,
  "zone-update": 29.3,
};

export type RowImpl = Impl | "native" | "native-128";

export interface BenchRow {
  name: Kernel;
  impl: RowImpl;
  /** Median over rounds of each round's median, ns per op. */
  nsPerOp: number;
  /** Each round's median, ns per op. */
  rounds: number[];
  /** How many rounds the figure is the median of. */
  roundCount: number;
  /** Spread of the rounds' medians: (slowest - fastest) / nsPerOp, percent. */
  spreadPct: number;
  /** Each round's relative margin of error from benchmark.js, percent (null for the native rows, timed outside it). */
  rmePct: Array<number | null>;
  /** Each round's sample count (null for the native rows). */
  samples: Array<number | null>;
  checksum: number;
}

export interface BenchOptions {
  kernels: Kernel[];
  impls: Impl[];
  native: boolean;
  /** Seconds of sampling per case and round (benchmark.js maxTime). */
  maxTime: number;
  rounds: number;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface BenchReport {
  rows: BenchRow[];
  nativeNote: string | null;
  checksumMismatches: string[];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One benchmark.js run of a case: median seconds per call over its samples, as ns per op, with its spread. */
function timeCase(c: Case, maxTime: number): { ns: number; rme: number; samples: number } {
  const b = new Benchmark(c.name, c.run, { maxTime, minSamples: 5, initCount: 1, minTime: Math.min(0.05, maxTime / 4) });
  b.run();
  if (b.error) throw b.error;
  const sample = b.stats.sample as number[];
  return { ns: (median(sample) * 1e9) / c.opsPerCall, rme: b.stats.rme, samples: sample.length };
}

export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const key = (k: string, i: string) => `${k}\u0000${i}`;
  const rows = new Map<string, BenchRow>();
  const row = (name: Kernel, impl: RowImpl, checksum: number): BenchRow => {
    let r = rows.get(key(name, impl));
    if (!r) rows.set(key(name, impl), (r = { name, impl, nsPerOp: NaN, rounds: [], roundCount: 0, spreadPct: NaN, rmePct: [], samples: [], checksum }));
    return r;
  };
  const perRound = opts.kernels.length * opts.impls.length + (opts.native ? 1 : 0);
  const total = opts.kernels.length * opts.impls.length + perRound * opts.rounds;
  let done = 0;
  const step = (label: string) => opts.onProgress?.(done, total, label);

  // Set every case up once (inputs, WASM instances, checksums on fresh inputs).
  const cases: Array<[Kernel, Impl, Case]> = [];
  for (const kernel of opts.kernels) {
    for (const impl of opts.impls) {
      step(`set up ${kernel} (${impl})`);
      cases.push([kernel, impl, makeCase(kernel, impl)]);
      done++;
    }
  }
  let nativeNote: string | null = null;
  let nativeLog = "";
  if (opts.native) {
    step("compile the native C twins");
    const b = buildNative();
    if (b.ok) nativeLog = b.log;
    else nativeNote = b.note;
  }
  for (let r = 1; r <= opts.rounds; r++) {
    if (opts.native && nativeNote === null) {
      step(`round ${r}/${opts.rounds}: native C (gcc -O3; AVX2 and 128-bit builds)`);
      const nat = await runNative(nativeLog);
      if (nat.ok) {
        for (const n of nat.rows) {
          if ((opts.kernels as string[]).includes(n.name)) {
            const nr = row(n.name as Kernel, n.impl, n.checksum);
            nr.rounds.push(n.nsPerOp);
            nr.rmePct.push(null);
            nr.samples.push(null);
          }
        }
      } else {
        nativeNote = nat.note;
      }
      done++;
    } else if (opts.native) {
      done++;
    }
    for (const [kernel, impl, c] of cases) {
      step(`round ${r}/${opts.rounds}: ${kernel} (${impl})`);
      const t = timeCase(c, opts.maxTime), jr = row(kernel, impl, c.checksum);
      jr.rounds.push(t.ns);
      jr.rmePct.push(t.rme);
      jr.samples.push(t.samples);
      done++;
    }
  }
  step("done");
  const out = [...rows.values()].map((r) => {
    const nsPerOp = median(r.rounds);
    return { ...r, nsPerOp, roundCount: r.rounds.length, spreadPct: (100 * (Math.max(...r.rounds) - Math.min(...r.rounds))) / nsPerOp };
  });
  out.sort((a, b) => KERNELS.indexOf(a.name) - KERNELS.indexOf(b.name));
  // Every impl of a kernel must have computed the same answer.
  const checksumMismatches: string[] = [];
  for (const kernel of opts.kernels) {
    const rs = out.filter((r) => r.name === kernel);
    const want = rs[0]?.checksum;
    for (const r of rs) {
      if (r.checksum !== want) checksumMismatches.push(`${kernel}: ${r.impl} checksum ${r.checksum} != ${rs[0].impl}'s ${want}`);
    }
  }
  return { rows: out, nativeNote, checksumMismatches };
}

export { JS_IMPLS, KERNELS };
