// What a simulated task costs in executed instructions and in simulated
// cache misses, counted under Valgrind's cachegrind, so that a change can be
// judged by numbers that the machine's drift does not move. Wall times on
// these shared machines drift two- to four-fold from day to day and, in a
// noisy spell, by a third from one run to the next; these counts nearly
// repeat.
//
//   npm run bench:instr -- [--nodes=5000] [--rho=0.8] [--durations=0.1,0.4] [--rounds=1]
//        [--set=name=value ...] [--base=DIR] [--functions[=N] [--misses] [--threads=W]] [--json] [--help]
//
// --functions says where the instructions go instead: each build runs under
// callgrind with V8 writing a perf jitdump, and the steady state's
// instructions per task are split by function, JavaScript and WebAssembly
// by name (instr-functions.ts). With --misses, the first-level data misses
// (reads and writes, the cache geometry below) by function instead. With
// --threads=W, the run on W worker threads (`laminar sim --workers W`),
// each thread counted apart (callgrind's --separate-threads; valgrind runs
// them one at a time, so a thread's waits count the instructions its
// waiting loop ran): where each thread's instructions go, the gateway's
// thread first.
//
// Each build runs `laminar sim` (one thread, sim.drainS=0) at the two
// durations, each in its own process under cachegrind, with V8 made nearly
// repeatable (V8_FLAGS below; without them two runs of one build drifted
// by 2% to 5%) and a fixed cache geometry (32 KiB L1 instruction and data
// caches, 8-way; a 16 MiB, 16-way last level; 64-byte lines), whatever
// this machine has. The longer run less the shorter one is the steady
// state: start-up and most of the JIT's compiling cancel out. Reported,
// per task arrived in that difference: instructions, first-level data
// misses and last-level misses; with --base, the same for another built
// checkout and the ratios this / base. The two builds' runs of one
// duration go side by side. Measured on 2026-11-28 (5,000 nodes, 0.15 s
// less 0.05 s): one build against itself in one invocation, 0.998
// (instructions), 0.996 (first-level misses), 0.998 (last-level misses);
// against a copy of itself in another checkout, two rounds, 0.984 to
// 0.999, 0.990 to 1.028 and 0.808 to 0.884 (the last-level counts follow
// where things land in memory). A difference of a percent or two in
// instructions needs --rounds; one of last-level misses, far more.
//
// Instructions are not time: a change that trades instructions for misses
// (or the reverse) shows as such, and only wall time (bench:sim) says which
// way the trade goes on a given machine. The misses are a simulation of a
// simple cache (no prefetcher, no out-of-order overlap). Under cachegrind a
// run is about fifty times slower: a 5,000-node, 0.4 s run takes about
// three minutes; the runs go two at a time.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { annotate, functionCosts, watNames, type Annotated } from "./instr-functions.js";
import { median } from "./run.js";

const USAGE = `Usage: npm run bench:instr -- [options]

Instructions and simulated cache misses per simulated task, counted under
Valgrind's cachegrind (steady state: a longer run less a shorter one),
for this build and optionally another (docs/bench.md). Needs valgrind.

  --nodes=N            cluster size (5000)
  --rho=R              offered load (0.8)
  --durations=A,B      the two simulated durations in seconds (0.1,0.4)
  --rounds=N           rounds (1): medians, and with --base the range of the ratios
  --set=name=value     any parameter (laminar params), repeatable
  --base=DIR           also another built checkout; ratios this / base
  --functions=N        instead, instructions per task by function (the N largest; bare: 30),
                       under callgrind, JavaScript and WebAssembly named
  --misses             with --functions: first-level data misses per task by function
  --threads=W          with --functions: the run on W worker threads, each thread apart
                       (e.g. --nodes=32000 --durations=0.04,0.1 --threads=2)
  --split              the run threads take: the gateway side once and the Zones replaying
                       its log (bench:sim's --split run, on one thread)
  --annotate=NAME      instead, the machine code of the functions whose name (as --functions
                       prints it) contains NAME, each instruction with its count per task, in
                       one run of the longer duration (start-up included); needs objdump
  --json               the summary as JSON
  -h, --help           this text`;

/** One run's counts. */
interface Counts {
  arrived: number;
  instructions: number;
  d1Misses: number;
  llMisses: number;
}

/** Per task in the steady state (the longer run less the shorter). */
interface PerTask {
  build: string;
  tasks: number;
  instructions: number;
  d1Misses: number;
  llMisses: number;
}

