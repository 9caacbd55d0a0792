// The paper's figures as SVG, from the results of `laminar reproduce`:
// Vega-Lite specs (chart.ts) rendered headless in Node. Start success sits
// near 100% for most points, so it is plotted as the failure ratio (1 -
// success) on a log axis, where 99.99% and 99.18% lie two decades apart; the
// p99 of all arrivals is drawn with each scheduler's deadline, and a p99 at
// the deadline as a cap. Each figure carries the experiment it belongs to
// and a one-line caption for report.html.
import type { PointRun } from "./data.js";
import type { Rule } from "./chart.js";
import { chartFigure } from "./chart-figure.js";
import { atDeadline, deadlineMs, p99AtDeadline } from "./deadline.js";
import { exp5Figures } from "./exp5-figures.js";
import type { FigureSpec } from "./figure-spec.js";
import { onOffColors, SCHEDULER_COLOR, SCHEDULER_LABEL } from "./labels.js";
import { SCHEDULERS, schedulerEntry } from "../schedulers/catalogue.js";
import { renderSvg } from "./render.js";
import { MARK, num, ourRows, paperRows, type ChartRow, type Key } from "./rows.js";

export interface Figure {
  file: string;
  /** The experiment whose section of report.html shows it. */
  experiment: string;
  title: string;
  /** One line under the figure: what is plotted and what its markers mean. */
  caption: string;
  svg: string;
}

/** A figure before rendering. */
export type { FigureSpec } from "./figure-spec.js";
export { chartFigure };

const failure = (r: PointRun) => 1 - num(r, "startSuccessRatio");
const sched: Key = (r) => SCHEDULER_LABEL[r.point.scheduler];


/** Start failures (1 - start success) against x, ours and the paper's, on a log axis. */
function failureFigure(file: string, exp: string, results: PointRun[], title: string, xTitle: string, series: Key, x: Key, colors: Record<string, string>): FigureSpec {
  const rows = [...ourRows(results, exp, failure, series, x), ...paperRows(results, exp, (p) => (p.startSuccessRatio === undefined ? undefined : 1 - p.startSuccessRatio), series, x)];
  return chartFigure(file, exp, rows, { title, xTitle, yTitle: "failed starts, 1 − success (log)", log: true, percent: true, colors },
    "Start failure ratio, 1 − started/arrived, on a log axis: 0.01% is 99.99% start success, 1% is 99%");
}

/** The deadlines of the schedulers in these results, as reference lines (one per distinct value). */
function deadlineRules(results: PointRun[]): Rule[] {
  const by = new Map<number, Set<string>>();
  for (const r of results) {
    const d = deadlineMs(r);
    if (d === null) continue;
    if (!by.has(d)) by.set(d, new Set());
    by.get(d)!.add(schedulerEntry(r.point.scheduler).deadlineOwner);
  }
  return [...by].map(([y, who]) => ({ y, label: `${[...who].join(" and ")} deadline, ${y.toLocaleString("en-US")} ms` }));
}

/** p99 of all arrivals (failed tasks at the deadline) against x; a p99 at the deadline is a cap. */
function p99Figure(file: string, exp: string, results: PointRun[], title: string, xTitle: string, x: Key, log: boolean): FigureSpec {
  const mine = results.filter((r) => r.point.experiment === exp);
  // the paper's p99 equal to that scheduler's deadline is a cap too
  const deadlineOf = new Map(mine.map((r) => [String(sched(r)), deadlineMs(r)]));
  const paper = paperRows(mine, exp, (p) => p.p99Ms, sched, x).map((r) => {
    const d = deadlineOf.get(r.series);
    return d != null && atDeadline(r.value, d) ? { ...r, mark: MARK.paperCapped } : r;
  });
  const rows = [...ourRows(mine, exp, (r) => num(r, "p99StartMs"), sched, x, p99AtDeadline), ...paper];
  // on a linear axis a deadline line far above the data would flatten it: drawn only where a point reaches it
  const rules = log || rows.some((r) => r.mark === MARK.capped) ? deadlineRules(mine) : [];
  return chartFigure(file, exp, rows, { title, xTitle, yTitle: log ? "p99 (ms, log)" : "p99 (ms)", log, colors: SCHEDULER_COLOR, rules },
    `p99 of arrival-to-start over all resolved arrivals, a failed task counted at its scheduler's deadline${rules.length > 0 ? " (dashed lines)" : ""}`);
}

const CONTROL_WORK = "Laminar's control work per successful start (µs): its modelled scheduling operations (probe scoring, bitmap feasibility checks, Zone aggregation), each at its per-operation cost, summed over the run and divided by successful starts";
/** The caption of every scheduler's control work: each definition from its entry, for the schedulers these results have, in catalogue order. */
function controlWorkAll(results: PointRun[]): string {
  const have = new Set(results.map((r) => r.point.scheduler));
  const ran = SCHEDULERS.filter((e) => have.has(e.name));
  const defs = ran.filter((e) => e.controlWork !== null).map((e) => `${e.label}: ${e.controlWork}`).join("; ");
  const none = ran.filter((e) => e.controlWork === null).map((e) => e.label);
  return `control work per successful start (µs, log): every scheduling decision's modelled time, summed over the run and divided by successful starts. ${defs}` +
    (none.length > 0 ? `. Not drawn: ${none.join(", ")} (no decision cost modelled)` : "");
}

