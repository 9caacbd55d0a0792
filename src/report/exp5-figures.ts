// Exp5's two figures: the end-of-run outcomes with Airlock off and on (as
// rates, so the paper's 30 s counts compare at any scale), each on its own log
// axis, and the run's time series. Both as panels side by side or stacked,
// each panel a chart of chart.ts.
import type { TopLevelSpec } from "vega-lite";
import type { PointRun } from "./data.js";
import type { SeriesPoint } from "../metrics/run-metrics.js";
import { caption } from "./caption.js";
import { chartSpec, drawnRows, marksOf, type ChartOptions } from "./chart.js";
import type { FigureSpec } from "./figure-spec.js";
import { onOffColors } from "./labels.js";
import { MARK, num, ourRows, paperRows, profileOf, type ChartRow, type Key } from "./rows.js";

const COLORS = onOffColors("Airlock");
const label: Key = (r) => (r.point.varied.value ? "Airlock on" : "Airlock off");

interface Panel {
  rows: ChartRow[];
  o: ChartOptions;
}

function panels(title: string, ps: Panel[], dir: "hconcat" | "vconcat"): { spec: TopLevelSpec; drawn: ChartRow[] } {
  // one shape legend for all panels: each panel's scale lists every marker drawn in any
  const drawn = ps.flatMap((p) => drawnRows(p.rows, p.o));
  const marks = marksOf(drawn);
  const specs = ps.map((p) => chartSpec(p.rows, { ...p.o, marks }));
  return {
    spec: { title, [dir]: specs, resolve: { scale: { color: "shared", shape: "shared" }, legend: { color: "shared", shape: "shared" } } } as unknown as TopLevelSpec,
    drawn,
  };
}

/** End-of-run outcomes: the paper's 30 s counts normalised by the arrivals such a run has (our lambda, our F/L split). */
function outcome(mine: PointRun[]): FigureSpec {
  const paperArrivals = (r: PointRun) => num(r, "lambdaPerS") * 30;
  const lShare = (r: PointRun) => num(r, "arrivedL") / num(r, "arrived");
  const panel = (name: string, ours: (r: PointRun) => number, paper: (p: NonNullable<PointRun["point"]["paper"]>, r: PointRun) => number | undefined): Panel => ({
    rows: [...ourRows(mine, "exp5", ours, label, label), ...paperRows(mine, "exp5", paper, label, label)],
    o: { title: name, xTitle: null, yTitle: "share (log)", xType: "ordinal", log: true, percent: true, lines: false, colors: COLORS, width: 150, height: 200 },
  });
  const { spec, drawn } = panels("Exp5: end-of-run outcome, Airlock off and on (log axes)", [
    panel("not completed", (r) => 1 - num(r, "completedSuccessRatio"), (p) => (p.completedSuccessRatio === undefined ? undefined : 1 - p.completedSuccessRatio)),
    panel("L-task OOM kills per L-task", (r) => num(r, "lTaskOomKills") / num(r, "arrivedL"), (p, r) => (p.lTaskOomKills === undefined ? undefined : p.lTaskOomKills / (paperArrivals(r) * lShare(r)))),
    panel("probe drops per arrival", (r) => num(r, "probeDrops") / num(r, "arrived"), (p, r) => (p.probeDrops === undefined ? undefined : p.probeDrops / paperArrivals(r))),
  ], "hconcat");
  const what = "Exp5's outcomes as shares, each on a log axis: tasks not completed (1 − completed/arrived), L-task OOM kills per L-task, probe drops per arrival; the paper's 30 s counts divided by the arrivals of a 30 s run at our rate";
  return { file: "exp5-outcome.svg", experiment: "exp5", title: String(spec.title), caption: caption(what, drawn), spec };
}

/** The time series of the first seed (per profile): execution loss on a log axis, cumulative kills and drops. */
function series(mine: PointRun[]): FigureSpec {
  const loss: ChartRow[] = [], kills: ChartRow[] = [], drops: ChartRow[] = [];
  const row = (r: PointRun, x: number, y: number): ChartRow => ({ profile: profileOf(r), series: String(label(r)), x, y, lo: null, hi: null, value: y, n: 1, mark: MARK.measured, source: "ours" });
  const firstSeed = new Map<string, number>();
  for (const r of mine) firstSeed.set(profileOf(r), Math.min(firstSeed.get(profileOf(r)) ?? Infinity, r.seed));
  for (const r of mine.filter((x) => x.seed === firstSeed.get(profileOf(x)))) {
    let k = 0, d = 0;
    for (const q of (r.result.series ?? []) as SeriesPoint[]) {
      k += q.oomKillsL ?? 0;
      d += q.probeDrops ?? 0;
      const x = q.tMs / 1000;
      if (q.executionSurvival !== null && q.executionSurvival !== undefined) loss.push(row(r, x, 1 - q.executionSurvival));
      kills.push(row(r, x, k));
      drops.push(row(r, x, d));
    }
  }
  const o = (title: string, yTitle: string, log = false): ChartOptions => ({ title, xTitle: "simulated time (s)", yTitle, log, percent: log, colors: COLORS, pointSize: 18, width: 420, height: 130 });
  const { spec, drawn } = panels("Exp5: execution loss and loss modes over time", [
    { rows: loss, o: o("executions lost so far, 1 − execution survival", "share (log)", true) },
    { rows: kills, o: o("cumulative L-task OOM kills", "kills") },
    { rows: drops, o: o("cumulative probe drops", "drops") },
  ], "vconcat");
  const seeds = [...firstSeed.values()].join(", ");
  const what = `Exp5 over simulated time (seed ${seeds}): executions lost so far, 1 − completed/(completed + killed + reclaimed), on a log axis; cumulative L-task OOM kills; cumulative probe drops`;
  return { file: "exp5-series.svg", experiment: "exp5", title: String(spec.title), caption: caption(what, drawn), spec };
}

export function exp5Figures(results: PointRun[]): FigureSpec[] {
  const mine = results.filter((r) => r.point.experiment === "exp5");
  return [outcome(mine), series(mine)];
}