/**
 * V8 made repeatable: its compiler and collector on the main thread in a fixed order (--predictable), heap growth
 * by a fixed schedule rather than by measured speeds (--predictable-gc-schedule: under valgrind those speeds vary
 * from run to run, and with them the collections), and the WebAssembly compiled once by the optimising compiler
 * rather than first by the baseline one and later, at a time that varies, again (--no-liftoff); its random
 * choices (where it maps its pages, its hash tables' seed) fixed. The cache simulation sees addresses, so the
 * process also runs without address-space randomisation where setarch can turn it off.
 */
const V8_FLAGS = ["--predictable", "--predictable-gc-schedule", "--no-liftoff", "--random-seed=1", "--hash-seed=1"];

/** Runs under valgrind at once: two (each is one thread), fewer on a one-core machine. */
const WIDTH = Math.max(1, Math.min(2, availableParallelism()));

/** --split: count the run that threads take, the gateway side once beside a Zone partition replaying its log (bench:sim's --split child). */
const SPLIT = process.argv.includes("--split");

/** --threads=W: the run on W worker threads, each counted apart (0: the run on this thread). */
const THREADS = Number(process.argv.find((a) => a.startsWith("--threads="))?.slice(10) ?? 0);

/** Whether `setarch -R` runs a command without address-space randomisation here. */
const SETARCH = spawnSync("setarch", ["-R", "true"]).status === 0;

const CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=16777216,16,64"];

/** A cachegrind summary line's count ("==123== I   refs:      5,887,443,048"). */
function count(stderr: string, label: RegExp): number {
  const m = stderr.match(new RegExp(`==\\d+== ${label.source}:\\s+([\\d,]+)`));
  if (m === null) throw new Error(`cachegrind printed no ${label.source.replace(/\\s\+/g, " ")} count (stderr: ${stderr.trim().split("\n").slice(-1)[0] ?? ""})`);
  return Number(m[1].replaceAll(",", ""));
}

/**
 * `laminar sim` of the build at root (one thread, the duration given) under a valgrind tool (its options
 * first), with V8's repeatable flags and any of node's own (`node`), in `cwd`: the result's tasks arrived,
 * and valgrind's report.
 */
function simUnder(tool: string[], node: string[], root: string, sets: string[], duration: string, cwd?: string): Promise<{ arrived: number; stderr: string }> {
  const cli = resolve(root, "dist", "src", "cli", "main.js");
  const run = SPLIT
    ? [resolve(root, "dist", "bench", "sim-laminar.js"), "--child", "1", "split", ...sets, `sim.durationS=${duration}`]
    : [cli, "sim", "--no-progress", "--json", "--workers", String(Math.max(1, THREADS)), ...sets.flatMap((s) => ["--set", s]), "--set", `sim.durationS=${duration}`];
  const args = [...tool, "--smc-check=all-non-file", process.execPath, ...V8_FLAGS, ...node, ...run];
  const [cmd, argv] = SETARCH ? ["setarch", ["-R", "valgrind", ...args]] : ["valgrind", args];
  return new Promise((done, fail) => {
    execFile(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 26, cwd }, (err, stdout, stderr) => {
      if (err !== null) return fail(new Error(`the run of ${root} at ${duration} s failed: ${(stderr || err.message).trim().split("\n").slice(-1)[0]}`));
      try {
        done({ arrived: (JSON.parse(stdout) as { arrived: number }).arrived, stderr });
      } catch (e) {
        fail(e as Error);
      }
    });
  });
}

async function runOnce(root: string, sets: string[], duration: string): Promise<Counts> {
  const tool = ["--tool=cachegrind", "--cache-sim=yes", ...CACHES, "--cachegrind-out-file=/dev/null"];
  const { arrived, stderr } = await simUnder(tool, [], root, sets, duration);
  return { arrived, instructions: count(stderr, /I\s+refs/), d1Misses: count(stderr, /D1\s+misses/), llMisses: count(stderr, /LLd\s+misses/) };
}

/**
 * One run under callgrind, with V8's jitdump (written to the working directory): instructions by function, and
 * the tasks arrived; with --threads, a map per worker thread (those that ran the engine, in the order valgrind
 * numbered them), the gateway's first.
 */
