// The shape legend: which shape each marker kind has, and, after Vega-Lite
// has compiled a chart (it gives a legend's symbols one fill), the paper's
// entries drawn hollow as in the chart.
import { MARK, type MarkLabel } from "./rows.js";

export const SHAPE: Record<MarkLabel, string> = {
  [MARK.measured]: "circle",
  [MARK.interval]: "circle",
  [MARK.capped]: "triangle-up",
  [MARK.floor]: "triangle-down",
  [MARK.paper]: "diamond",
  [MARK.paperCapped]: "triangle-up",
  [MARK.paperFloor]: "square",
};

/** The shapes of these markers, in order. */
export function legendShapes(marks: MarkLabel[]): string[] {
  return marks.map((m) => SHAPE[m]);
}

/** Markers drawn hollow: the paper's. */
export const HOLLOW: string[] = [MARK.paper, MARK.paperCapped, MARK.paperFloor];

/**
 * In a compiled (Vega) spec, draw the paper's entries of every shape legend
 * hollow, as the chart draws them (Vega-Lite gives a legend one fill).
 */
export function hollowPaperLegend(spec: unknown): void {
  if (Array.isArray(spec)) {
    for (const s of spec) hollowPaperLegend(s);
    return;
  }
  if (spec === null || typeof spec !== "object") return;
  const o = spec as Record<string, unknown>;
  if (Array.isArray(o.legends)) {
    for (const l of o.legends as Array<Record<string, unknown>>) {
      if (l.shape === undefined) continue;
      const encode = (l.encode ??= {}) as Record<string, Record<string, Record<string, unknown>>>;
      encode.symbols ??= {};
      encode.symbols.update = { ...(encode.symbols.update ?? {}), fill: { signal: `indexof(${JSON.stringify(HOLLOW)}, datum.value) >= 0 ? 'transparent' : '#444'` }, stroke: { value: "#444" }, strokeWidth: { value: 1.5 } };
    }
  }
  if (Array.isArray(o.marks)) hollowPaperLegend(o.marks);
}