/** The schedulers whose control work is modelled (their entry defines it). */
const MODELLED_WORK = new Set(SCHEDULERS.filter((e) => e.controlWork !== null).map((e) => e.name as string));

/** Control work per start against x: Laminar's alone, or (allSchedulers) every scheduler's on a log axis, one definition each in the caption. */
function controlWorkFigure(file: string, exp: string, results: PointRun[], title: string, xTitle: string, x: Key, allSchedulers = false): FigureSpec | null {
  // only the experiment's own points are drawn (ourRows): an experiment of Laminar alone draws Laminar's
  const mine = results.filter((r) => r.point.experiment === exp);
  const drawn = mine.filter((r) => MODELLED_WORK.has(r.point.scheduler));
  const rows = [...ourRows(drawn, exp, (r) => num(r, "controlWorkPerSuccessUs"), sched, x), ...paperRows(drawn, exp, (p) => p.controlWorkUs, sched, x)];
  if (rows.length === 0) return null;
  return allSchedulers
    ? chartFigure(file, exp, rows, { title, xTitle, yTitle: "control work per start (µs, log)", log: true, colors: SCHEDULER_COLOR }, controlWorkAll(mine))
    : chartFigure(file, exp, rows, { title, xTitle, yTitle: "control work per start (µs)", colors: SCHEDULER_COLOR }, CONTROL_WORK);
}

/** `name=value` of the point's --set whose name is given. */
const setValue = (r: PointRun, name: string): number => Number(r.point.sets.find((s) => s.startsWith(`${name}=`))?.split("=")[1]);

/** Every figure the results allow (an experiment that was not run gives none), before rendering. */
export function figureSpecs(results: PointRun[]): FigureSpec[] {
  const out: FigureSpec[] = [];
  const has = (e: string) => results.some((r) => r.point.experiment === e);
  const rho: Key = (r) => r.point.rho, nodes: Key = (r) => r.point.nodes;
  if (has("exp1")) {
    out.push(failureFigure("exp1-success.svg", "exp1", results, "Exp1: failed starts vs load (5,000 nodes)", "load (rho)", sched, rho, SCHEDULER_COLOR));
    out.push(p99Figure("exp1-p99.svg", "exp1", results, "Exp1: p99 arrival-to-start vs load (all arrivals)", "load (rho)", rho, true));
    const cw = controlWorkFigure("control-work-rho.svg", "exp1", results, "Exp1: control work per start vs load, every scheduler with a modelled decision cost", "load (rho)", rho, true);
    if (cw) out.push(cw);
  }
  if (has("exp2")) {
    out.push(p99Figure("exp2-p99.svg", "exp2", results, "Exp2: Laminar p99 vs cluster size (rho = 0.8)", "nodes", nodes, false));
    out.push(failureFigure("exp2-success.svg", "exp2", results, "Exp2: Laminar failed starts vs cluster size", "nodes", sched, nodes, SCHEDULER_COLOR));
    const cw = controlWorkFigure("control-work-nodes.svg", "exp2", results, "Exp2: Laminar control work per start vs cluster size (rho = 0.8)", "nodes", nodes);
    if (cw) out.push(cw);
  }
  if (has("exp3")) {
    const d: Key = (r) => Number(r.point.varied.value);
    out.push(p99Figure("exp3-p99.svg", "exp3", results, "Exp3: Laminar p99 vs Z-HAF synchronisation delay", "sync delay (ms)", d, false));
    out.push(failureFigure("exp3-success.svg", "exp3", results, "Exp3: Laminar failed starts vs synchronisation delay", "sync delay (ms)", sched, d, SCHEDULER_COLOR));
  }
  if (has("exp4a")) {
    out.push(failureFigure("exp4a-success.svg", "exp4a", results, "Exp4a: failed starts vs squatters, two-phase reservation off and on", "squatters (share of tasks)",
      (r) => `two-phase ${r.point.varied.value ? "on" : "off"}`, (r) => setValue(r, "workload.squatterRatio"), onOffColors("two-phase")));
  }
  if (has("exp4b")) {
    out.push(failureFigure("exp4b-success.svg", "exp4b", results, "Exp4b: failed starts vs packet loss, DA regeneration off and on", "control-packet loss",
      (r) => `regeneration ${r.point.varied.value ? "on" : "off"}`, (r) => setValue(r, "network.loss"), onOffColors("regeneration")));
  }
  if (has("exp5")) out.push(...exp5Figures(results));
  return out;
}

/** Every figure the results allow, rendered. */
export async function figures(results: PointRun[]): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const f of figureSpecs(results)) out.push({ file: f.file, experiment: f.experiment, title: f.title, caption: f.caption, svg: await renderSvg(f.spec) });
  return out;
}