async function runFunctions(root: string, sets: string[], duration: string, misses: boolean): Promise<{ arrived: number; costs: Map<string, number>[] }> {
  const tool = [...(misses ? ["--cache-sim=yes", ...CACHES] : []), ...(THREADS > 0 ? ["--separate-threads=yes"] : [])];
  return underCallgrind(root, sets, duration, tool, (dir, arrived) => {
    const wasm = watNames(resolve(root, "build", "laminar-simd.wat")), events = misses ? ["D1mr", "D1mw"] : ["Ir"];
    if (THREADS === 0) return { arrived, costs: [functionCosts(dir, wasm, events)] };
    const files = readdirSync(dir).filter((f) => /^callgrind\.out-\d+$/.test(f)).sort((a, b) => Number(a.slice(14)) - Number(b.slice(14)));
    const workers = files.map((f) => functionCosts(dir, wasm, events, f)).filter((m) => [...m.keys()].some((k) => k.startsWith("wasm $assembly/engine/")));
    if (workers.length !== THREADS) throw new Error(`the run on ${THREADS} threads left ${workers.length} threads that ran the engine, not ${THREADS}`);
    const gateway = workers.findIndex((m) => (m.get(GATEWAY_FN) ?? 0) > 0);
    return { arrived, costs: gateway > 0 ? [workers[gateway], ...workers.filter((_, i) => i !== gateway)] : workers };
  });
}

/** --annotate: one run under callgrind (the longer duration), each compiled copy of the functions named `want`, instruction by instruction per task. */
function runAnnotate(root: string, sets: string[], duration: string, want: string): Promise<{ arrived: number; copies: Annotated[] }> {
  return underCallgrind(root, sets, duration, [], (dir, arrived) => ({ arrived, copies: annotate(dir, watNames(resolve(root, "build", "laminar-simd.wat")), want, arrived) }));
}

/**
 * One run under callgrind (every instruction's address and count; `tool`: more of its options) with V8 writing a
 * perf jitdump, both into a folder of their own: what `read` makes of the folder and the tasks arrived, the folder
 * removed afterwards.
 */
