// The yardstick a whole-run speed is stated against: one probe action (a
// DA's candidate sampling, noise, scoring and choice, `probe-candidates` in
// the micro-bench), timed in the same invocation as the runs it measures, so
// the machine's drift from day to day cancels out. Native C when a compiler
// exists (the reference the core is held to), else the WASM SIMD build.
import { runBench } from "./run.js";

export interface Yardstick {
  /** "native" (C, gcc -O3) or "wasm-simd". */
  impl: string;
  /** One probe action, ns (median of benchmark samples). */
  nsPerProbe: number;
}

/** Time one probe action now (a few seconds: the native twins run every kernel once). */
export async function probeYardstick(native = true): Promise<Yardstick> {
  const report = await runBench({ kernels: ["probe-candidates"], impls: ["wasm-simd"], native, maxTime: 0.3, rounds: 1 });
  if (report.checksumMismatches.length > 0) throw new Error(`bench: probe action checksums disagree: ${report.checksumMismatches.join("; ")}`);
  const pick = (impl: string) => report.rows.find((r) => r.impl === impl);
  const row = pick("native") ?? pick("wasm-simd")!;
  return { impl: row.impl, nsPerProbe: row.nsPerOp };
}

/** Wall time per simulated task, in probe actions of the yardstick. */
export function probesPerTask(wallSeconds: number, tasks: number, y: Yardstick): number {
  return (wallSeconds * 1e9) / tasks / y.nsPerProbe;
}
