// The paper's figures as SVG, from the results of `laminar reproduce`:
// Vega-Lite specs compiled and rendered headless in Node (no browser, no
// canvas). Ours are lines with points; the paper's reported figures, where it
// gives them, are hollow diamonds of the same colour.
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { PointResult } from "../experiments/runner.js";
import type { SeriesPoint } from "../metrics/run-metrics.js";

export interface Figure {
  file: string;
  title: string;
  svg: string;
}

interface Row {
  series: string;
  x: number | string;
  y: number;
  source: "ours" | "paper";
}

function num(r: PointResult, k: string): number {
  const v = r.result[k];
  return typeof v === "number" ? v : NaN;
}

/** Mean over seeds of a metric, per point. */
function rows(results: PointResult[], exp: string, metric: (r: PointResult) => number, series: (r: PointResult) => string, x: (r: PointResult) => number | string): Row[] {
  const acc = new Map<string, { series: string; x: number | string; sum: number; n: number }>();
  for (const r of results) {
    if (r.point.experiment !== exp) continue;
    const v = metric(r);
    if (!Number.isFinite(v)) continue;
    const key = `${series(r)}|${x(r)}`;
    const a = acc.get(key) ?? { series: series(r), x: x(r), sum: 0, n: 0 };
    a.sum += v;
    a.n++;
    acc.set(key, a);
  }
  return [...acc.values()].map((a) => ({ series: a.series, x: a.x, y: a.sum / a.n, source: "ours" as const }));
}

function paperRows(results: PointResult[], exp: string, pick: (p: NonNullable<PointResult["point"]["paper"]>) => number | undefined, series: (r: PointResult) => string, x: (r: PointResult) => number | string): Row[] {
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const r of results) {
    if (r.point.experiment !== exp || !r.point.paper) continue;
    const y = pick(r.point.paper);
    const key = `${series(r)}|${x(r)}`;
    if (y === undefined || seen.has(key)) continue;
    seen.add(key);
    out.push({ series: series(r), x: x(r), y, source: "paper" });
  }
  return out;
}

async function render(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  return view.toSVG();
}

function lineChart(title: string, xTitle: string, yTitle: string, data: Row[], opts: { logY?: boolean; percent?: boolean } = {}): TopLevelSpec {
  return {
    title, width: 360, height: 220,
    data: { values: data },
    layer: [
      {
        transform: [{ filter: "datum.source === 'ours'" }],
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "x", type: "quantitative", title: xTitle, scale: { zero: false } },
          y: { field: "y", type: "quantitative", title: yTitle, scale: opts.logY ? { type: "log" } : { zero: false }, axis: opts.percent ? { format: ".1%" } : {} },
          color: { field: "series", type: "nominal", title: null },
        },
      },
      {
        transform: [{ filter: "datum.source === 'paper'" }],
        mark: { type: "point", shape: "diamond", filled: false, size: 90, strokeWidth: 2 },
        encoding: {
          x: { field: "x", type: "quantitative" },
          y: { field: "y", type: "quantitative" },
          color: { field: "series", type: "nominal", title: null },
        },
      },
    ],
  } as TopLevelSpec;
}

function barChart(title: string, data: Row[]): TopLevelSpec {
  return {
    title, width: 300, height: 220,
    data: { values: data },
    mark: "bar",
    encoding: {
      x: { field: "x", type: "nominal", title: null },
      xOffset: { field: "source" },
      y: { field: "y", type: "quantitative", title: "start success", axis: { format: ".0%" }, scale: { domain: [0, 1] } },
      color: { field: "source", type: "nominal", title: null },
      column: { field: "series", type: "nominal", title: null },
    },
  } as TopLevelSpec;
}

/** Small multiples: one panel per `panel`, each with its own y scale. */
function facetBars(title: string, data: Array<Row & { panel: string }>): TopLevelSpec {
  return {
    title, data: { values: data },
    facet: { column: { field: "panel", type: "nominal", title: null } },
    spec: {
      width: 160, height: 200, mark: "bar",
      encoding: {
        x: { field: "x", type: "nominal", title: null },
        xOffset: { field: "source" },
        y: { field: "y", type: "quantitative", title: null, axis: { format: ".1%" } },
        color: { field: "source", type: "nominal", title: null },
      },
    },
    resolve: { scale: { y: "independent" } },
  } as TopLevelSpec;
}

