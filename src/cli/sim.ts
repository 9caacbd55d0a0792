// `laminar sim`: one simulation run. The named flags are shorthands for
// parameters (--nodes is cluster.nodes, ...) applied after --config and
// --set, so every value passes the same validation and error messages.
import { Command } from "commander";
import type { Config } from "../config/params.js";
import { waitShare, type ThreadTiming } from "../run/options.js";
import { formatTable } from "../report/table.js";
import { Progress } from "./progress.js";
import { availableParallelism } from "node:os";
import { UsageError } from "./errors.js";
import { decimal } from "../config/decimal.js";
import { checkOutFiles, makeOutDir } from "./out-dir.js";
import { saveOutputs } from "./save-result.js";
import { OutputWriteError } from "../experiments/safe-write.js";
import { FolderLocked, lockFolder } from "../experiments/out-lock.js";
import { finishManifest, startManifest } from "../experiments/manifest.js";
import type { CommonResult } from "../metrics/result.js";
import type { SeriesPoint } from "../metrics/run-metrics.js";
import { runScheduler, schedulerImpl } from "../run/schedulers.js";
import type { Rows } from "../run/impl.js";
import { SCHEDULER_NAMES, SCHEDULERS, schedulerEntry } from "../schedulers/catalogue.js";
import { WORKLOAD_NAMES, WORKLOADS } from "../workload/params/kinds.js";
import { PROFILE_HELP, profileOption } from "./profile-option.js";