async function underCallgrind<T>(root: string, sets: string[], duration: string, tool: string[], read: (dir: string, arrived: number) => T): Promise<T> {
  const dir = mkdtempSync(resolve(tmpdir(), "laminar-instr-"));
  try {
    const all = ["--tool=callgrind", "--dump-instr=yes", "--compress-strings=no", "--compress-pos=no", `--callgrind-out-file=${resolve(dir, "callgrind.out")}`, ...tool];
    const { arrived } = await simUnder(all, ["--perf-prof"], root, sets, duration, dir);
    return read(dir, arrived);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Instructions below this many a task are left out of --annotate's listing (a line says how many). */
const ANNOTATE_MIN = 0.01;

/** At most this many compiled copies are listed, the busiest first. */
const ANNOTATE_COPIES = 3;

/** --annotate's report: for each build, the busiest compiled copies of the functions named `want`. */
async function annotated(roots: string[], sets: string[], duration: string, want: string, json: boolean): Promise<void> {
  if (!json) process.stderr.write(`bench:instr: ${roots.length} run(s) under callgrind, ${WIDTH} at a time (a few minutes each)...\n`);
  const runs = await pool(roots.map((root) => () => runAnnotate(root, sets, duration, want)), WIDTH);
  const builds = runs.map((r, b) => ({ build: b === 0 ? "this" : "base", tasks: r.arrived, copies: r.copies.slice(0, ANNOTATE_COPIES) }));
  for (const b of builds) if (b.copies.length === 0) throw new Error(`--annotate=${want}: no compiled function whose name holds "${want}" ran in the ${b.build === "this" ? "run of this build" : "base's run"} (--functions lists what ran)`);
  if (json) {
    process.stdout.write(`${JSON.stringify({ duration: Number(duration), sets, annotate: want, builds })}\n`);
    return;
  }
  for (const b of builds) {
    process.stdout.write(`${b.build}: instructions per task by machine instruction, one run of ${duration} s (start-up included; ${sets.join(" ")}; ${b.tasks} tasks)\n`);
    for (const c of b.copies) {
      process.stdout.write(`\n${c.name}: ${c.total.toFixed(1)} instructions a task, ${c.bytes} bytes of x86-64 at 0x${c.start.toString(16)}\n`);
      let hidden = 0, hiddenPer = 0;
      const flush = () => {
        if (hidden > 0) process.stdout.write(`            ... ${hidden} instruction(s) below ${ANNOTATE_MIN} a task (${hiddenPer.toFixed(3)} in all)\n`);
        hidden = 0;
        hiddenPer = 0;
      };
      for (const l of c.lines) {
        if (l.per < ANNOTATE_MIN) {
          hidden++;
          hiddenPer += l.per;
          continue;
        }
        flush();
        process.stdout.write(`  ${l.per.toFixed(3).padStart(9)}  ${l.address.toString(16)}  ${l.text}\n`);
      }
      flush();
    }
    if (b.copies.length === ANNOTATE_COPIES) process.stdout.write(`(the ${ANNOTATE_COPIES} busiest compiled copies; a narrower NAME picks one)\n`);
  }
}

/** A function only the thread that runs the gateway side runs (its micro-batch). */
const GATEWAY_FN = "wasm $assembly/engine/gateway/batch";

/** --functions: per task in the steady state, by function, for each build (instructions, or with `misses` first-level data misses); the top `top` of this build's. */
async function functions(roots: string[], sets: string[], durations: string[], top: number, json: boolean, misses: boolean): Promise<void> {
  const jobs = durations.flatMap((d) => roots.map((root) => () => runFunctions(root, sets, d, misses)));
  if (!json) process.stderr.write(`bench:instr: ${jobs.length} runs under callgrind, ${WIDTH} at a time (a few minutes each)...\n`);
  const runs = await pool(jobs, WIDTH);
  const threads = Math.max(1, THREADS);
  for (let t = 0; t < threads; t++) functionsOf(t, runs, roots, sets, durations, top, json, misses);
}

/** --functions' report on one thread (t: the run's map t; with --threads, its t-th worker thread, the gateway's first). */
function functionsOf(
  t: number, runs: { arrived: number; costs: Map<string, number>[] }[], roots: string[], sets: string[], durations: string[], top: number, json: boolean, misses: boolean,
): void {
  const gateway = THREADS > 0 && (runs[0].costs[t].get(GATEWAY_FN) ?? 0) > 0;
  const per = roots.map((_, b) => {
    const short = runs[b], long = runs[roots.length + b], tasks = long.arrived - short.arrived;
    if (!(tasks > 0)) throw new Error(`the longer run had no more tasks than the shorter (${long.arrived} against ${short.arrived}): widen --durations`);
    const m = new Map<string, number>(), sc = short.costs[t], lc = long.costs[t];
    for (const k of new Set([...sc.keys(), ...lc.keys()])) m.set(k, ((lc.get(k) ?? 0) - (sc.get(k) ?? 0)) / tasks);
    return { tasks, m, total: [...m.values()].reduce((a, x) => a + x, 0) };
  });
  const rows = [...per[0].m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, v]) => ({ name, this: v, base: per.length > 1 ? per[1].m.get(name) ?? 0 : null }));
  const kinds = (m: Map<string, number>) => {
    const by = { wasm: 0, js: 0, other: 0 };
    for (const [k, v] of m) by[k.startsWith("wasm ") ? "wasm" : k.startsWith("js ") ? "js" : "other"] += v;
    return by;
  };
  if (json) {
    const what = misses ? "d1Misses" : "instructions";
    const thread = THREADS > 0 ? { thread: t + 1, threads: THREADS, gateway } : {};
    process.stdout.write(`${JSON.stringify({ durations: durations.map(Number), sets, ...thread, tasks: per[0].tasks, counted: what, totals: per.map((p) => ({ [what]: p.total, ...kinds(p.m) })), functions: rows })}\n`);
    return;
  }
  const f = (x: number) => x.toFixed(misses ? 1 : 0).padStart(8);
  const which = THREADS === 0 ? "" : `; thread ${t + 1} of ${THREADS}${gateway ? ", the gateway's" : ""}, per task of the whole run`;
  process.stdout.write(`${misses ? "first-level data misses" : "instructions"} per task by function, steady state (${durations[1]} s less ${durations[0]} s; ${sets.join(" ")}${SPLIT ? "; the gateway once" : ""}${which}):\n`);
  per.forEach((p, b) => {
    const k = kinds(p.m);
    process.stdout.write(`  ${b === 0 ? "this" : "base"}: ${f(p.total)} in all: WebAssembly ${k.wasm.toFixed(misses ? 1 : 0)}, JavaScript ${k.js.toFixed(misses ? 1 : 0)}, the rest (V8's builtins, compiler and collector, libraries) ${k.other.toFixed(misses ? 1 : 0)}\n`);
  });
  process.stdout.write(`  ${"this".padStart(8)}${per.length > 1 ? `${"base".padStart(9)}` : ""}  share  function\n`);
  for (const r of rows) process.stdout.write(`  ${f(r.this)}${r.base !== null ? ` ${f(r.base)}` : ""}  ${((100 * r.this) / per[0].total).toFixed(1).padStart(4)}%  ${r.name}\n`);
}

