// `laminar reproduce`: run the paper's experiments (all of them by default) at
// the quick or the paper scale, points in parallel on worker threads, and
// print one table per experiment with the paper's figures beside ours. Writes
// DIR/results.json and DIR/results.csv; a rerun with the same DIR skips the
// points already done by the same build (--fresh runs this command's points
// again; other points in DIR are kept).
import { Command } from "commander";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { EXPERIMENT_IDS, EXPERIMENTS, SCALES, type Scale } from "../experiments/specs.js";
import { parseList, parsePositiveInt, UsageError } from "./errors.js";
import { makeOutDir } from "./out-dir.js";
import { Progress } from "./progress.js";
import { PROFILE_HELP, profileOption } from "./profile-option.js";
import type { Point } from "../experiments/specs.js";
import type { ProfileName } from "../model/profiles.js";

interface Options {
  scale: string;
  seeds: string;
  out: string;
  workers?: string;
  progress?: boolean;
  fresh?: boolean;
  profile?: string;
}

/**
 * The points under one profile: an experiment that runs under several (Exp1)
 * keeps that profile's points, every other one runs its points under it.
 */
export function pointsUnder(points: Point[], profile: ProfileName | undefined): Point[] {
  if (profile === undefined) return points;
  const several = new Set(points.filter((p) => points.some((q) => q.experiment === p.experiment && q.profile !== p.profile)).map((p) => p.experiment));
  return points.filter((p) => !several.has(p.experiment) || p.profile === profile).map((p) => ({ ...p, profile }));
}

export function reproduceCommand(): Command {
  return new Command("reproduce")
    .description("run the paper's experiments and print our figures beside the paper's (results.json, results.csv, SVG figures and report.html in --out)")
    .argument("[experiments...]", `experiments to run: ${EXPERIMENT_IDS.join(", ")} or all`, ["all"])
    .option("--scale <scale>", "quick (the default: minutes on a laptop) or paper (the paper's sizes and durations: hours)", "quick")
    .option("--seeds <k>", "seeds per point; with k > 1 the tables show the mean and a 95% interval", "1")
    .option("--out <dir>", "where results go; a rerun with the same directory resumes the points this build of laminar wrote there", "laminar-results")
    .option("--workers <n>", `worker threads (default: the cores available, ${availableParallelism()} here): points run at once, longest first, one thread each while points outnumber threads; when a sweep has fewer points than threads, they share them (a Laminar point splits its Zones over its share)`)
    .option("--fresh", "run this command's points again, deleting those already in --out (a rerun resumes only points the same build of laminar wrote; other experiments' points there are kept)")
    .option("--profile <name>", `only this ${PROFILE_HELP}; default: Exp1 under both, the other experiments under paper`)
    .option("--no-progress", "no progress bar on stderr")
    .addHelpText("after", "\nExamples:\n  laminar reproduce                     # every experiment, quick scale\n  laminar reproduce exp1 exp2 --seeds 3\n  laminar reproduce exp2 --scale paper --out exp2-paper\n  laminar reproduce exp1 --profile artifact --out exp1-artifact")
    .action(async (names: string[], o: Options) => {
      const ids = names.includes("all") ? [...EXPERIMENT_IDS] : parseList("experiment", names.join(","), EXPERIMENT_IDS);
      if (!(SCALES as readonly string[]).includes(o.scale)) throw new UsageError(`--scale must be quick or paper, got "${o.scale}"`);
      const scale = o.scale as Scale;
      const seeds = parsePositiveInt("--seeds", o.seeds);
      const workers = o.workers === undefined ? undefined : parsePositiveInt("--workers", o.workers);
      const profile = profileOption(o.profile);
      makeOutDir(o.out);
      const experiments = EXPERIMENTS.filter((e) => ids.includes(e.id));
      const points = pointsUnder(experiments.flatMap((e) => e.points(scale)), profile);
      const { OtherBuildError, pointCost, runPoints } = await import("../experiments/runner.js");
      const { buildId } = await import("../experiments/build-id.js");
      const { experimentTable, writeResults } = await import("../experiments/report.js");
      // the bar counts work (pointCost: tasks to simulate), so it moves while long points run, and its ETA holds
      const bar = new Progress({ total: points.reduce((a, p) => a + pointCost(p), 0) * seeds, label: `reproduce (${scale})`, enabled: o.progress !== false && process.stderr.isTTY === true });
      let resumed = 0, status = `0/${points.length * seeds} points`;
      const results = await runPoints(points, {
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
      writeResults(o.out, results);
      const tables = experiments.map((e) => ({ id: e.id, text: experimentTable(e, results) }));
      for (const t of tables) console.log(`\n${t.text}`);
      const { figures } = await import("../report/figures.js");
      const { reportHtml } = await import("../report/html.js");
      const figs = await figures(results);
      for (const f of figs) writeFileSync(join(o.out, f.file), f.svg);
      const intro = `Scale ${scale}, ${seeds} seed(s) per point, ${results.length} runs. In the figures, ours: filled markers (on lines); the paper's reported values: hollow markers; each caption says what is plotted and what its markers mean.`;
      writeFileSync(join(o.out, "report.html"), reportHtml("Laminar: the paper's experiments, reproduced", intro, tables, figs));
      console.log(`\n${results.length} runs (${resumed} from earlier runs in ${o.out}); results in ${o.out}/results.json, results.csv, ${figs.length} SVG figure${figs.length === 1 ? "" : "s"} and report.html`);
    });
}
