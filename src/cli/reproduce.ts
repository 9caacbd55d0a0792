// `laminar reproduce`: run the paper's experiments (all of them by default) at
// the quick or the paper scale, points in parallel on worker threads, and
// print one table per experiment with the paper's figures beside ours. Each
// point is written to DIR/points as it ends; results.json, results.csv, the
// figures and report.html are then rebuilt from every point in DIR, so
// experiments run one at a time end up together. A rerun with the same DIR
// skips the points already done by the same build (--fresh runs this
// command's points again; other points in DIR are kept). One run at a time
// per DIR (a lock file), and files there that laminar did not write are
// never overwritten without --force (owned-files.ts).
import { Command } from "commander";
import { basename, join } from "node:path";
import { availableParallelism } from "node:os";
import { EXPERIMENT_IDS, EXPERIMENTS, SCALES, type Scale } from "../experiments/specs.js";
import { parseIntIn, parseList, UsageError } from "./errors.js";
import { makeOutDir } from "./out-dir.js";
import { FolderLocked, lockFolder } from "../experiments/out-lock.js";
import { checkOwned, writeOwned } from "../experiments/owned-files.js";
import { pointsUnder } from "../experiments/points-under.js";
import { OutputRefused, OutputWriteError } from "../experiments/safe-write.js";
import { figureBuilder } from "./optional-packages.js";
import { Progress } from "./progress.js";
import { PROFILE_HELP, profileOption } from "./profile-option.js";

interface Options {
  scale: string;
  seeds: string;
  out: string;
  workers?: string;
  progress?: boolean;
  fresh?: boolean;
  profile?: string;
  force?: boolean;
}

/** The most seeds per point and worker threads reproduce takes: beyond them a run cannot fit one machine's memory or time. */
export const MAX_SEEDS = 100;
export const MAX_WORKERS = 64;

/** The files reproduce writes beside the points (the SVG figures too, named as they are drawn). */
const OWN_FILES = ["results.json", "results.csv", "report.html"];

