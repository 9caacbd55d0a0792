// `laminar bench`: micro-benchmarks of the core's hot-path kernels.
import { Command } from "commander";
import { JS_IMPLS, KERNELS } from "../../bench/cases.js";
import type { BenchRow } from "../../bench/run.js";
import { benchRunner } from "./optional-packages.js";
import { formatTable } from "../report/table.js";
import { parseIntIn, parseList, parsePositive } from "./errors.js";

/** The most rounds and seconds per case and round bench takes: enough for any figure worth quoting, and a run that ends. */
export const MAX_ROUNDS = 50;
export const MAX_TIME_S = 10;

function printTable(rows: BenchRow[], paper: Partial<Record<string, number>>): void {
  const byKernel = new Map<string, BenchRow[]>();
  for (const r of rows) byKernel.set(r.name, [...(byKernel.get(r.name) ?? []), r]);
  const out: Array<Array<string | number>> = [];
  for (const [kernel, rs] of byKernel) {
    const get = (impl: string) => rs.find((r) => r.impl === impl)?.nsPerOp;
    const simd = get("wasm-simd");
    const ratio = (x: number | undefined) => (simd !== undefined && x !== undefined ? (simd / x).toFixed(2) + "x" : "-");
    const ns = (x: number | undefined) => (x === undefined ? "-" : x < 10 ? x.toFixed(2) : x.toFixed(1));
    out.push([
      kernel, ns(simd), ns(get("wasm-scalar")), ns(get("ts")), ns(get("native")), ns(get("native-128")),
      ratio(get("native-128")), ratio(get("native")), ratio(get("ts")),
      paper[kernel] ?? "-",
    ]);
  }
  console.log(formatTable(
    ["kernel (ns/op)", "wasm-simd", "wasm-scalar", "ts", "native", "native-128", "simd/n128", "simd/native", "simd/ts", "paper"],
    out,
  ));
}

/** Progress on stderr: one updating line on a terminal, plain lines otherwise. */
function progressLine(t0: number): (done: number, total: number, label: string) => void {
  const tty = process.stderr.isTTY;
  return (done, total, label) => {
    const elapsed = (Date.now() - t0) / 1000;
    const eta = done > 0 && done < total ? `, about ${Math.ceil((elapsed / done) * (total - done))} s left` : "";
    const line = `[${done}/${total}] ${label} (${elapsed.toFixed(0)} s${eta})`;
    if (tty) process.stderr.write(`\r${line}`.padEnd(79) + (done === total ? "\n" : ""));
    else process.stderr.write(`${line}\n`);
  };
}

export function benchCommand(): Command {
  return new Command("bench")
    .description("micro-benchmark the core's hot-path kernels (WASM SIMD, WASM scalar, TypeScript twin, native C)")
    .option("--json", "print one JSON object instead of a table")
    .option("--kernels <list>", `comma-separated kernels (${KERNELS.join(", ")})`, KERNELS.join(","))
    .option("--impls <list>", `comma-separated JS-side impls (${JS_IMPLS.join(", ")})`, JS_IMPLS.join(","))
    .option("--no-native", "skip the native C reference rows")
    .option("--rounds <n>", `interleaved rounds over all impls, 1 to ${MAX_ROUNDS}; each figure is the median of the rounds' medians`, "3")
    .option("--max-time <s>", `seconds of sampling per case and round, at most ${MAX_TIME_S}`, "0.2")
    .option("--quick", "one short round (0.05 s per case): for smoke tests, not for quoting; --rounds and --max-time are still checked, then replaced")
    .action(async (o: { json?: boolean; kernels: string; impls: string; native: boolean; maxTime: string; rounds: string; quick?: boolean }) => {
      const kernels = parseList("kernel", o.kernels, KERNELS);
      const impls = parseList("impl", o.impls, JS_IMPLS);
      const askedTime = parsePositive("--max-time", o.maxTime, MAX_TIME_S);
      const askedRounds = parseIntIn("--rounds", o.rounds, 1, MAX_ROUNDS);
      const maxTime = o.quick ? 0.05 : askedTime;
      const rounds = o.quick ? 1 : askedRounds;
      const { PAPER_NS, runBench } = await benchRunner();
      const { finishManifest, startManifest } = await import("../experiments/manifest.js");
      const started = startManifest("laminar bench", [], null);
      const t0 = Date.now();
      const report = await runBench({ kernels, impls, native: o.native, maxTime, rounds, onProgress: progressLine(t0) });
      const meta = {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        maxTimePerCaseAndRound: maxTime,
        rounds,
        wallSeconds: (Date.now() - t0) / 1000,
        paperNsPerOp: PAPER_NS,
        paperMachine: "Intel Xeon Platinum 8369B, 2.7 GHz, AVX2 (paper, Experimental setup)",
      };
      if (o.json) {
        console.log(JSON.stringify({ manifest: finishManifest(started), ...meta, kernels: report.rows, nativeNote: report.nativeNote, checksumMismatches: report.checksumMismatches }, null, 2));
      } else {
        printTable(report.rows, PAPER_NS);
        if (report.nativeNote) console.log(`\nnative rows skipped: ${report.nativeNote}`);
        console.log(`\nRatios are wasm-simd time over the other impl's (lower is better for wasm-simd); each figure is the median of ${rounds} interleaved round${rounds === 1 ? "" : "s"}.`);
      }
      if (report.checksumMismatches.length > 0) {
        console.error(`laminar bench: impls disagree: ${report.checksumMismatches.join("; ")}`);
        process.exitCode = 1;
      }
    });
}