interface Options {
  scheduler?: string;
  workload?: string;
  nodes?: string;
  rho?: string;
  duration?: string;
  seed?: string;
  config?: string;
  set: string[];
  json?: boolean;
  out?: string;
  checkInvariants?: boolean;
  progress?: boolean;
  workers?: string;
  profile?: string;
  force?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** From this many nodes, a Laminar run uses every core unless --workers says otherwise (smaller runs would spend more on starting threads than they save). */
export const AUTO_WORKERS_NODES = 10_000;

/** The --set list a run uses: the user's --set, then the named flags. */
export function simSets(o: Options): string[] {
  const sets = [...o.set];
  const flag = (v: string | undefined, name: string) => { if (v !== undefined) sets.push(`${name}=${v}`); };
  flag(o.scheduler, "sim.scheduler");
  flag(o.workload, "workload.kind");
  flag(o.nodes, "cluster.nodes");
  flag(o.rho, "workload.rho");
  flag(o.duration, "sim.durationS");
  flag(o.seed, "sim.seed");
  if (o.checkInvariants) sets.push("sim.checkInvariants=true");
  return sets;
}

/** Refuse what the chosen scheduler cannot simulate, in one line (what it supports: its entry in src/schedulers/). */
export function supported(c: Config): void {
  const e = schedulerEntry(c.sim.scheduler);
  if (c.memory.enabled && !e.supports.memoryModel) {
    throw new UsageError(`memory.enabled: the memory model and Airlock are Laminar's (Exp5); the ${e.label} model has none`);
  }
  if (c.sim.checkInvariants && !e.supports.invariants) {
    throw new UsageError(`--check-invariants (sim.checkInvariants): the ${e.label} model has no invariant checker`);
  }
}

const fmt = (x: number | null, digits = 2) => (x === null ? "-" : x.toFixed(digits));

/** Where a threaded run's threads spent their time (none for a one-thread run). */
function threadRows(t: ThreadTiming[]): Array<[string, string]> {
  if (t.length === 0) return [];
  const busy = t.map((x) => x.busyS), gateway = t[0].gatewayS ?? 0;
  // with the gateway side once (docs/parallel.md), thread 0's share of it
  const once = gateway > 0 ? `, the gateway once on thread 0 (${gateway.toFixed(1)} s of its time)` : "";
  return [["threads", `${t.length}: simulating ${Math.min(...busy).toFixed(1)}-${Math.max(...busy).toFixed(1)} s each, ${(100 * waitShare(t)).toFixed(1)}% of their time waiting${once}`]];
}

/** The table of a run: the common rows, then `extra` (the scheduler's own, from its run module), then the run's cost. */
export function summary(r: CommonResult & { profile?: string | null }, threads: ThreadTiming[] = [], extra: Rows = []): string {
  const c = r.config;
  const rows: Array<[string, string]> = [
    ...(r.profile ? [["profile", r.profile] as [string, string]] : []),
    ["cluster", `${c.cluster.nodes} nodes x ${c.cluster.atomsPerNode} atoms, rho ${c.workload.rho}, ${c.sim.durationS} s, seed ${c.sim.seed}`],
    ["arrived", `${r.arrived} (F ${r.arrivedF}, L ${r.arrivedL}, squatters ${r.squatters})`],
    ["started", `${r.started} (${(100 * r.startSuccessRatio).toFixed(3)}% start success)`],
    ["failed", `${r.failed} (${Object.entries(r.failedBy).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(", ") || "none"})`],
    ["completed", String(r.completed)],
    ["arrival-to-start, started tasks", `p50 ${fmt(r.p50StartedMs)} ms, p99 ${fmt(r.p99StartedMs)} ms, mean ${fmt(r.meanStartedMs)} ms`],
    ["p99 started, F-tasks / L-tasks", `${fmt(r.p99StartedFMs)} ms / ${fmt(r.p99StartedLMs)} ms`],
    ["p99 over all arrivals (failed at deadline)", `${fmt(r.p99StartMs)} ms`],
    ["still waiting at the end", String(r.inFlightAtEnd)],
    ...extra,
    ["run", `${r.eventsProcessed} events, ${r.wallSeconds.toFixed(1)} s wall, ${Math.round(r.tasksPerWallSecond)} tasks/s, peak ${r.peakRssMiB.toFixed(0)} MiB`],
    ...threadRows(threads),
  ];
  return formatTable(["", r.scheduler], rows);
}

function seriesCsv(r: CommonResult): string {
  const base = ["tMs", "arrived", "started", "completed", "failed", "inFlight", "running", "bounces", "fastFails", "regenerations", "p99StartedMs"] as const;
  const survival = ["oomKillsL", "oomKillsF", "probeDrops", "suspensions", "resumedInPlace", "secondaryReactivations", "secondaryLandings", "reclaimed", "executionSurvival"] as const;
  const cols: ReadonlyArray<keyof SeriesPoint> = r.series.some((p) => p.oomKillsL !== undefined) ? [...base, ...survival] : base;
  const lines = [cols.join(",")];
  for (const p of r.series) lines.push(cols.map((k) => (p[k] === null || p[k] === undefined ? "" : String(p[k]))).join(","));
  return lines.join("\n") + "\n";
}

export function simCommand(): Command {
  return new Command("sim")
    .description("run one simulation and report start success, latency, control work and the run's own cost")
    .option("--scheduler <name>", `laminar, or a baseline: ${SCHEDULER_NAMES.filter((n) => n !== "laminar").join(", ")} (sim.scheduler)`)
    .option("--workload <kind>", `where tasks come from: ${WORKLOAD_NAMES.join(", ")} (workload.kind; a trace also needs --set workload.trace.file=...)`)
    .option("--nodes <n>", "worker nodes (cluster.nodes)")
    .option("--rho <r>", "offered load (workload.rho)")
    .option("--duration <s>", "simulated arrival window in seconds (sim.durationS); the run then goes on for up to sim.drainS (5 s by default) while tasks in flight may still start or fail (--set sim.drainS=0 skips it)")
    .option("--seed <s>", "root seed (sim.seed)")
    .option("--profile <name>", `${PROFILE_HELP}; applied before --config and --set`)
    .option("--config <file>", "JSON config file (see laminar params): a regular file of at most 1 MiB, nested at most 16 levels, no key given twice")
    .option("--set <name=value>", "set a parameter, e.g. --set network.loss=0 (repeatable)", collect, [])
    .option("--check-invariants", "check the model's invariants and stop at the first violation (exit 3): Laminar's on every transition, the baselines' after every 10 ms slice (slow)")
    .option("--json", "print one JSON object with every result field on stdout")
    .option("--out <dir>", "also write result.json and series.csv into this directory (made, and checked writable, before the run starts; an existing result there is not overwritten without --force)")
    .option("--force", "with --out: replace an existing result.json and series.csv")
    .option("--no-progress", "no progress bar on stderr")
    .option("--workers <w>", `Laminar only: split the Zones over w worker threads; the result is the same for any w (default: 1 below ${AUTO_WORKERS_NODES} nodes, else the cores available, ${availableParallelism()} here)`)
    .addHelpText("after", `\nSchedulers (--scheduler, src/schedulers/catalogue.ts):\n${SCHEDULERS.map((e) => `  ${e.name.padEnd(9)}${e.summary}`).join("\n")}\n\nWorkloads (--workload, src/workload/kinds.ts; docs/extending.md):\n${WORKLOADS.map((k) => `  ${k.name.padEnd(9)}${k.summary}`).join("\n")}`)
    .addHelpText("after", "\nExamples:\n  laminar sim --nodes 1000 --duration 2\n  laminar sim --nodes 32000 --duration 30 --workers 2 --json > result.json\n  laminar sim --nodes 5000 --rho 0.8 --duration 30 --json > result.json\n  laminar sim --set network.loss=0.2 --set regeneration.enabled=false\n  laminar sim --scheduler ray --profile artifact --duration 1\n  laminar sim --scheduler sparrow --nodes 2000 --duration 2\n  laminar sim --workload trace --set workload.trace.file=tasks.csv --duration 10")
    .action(async (o: Options) => {
      const { resolveConfig } = await import("../config/params-config.js");
      const profile = profileOption(o.profile);
      const config = resolveConfig(o.config, simSets(o), profile);
      supported(config);
      // a trace is read through once before the run: a bad row stops it now, not minutes in
      const trace = config.workload.kind === "trace"
        ? { file: config.workload.trace.file, ...(await import("../workload/trace.js")).checkTrace(config) } : null;
      const workers = o.workers !== undefined ? decimal(o.workers)
        : schedulerEntry(config.sim.scheduler).supports.threads && config.cluster.nodes >= AUTO_WORKERS_NODES ? availableParallelism() : 1;
      if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new UsageError(`--workers must be an integer from 1 to 64, got '${o.workers}'`);
      if (workers > 1 && !schedulerEntry(config.sim.scheduler).supports.threads) throw new UsageError(`--workers: only ${SCHEDULERS.filter((e) => e.supports.threads).map((e) => e.name).join(", ")} runs on several threads (got ${config.sim.scheduler})`);
      // before the run, not after it: a long run must not end in a folder it cannot write to
      const OUT_FILES = ["result.json", "series.csv"];
      let release = (): void => {};
      if (o.force === true && o.out === undefined) throw new UsageError("--force replaces --out's files: give --out too");
      if (o.out !== undefined) {
        makeOutDir(o.out, true);
        checkOutFiles(o.out, OUT_FILES, o.force === true);
        try {
          release = lockFolder(o.out, "laminar sim");
        } catch (e) {
          if (e instanceof FolderLocked) throw new UsageError(`--out ${e.message}`);
          throw e instanceof OutputWriteError ? new UsageError(`--out ${o.out}: ${e.message}`) : e;
        }
      }
      const manifest = startManifest("laminar sim", [config.sim.seed], profile ?? null);
      const endMs = (config.sim.durationS + config.sim.drainS) * 1000;
      const bar = new Progress({ total: endMs, label: "sim", enabled: o.progress !== false });
      const onProgress = (now: number) => bar.update(now / 1e6, `${(now / 1e9).toFixed(2)} s simulated`);
      let threads: ThreadTiming[] = [];
      const run = await runScheduler(config, workers, { onProgress, onThreadTiming: (t) => { threads = t; } });
      const extra: Rows = [
        ...(trace === null ? [] : [["trace", `${trace.file}: ${trace.rows} rows read, ${trace.skipped} bad rows skipped, ${trace.tasks} tasks in the arrival window`] as [string, string]]),
        ...(await schedulerImpl(config.sim.scheduler)).rows(run),
      ];
      const result = { ...run, profile: profile ?? null, ...(trace === null ? {} : { trace }), manifest: finishManifest(manifest) };
      bar.finish();
      const resultJson = JSON.stringify(result, null, 2) + "\n";
      const notSaved = o.out === undefined ? null
        : saveOutputs(o.out, [[OUT_FILES[0], resultJson], [OUT_FILES[1], seriesCsv(result)]], o.force === true, o.json === true, resultJson);
      release();
      if (o.json) process.stdout.write(JSON.stringify(result) + "\n");
      else console.log(summary(result, threads, extra));
      if (notSaved !== null) throw notSaved;
    });
}
