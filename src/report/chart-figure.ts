// One chart as a figure before rendering: its spec and its caption. Apart
// from figures.ts, which renders, so that building a figure needs no
// plotting package (sweeps build theirs here and render only when the
// plotting stack is installed).
import { caption } from "./caption.js";
import { chartSpec, drawnRows, type ChartOptions } from "./chart.js";
import type { FigureSpec } from "./figure-spec.js";
import type { ChartRow } from "./rows.js";

/** One chart: its rows, options and what it plots (the caption adds what the markers mean). */
export function chartFigure(file: string, experiment: string, rows: ChartRow[], o: ChartOptions & { title: string }, what: string): FigureSpec {
  return { file, experiment, title: o.title, caption: caption(what, drawnRows(rows, o)), spec: chartSpec(rows, o) };
}
