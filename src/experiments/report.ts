// What `laminar reproduce` writes and prints: one record per run (point and
// seed) in results.json and results.csv, and per experiment a table with the
// paper's figures beside ours (with several seeds: the mean and a 95%
// interval, Student's t).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatTable } from "../report/table.js";
import type { PointResult } from "./runner.js";
import type { Experiment, Point } from "./specs.js";
import { PROFILES } from "../config/profiles.js";
import { meanCiText } from "../metrics/stats.js";
import { num } from "../report/rows.js";
import { schedulerEntry } from "../schedulers/catalogue.js";

/** Columns a command adds to each record after the point's coordinates (a sweep: one per axis). */
export type Columns = (r: PointResult) => Record<string, unknown>;

/** The flat record of one run: the sim's result fields (config left out) and the point's coordinates. */
export function record(r: PointResult, columns?: Columns): Record<string, unknown> {
  const { config: _config, ...fields } = r.result;
  return {
    experiment: r.point.experiment, profile: r.point.profile, scheduler: r.point.scheduler, rho: r.point.rho, nodes: r.point.nodes,
    varied: r.point.varied.name, value: r.point.varied.value, seed: r.seed, sets: r.point.sets.join(" "),
    ...columns?.(r),
    ...fields,
  };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A record with its nested objects as dotted columns ("failedBy.deadline"),
 * so each CSV cell holds one value; an array (other than the series, which
 * the CSV leaves out) becomes one column per element ("daEnds.0").
 */
export function flatRecord(r: Record<string, unknown>, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(r)) {
    if (prefix === "" && k === "series") continue; // the series stays in results.json
    if (v !== null && typeof v === "object") flatRecord(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out[prefix + k] = v;
  }
  return out;
}

/** results.csv: one row per run, one value per cell, nested fields as dotted columns. */
export function resultsCsv(results: PointResult[], columns?: Columns): string {
  const rows = results.map((r) => flatRecord(record(r, columns)));
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [cols.map(csvCell).join(","), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(","))].join("\n") + "\n";
}

/** results.json: the manifest (where the results came from) and one record per run. */
export function resultsJson(results: PointResult[], manifest: object, columns?: Columns): string {
  return JSON.stringify({ manifest, runs: results.map((r) => record(r, columns)) }, null, 1) + "\n";
}

/** Write results.json and results.csv into `out` with `write` (reproduce passes its safe writer). */
export function writeResults(out: string, results: PointResult[], manifest: object, write = (path: string, text: string) => writeFileSync(path, text), columns?: Columns): void {
  write(join(out, "results.json"), resultsJson(results, manifest, columns));
  write(join(out, "results.csv"), resultsCsv(results, columns));
}

const cell = meanCiText;

/** The experiment's points, seeds gathered, in the order first seen (a point is its profile and its sets). */
function byPoint(e: Experiment, results: PointResult[]): Array<{ point: Point; runs: PointResult[] }> {
  const out = new Map<string, { point: Point; runs: PointResult[] }>();
  for (const r of results) {
    if (r.point.experiment !== e.id) continue;
    const k = `${r.point.profile} ${r.point.sets.join(" ")}`;
    if (!out.has(k)) out.set(k, { point: r.point, runs: [] });
    out.get(k)!.runs.push(r);
  }
  return [...out.values()];
}

const pct = (x: number | undefined) => (x === undefined ? "-" : `${(100 * x).toFixed(2)}%`);
const count = (x: number | undefined) => (x === undefined ? "-" : x.toLocaleString("en-US"));

/** The point's name in a table: with the run profile first when the experiment ran under several. */
function pointName(point: Point, several: boolean, name: string): string {
  return several ? `${point.profile}: ${name}` : name;
}

const severalProfiles = (points: Array<{ point: Point }>) => new Set(points.map((p) => p.point.profile)).size > 1;

/** Exp5's table: runtime-survival outcomes beside the paper's (its counts are for 5,000 nodes over 30 s). */
function survivalTable(e: Experiment, results: PointResult[]): string {
  const points = byPoint(e, results), several = severalProfiles(points);
  const rows = points.map(({ point, runs }) => {
    const p = point.paper ?? {};
    const c = (k: string) => cell(runs.map((r) => num(r, k)), 0);
    return [
      pointName(point, several, `${point.varied.name}=${point.varied.value}`),
      cell(runs.map((r) => num(r, "completedSuccessRatio")), 2, 100) + "%", pct(p.completedSuccessRatio),
      cell(runs.map((r) => num(r, "executionSurvival")), 2, 100) + "%", pct(p.executionSurvival),
      c("lTaskOomKills"), count(p.lTaskOomKills), c("fTaskOomKills"),
      c("probeDrops"), count(p.probeDrops),
      c("suspensions"), c("resumedInPlace"), c("secondaryReactivations"), c("secondaryLandings"), c("reclaimed"),
    ];
  });
  return `${e.title}\n` + formatTable(
    ["point", "completed success", "paper", "execution survival", "paper", "L OOM kills", "paper", "F OOM kills", "probe drops", "paper",
      "suspended", "resumed in place", "reactivated", "landed", "reclaimed"],
    rows,
  );
}

/** The experiment's table: one row per point, seeds aggregated; one table per run profile when its points have several. */
export function experimentTable(e: Experiment, results: PointResult[]): string {
  if (e.id === "exp5") return survivalTable(e, results);
  const mine = results.filter((r) => r.point.experiment === e.id);
  const profiles = [...new Set(mine.map((r) => r.point.profile))];
  if (profiles.length > 1) {
    return profiles.map((pr) => pointTable({ ...e, title: `${e.title}, profile ${pr} (${PROFILES[pr].title})` }, mine.filter((r) => r.point.profile === pr))).join("\n\n");
  }
  return pointTable(e, mine);
}

/** One profile's table (experimentTable splits the profiles). */
function pointTable(e: Experiment, results: PointResult[]): string {
  const rows = byPoint(e, results).map(({ point, runs }) => {
    const p = point.paper ?? {};
    const extra = point.sets.filter((s) => !/^(sim\.|cluster\.nodes|workload\.rho)/.test(s) && s !== `${point.varied.name}=${point.varied.value}`).join(" ");
    return [
      point.scheduler, `${point.varied.name}=${point.varied.value}${extra ? ` (${extra})` : ""}`,
      cell(runs.map((r) => num(r, "startSuccessRatio")), 2, 100) + "%", p.startSuccessRatio !== undefined ? pct(p.startSuccessRatio) : "-",
      cell(runs.map((r) => num(r, "p99StartedMs")), 2), cell(runs.map((r) => num(r, "p99StartMs")), 2), p.p99Ms !== undefined ? `${p.p99Ms}` : "-",
      // a scheduler that models no decision cost has none to show (its 0 would read as free)
      schedulerEntry(point.scheduler).controlWork === null ? "not modelled" : cell(runs.map((r) => num(r, "controlWorkPerSuccessUs")), 4),
      p.controlWorkUs !== undefined ? `${p.controlWorkUs}` : "-",
      p.note ?? "",
    ];
  });
  return `${e.title}\n` + formatTable(
    ["scheduler", "point", "start success", "paper", "p99 started ms", "p99 all ms", "paper p99 ms", "control work us", "paper", "paper note"],
    rows,
  );
}
