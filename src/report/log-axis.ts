// A log y axis: ticks a reader can use (decades, or 1-2-5 over a short
// range) and the floor, where zeros are drawn, labelled "0 (floor)".
import { MARK, type ChartRow } from "./rows.js";

/** Percent labels with no trailing zeros: 0.01%, 1%, 50%. */
export const PERCENT = "~%";

/**
 * A log axis' ticks over the drawn values: the powers of ten when at least
 * three lie within; 1, 2 and 5 times them when the values span a decade or
 * more; otherwise null, and Vega's own ticks. The floor, where zeros are
 * drawn, is always a tick.
 */
export function logTicks(rows: ChartRow[]): number[] | null {
  const v = rows.flatMap((r) => [r.y, r.lo ?? r.y, r.hi ?? r.y]).filter((x) => x > 0 && Number.isFinite(x));
  if (v.length === 0) return null;
  const lo = Math.min(...v) * 0.999, hi = Math.max(...v) * 1.001;
  const floor = rows.find((r) => r.mark === MARK.floor || r.mark === MARK.paperFloor)?.y;
  // every step from the decade below the values to the decade above: Vega draws those within the (padded) domain
  const steps = (mults: number[]) => {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) for (const m of mults) out.push(Number((m * 10 ** e).toPrecision(1)));
    return out;
  };
  const within = (t: number[]) => t.filter((x) => x >= lo && x <= hi).length;
  const withFloor = (t: number[]) => (floor === undefined || t.includes(floor) ? t : [floor, ...t]);
  if (within(steps([1])) >= 3) return withFloor(steps([1]));
  if (hi / lo >= 10 || floor !== undefined) return withFloor(steps([1, 2, 5]));
  return null;
}

/** A log y axis: its ticks (logTicks), the floor's labelled "0". */
export function logAxis(drawn: ChartRow[], percent: boolean): Record<string, unknown> {
  const values = logTicks(drawn);
  const floor = drawn.find((r) => r.mark === MARK.floor || r.mark === MARK.paperFloor)?.y;
  const label = percent ? `format(datum.value, '${PERCENT}')` : "datum.label";
  return {
    ...(percent ? { format: PERCENT } : {}),
    ...(values !== null ? { values } : { tickCount: 4 }),
    ...(floor !== undefined ? { labelExpr: `abs(datum.value - ${floor}) <= ${floor * 1e-6} ? '0 (floor)' : ${label}` } : {}),
  };
}
