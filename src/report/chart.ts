// One Vega-Lite chart of ours against the paper's: per series (colour) a line
// through our means with filled markers, the 95% interval as error bars when
// there are several seeds, the paper's reported values as hollow markers, and
// horizontal reference lines (deadlines). The marker shape says what a point
// is (MARK: measured, a cap at the deadline, a zero drawn at a log axis'
// floor, the paper's), with a legend entry for each shape used (legend.ts).
// Scales are padded so no marker sits on an axis; a log axis ticks as
// log-axis.ts says. When the rows hold more than one run profile, the chart
// is one column per profile, side by side, on shared axes.
import type { TopLevelSpec } from "vega-lite";
import { PROFILE_ORDER } from "./labels.js";
import { legendShapes } from "./legend.js";
import { logAxis, PERCENT } from "./log-axis.js";
import { applyFloor, logFloor, MARK, type ChartRow, type MarkLabel } from "./rows.js";

/** A horizontal reference line, e.g. a scheduler's deadline. */
export interface Rule {
  y: number;
  label: string;
}

export interface ChartOptions {
  title?: string;
  xTitle: string | null;
  yTitle: string;
  /** quantitative (default) or ordinal (categories, in the rows' order). */
  xType?: "quantitative" | "ordinal";
  /** A log y axis: zeros are drawn at a floor (logFloor) and flagged. */
  log?: boolean;
  /** Axis labels as percentages. */
  percent?: boolean;
  /** Connect our points per series (default true). */
  lines?: boolean;
  /** The shape legend's entries, when several charts share one legend (default: the marks drawn). */
  marks?: MarkLabel[];
  /** Series in legend order, with their colours. */
  colors?: Record<string, string>;
  rules?: Rule[];
  /** Our markers' area, px² (default 70; smaller for dense series). */
  pointSize?: number;
  width?: number;
  height?: number;
}


interface RuleRow {
  profile: string;
  rule: number;
  ruleLabel: string;
  source: "rule";
}

/** The markers these rows use, in legend order. */
export function marksOf(drawn: ChartRow[]): MarkLabel[] {
  return (Object.values(MARK) as MarkLabel[]).filter((m) => drawn.some((r) => r.mark === m));
}

/** The chart's rows as drawn: on a log axis, zeros at the floor. */
export function drawnRows(rows: ChartRow[], o: Pick<ChartOptions, "log">): ChartRow[] {
  return o.log ? applyFloor(rows, logFloor(rows)) : rows;
}

