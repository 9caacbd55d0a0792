// `laminar sweep`: a user's grid over parameters, schedulers, run profiles
// and seeds, from the command line or a sweep file. Its points run as
// reproduce's do (experiments/runner.ts: in parallel, longest first, each
// written to DIR/points as it ends, resumed by a rerun), or, with --queue, on
// the workers of a Redis-backed job queue (src/sweep/queue-*.ts), gathered
// into the same folder. Then the table, results.json, results.csv, one SVG
// per metric and report.html. A point's result is what `laminar sim` prints
// with the same settings. docs/sweeps.md is the user's guide.
import { Command } from "commander";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseIntIn, parseList, UsageError } from "./errors.js";
import { queueModule } from "./optional-packages.js";
import { makeOutDir } from "./out-dir.js";
import { Progress } from "./progress.js";
import { PROFILE_HELP, profileOption } from "./profile-option.js";
import { MAX_SEEDS, MAX_WORKERS } from "./reproduce.js";
import { supported } from "./sim.js";
import { FolderLocked, lockFolder } from "../experiments/out-lock.js";
import { checkOwned } from "../experiments/owned-files.js";
import { OutputRefused, OutputWriteError } from "../experiments/safe-write.js";
import { PROFILE_NAMES } from "../config/profiles.js";
import { parseGrid, PROFILE_AXIS, SweepError, sweepPoints, withAxis, type Axis, type SweepSpec } from "../sweep/grid.js";
import { readSweepFile } from "../sweep/sweep-file.js";
import { QueueError } from "../sweep/queue.js";

interface Options {
  file?: string;
  grid: string[];
  set: string[];
  scheduler?: string;
  profile?: string;
  seeds?: string;
  out: string;
  workers?: string;
  fresh?: boolean;
  force?: boolean;
  progress?: boolean;
  dryRun?: boolean;
  queue?: string;
  collect?: boolean;
  wait?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The sweep the options describe: the sweep file first, the command line laid over it. */
export function sweepSpec(o: Options): SweepSpec {
  const file = o.file === undefined ? undefined : readSweepFile(o.file);
  let axes: Axis[] = file?.axes ?? [];
  for (const g of o.grid) axes = withAxis(axes, parseGrid(g));
  const schedulers = o.scheduler !== undefined ? o.scheduler.split(",").map((s) => s.trim()) : file?.schedulers;
  if (schedulers !== undefined) axes = withAxis(axes, { name: "sim.scheduler", values: schedulers });
  // --profile: one profile for every point, or several as an axis
  const profiles = o.profile !== undefined ? parseList("profile", o.profile, PROFILE_NAMES) : file?.profiles ?? (file?.profile !== undefined ? [file.profile] : undefined);
  let profile: SweepSpec["profile"];
  if (profiles !== undefined && profiles.length > 1) axes = withAxis(axes, { name: PROFILE_AXIS, values: profiles });
  else if (profiles !== undefined) profile = profileOption(profiles[0]);
  const seeds = o.seeds !== undefined ? parseIntIn("--seeds", o.seeds, 1, MAX_SEEDS) : file?.seeds ?? 1;
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > MAX_SEEDS) throw new UsageError(`seeds must be an integer from 1 to ${MAX_SEEDS}, got ${seeds}`);
  return { axes, sets: [...(file?.sets ?? []), ...o.set], seeds, profile };
}

