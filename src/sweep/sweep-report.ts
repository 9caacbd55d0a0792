// What a sweep shows: a table with one row per grid point (seeds gathered:
// the mean and its 95% interval, as reproduce's tables), the axes as columns
// of results.json and results.csv, and one figure per metric against the
// first axis, one line per combination of the other axes' values, error bars
// over seeds (the chart helpers of src/report/, as reproduce's figures).
import type { PointResult } from "../experiments/runner.js";
import { chartFigure } from "../report/chart-figure.js";
import type { FigureSpec } from "../report/figure-spec.js";
import { num, ourRows, type Key } from "../report/rows.js";
import { formatTable } from "../report/table.js";
import { meanCiText } from "../metrics/stats.js";
import { axisValue, PROFILE_AXIS, SWEEP, type Axis } from "./grid.js";
import { SCHEDULER_COLOR, SCHEDULER_LABEL } from "../report/labels.js";
import type { RunPoint } from "../report/data.js";

/** The scheduler's axis name in a grid. */
const SCHEDULER_AXIS = "sim.scheduler";

/** The metrics drawn and tabled: a result field, its label, and how its values read. */
export const SWEEP_METRICS: ReadonlyArray<{ field: string; title: string; percent?: boolean; digits: number }> = [
  { field: "startSuccessRatio", title: "start success (started / arrived)", percent: true, digits: 2 },
  { field: "p99StartedMs", title: "p99 arrival-to-start, started tasks (ms)", digits: 2 },
  { field: "p99StartMs", title: "p99 arrival-to-start, all arrivals (ms)", digits: 2 },
  { field: "meanStartedMs", title: "mean arrival-to-start, started tasks (ms)", digits: 2 },
  { field: "controlWorkPerSuccessUs", title: "control work per successful start (µs)", digits: 4 },
  { field: "completedSuccessRatio", title: "completed success (completed / arrived)", percent: true, digits: 2 },
  { field: "executionSurvival", title: "execution survival", percent: true, digits: 2 },
];

/** The axes as record columns, by their names ("profile" is already a column). */
export function axisColumns(axes: Axis[]): (r: PointResult) => Record<string, unknown> {
  return (r) => Object.fromEntries(axes.filter((a) => a.name !== PROFILE_AXIS).map((a) => [a.name, axisValue(r.point, a.name)]));
}

/** The results per grid point, seeds gathered, in the results' order. */
function byPoint(results: PointResult[]): PointResult[][] {
  const out = new Map<string, PointResult[]>();
  for (const r of results) {
    const k = `${r.point.profile} ${r.point.sets.join(" ")}`;
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return [...out.values()];
}

function cell(runs: PointResult[], field: string, digits: number, percent: boolean): string {
  const text = meanCiText(runs.map((r) => num(r, field)), digits, percent ? 100 : 1);
  return percent && text !== "-" ? `${text}%` : text;
}

/** The sweep's table: one row per point, the axes' values first, then the metrics any run has. */
export function sweepTable(title: string, axes: Axis[], results: PointResult[]): string {
  const metrics = SWEEP_METRICS.filter((m) => results.some((r) => Number.isFinite(num(r, m.field))));
  const points = byPoint(results);
  const named = axes.length > 0 ? axes : [{ name: "sim.scheduler", values: [] }];
  const rows = points.map((runs) => [
    ...named.map((a) => axisValue(runs[0].point, a.name)),
    String(runs.length),
    ...metrics.map((m) => cell(runs, m.field, m.digits, m.percent === true)),
  ]);
  return `${title}\n` + formatTable([...named.map((a) => a.name), "seeds", ...metrics.map((m) => m.field)], rows);
}

/** An axis as a legend names it: the last part of its name (a legend cuts long labels), the whole name where two axes share that part. */
function shortNames(axes: Axis[]): Map<string, string> {
  const last = (n: string) => n.slice(n.lastIndexOf(".") + 1);
  return new Map(axes.map((a) => [a.name, axes.filter((b) => last(b.name) === last(a.name)).length > 1 ? a.name : last(a.name)]));
}

/** The label of a run's line: the other axes' values ("all points" when the grid has one axis), a scheduler by its label ("Sparrow-like"); the profile is the chart's facet. */
function seriesKey(axes: Axis[]): Key {
  const others = axes.slice(1).filter((a) => a.name !== PROFILE_AXIS);
  const short = shortNames(others);
  const part = (a: Axis, v: string) => (a.name === SCHEDULER_AXIS ? SCHEDULER_LABEL[v as RunPoint["scheduler"]] ?? v : `${short.get(a.name)}=${v}`);
  return (r) => (others.length === 0 ? "all points" : others.map((a) => part(a, axisValue(r.point, a.name))).join(", "));
}

/** With the scheduler as the only line axis, each line in its scheduler's colour (as in the experiments' figures). */
function seriesColors(axes: Axis[]): Record<string, string> | undefined {
  const others = axes.slice(1).filter((a) => a.name !== PROFILE_AXIS);
  return others.length === 1 && others[0].name === SCHEDULER_AXIS ? SCHEDULER_COLOR : undefined;
}

/** One figure per metric with a finite value, against the first axis (the scheduler when the grid has none). */
export function sweepFigureSpecs(axes: Axis[], results: PointResult[]): FigureSpec[] {
  const xAxis = axes[0]?.name ?? "sim.scheduler";
  const numeric = results.every((r) => Number.isFinite(Number(axisValue(r.point, xAxis))) && axisValue(r.point, xAxis) !== "");
  const x: Key = (r) => (numeric ? Number(axisValue(r.point, xAxis)) : axisValue(r.point, xAxis));
  const series = seriesKey(axes);
  const out: FigureSpec[] = [];
  for (const m of SWEEP_METRICS) {
    const rows = ourRows(results, SWEEP, (r) => num(r, m.field), series, x);
    if (rows.length === 0) continue;
    const others = axes.slice(1).filter((a) => a.name !== PROFILE_AXIS).map((a) => a.name);
    const what = `${m.title} against ${xAxis}${others.length > 0 ? `, one line per value of ${others.join(" and ")}` : ""}`;
    out.push(chartFigure(`sweep-${m.field}.svg`, SWEEP, rows, {
      title: `${m.field} vs ${xAxis}`, xTitle: xAxis, yTitle: m.title, percent: m.percent, xType: numeric ? "quantitative" : "ordinal", colors: seriesColors(axes),
    }, what));
  }
  return out;
}