/** A chart as a Vega-Lite spec (with its data; one column per run profile when the rows hold several). */
export function chartSpec(rows: ChartRow[], o: ChartOptions): TopLevelSpec {
  const drawn = drawnRows(rows, o);
  const profiles = PROFILE_ORDER.filter((p) => drawn.some((r) => r.profile === p));
  const extra = [...new Set(drawn.map((r) => r.profile))].filter((p) => !profiles.includes(p));
  const allProfiles = [...profiles, ...extra];
  const rules: RuleRow[] = (o.rules ?? []).flatMap((r) => allProfiles.map((profile) => ({ profile, rule: r.y, ruleLabel: r.label, source: "rule" as const })));
  const marks = o.marks ?? marksOf(drawn);
  const seriesOrder = o.colors ? Object.keys(o.colors).filter((s) => drawn.some((r) => r.series === s)) : [...new Set(drawn.map((r) => r.series))];
  const other = [...new Set(drawn.map((r) => r.series))].filter((s) => !seriesOrder.includes(s));
  const series = [...seriesOrder, ...other];
  const width = o.width ?? 360, height = o.height ?? 220;
  const xType = o.xType ?? "quantitative";
  const xs = [...new Set(drawn.map((r) => r.x))];
  // ticks at the values run (a handful), when numeric
  const xTicks = xType === "quantitative" && xs.length <= 12 ? { values: (xs as number[]).sort((a, b) => a - b) } : {};
  const x = {
    field: "x", type: xType, title: o.xTitle,
    ...(xType === "quantitative" ? { scale: { zero: false, nice: false, padding: 16 }, axis: { ...xTicks, grid: false } } : { sort: null, scale: { padding: 0.6 }, axis: { labelAngle: 0 } }),
  };
  const y = {
    field: "y", type: "quantitative", title: o.yTitle,
    // log: padded, not niced (a nice domain would run past 100% for a ratio)
    scale: o.log ? { type: "log", nice: false, padding: 14 } : { zero: false, nice: true, padding: 14 },
    axis: o.log ? logAxis(drawn, o.percent === true) : o.percent ? { format: PERCENT } : {},
  };
  const color = {
    field: "series", type: "nominal", title: null, sort: series,
    scale: o.colors ? { domain: series, range: series.map((s) => o.colors![s] ?? "#888") } : { domain: series },
    legend: { orient: "right", symbolType: "stroke" },
  };
  const shape = {
    field: "mark", type: "nominal", title: null,
    scale: { domain: marks, range: legendShapes(marks) },
    // the legend's symbols are drawn as the chart's (ours filled, the paper's hollow) by hollowPaperLegend (legend.ts) after compiling
    legend: { orient: "right", symbolStrokeColor: "#444", symbolStrokeWidth: 1.5, labelLimit: 320 },
  };
  const ours = "datum.source === 'ours'";
  const layer: unknown[] = [];
  if (rules.length > 0) {
    layer.push(
      { transform: [{ filter: "datum.source === 'rule'" }], mark: { type: "rule", strokeDash: [4, 3], color: "#999" }, encoding: { y: { field: "rule", type: "quantitative" } } },
      {
        transform: [{ filter: "datum.source === 'rule'" }],
        mark: { type: "text", align: "left", baseline: "top", dx: 3, dy: 2, fontSize: 10, color: "#777" },
        encoding: { x: { value: 0 }, y: { field: "rule", type: "quantitative" }, text: { field: "ruleLabel" } },
      },
    );
  }
  if (drawn.some((r) => r.lo !== null)) {
    layer.push({
      transform: [{ filter: `${ours} && datum.lo !== null` }],
      mark: { type: "errorbar", ticks: { size: 6 }, thickness: 1.5 },
      encoding: { x, y: { ...y, field: "lo", title: o.yTitle }, y2: { field: "hi" }, color },
    });
  }
  if (o.lines !== false) {
    layer.push({ transform: [{ filter: ours }], mark: { type: "line", strokeWidth: 1.5 }, encoding: { x, y, color, detail: { field: "series" } } });
  }
  layer.push(
    { transform: [{ filter: ours }], mark: { type: "point", filled: true, size: o.pointSize ?? 70, opacity: 1 }, encoding: { x, y, color, shape } },
    // a cap says so in words too
    {
      transform: [{ filter: `datum.mark === ${JSON.stringify(MARK.capped)}` }],
      mark: { type: "text", text: "≥", dx: 9, dy: -7, fontSize: 12, fontWeight: "bold" },
      encoding: { x, y, color: { ...color, legend: null } },
    },
    // the legend comes from our markers' layer alone (its scale lists the paper's marker too)
    { transform: [{ filter: "datum.source === 'paper'" }], mark: { type: "point", filled: false, size: 130, strokeWidth: 2, opacity: 1 }, encoding: { x, y, color: { ...color, legend: null }, shape: { ...shape, legend: null } } },
  );
  const values = [...drawn, ...rules];
  const resolve = { scale: { shape: "shared", color: "shared" }, legend: { shape: "shared", color: "shared" } };
  if (allProfiles.length > 1) {
    return {
      ...(o.title ? { title: o.title } : {}),
      data: { values },
      facet: { column: { field: "profile", type: "nominal", title: null, sort: allProfiles, header: { labelFontSize: 12, labelFontWeight: "bold" } } },
      spec: { width, height, layer },
      resolve,
    } as unknown as TopLevelSpec;
  }
  return { ...(o.title ? { title: o.title } : {}), width, height, data: { values }, layer, resolve } as unknown as TopLevelSpec;
}
