// What a sweep writes beside its points, whether they ran here or on a
// queue's workers: the table (printed first, so it reaches the user should a
// write fail), results.json and results.csv with a column per axis, one SVG
// per metric and report.html. Files go through owned-files.ts as reproduce's
// do: laminar rewrites its own, never a user's without --force.
import { basename, join } from "node:path";
import { writeOwned } from "../experiments/owned-files.js";
import { finishManifest, manifestText, type Manifest } from "../experiments/manifest.js";
import { writeResults } from "../experiments/report.js";
import type { PointResult } from "../experiments/runner.js";
import { OutputRefused, OutputWriteError } from "../experiments/safe-write.js";
import { svgRenderer } from "../report/optional-render.js";
import { reportHtml } from "../report/html.js";
import type { Figure } from "../report/figures.js";
import { SWEEP, type Axis } from "./grid.js";
import { axisColumns, sweepFigureSpecs, sweepTable } from "./sweep-report.js";

/** The files a sweep writes beside its points (the SVG figures too, named as they are drawn). */
export const SWEEP_FILES = ["results.json", "results.csv", "report.html"];

export interface SweepOutputs {
  out: string;
  axes: Axis[];
  results: PointResult[];
  manifest: Manifest;
  force: boolean;
  /** What report.html says of the run before its table. */
  intro: string;
}

/** Print the table, then write results, figures and report.html; returns the number of figures. */
export async function writeSweepOutputs(o: SweepOutputs): Promise<number> {
  const write = (name: string, text: string): void => {
    try {
      writeOwned(o.out, name, text, o.force);
    } catch (e) {
      // the table is printed and every point is in DIR/points: a rerun rebuilds the rest without running them
      throw e instanceof OutputRefused || e instanceof OutputWriteError ? new Error(`--out ${o.out}: ${e.message}; the points are kept in ${join(o.out, "points")}`) : e;
    }
  };
  const table = sweepTable(`Sweep: ${o.results.length} runs`, o.axes, o.results);
  console.log(`\n${table}`);
  const manifest = finishManifest(o.manifest);
  writeResults(o.out, o.results, manifest, (path, text) => write(basename(path), text), axisColumns(o.axes));
  const figs: Figure[] = [];
  const specs = sweepFigureSpecs(o.axes, o.results);
  const render = specs.length === 0 ? null : await svgRenderer("the table, results.json, results.csv and report.html are");
  if (render !== null) for (const f of specs) figs.push({ file: f.file, experiment: f.experiment, title: f.title, caption: f.caption, svg: await render(f.spec) });
  for (const f of figs) write(f.file, f.svg);
  write("report.html", reportHtml("Laminar: a parameter sweep", o.intro, [
    { id: SWEEP, text: table },
    { id: "manifest", text: `Where these results came from\n${manifestText(manifest)}` },
  ], figs));
  return figs.length;
}
