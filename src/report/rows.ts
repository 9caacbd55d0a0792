// The data rows a figure plots: ours per (profile, series, x), the mean over
// seeds with its 95% interval (Student t, as in the tables), and the paper's
// reported value where it gives one. Each row names its marker, which the
// figure's shape legend explains: a measured mean, a p99 at the deadline (a
// cap), a zero drawn at a log axis' floor, or the paper's figure.
import { meanCi } from "../metrics/stats.js";
import type { PaperFigures, PointRun } from "./data.js";
import { PROFILE_LABEL } from "./labels.js";

/** What a marker stands for (the shape legend's entries). */
export const MARK = {
  measured: "ours",
  interval: "ours: mean of seeds, 95% interval",
  capped: "ours: p99 at the deadline (≥ deadline)",
  floor: "ours: zero, drawn at the axis floor",
  paper: "paper's reported value",
  paperCapped: "paper's: at the deadline",
  paperFloor: "paper's: zero, drawn at the axis floor",
} as const;
export type MarkLabel = (typeof MARK)[keyof typeof MARK];

export interface ChartRow {
  /** Facet column: the run profile's label. */
  profile: string;
  /** Colour: the scheduler, or the setting compared. */
  series: string;
  x: number | string;
  /** Where the marker is drawn: the mean, or the axis floor for a zero on a log axis. */
  y: number;
  /** The 95% interval, with several seeds (null with one). */
  lo: number | null;
  hi: number | null;
  /** The mean itself (equals y unless drawn at the floor). */
  value: number;
  /** Runs (seeds) behind the row; 0 for the paper's. */
  n: number;
  mark: MarkLabel;
  source: "ours" | "paper";
  /** On a log axis: the interval of a positive mean reached below the floor (to zero or less) and is drawn cut at the floor. */
  loCut?: boolean;
}

export type Pick = (r: PointRun) => number;
export type Key = (r: PointRun) => number | string;

/** A numeric field of a run's result (NaN when absent). */
export const num = (r: PointRun, k: string): number => {
  const v = r.result[k];
  return typeof v === "number" ? v : NaN;
};

export const profileOf = (r: PointRun): string => PROFILE_LABEL[r.point.profile ?? "paper"];

/** The run profiles among an experiment's results, in the order of PROFILE_LABEL. */
export function profilesOf(results: PointRun[], exp: string): string[] {
  const seen = new Set(results.filter((r) => r.point.experiment === exp).map(profileOf));
  return Object.values(PROFILE_LABEL).filter((p) => seen.has(p));
}

interface Cell {
  profile: string;
  series: string;
  x: number | string;
  values: number[];
  capped: boolean;
}

/** Our runs grouped per (profile, series, x): the finite metric values and whether any run was capped. */
function cells(results: PointRun[], exp: string, metric: Pick, series: Key, x: Key, capped?: (r: PointRun) => boolean): Cell[] {
  const acc = new Map<string, Cell>();
  for (const r of results) {
    if (r.point.experiment !== exp) continue;
    const v = metric(r);
    if (!Number.isFinite(v)) continue;
    const profile = profileOf(r), s = String(series(r)), k = `${profile}|${s}|${x(r)}`;
    const c = acc.get(k) ?? { profile, series: s, x: x(r), values: [], capped: false };
    c.values.push(v);
    c.capped ||= capped?.(r) === true;
    acc.set(k, c);
  }
  return [...acc.values()];
}

/**
 * Ours: the mean over seeds per (profile, series, x), with its 95% interval
 * when there are several seeds; `capped` marks runs whose value is a cap (a
 * p99 at the deadline), and the row's marker says so.
 */
export function ourRows(results: PointRun[], exp: string, metric: Pick, series: Key, x: Key, capped?: (r: PointRun) => boolean): ChartRow[] {
  return cells(results, exp, metric, series, x, capped).map((c) => {
    const { mean, half } = meanCi(c.values);
    const n = c.values.length;
    const mark = c.capped ? MARK.capped : n > 1 ? MARK.interval : MARK.measured;
    return { profile: c.profile, series: c.series, x: c.x, y: mean, lo: n > 1 ? mean - half : null, hi: n > 1 ? mean + half : null, value: mean, n, mark, source: "ours" as const };
  });
}

/**
 * The floor of a log axis over these rows: the decade below the smallest
 * positive value shown (1e-4 when none is positive), so a zero drawn there
 * sits apart from every real value.
 */
export function logFloor(rows: ChartRow[]): number {
  const pos = rows.map((r) => r.value).filter((v) => v > 0 && Number.isFinite(v));
  if (pos.length === 0) return 1e-4;
  return 10 ** (Math.floor(Math.log10(Math.min(...pos))) - 1);
}

/**
 * For a log axis: a zero (or negative) value is drawn at the floor, its
 * marker saying so; an interval's low end goes no lower than the floor.
 * Nothing is dropped.
 */
export function applyFloor(rows: ChartRow[], floor: number): ChartRow[] {
  return rows.map((r) => {
    const lo = r.lo === null ? null : Math.max(floor, r.lo);
    const loCut = r.value > 0 && r.lo !== null && r.lo < floor;
    if (r.value > 0) return { ...r, lo, loCut };
    return { ...r, y: floor, lo, loCut, hi: r.hi === null ? null : Math.max(floor, r.hi), mark: r.source === "ours" ? MARK.floor : MARK.paperFloor };
  });
}

/** The paper's reported value per (profile, series, x), once each. */
export function paperRows(results: PointRun[], exp: string, pick: (p: PaperFigures, r: PointRun) => number | undefined, series: Key, x: Key): ChartRow[] {
  const seen = new Set<string>();
  const out: ChartRow[] = [];
  for (const r of results) {
    if (r.point.experiment !== exp || !r.point.paper) continue;
    const y = pick(r.point.paper, r);
    const profile = profileOf(r), s = String(series(r)), key = `${profile}|${s}|${x(r)}`;
    if (y === undefined || !Number.isFinite(y) || seen.has(key)) continue;
    seen.add(key);
    out.push({ profile, series: s, x: x(r), y, lo: null, hi: null, value: y, n: 0, mark: MARK.paper, source: "paper" });
  }
  return out;
}
