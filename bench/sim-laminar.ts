// Throughput of the whole Laminar simulation, stated against a yardstick
// measured in the same invocation: the wall time per simulated task in probe
// actions (bench/yardstick.ts: one native C probe action, or the WASM one
// without a C compiler), beside tasks per second. Absolute speeds on these
// machines drift two- to four-fold from day to day; the ratio does not.
//
//   npm run bench:sim -- [--nodes=5000] [--rho=0.8] [--duration=2] [--rounds=3] [--workers=1,2]
//        [--engines=ts,core] [--gateway=once,replicas] [--set=name=value ...] [--base=DIR] [--ceiling]
//        [--split] [--no-yardstick] [--no-native] [--json] [--help]
//
// --split adds, in every round, one run of the same simulation with the
// gateway side once on this thread (splitChild), timing the gateway side,
// the Zones, the Zones' replay of the gateway's log and the exchange apart:
// each part's share of that run's wall time and its probe actions per task.
//
// --ceiling measures what the machine itself allows W threads (for every
// combination with W > 1 workers): in each round, right after the threaded
// run, one one-thread run of the same engine alone, then W independent
// one-thread runs at once. On a machine whose cores share caches, memory
// bandwidth or a host with neighbours, each of the W takes longer than the
// one alone; W x (alone / together) is the speed-up W perfectly parallel
// threads could reach there, against which the threaded run's speed-up over
// the one alone is read.
//
// --base=DIR compares this build with another built checkout of the project
// (DIR, e.g. a worktree of the previous commit after `npm ci`): in every
// round each combination runs on both builds one right after the other, in
// turn (this build first in odd rounds, the base first in even ones), and
// the summary adds the median and range of the per-round ratios this / base
// of wall and CPU time: a speed change measured in alternating pairs, which
// machine drift hits alike. Runs that disagree with the base's counts are
// flagged (a change of behaviour), not refused.
//
// With several worker counts (--workers=1,2), Zone engines (--engines=ts,core:
// the TypeScript model and the core's Zone engine, sim.engine) or ways of
// running the gateway on threads (--gateway=once,replicas: docs/parallel.md,
// "The gateway once"; auto by default), each round runs
// every combination one after the other (side by side, so machine noise hits
// all alike) and the summary adds each one's median and the median per-round
// speed-up over the first.
// Each round runs one simulation in its own child process (a cold JIT, as a
// user's run has) and reads the run's own figures from its result: simulated
// tasks per wall second and per CPU second (CPU time is steadier on a shared
// machine), events processed, peak RSS. Rounds of the same configuration
// must agree on every count (the run is deterministic), and the bench fails
// if they do not. Reported: the median of each figure over the rounds. The
// yardstick is timed twice per round, right before and right after that
// round's runs, and the round's runs are stated against the mean of the
// two: a drift of the machine within the round moves both sides alike.
// Beside the medians, the fastest round against the fastest yardstick
// timing: this machine has spells of a slow mode (the native probe action
// about 510 or about 730 ns from one process to the next, 2026-11-28), and
// a round need not share its yardstick's mode; each side's fastest is its
// speed outside that mode.
import { execFile, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../src/config/params.js";
import type { HalfPhases, ThreadTiming } from "../src/run/options.js";
import type { SplitTiming } from "../src/run/partitions.js";
import { probesPerTask, probeYardstick, type Yardstick } from "./yardstick.js";
import { spansOf, timelineSvg } from "./timeline.js";
import { replaySummary, replayText, workPeriod, type ReplaySummary } from "./replay-summary.js";

interface Round {
  arrived: number;
  started: number;
  eventsProcessed: number;
  wallSeconds: number;
  cpuSeconds: number;
  tasksPerWallSecond: number;
  tasksPerCpuSecond: number;
  peakRssMiB: number;
  /** Threaded runs: the partitions' mean share of wall time spent waiting at window ends, and their longest setup. */
  waitShare: number | null;
  setupS: number | null;
  /** Threaded runs with the gateway once: the seconds the thread that runs it spent on the gateway side (else null). */
  gatewayS?: number | null;
  /** --split: the wall milliseconds of each part of the run (the gateway once, on this thread). */
  split?: SplitTiming;
  /** Threaded runs with the gateway once: each thread's time by half window of the batch period (null: none kept). */
  phases?: (HalfPhases | null)[] | null;
  /** --replay: every half of the threaded run replayed through the threads' schedule (replaySummary). */
  replay?: ReplaySummary | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function child(workers: number, gateway: string, args: string[]): Promise<void> {
  const keepHalves = args.includes("--replay");
  const sets = args.filter((a) => a !== "--replay");
  const { applySets, defaultConfig } = await import("../src/config/params-config.js");
  const { runScheduler } = await import("../src/run/schedulers.js");
  const { waitShare } = await import("../src/run/options.js");
  const cpu0 = process.cpuUsage();
  const config = applySets(defaultConfig(), [...sets, "sim.scheduler=laminar"]);
  if (gateway === "split") return splitChild(config, cpu0);
  let timing: ThreadTiming[] = [];
  const gatewayOnce = gateway === "once" ? true : gateway === "replicas" ? false : undefined;
  const r = await runScheduler(config, workers, { onThreadTiming: (t) => { timing = t; }, gatewayOnce, keepHalves });
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const replay = keepHalves && timing.length > 1 && timing.every((t) => t.halves !== undefined) ? await replaySummaryOf(config, timing) : null;
  const out: Round = {
    arrived: r.arrived, started: r.started, eventsProcessed: r.eventsProcessed,
    wallSeconds: r.wallSeconds, cpuSeconds, tasksPerWallSecond: r.tasksPerWallSecond,
    tasksPerCpuSecond: r.arrived / cpuSeconds, peakRssMiB: r.peakRssMiB,
    waitShare: timing.length === 0 ? null : waitShare(timing),
    setupS: timing.length === 0 ? null : Math.max(...timing.map((t) => t.setupS)),
    gatewayS: timing.find((t) => (t.gatewayS ?? 0) > 0)?.gatewayS ?? null,
    phases: timing.some((t) => t.phases !== undefined) ? timing.map((t) => t.phases ?? null) : null,
    replay,
  };
  process.stdout.write(JSON.stringify(out));
}

/** What --help prints. */
const USAGE = `Usage: npm run bench:sim -- [options]

The whole Laminar simulation's speed: wall time per simulated task in native
probe actions timed in the same invocation (the yardstick), beside tasks per
second; the median over rounds, each run in its own process (docs/bench.md).

  --nodes=N            cluster size (5000)
  --rho=R              offered load (0.8)
  --duration=S         simulated seconds (2); a shorter run is largely warm-up and a cluster
                       still filling, which understates what threads gain (docs/bench.md,
                       "The run's length")
  --rounds=N           rounds (3)
  --workers=1,2        worker threads, one or more counts (1)
  --engines=ts,core    Zone engines side by side: ts, core, auto (the configuration's)
  --gateway=once,replicas  the gateway side on threads: once, replicas, auto
  --set=name=value     any parameter (laminar params), repeatable
  --base=DIR           alternate every run with another built checkout; ratios this / base
  --ceiling            also what the machine allows W threads (W one-thread runs at once)
  --split              also the gateway side and the Zones apart, in probe actions per task
                       (one more run per round, the gateway once on one thread)
  --phases             threaded runs with the gateway once: each thread's time by half window
                       of the gateway's batch period, running and waiting (docs/parallel.md)
  --timeline=FILE      threaded runs with the gateway once: write FILE, an SVG of each thread's
                       half windows over a few batch periods from the middle of the first round's
                       first threaded run (a new file: an existing one is not replaced)
  --replay             threaded runs with the gateway once: every half window timed, and replayed
                       through the threads' schedule with thread 0's share of the Zones for other
                       gateway shares, and with each half at its phase's mean (docs/parallel.md)
  --no-yardstick       skip the yardstick
  --no-native          time the WebAssembly probe action instead of the native one
  --json               the summary as JSON
  -h, --help           this text`;

/**
 * --split's run: the same simulation with the gateway side once, on this
 * thread (a PartitionSet of the gateway and one Zone partition, which gives
 * the one-thread result), timing each part: what the gateway side costs
 * per task, and what the Zones do.
 */
async function splitChild(config: Config, cpu0: NodeJS.CpuUsage): Promise<void> {
  const { gatewayOnceOk } = await import("../src/run/partitions.js");
  const { runLaminar } = await import("../src/run/laminar.js");
  if (!gatewayOnceOk(config)) throw new Error("bench: --split needs a run that can take the gateway once (the core's Zone engine, no memory model, no invariant checker)");
  const split: SplitTiming = { gateway: 0, zones: 0, replay: 0, exchange: 0 };
  const r = runLaminar(config, { split });
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const out: Round = {
    arrived: r.arrived, started: r.started, eventsProcessed: r.eventsProcessed, wallSeconds: r.wallSeconds, cpuSeconds,
    tasksPerWallSecond: r.tasksPerWallSecond, tasksPerCpuSecond: r.arrived / cpuSeconds, peakRssMiB: r.peakRssMiB,
    waitShare: null, setupS: null, split,
  };
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const opt = (name: string, dflt: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
  // every option known, every number sane: a typo gets one line and exit 2, not a silently different run
  const valued = ["nodes", "rho", "duration", "rounds", "workers", "engines", "gateway", "set", "base", "timeline"];
  const flags = ["--json", "--no-yardstick", "--no-native", "--ceiling", "--split", "--phases", "--replay"];
  for (const a of args) {
    if (flags.includes(a) || valued.some((v) => a.startsWith(`--${v}=`))) continue;
    throw new Error(`bench: unknown option ${a} (options: ${valued.map((v) => `--${v}=`).join(" ")} ${flags.join(" ")})`);
  }
  const decimal = /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  for (const [name, dflt, integer] of [["nodes", "5000", true], ["rounds", "3", true], ["rho", "0.8", false], ["duration", "2", false]] as const) {
    const v = opt(name, dflt), x = Number(v);
    if (!(integer ? /^\d+$/.test(v) : decimal.test(v)) || !(x > 0) || !Number.isFinite(x)) {
      throw new Error(`bench: --${name} takes a positive ${integer ? "integer" : "number"}, got ${v}`);
    }
  }
  const json = args.includes("--json");
  const yardstick = !args.includes("--no-yardstick");
  const native = !args.includes("--no-native");
  const sticks: Yardstick[] = [];
  /** Every yardstick timing, before and after each round's runs. */
  const stickTimes: number[] = [];
  const nodes = opt("nodes", "5000"), rho = opt("rho", "0.8"), duration = opt("duration", "2"), rounds = Number(opt("rounds", "3"));
  const workers = opt("workers", "1").split(",").map((w) => (/^\d+$/.test(w) ? Number(w) : NaN));
  if (workers.some((w) => !Number.isInteger(w) || w < 1)) throw new Error(`bench: --workers takes positive integers, got ${opt("workers", "1")}`);
  const engineArg = opt("engines", "");
  const engines = engineArg === "" ? [null] : engineArg.split(",");
  if (engines.some((e) => e !== null && !["ts", "core", "auto"].includes(e))) throw new Error(`bench: --engines takes ts, core or auto, got ${engineArg}`);
  const gatewayArg = opt("gateway", "");
  const gateways = gatewayArg === "" ? [null] : gatewayArg.split(",");
  if (gateways.some((g) => g !== null && !["once", "replicas", "auto"].includes(g))) throw new Error(`bench: --gateway takes once, replicas or auto, got ${gatewayArg}`);
  /** The combinations each round runs, in order: engine (null: the configuration's), the gateway's threads (null: auto), then workers. */
  const variants = engines.flatMap((engine) => gateways.flatMap((gateway) => workers.map((w) => ({ engine, gateway, workers: w, key: `${engine ?? "-"}/${gateway ?? "-"}/${w}` }))));
  const extra = args.filter((a) => a.startsWith("--set=")).map((a) => a.slice(6));
  const sets = [`cluster.nodes=${nodes}`, `workload.rho=${rho}`, `sim.durationS=${duration}`, "sim.drainS=0", ...extra];
  // the configuration is checked here, once, so that a bad --set is one line, not a child's stack trace
  {
    const { applySets, defaultConfig } = await import("../src/config/params-config.js");
    for (const engine of engines) applySets(defaultConfig(), engine === null ? sets : [...sets, `sim.engine=${engine}`]);
    const { gatewayOnceOk } = await import("../src/run/partitions.js");
    if (args.includes("--split") && !gatewayOnceOk(applySets(defaultConfig(), [...sets, "sim.scheduler=laminar"]))) {
      throw new Error("bench: --split needs a run that can take the gateway once (the core's Zone engine, no memory model, no invariant checker)");
    }
  }
  const self = fileURLToPath(import.meta.url);
  const baseGiven = args.some((a) => a.startsWith("--base="));
  const baseArg = opt("base", "");
  if (baseGiven && baseArg === "") throw new Error("bench: --base= needs a directory (another built checkout)");
  const baseBench = baseArg === "" ? null : resolve(baseArg, "dist", "bench", "sim-laminar.js");
  if (baseBench !== null && !existsSync(baseBench)) throw new Error(`bench: --base=${baseArg} has no built bench (${baseBench}): run npm ci there first`);
  const results = new Map<string, Round[]>(variants.map((v) => [v.key, []]));
  const baseResults = new Map<string, Round[]>(variants.map((v) => [v.key, []]));
  let differs = false;
  let first: Round | null = null;
  const replayOn = args.includes("--replay");
  if (replayOn && !workers.some((w) => w > 1)) throw new Error("bench: --replay needs a worker count above 1 (--workers=2)");
  // --replay asks this build's threaded runs only (a base build need not know it)
  const runChild = (bench: string, w: number, gateway: string | null, vsets: string[]) =>
    JSON.parse(execFileSync(process.execPath, childArgs(bench, w, gateway, replayOn && bench === self && w > 1 ? [...vsets, "--replay"] : vsets), { encoding: "utf8", maxBuffer: 1 << 20 })) as Round;
  const timelineGiven = args.some((a) => a.startsWith("--timeline="));
  const timelineFile = timelineGiven ? resolve(opt("timeline", "")) : null;
  if (timelineFile !== null) {
    // checked before any run: a bad name is one line now, not a lost chart after minutes of rounds
    if (opt("timeline", "") === "") throw new Error("bench: --timeline= needs a file name (an SVG to write)");
    if (!workers.some((w) => w > 1)) throw new Error("bench: --timeline needs a worker count above 1 (--workers=2)");
    if (existsSync(timelineFile)) throw new Error(`bench: --timeline=${opt("timeline", "")} exists already; name a new file (nothing is replaced)`);
    const dir = dirname(timelineFile);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`bench: --timeline=${opt("timeline", "")}: no directory ${dir}`);
  }
  let timelineDone = false;
  const ceilingOn = args.includes("--ceiling");
  const splitOn = args.includes("--split");
  const phasesOn = args.includes("--phases");
  const splits: Round[] = [];
  if (ceilingOn && !workers.some((w) => w > 1)) throw new Error("bench: --ceiling needs a worker count above 1 (--workers=1,2)");
  /**
   * Per threaded combination, per round: W one-thread runs of its engine at once against one alone (the mean wall
   * time of the W over the one's), and the threaded run's speed-up over that one alone.
   */
  const ceilings = new Map<string, { slow: number[]; speedup: number[] }>(variants.filter((v) => ceilingOn && v.workers > 1).map((v) => [v.key, { slow: [], speedup: [] }]));
  for (let i = 0; i < rounds; i++) {
    const stickBefore = yardstick ? await probeYardstick(native) : null;
    for (const { engine, gateway, workers: w, key } of variants) {
      const vsets = engine === null ? sets : [...sets, `sim.engine=${engine}`];
      // with a base build, the two runs of a pair one right after the other, the first in turn
      const baseFirst = baseBench !== null && i % 2 === 1;
      const b0 = baseFirst ? runChild(baseBench!, w, gateway, vsets) : null;
      const r = runChild(self, w, gateway, vsets);
      const b = baseBench === null ? null : b0 ?? runChild(baseBench, w, gateway, vsets);
      if (b !== null) {
        baseResults.get(key)!.push(b);
        if (b.arrived !== r.arrived || b.started !== r.started || b.eventsProcessed !== r.eventsProcessed) differs = true;
      }
      // runs with the same worker count and gateway process the same events, on either engine
      const same = variants.filter((v) => v.workers === w && v.gateway === gateway).map((v) => results.get(v.key)![0]).find((x) => x !== undefined);
      if ((first !== null && (r.arrived !== first.arrived || r.started !== first.started)) || (same !== undefined && r.eventsProcessed !== same.eventsProcessed)) {
        throw new Error("bench: runs of the same configuration disagree: the run is not deterministic");
      }
      first ??= r;
      results.get(key)!.push(r);
      const gw = r.gatewayS == null ? "" : `, the gateway side ${r.gatewayS.toFixed(2)} s of the first thread's`;
      const threads = r.waitShare === null ? "" : `; threads: setup ${r.setupS!.toFixed(2)} s, ${(100 * r.waitShare).toFixed(1)}% of their time waiting at window ends${gw}`;
      const pair = b === null ? "" : `; against the base build: wall ${(r.wallSeconds / b.wallSeconds).toFixed(3)}, CPU ${(r.cpuSeconds / b.cpuSeconds).toFixed(3)}`;
      const ceiling = ceilings.get(key);
      if (ceiling !== undefined) {
        // the machine's own limit for w threads, with this combination's engine: one one-thread run alone, then w at once
        const alone = runChild(self, 1, null, vsets);
        const together = await runTogether(self, vsets, w);
        const slow = together.reduce((a, x) => a + x.wallSeconds, 0) / w / alone.wallSeconds;
        ceiling.slow.push(slow);
        ceiling.speedup.push(alone.wallSeconds / r.wallSeconds);
        if (!json) process.stderr.write(`round ${i + 1}/${rounds}, ceiling for ${label(engine, gateway, w)}: ${w} one-thread runs at once each took ${slow.toFixed(3)} of one alone: at most ${(w / slow).toFixed(2)}x here; this run ${(alone.wallSeconds / r.wallSeconds).toFixed(2)}x\n`);
      }
      if (!json) process.stderr.write(`round ${i + 1}/${rounds}, ${label(engine, gateway, w)}: ${Math.round(r.tasksPerWallSecond)} tasks/wall-s, ${Math.round(r.tasksPerCpuSecond)} tasks/CPU-s${threads}${pair}\n`);
      if (timelineFile !== null && !timelineDone && w > 1) {
        const p = r.phases?.find((x) => x !== null && x.period > 0);
        const svg = p == null ? null : timelineSvg(spansOf(r.phases!), p.period, `${label(engine, gateway, w)}, ${nodes} nodes, rho ${rho}: half windows from the middle of the run`);
        if (svg === null) throw new Error("bench: --timeline needs a threaded run with the gateway once (docs/parallel.md), and this one kept no half windows");
        writeFileSync(timelineFile, svg, { flag: "wx" });
        timelineDone = true;
        if (!json) process.stderr.write(`round ${i + 1}/${rounds}, ${label(engine, gateway, w)}: the timeline is in ${timelineFile}\n`);
      }
      if (replayOn && !json && w > 1) {
        process.stderr.write(r.replay == null
          ? `round ${i + 1}/${rounds}, ${label(engine, gateway, w)}: no replay (a threaded run with the gateway once keeps its halves: docs/parallel.md)\n`
          : `round ${i + 1}/${rounds}, ${label(engine, gateway, w)}, ${replayText(r.replay)}`);
      }
      if (phasesOn && !json && r.phases != null) {
        r.phases.forEach((p, t) => {
          if (p !== null && p.period > 0) process.stderr.write(`round ${i + 1}/${rounds}, ${label(engine, gateway, w)}, ${phaseTable(p, t)}`);
        });
      }
    }
    if (splitOn) {
      const sp = runChild(self, 1, "split", sets);
      if (sp.arrived !== first!.arrived || sp.started !== first!.started) throw new Error("bench: the split run's counts differ from the run's: the gateway once does not give the one-thread result");
      splits.push(sp);
      if (!json) process.stderr.write(`round ${i + 1}/${rounds}, split: ${splitLine(sp)}\n`);
    }
    if (stickBefore !== null) {
      const after = await probeYardstick(native);
      stickTimes.push(stickBefore.nsPerProbe, after.nsPerProbe);
      const y = { impl: after.impl, nsPerProbe: (stickBefore.nsPerProbe + after.nsPerProbe) / 2 };
      sticks.push(y);
      if (!json) {
        const ends = `${stickBefore.nsPerProbe.toFixed(0)} ns before the round's runs, ${after.nsPerProbe.toFixed(0)} ns after`;
        process.stderr.write(`round ${i + 1}/${rounds}, yardstick: one probe action ${y.nsPerProbe.toFixed(0)} ns (${y.impl}; ${ends})\n`);
      }
    }
  }
  /** Per round, the run's wall time per task in that round's probe actions (null without the yardstick). */
  const perTask = (rs: Round[]) => (sticks.length === 0 ? null : median(rs.map((r, i) => probesPerTask(r.wallSeconds, r.arrived, sticks[i]))));
  /**
   * The fastest round against the fastest yardstick timing: the machine here has a slow mode (the native
   * probe action took about 510 or about 730 ns from one process to the next, in spells, on 2026-11-28), and
   * a round and its yardstick need not fall in the same mode; each side's fastest is its speed outside it.
   */
  const fastest = (rs: Round[]) => (stickTimes.length === 0 ? null : Math.min(...rs.map((r) => (r.wallSeconds * 1e9) / r.arrived)) / Math.min(...stickTimes));
  const base = results.get(variants[0].key)!;
  const byWorkers = variants.map(({ engine, gateway, workers: w, key }) => {
    const rs = results.get(key)!;
    const pick = (k: Exclude<keyof Round, "waitShare" | "setupS" | "split" | "gatewayS" | "phases" | "replay">) => median(rs.map((r) => r[k]));
    return {
      engine,
      gateway,
      workers: w,
      eventsProcessed: rs[0].eventsProcessed,
      medianWallSeconds: pick("wallSeconds"),
      medianTasksPerWallSecond: pick("tasksPerWallSecond"),
      medianTasksPerCpuSecond: pick("tasksPerCpuSecond"),
      medianPeakRssMiB: pick("peakRssMiB"),
      medianWaitShare: rs[0].waitShare === null ? null : median(rs.map((r) => r.waitShare!)),
      medianGatewayS: rs[0].gatewayS == null ? null : median(rs.map((r) => r.gatewayS!)),
      medianSpeedup: median(rs.map((r, i) => base[i].wallSeconds / r.wallSeconds)),
      medianProbeActionsPerTask: perTask(rs),
      fastestProbeActionsPerTask: fastest(rs),
      againstBase: baseBench === null ? null : againstBase(rs, baseResults.get(key)!),
      ceiling: ceilings.has(key) ? ceilingOf(w, ceilings.get(key)!.slow, ceilings.get(key)!.speedup) : null,
      replay: replayOn && w > 1 ? rs.map((r) => r.replay ?? null) : null,
    };
  });
  const summary = {
    config: { nodes: Number(nodes), rho: Number(rho), durationS: Number(duration), sets },
    rounds,
    arrived: first!.arrived,
    eventsPerTask: base[0].eventsProcessed / first!.arrived,
    yardstick: sticks.length === 0 ? null : {
      impl: sticks[0].impl, medianNsPerProbe: median(sticks.map((y) => y.nsPerProbe)), rounds: sticks.map((y) => y.nsPerProbe),
      fastestNsPerProbe: Math.min(...stickTimes), timings: stickTimes,
    },
    ...byWorkers[0],
    byWorkers,
    base: baseBench === null ? null : { dir: resolve(baseArg), sameResults: !differs },
    split: splits.length === 0 ? null : splitSummary(splits, sticks),
  };
  if (json) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(`laminar sim, ${nodes} nodes, rho ${rho}, ${duration} s simulated, ${first!.arrived} tasks, ${summary.eventsPerTask.toFixed(2)} events/task`);
    for (const b of byWorkers) {
      console.log(`${label(b.engine, b.gateway, b.workers)}, median over ${rounds} rounds: ` +
        (b.medianProbeActionsPerTask === null ? "" : `${b.medianProbeActionsPerTask.toFixed(2)} probe actions of wall time per task, `) +
        `${Math.round(b.medianTasksPerWallSecond)} tasks/wall-s, ${Math.round(b.medianTasksPerCpuSecond)} tasks/CPU-s, ${b.medianWallSeconds.toFixed(2)} s wall, peak ${b.medianPeakRssMiB.toFixed(0)} MiB` +
        (b.medianGatewayS === null ? "" : `, the gateway side ${b.medianGatewayS.toFixed(2)} s of the first thread's`) +
        (b.fastestProbeActionsPerTask === null ? "" : `; the fastest round against the fastest yardstick timing ${b.fastestProbeActionsPerTask.toFixed(2)} probe actions per task`) +
        (b === byWorkers[0] ? "" : `, speed-up over ${label(byWorkers[0].engine, byWorkers[0].gateway, byWorkers[0].workers)} ${b.medianSpeedup.toFixed(2)}x`));
    }
    for (const b of byWorkers) {
      const a = b.againstBase;
      if (a === null) continue;
      console.log(`${label(b.engine, b.gateway, b.workers)}, this build / the base build over ${a.pairs} alternating pairs: wall ${a.wall.median.toFixed(3)} ` +
        `(${a.wall.min.toFixed(3)} to ${a.wall.max.toFixed(3)}), CPU ${a.cpu.median.toFixed(3)} (${a.cpu.min.toFixed(3)} to ${a.cpu.max.toFixed(3)})`);
    }
    for (const b of byWorkers) {
      const c = b.ceiling;
      if (c === null) continue;
      console.log(`${label(b.engine, b.gateway, b.workers)}, the machine's ceiling: ${b.workers} independent one-thread runs at once each took ${c.slowdown.median.toFixed(3)} ` +
        `(${c.slowdown.min.toFixed(3)} to ${c.slowdown.max.toFixed(3)}) of one alone, so at most ${c.medianCeiling.toFixed(2)}x here; ` +
        `this run's speed-up over the one alone ${c.medianSpeedup.toFixed(2)}x, ${(100 * c.medianShare).toFixed(0)}% of the ceiling (medians of the rounds' own figures)`);
    }
    if (summary.split !== null) {
      const sp = summary.split;
      console.log(`the gateway once on one thread, median over ${rounds} rounds: ${sp.medianWallSeconds.toFixed(2)} s wall; ` +
        PARTS.map((k) => `${k} ${(100 * sp.share[k]).toFixed(1)}%` + (sp.probeActionsPerTask === null ? "" : ` (${sp.probeActionsPerTask[k].toFixed(2)} probe actions per task)`)).join(", ") +
        `; the rest ${(100 * sp.share.rest).toFixed(1)}%`);
    }
    if (summary.base !== null && !summary.base.sameResults) console.log("note: the base build's runs have other counts (arrivals, starts or events): the two builds do not behave alike");
    if (summary.yardstick !== null) {
      console.log(`yardstick: one probe action (${summary.yardstick.impl}) ${summary.yardstick.medianNsPerProbe.toFixed(0)} ns, median over ${rounds} rounds of each round's mean of the two timed before and after its runs; ` +
        `the fastest of the ${summary.yardstick.timings.length} timings ${summary.yardstick.fastestNsPerProbe.toFixed(0)} ns (${new Date().toISOString().slice(0, 10)})`);
    }
  }
}

const PARTS = ["gateway", "zones", "replay", "exchange"] as const;

/** A split run's parts in one line. */
function splitLine(r: Round): string {
  const t = r.split!, wall = r.wallSeconds * 1000;
  return PARTS.map((k) => `${k} ${(100 * t[k] / wall).toFixed(1)}%`).join(", ") + ` of ${r.wallSeconds.toFixed(2)} s`;
}

/** --split's summary: each part's median share of the run's wall time, and with the yardstick its wall time per task in that round's probe actions. */
function splitSummary(rs: Round[], sticks: Yardstick[]) {
  const share = (k: (typeof PARTS)[number]) => median(rs.map((r) => r.split![k] / (r.wallSeconds * 1000)));
  const per = (k: (typeof PARTS)[number]) => median(rs.map((r, i) => probesPerTask(r.split![k] / 1000, r.arrived, sticks[i])));
  return {
    medianWallSeconds: median(rs.map((r) => r.wallSeconds)),
    share: { gateway: share("gateway"), zones: share("zones"), replay: share("replay"), exchange: share("exchange"),
      rest: median(rs.map((r) => 1 - PARTS.reduce((a, k) => a + r.split![k], 0) / (r.wallSeconds * 1000))) },
    probeActionsPerTask: sticks.length === 0 ? null : { gateway: per("gateway"), zones: per("zones"), replay: per("replay"), exchange: per("exchange") },
  };
}

/** Median and range of one figure's ratios. */
function spread(xs: number[]): { median: number; min: number; max: number } {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

/** The per-round ratios this build / the base build (the two runs of each round's pair). */
function againstBase(rs: Round[], bs: Round[]): { pairs: number; wall: ReturnType<typeof spread>; cpu: ReturnType<typeof spread> } {
  return {
    pairs: rs.length,
    wall: spread(rs.map((r, i) => r.wallSeconds / bs[i].wallSeconds)),
    cpu: spread(rs.map((r, i) => r.cpuSeconds / bs[i].cpuSeconds)),
  };
}

/**
 * The machine's ceiling for w threads from each round's slowdown (w one-thread
 * runs at once against one alone), and the threaded run's speed-up over that
 * one alone read against it, round by round.
 */
function ceilingOf(w: number, slow: number[], speedups: number[]): { slowdown: ReturnType<typeof spread>; medianCeiling: number; medianSpeedup: number; medianShare: number } {
  return {
    slowdown: spread(slow),
    medianCeiling: median(slow.map((s) => w / s)),
    medianSpeedup: median(speedups),
    medianShare: median(speedups.map((x, i) => x / (w / slow[i]))),
  };
}

/** --phases: one thread's time by half window of the batch period, as a small table (ms). */
function phaseTable(p: HalfPhases, thread: number): string {
  const cols = Array.from({ length: p.period }, (_, i) => i);
  const row = (name: string, xs: number[]) => `  ${name.padEnd(22)}${xs.map((x) => x.toFixed(0).padStart(7)).join("")}  ${xs.reduce((a, x) => a + x, 0).toFixed(0).padStart(7)}\n`;
  return `thread ${thread}, ms by half of the gateway's batch period (the first period left out):\n` +
    `  ${"half".padEnd(22)}${cols.map((c) => String(c).padStart(7)).join("")}  ${"all".padStart(7)}\n` +
    (p.gatewayMs.some((x) => x > 0) ? row("the gateway's", p.gatewayMs) + row("waiting before those", p.gatewayWaitMs) : "") +
    row("the Zones'", p.zonesMs) + row("waiting before those", p.zonesWaitMs);
}

/** --replay's figures for a run of `config` (its half windows and work periods from the model's timings). */
async function replaySummaryOf(config: Config, timing: ThreadTiming[]): Promise<ReplaySummary> {
  const { timingsOf } = await import("../src/laminar/timings.js");
  const { firstShare } = await import("../src/run/thread-once.js");
  const t = timingsOf(config);
  return replaySummary(timing, workPeriod(t.deltaNs / 2, t.batchNs, t.broadcastNs), firstShare);
}

/** A child run's command line: one simulation with w workers and the gateway's way (null: auto), its round figures on stdout (child()). */
function childArgs(bench: string, w: number, gateway: string | null, sets: string[]): string[] {
  // sets may end with --replay (this build's threaded runs: child() keeps their halves)
  return [bench, "--child", String(w), gateway ?? "auto", ...sets];
}

/**
 * n one-thread runs of the configuration at once, each in its own process.
 * When one fails, the others are stopped and the bench ends (one line, exit 2).
 */
async function runTogether(bench: string, sets: string[], n: number): Promise<Round[]> {
  const children: ChildProcess[] = [];
  const runs = Array.from({ length: n }, () => new Promise<Round>((resolveRun, reject) => {
    children.push(execFile(process.execPath, childArgs(bench, 1, null, sets), { encoding: "utf8", maxBuffer: 1 << 20 }, (err, out) => {
      if (err) reject(err);
      else resolveRun(JSON.parse(out) as Round);
    }));
  }));
  try {
    return await Promise.all(runs);
  } catch (e) {
    for (const c of children) if (c.exitCode === null) c.kill();
    throw e;
  }
}

/** A combination's name in the output. */
function label(engine: string | null, gateway: string | null, workers: number): string {
  return `${engine === null ? "" : `engine ${engine}, `}${gateway === null ? "" : `gateway ${gateway}, `}${workers} worker(s)`;
}

if (process.argv[2] === "--child") await child(Number(process.argv[3]), process.argv[4], process.argv.slice(5));
else {
  try {
    await main();
  } catch (e) {
    // a bad option or a failed round: one line, exit 2
    process.stderr.write(`bench:sim: ${(e as Error).message.split("\n")[0]}\n`);
    process.exit(2);
  }
}