export function sweepCommand(): Command {
  return new Command("sweep")
    .description("run a grid over parameters, schedulers, profiles and seeds, here or on the workers of a Redis-backed job queue (results.json, results.csv, a table, SVG figures and report.html in --out)")
    .option("--file <sweep.json>", "a sweep file (JSON: grid, set, schedulers, profile or profiles, seeds; docs/sweeps.md); the options below are laid over it")
    .option("--grid <name=v1,v2,...>", "sweep a parameter over these values (repeatable; the first one is the figures' x axis, the others one line each)", collect, [])
    .option("--set <name=value>", "a parameter fixed for every point (repeatable)", collect, [])
    .option("--scheduler <list>", "schedulers to sweep, e.g. laminar,slurm,ray,flux (an axis of the grid)")
    .option("--profile <list>", `${PROFILE_HELP}; several (paper,artifact) are an axis of the grid`)
    .option("--seeds <k>", `seeds 1..k of every point, 1 to ${MAX_SEEDS} (default 1); with k > 1 the tables and figures show the mean and a 95% interval`)
    .option("--out <dir>", "where results go (locked while the sweep runs); a rerun with the same folder resumes the points this build of laminar wrote there", "laminar-sweep")
    .option("--workers <n>", `worker threads here, 1 to ${MAX_WORKERS} (default: the cores available, ${availableParallelism()} here), one point each: a point is not split over threads, so its result, work counts included, is that of laminar sim --workers 1`)
    .option("--fresh", "run this sweep's points again, deleting those already in --out (and, with --queue, their jobs)")
    .option("--force", "replace results.json, results.csv, report.html or figures in --out that laminar did not write")
    .option("--dry-run", "list the points and their cost (expected tasks), run nothing")
    .option("--queue <redis-url>", "put the points on the job queue at this Redis (redis://host:port) for `laminar worker`s to run, then gather their results into --out")
    .option("--collect", "with --queue: add nothing, gather the results of a sweep submitted earlier")
    .option("--no-wait", "with --queue: submit the points and return (gather later with --collect)")
    .option("--no-progress", "no progress bar on stderr")
    .addHelpText("after", "\nExamples:\n  laminar sweep --grid workload.rho=0.4,0.6,0.8 --grid da.candidates=8,16,32 --seeds 3 --out rho-da\n  laminar sweep --grid cluster.nodes=1000,5000 --scheduler laminar,ray --set sim.durationS=2\n  laminar sweep --file sweep.json --dry-run\n  laminar sweep --file sweep.json --queue redis://10.0.0.5:6379 --out big   # then: laminar worker --queue redis://10.0.0.5:6379")
    .action(async (o: Options) => {
      const { runSweep } = await import("./sweep-run.js");
      let spec: SweepSpec;
      let points: ReturnType<typeof sweepPoints>;
      try {
        spec = sweepSpec(o);
        points = sweepPoints(spec, supported);
      } catch (e) {
        throw e instanceof SweepError ? new UsageError(e.message) : e;
      }
      if (o.collect === true && o.queue === undefined) throw new UsageError("--collect gathers from a queue: give --queue too");
      if (o.wait === false && o.queue === undefined) throw new UsageError("--no-wait leaves points on a queue: give --queue too");
      if (o.queue !== undefined && o.workers !== undefined) throw new UsageError("--workers sets the threads of a sweep run here; with --queue, each laminar worker has its own --workers");
      if (o.collect === true && o.fresh === true) throw new UsageError("--fresh runs points again, --collect runs none: choose one");
      if (o.dryRun === true) {
        const { dryRunText } = await import("../sweep/dry-run.js");
        console.log(dryRunText(points, spec.axes, spec.seeds));
        return;
      }
      const workers = o.workers === undefined ? undefined : parseIntIn("--workers", o.workers, 1, MAX_WORKERS);
      let queue: { url: string; address: import("../sweep/queue.js").RedisAddress } | undefined;
      if (o.queue !== undefined) {
        const { parseRedisUrl } = await import("../sweep/queue.js");
        const { probeRedis } = await queueModule(() => import("../sweep/redis.js"));
        try {
          queue = { url: o.queue, address: parseRedisUrl(o.queue) };
          await probeRedis(o.queue, queue.address);
        } catch (e) {
          throw e instanceof QueueError ? new UsageError(e.message) : e;
        }
      }
      const force = o.force === true;
      makeOutDir(o.out, true);
      makeOutDir(join(o.out, "points"), true);
      let release: () => void;
      try {
        const { SWEEP_FILES } = await import("../sweep/sweep-outputs.js");
        checkOwned(o.out, SWEEP_FILES, force);
        release = lockFolder(o.out, "laminar sweep");
      } catch (e) {
        throw e instanceof FolderLocked ? new UsageError(`--out ${e.message}`)
          : e instanceof OutputRefused || e instanceof OutputWriteError ? new UsageError(`--out ${o.out}: ${e.message}`) : e;
      }
      await runSweep({
        spec, points, out: o.out, workers, force, fresh: o.fresh === true,
        queue, submit: o.collect !== true, wait: o.wait !== false, bar: (total, label) => new Progress({ total, label, enabled: o.progress !== false }),
      });
      release();
    });
}