function facetLines(title: string, data: Array<{ panel: string; series: string; x: number; y: number }>): TopLevelSpec {
  return {
    title, data: { values: data },
    facet: { row: { field: "panel", type: "nominal", title: null } },
    spec: {
      width: 420, height: 140, mark: "line",
      encoding: {
        x: { field: "x", type: "quantitative", title: "simulated time (s)" },
        y: { field: "y", type: "quantitative", title: null, scale: { zero: false } },
        color: { field: "series", type: "nominal", title: null },
      },
    },
    resolve: { scale: { y: "independent" } },
  } as TopLevelSpec;
}

/** Exp5: end-of-run outcomes (as rates, so the paper's 30 s counts compare at any scale) and the time series. */
function exp5Figures(results: PointResult[]): TopLevelSpec[] {
  const mine = results.filter((r) => r.point.experiment === "exp5");
  const label = (r: PointResult) => (r.point.varied.value ? "Airlock on" : "Airlock off");
  const bars: Array<Row & { panel: string }> = [];
  const seen = new Set<string>();
  for (const r of mine) {
    const arrived = num(r, "arrived"), arrivedL = num(r, "arrivedL");
    // the paper's counts are for a 30 s run: normalised by the arrivals such a run has (our lambda, our F/L split)
    const paperArrivals = num(r, "lambdaPerS") * 30, lShare = arrivedL / arrived;
    const p = r.point.paper ?? {};
    const metrics: Array<[string, number, number | undefined]> = [
      ["completed success", num(r, "completedSuccessRatio"), p.completedSuccessRatio],
      ["L-task OOM kills per L-task", num(r, "lTaskOomKills") / arrivedL, p.lTaskOomKills === undefined ? undefined : p.lTaskOomKills / (paperArrivals * lShare)],
      ["probe drops per task", num(r, "probeDrops") / arrived, p.probeDrops === undefined ? undefined : p.probeDrops / paperArrivals],
    ];
    for (const [panel, ours, paper] of metrics) {
      bars.push({ panel, series: panel, x: label(r), y: ours, source: "ours" });
      const key = `${panel}|${label(r)}`;
      if (paper !== undefined && !seen.has(key)) {
        seen.add(key);
        bars.push({ panel, series: panel, x: label(r), y: paper, source: "paper" });
      }
    }
  }
  const lines: Array<{ panel: string; series: string; x: number; y: number }> = [];
  for (const r of mine.filter((x) => x.seed === mine[0].seed)) {
    let kills = 0, drops = 0;
    for (const q of r.result.series as SeriesPoint[]) {
      kills += q.oomKillsL ?? 0;
      drops += q.probeDrops ?? 0;
      const x = q.tMs / 1000;
      if (q.executionSurvival !== null && q.executionSurvival !== undefined) lines.push({ panel: "execution survival (ended executions)", series: label(r), x, y: q.executionSurvival });
      lines.push({ panel: "cumulative L-task OOM kills", series: label(r), x, y: kills });
      lines.push({ panel: "cumulative probe drops", series: label(r), x, y: drops });
    }
  }
  return [
    facetBars("Exp5: end-of-run outcome, Airlock off and on (ours, paper)", bars),
    facetLines("Exp5: execution survival and loss modes over time", lines),
  ];
}

