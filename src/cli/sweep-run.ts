// `laminar sweep` once its folder is locked: the points run here (the
// experiment runner) or on a queue's workers (queue-submit.ts), then the
// table, results, figures and report (sweep-outputs.ts). Points that failed
// on the queue leave the others' outputs written and end in one line naming
// them (exit 1); a rerun retries them.
import { join } from "node:path";
import { buildId } from "../experiments/build-id.js";
import { startManifest } from "../experiments/manifest.js";
import { OtherBuildError, pointCost, pointJobs, runPoints, type PointResult } from "../experiments/runner.js";
import { PROFILE_AXIS, type SweepPoint, type SweepSpec } from "../sweep/grid.js";
import type { RedisAddress } from "../sweep/queue.js";
import { writeSweepOutputs } from "../sweep/sweep-outputs.js";
import { showUrl } from "../sweep/queue.js";
import { UsageError } from "./errors.js";
import { queueModule } from "./optional-packages.js";
import type { Progress } from "./progress.js";

export interface SweepRun {
  spec: SweepSpec;
  points: SweepPoint[];
  out: string;
  workers?: number;
  force: boolean;
  fresh: boolean;
  queue?: { url: string; address: RedisAddress };
  /** With a queue: add the missing points (false: --collect). */
  submit: boolean;
  /** With a queue: wait for the results (false: --no-wait). */
  wait: boolean;
  bar: (total: number, label: string) => Progress;
}

const describe = (r: PointResult) => `${r.point.sets.filter((s) => !s.startsWith("sim.seed=")).slice(-3).join(" ")} seed ${r.seed}`;

export async function runSweep(s: SweepRun): Promise<void> {
  const { spec, points, out } = s;
  const build = buildId();
  const swept = spec.axes.some((a) => a.name === PROFILE_AXIS);
  const profileNote = swept ? spec.axes.find((a) => a.name === PROFILE_AXIS)!.values.join(",") : spec.profile ?? null;
  const manifest = startManifest("laminar sweep", Array.from({ length: spec.seeds }, (_, i) => i + 1), profileNote);
  const runs = pointJobs(points.map((p) => p.point), spec.seeds);
  const bar = s.bar(runs.reduce((a, r) => a + pointCost(r.point), 0), s.queue ? "sweep (queue)" : "sweep");
  let resumed = 0, status = `0/${runs.length} points`;
  const onDone = (done: number, total: number, last: PointResult) => {
    if (last.resumed) resumed++;
    status = `${done}/${total} points, last ${describe(last)}`;
  };
  const onProgress = (done: number) => bar.update(done, status);
  let results: PointResult[];
  let failed: Array<{ key: string; error: string }> = [];
  let where: string;
  try {
    if (s.queue === undefined) {
      results = await runPoints(points.map((p) => p.point), {
        out, seeds: spec.seeds, workers: s.workers, build, fresh: s.fresh, onDone, onProgress,
        simRecord: { namesProfile: swept || spec.profile !== undefined }, splitPoints: false,
      });
      where = "here";
    } else {
      const { queueSweep } = await queueModule(() => import("../sweep/queue-submit.js"));
      const q = await queueSweep(points, runs, { address: s.queue.address, out, build, fresh: s.fresh, submit: s.submit, wait: s.wait, onDone, onProgress });
      if (!s.wait) {
        bar.finish();
        console.log(`${q.added} point(s) put on the queue at ${showUrl(s.queue.url)} (${q.pending} waiting there in all, ${q.results.length} already in ${out}); ` +
          `start workers with: laminar worker --queue ${showUrl(s.queue.url)}; gather with the same command and --collect`);
        return;
      }
      results = q.results;
      failed = q.failed;
      where = `on the queue at ${showUrl(s.queue.url)} (${q.added} submitted by this command)`;
    }
  } catch (e) {
    throw e instanceof OtherBuildError ? new UsageError(e.message) : e;
  }
  bar.finish();
  if (results.length > 0) {
    const intro = `${results.length} runs of ${points.length} point(s) x ${spec.seeds} seed(s), run ${where}; points in ${join(out, "points")}. ` +
      `Figures: each metric against ${spec.axes[0]?.name ?? "the scheduler"}, one line per value of the other axes${spec.seeds > 1 ? ", the mean of the seeds with its 95% interval" : ""}.`;
    const figs = await writeSweepOutputs({ out, axes: spec.axes, results, manifest, force: s.force, intro });
    console.log(`\n${results.length} runs (${resumed} from earlier runs in ${out}); results in ${out}/results.json, results.csv, ${figs} SVG figure${figs === 1 ? "" : "s"} and report.html`);
  }
  if (failed.length > 0) {
    const first = failed.slice(0, 3).map((f) => `${f.key}: ${f.error}`).join("; ");
    throw new Error(`${failed.length} of ${runs.length} runs failed (${first}${failed.length > 3 ? "; ..." : ""}); the others are in ${out}; run the same command again to retry them`);
  }
}