/** Run `jobs` at most `width` at a time, results in order. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}

function perTask(build: string, short: Counts, long: Counts): PerTask {
  const tasks = long.arrived - short.arrived;
  if (!(tasks > 0)) throw new Error(`${build}: the longer run had no more tasks than the shorter (${long.arrived} against ${short.arrived}): widen --durations`);
  return {
    build, tasks,
    instructions: (long.instructions - short.instructions) / tasks,
    d1Misses: (long.d1Misses - short.d1Misses) / tasks,
    llMisses: (long.llMisses - short.llMisses) / tasks,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const valued = ["nodes", "rho", "durations", "rounds", "set", "base", "threads", "annotate"];
  for (const a of args) {
    if (a === "--json" || a === "--functions" || a === "--misses" || a === "--split" || valued.some((v) => a.startsWith(`--${v}=`)) || a.startsWith("--functions=")) continue;
    throw new Error(`unknown option ${a} (options: ${valued.map((v) => `--${v}=`).join(" ")} --functions= --misses --split --json)`);
  }
  const fnArg = args.find((a) => a === "--functions" || a.startsWith("--functions="));
  const want = args.find((a) => a.startsWith("--annotate="))?.slice(11);
  if (want !== undefined) {
    if (want === "") throw new Error("--annotate takes a function's name, or part of it (as --functions prints it), got nothing");
    if (fnArg !== undefined) throw new Error("--annotate and --functions are two different reports: give one");
    if (args.some((a) => a.startsWith("--rounds="))) throw new Error("--annotate counts one run of each build: --rounds does not go with it");
  }
  if (args.includes("--misses") && fnArg === undefined) throw new Error("--misses goes with --functions (without it, the totals already count the misses)");
  const threadsArg = args.find((a) => a.startsWith("--threads="));
  if (threadsArg !== undefined) {
    if (!/^\d+$/.test(threadsArg.slice(10)) || !(THREADS >= 2 && THREADS <= 64)) throw new Error(`--threads takes an integer from 2 to 64, got ${threadsArg.slice(10)}`);
    if (fnArg === undefined) throw new Error(`--threads goes with --functions (it says where each thread's instructions go)${want !== undefined ? "; --annotate counts the run on one thread" : ""}`);
    if (SPLIT) throw new Error("--threads and --split are two different runs: give one");
  }
  const top = fnArg === undefined || fnArg === "--functions" ? 30 : Number(fnArg.slice(12));
  if (fnArg !== undefined && fnArg !== "--functions" && !(/^\d+$/.test(fnArg.slice(12)) && top >= 1)) throw new Error(`--functions takes a positive integer, got ${fnArg.slice(12)}`);
  const opt = (name: string, dflt: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
  const nodes = opt("nodes", "5000"), rho = opt("rho", "0.8");
  if (!/^\d+$/.test(nodes) || !(Number(nodes) > 0)) throw new Error(`--nodes takes a positive integer, got ${nodes}`);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(rho) || !(Number(rho) > 0)) throw new Error(`--rho takes a positive number, got ${rho}`);
  const roundsArg = opt("rounds", "1");
  if (!/^\d+$/.test(roundsArg) || !(Number(roundsArg) >= 1)) throw new Error(`--rounds takes a positive integer, got ${roundsArg}`);
  const rounds = Number(roundsArg);
  const durations = opt("durations", "0.1,0.4").split(",");
  if (durations.length !== 2 || durations.some((d) => !/^(\d+\.?\d*|\.\d+)$/.test(d) || !(Number(d) > 0)) || !(Number(durations[0]) < Number(durations[1]))) {
    throw new Error(`--durations takes two positive numbers, the shorter first, got ${opt("durations", "")}`);
  }
  const sets = [`cluster.nodes=${nodes}`, `workload.rho=${rho}`, "sim.drainS=0", ...args.filter((a) => a.startsWith("--set=")).map((a) => a.slice(6))];
  const here = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const roots = [here];
  if (args.some((a) => a.startsWith("--base="))) {
    const base = opt("base", "");
    const built = SPLIT ? "dist/bench/sim-laminar.js" : "dist/src/cli/main.js";
    if (base === "" || !existsSync(resolve(base, built))) throw new Error(`--base=${base} is not a built checkout (no ${built}): run npm ci there first`);
    roots.push(resolve(base));
  }
  {
    // a bad --set is one line here, not four failed runs under valgrind
    const { applySets, defaultConfig } = await import("../src/config/params-config.js");
    const config = applySets(defaultConfig(), sets);
    const { gatewayOnceOk } = await import("../src/run/partitions.js");
    if (SPLIT && !gatewayOnceOk(applySets(config, ["sim.scheduler=laminar"]))) {
      throw new Error("--split needs a run that can take the gateway once (the core's Zone engine, no memory model, no invariant checker)");
    }
  }
  await new Promise<void>((done, fail) => execFile("valgrind", ["--version"], (err) => (err === null ? done() : fail(new Error("needs valgrind (Debian: apt-get install valgrind), which was not found")))));
  if (want !== undefined && spawnSync("objdump", ["--version"]).status !== 0) throw new Error("--annotate needs binutils' objdump (Debian: apt-get install binutils), which was not found");
  if (fnArg !== undefined) return functions(roots, sets, durations, top, args.includes("--json"), args.includes("--misses"));
  if (want !== undefined) return annotated(roots, sets, durations[1], want, args.includes("--json"));
  // the two builds' runs of one duration side by side, so that whatever the pair shares falls on both alike
  const jobs: (() => Promise<Counts>)[] = [];
  for (let r = 0; r < rounds; r++) for (const d of durations) for (const root of roots) jobs.push(() => runOnce(root, sets, d));
  if (!args.includes("--json")) process.stderr.write(`bench:instr: ${jobs.length} runs under cachegrind, ${WIDTH} at a time (a few minutes each)...\n`);
  const counts = await pool(jobs, WIDTH);
  const at = (r: number, d: number, b: number) => counts[(r * 2 + d) * roots.length + b];
  /** Per round, per build: the steady state per task. */
  const perRound = Array.from({ length: rounds }, (_, r) => roots.map((_, b) => perTask(b === 0 ? "this" : "base", at(r, 0, b), at(r, 1, b))));
  const pick = (b: number, k: "instructions" | "d1Misses" | "llMisses") => median(perRound.map((x) => x[b][k]));
  const results: PerTask[] = roots.map((_, b) => ({
    build: b === 0 ? "this" : "base", tasks: perRound[0][b].tasks,
    instructions: pick(b, "instructions"), d1Misses: pick(b, "d1Misses"), llMisses: pick(b, "llMisses"),
  }));
  const spread = (k: "instructions" | "d1Misses" | "llMisses") => {
    const q = perRound.map((x) => x[0][k] / x[1][k]);
    return { median: median(q), min: Math.min(...q), max: Math.max(...q) };
  };
  const ratios = roots.length === 2 ? { instructions: spread("instructions"), d1Misses: spread("d1Misses"), llMisses: spread("llMisses") } : null;
  if (args.includes("--json")) {
    process.stdout.write(`${JSON.stringify({ nodes: Number(nodes), rho: Number(rho), durations: durations.map(Number), rounds, sets, results, ratios })}\n`);
    return;
  }
  const f = (x: number, d: number) => x.toFixed(d).padStart(10);
  process.stdout.write(`per task, steady state (${durations[1]} s less ${durations[0]} s, ${nodes} nodes, rho ${rho}${SPLIT ? ", the gateway once" : ""}):\n`);
  process.stdout.write(`  build      tasks  instructions   D1 misses   LL misses\n`);
  for (const r of results) process.stdout.write(`  ${r.build.padEnd(5)} ${String(r.tasks).padStart(10)}  ${f(r.instructions, 0)}  ${f(r.d1Misses, 1)}  ${f(r.llMisses, 2)}\n`);
  if (ratios !== null) {
    process.stdout.write(`  this / base      ${f(ratios.instructions.median, 3)}  ${f(ratios.d1Misses.median, 3)}  ${f(ratios.llMisses.median, 3)}\n`);
    if (rounds > 1) {
      const g = (x: { min: number; max: number }) => `${x.min.toFixed(3)}-${x.max.toFixed(3)}`.padStart(11);
      process.stdout.write(`  range (${rounds} rounds) ${g(ratios.instructions)} ${g(ratios.d1Misses)} ${g(ratios.llMisses)}\n`);
    }
  }
}

try {
  await main();
} catch (e) {
  process.stderr.write(`bench:instr: ${(e as Error).message.split("\n")[0]}\n`);
  process.exit(2);
}