/** Every figure the results allow (an experiment that was not run gives none). */
export async function figures(results: PointResult[]): Promise<Figure[]> {
  const out: Figure[] = [];
  const has = (e: string) => results.some((r) => r.point.experiment === e);
  const sched = (r: PointResult) => r.point.scheduler;
  const rho = (r: PointResult) => r.point.rho;
  const ssr = (r: PointResult) => num(r, "startSuccessRatio");
  const p99 = (r: PointResult) => num(r, "p99StartMs");
  const cw = (r: PointResult) => num(r, "controlWorkPerSuccessUs");
  const add = async (file: string, spec: TopLevelSpec) => out.push({ file, title: String(spec.title), svg: await render(spec) });
  if (has("exp1")) {
    await add("exp1-success.svg", lineChart("Exp1: start success ratio vs load (5,000 nodes)", "rho", "start success", [...rows(results, "exp1", ssr, sched, rho), ...paperRows(results, "exp1", (p) => p.startSuccessRatio, sched, rho)], { percent: true }));
    await add("exp1-p99.svg", lineChart("Exp1: p99 arrival-to-start (all arrivals, failed at deadline)", "rho", "p99 (ms, log)", [...rows(results, "exp1", p99, sched, rho), ...paperRows(results, "exp1", (p) => p.p99Ms, sched, rho)], { logY: true }));
  }
  if (has("exp2")) {
    const nodes = (r: PointResult) => r.point.nodes;
    await add("exp2-p99.svg", lineChart("Exp2: Laminar p99 vs cluster size (rho = 0.8)", "nodes", "p99 (ms)", [...rows(results, "exp2", p99, sched, nodes), ...paperRows(results, "exp2", (p) => p.p99Ms, sched, nodes)]));
    await add("exp2-success.svg", lineChart("Exp2: Laminar start success vs cluster size", "nodes", "start success", [...rows(results, "exp2", ssr, sched, nodes), ...paperRows(results, "exp2", (p) => p.startSuccessRatio, sched, nodes)], { percent: true }));
  }
  if (has("exp1") || has("exp2")) {
    const lam = (r: PointResult) => r.point.scheduler === "laminar";
    const data = [
      ...rows(results.filter(lam), "exp1", cw, () => "vs rho (5,000 nodes)", rho),
      ...paperRows(results.filter(lam), "exp1", (p) => p.controlWorkUs, () => "vs rho (5,000 nodes)", rho),
    ];
    if (data.length > 0) await add("control-work-rho.svg", lineChart("Laminar control work per start vs load", "rho", "control work (us)", data));
    const data2 = [
      ...rows(results, "exp2", cw, () => "vs nodes (rho = 0.8)", (r) => r.point.nodes),
      ...paperRows(results, "exp2", (p) => p.controlWorkUs, () => "vs nodes (rho = 0.8)", (r) => r.point.nodes),
    ];
    if (data2.length > 0) await add("control-work-nodes.svg", lineChart("Laminar control work per start vs cluster size", "nodes", "control work (us)", data2));
  }
  if (has("exp3")) {
    const d = (r: PointResult) => Number(r.point.varied.value);
    await add("exp3-p99.svg", lineChart("Exp3: Laminar p99 vs Z-HAF synchronisation delay", "sync delay (ms)", "p99 (ms)", rows(results, "exp3", p99, sched, d)));
    await add("exp3-success.svg", lineChart("Exp3: Laminar start success vs synchronisation delay", "sync delay (ms)", "start success", rows(results, "exp3", ssr, sched, d), { percent: true }));
  }
  for (const [exp, title, group, bar] of [
    ["exp4a", "Exp4a: squatters vs two-phase reservation", (r: PointResult) => `squatters ${r.point.sets.find((s) => s.startsWith("workload.squatterRatio="))!.split("=")[1]}`, (r: PointResult) => (r.point.varied.value ? "two-phase on" : "two-phase off")],
    ["exp4b", "Exp4b: packet loss vs DA regeneration", (r: PointResult) => `loss ${r.point.sets.find((s) => s.startsWith("network.loss="))!.split("=")[1]}`, (r: PointResult) => (r.point.varied.value ? "regeneration on" : "regeneration off")],
  ] as const) {
    if (!has(exp)) continue;
    const ours = rows(results, exp, ssr, group, bar);
    const paper = paperRows(results, exp, (p) => p.startSuccessRatio, group, bar).map((r) => ({ ...r }));
    await add(`${exp}-success.svg`, barChart(`${title} (ours, paper)`, [...ours, ...paper]));
  }
  if (has("exp5")) {
    const [outcome, series] = exp5Figures(results);
    await add("exp5-outcome.svg", outcome);
    await add("exp5-series.svg", series);
  }
  return out;
}