export function reproduceCommand(): Command {
  return new Command("reproduce")
    .description("run the paper's experiments and print our figures beside the paper's (results.json, results.csv, SVG figures and report.html in --out, rebuilt from every point there)")
    .argument("[experiments...]", `experiments to run: ${EXPERIMENT_IDS.join(", ")} or all`, ["all"])
    .option("--scale <scale>", "quick (the default: minutes on a laptop) or paper (the paper's sizes and durations: hours)", "quick")
    .option("--seeds <k>", `seeds per point, 1 to ${MAX_SEEDS}; with k > 1 the tables show the mean and a 95% interval`, "1")
    .option("--out <dir>", "where results go (checked writable and locked before the run; one run at a time per folder); a rerun with the same directory resumes the points this build of laminar wrote there, and the results cover every point in it", "laminar-results")
    .option("--workers <n>", `worker threads, 1 to ${MAX_WORKERS} (default: the cores available, ${availableParallelism()} here): points run at once, longest first, one thread each while points outnumber threads; when a sweep has fewer points than threads, they share them (a Laminar point splits its Zones over its share)`)
    .option("--fresh", "run this command's points again, deleting those already in --out (a rerun resumes only points the same build of laminar wrote; other experiments' points there are kept)")
    .option("--profile <name>", `only this ${PROFILE_HELP}; default: Exp1 under both, the other experiments under paper`)
    .option("--force", "replace results.json, results.csv, report.html or figures in --out that laminar did not write (or that were changed since)")
    .option("--no-progress", "no progress bar on stderr")
    .addHelpText("after", "\nExamples:\n  laminar reproduce                     # every experiment, quick scale\n  laminar reproduce exp1 exp2 --seeds 3\n  laminar reproduce exp2 --scale paper --out exp2-paper\n  laminar reproduce exp1 --profile artifact --out exp1-artifact")
    .action(async (names: string[], o: Options) => {
      const ids = names.includes("all") ? [...EXPERIMENT_IDS] : parseList("experiment", names.join(","), EXPERIMENT_IDS);
      if (!(SCALES as readonly string[]).includes(o.scale)) throw new UsageError(`--scale must be quick or paper, got "${o.scale}"`);
      const scale = o.scale as Scale;
      const seeds = parseIntIn("--seeds", o.seeds, 1, MAX_SEEDS);
      const workers = o.workers === undefined ? undefined : parseIntIn("--workers", o.workers, 1, MAX_WORKERS);
      const profile = profileOption(o.profile);
      const force = o.force === true;
      makeOutDir(o.out, true);
      makeOutDir(join(o.out, "points"), true);
      const refused = (e: unknown) => (e instanceof FolderLocked ? new UsageError(`--out ${e.message}`)
        : e instanceof OutputRefused || e instanceof OutputWriteError ? new UsageError(`--out ${o.out}: ${e.message}`) : e);
      let release: () => void;
      try {
        checkOwned(o.out, OWN_FILES, force);
        release = lockFolder(o.out, "laminar reproduce");
      } catch (e) {
        throw refused(e);
      }
      const experiments = EXPERIMENTS.filter((e) => ids.includes(e.id));
      const points = pointsUnder(experiments.flatMap((e) => e.points(scale)), profile);
      const { OtherBuildError, pointCost, runPoints } = await import("../experiments/runner.js");
      const { buildId } = await import("../experiments/build-id.js");
      const { experimentTable, writeResults } = await import("../experiments/report.js");
      const { collectPoints } = await import("../experiments/collect-points.js");
      const { finishManifest, manifestText, startManifest } = await import("../experiments/manifest.js");
      const started = startManifest("laminar reproduce", Array.from({ length: seeds }, (_, i) => i + 1), profile ?? null);
      // the bar counts work (pointCost: tasks to simulate), so it moves while long points run, and its ETA holds
      const bar = new Progress({ total: points.reduce((a, p) => a + pointCost(p), 0) * seeds, label: `reproduce (${scale})`, enabled: o.progress !== false });
      let resumed = 0, status = `0/${points.length * seeds} points`;
      const ran = await runPoints(points, {
        out: o.out, seeds, workers, build: buildId(), fresh: o.fresh === true,
        onDone: (done, total, last) => {
          if (last.resumed) resumed++;
          status = `${done}/${total} points, last ${last.point.experiment} (${last.point.profile}) ${last.point.scheduler} ${last.point.varied.name}=${last.point.varied.value}`;
        },
        onProgress: (done) => bar.update(done, status),
      }).catch((e: unknown) => {
        throw e instanceof OtherBuildError ? new UsageError(e.message) : e;
      });
      bar.finish();
      // every point in the folder, this command's and earlier ones'
      const { results, skipped } = collectPoints(o.out, ran);
      const manifest = finishManifest(started);
      const write = (name: string, text: string): void => {
        try {
          writeOwned(o.out, name, text, force);
        } catch (e) {
          // the tables are printed and every point is in DIR/points: a rerun rebuilds the rest without running them
          throw e instanceof OutputRefused || e instanceof OutputWriteError ? new Error(`--out ${o.out}: ${e.message}; the points are kept in ${join(o.out, "points")}`) : e;
        }
      };
      // the tables first: should a write fail, they have reached the user (and the points are in DIR/points)
      const tables = experiments.map((e) => ({ id: e.id, text: experimentTable(e, results) }));
      for (const t of tables) console.log(`\n${t.text}`);
      writeResults(o.out, results, manifest, (path, text) => write(basename(path), text));
      const present = EXPERIMENTS.filter((e) => results.some((r) => r.point.experiment === e.id));
      const allTables = present.map((e) => ({ id: e.id, text: experimentTable(e, results) }));
      const figures = await figureBuilder();
      const { reportHtml } = await import("../report/html.js");
      const figs = figures === null ? [] : await figures(results);
      for (const f of figs) write(f.file, f.svg);
      const intro = `${results.length} runs from ${join(o.out, "points")} (this command: scale ${scale}, ${seeds} seed(s) per point, ${ran.length} runs). In the figures, ours: filled markers (on lines); the paper's reported values: hollow markers; each caption says what is plotted and what its markers mean.`;
      write("report.html", reportHtml("Laminar: the paper's experiments, reproduced", intro, [...allTables, { id: "manifest", text: `Where these results came from\n${manifestText(manifest)}` }], figs));
      release();
      const others = results.length - ran.length;
      console.log(`\n${ran.length} runs (${resumed} from earlier runs in ${o.out})${others > 0 ? `, with ${others} other run${others === 1 ? "" : "s"} already in ${o.out}` : ""}; results in ${o.out}/results.json, results.csv, ${figs.length} SVG figure${figs.length === 1 ? "" : "s"} and report.html${skipped.length > 0 ? ` (${skipped.length} point file${skipped.length === 1 ? "" : "s"} in ${join(o.out, "points")} that name no point left out)` : ""}`);
    });
}
