// A user's sweep as data: axes (a parameter and its values, or the run
// profile), fixed settings and seeds, and the points they expand to. Each
// point is an experiment point (experiments/specs.ts) of the experiment
// "sweep", so the experiment runner, its resumable point files and the report
// code take it as they take the paper's. Every point is resolved here, before
// anything runs, so a bad value is one line naming it, not a failure an hour
// into the sweep.
import { flattenConfig, resolveConfig } from "../config/params-config.js";
import { ConfigError } from "../config/params-error.js";
import { isProfileName, PROFILE_NAMES, type ProfileName } from "../config/profiles.js";
import type { Config } from "../config/params.js";
import type { Point } from "../experiments/specs.js";

/** The experiment name of a sweep's points (in their keys and records). */
export const SWEEP = "sweep";

/** The axis that varies the run profile rather than a parameter. */
export const PROFILE_AXIS = "profile";

/** The most runs (points x seeds) one sweep may have: more would not fit a machine's disk of point files, nor a queue's memory. */
export const MAX_RUNS = 10_000;

export interface Axis {
  /** A parameter name (e.g. workload.rho), or PROFILE_AXIS. */
  name: string;
  /** The values as written (the text of --grid, or a sweep file's JSON values as text). */
  values: string[];
}

export interface SweepSpec {
  /** In order: the first is the figures' x axis; the product of all of them is the grid. */
  axes: Axis[];
  /** Fixed --set assignments, applied before the axes' values. */
  sets: string[];
  seeds: number;
  /** The run profile of every point (none: the defaults, which the paper profile spells out); not with a profile axis. */
  profile?: ProfileName;
}

/** A bad sweep definition (exit 2, one line). */
export class SweepError extends Error {
  override name = "SweepError";
}

/** Parse one --grid option: "name=v1,v2,...". */
export function parseGrid(text: string): Axis {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new SweepError(`--grid "${text}": expected name=v1,v2,..., e.g. workload.rho=0.4,0.6,0.8`);
  const name = text.slice(0, eq).trim();
  const values = text.slice(eq + 1).split(",").map((v) => v.trim());
  if (values.some((v) => v === "")) throw new SweepError(`--grid ${name}: an empty value in "${text.slice(eq + 1)}"`);
  return { name, values };
}

/** Replace an axis of the same name in place, else append (the command line over a sweep file). */
export function withAxis(axes: Axis[], axis: Axis): Axis[] {
  const i = axes.findIndex((a) => a.name === axis.name);
  return i < 0 ? [...axes, axis] : axes.map((a, j) => (j === i ? axis : a));
}

/** A grid point before it is resolved: its profile and its axis values. */
interface Cell {
  profile: ProfileName;
  assign: Array<{ name: string; value: string }>;
}

function product(axes: Axis[], profile: ProfileName): Cell[] {
  let cells: Cell[] = [{ profile, assign: [] }];
  for (const a of axes) {
    cells = cells.flatMap((c) => a.values.map((value) => (a.name === PROFILE_AXIS
      ? { profile: value as ProfileName, assign: [...c.assign, { name: a.name, value }] }
      : { profile: c.profile, assign: [...c.assign, { name: a.name, value }] })));
  }
  return cells;
}

/** A point of the sweep with its resolved configuration (for the dry run's estimate and the queue's jobs). */
export interface SweepPoint {
  point: Point;
  config: Config;
  /** The point's axis values as written, in axis order. */
  assign: Array<{ name: string; value: string }>;
  /** The profile its result names, as `laminar sim --profile` would (null: none given). */
  profile: ProfileName | null;
}

function checkAxes(spec: SweepSpec): void {
  const names = new Set<string>();
  for (const a of spec.axes) {
    if (names.has(a.name)) throw new SweepError(`${a.name}: a grid axis named twice`);
    names.add(a.name);
    if (a.values.length === 0) throw new SweepError(`${a.name}: a grid axis with no values`);
    if (a.name === "sim.seed") throw new SweepError("sim.seed: seeds are swept with --seeds K (seeds 1..K of every point), not --grid");
    if (a.name === PROFILE_AXIS) {
      const bad = a.values.find((v) => !isProfileName(v));
      if (bad !== undefined) throw new SweepError(`profile: unknown profile "${bad}" (choose from: ${PROFILE_NAMES.join(", ")})`);
    }
    const fixed = spec.sets.find((s) => s.slice(0, s.indexOf("=")).trim() === a.name);
    if (fixed !== undefined) throw new SweepError(`${a.name}: both swept (--grid) and set (--set ${fixed}); choose one`);
  }
  if (spec.sets.some((s) => s.slice(0, s.indexOf("=")).trim() === "sim.seed")) throw new SweepError("sim.seed: seeds are swept with --seeds K (seeds 1..K of every point), not --set");
  if (spec.profile !== undefined && names.has(PROFILE_AXIS)) throw new SweepError("profile: both swept (--grid profile=...) and fixed (--profile); choose one");
}

/**
 * The sweep's points in grid order (the first axis slowest), each resolved
 * and checked by `check` (what `laminar sim` refuses, it refuses too); a
 * value that resolves like another of its axis (0.4 and 0.40) is refused.
 */
export function sweepPoints(spec: SweepSpec, check: (c: Config) => void = () => {}): SweepPoint[] {
  checkAxes(spec);
  const runs = spec.axes.reduce((n, a) => n * a.values.length, 1) * spec.seeds;
  if (runs > MAX_RUNS) throw new SweepError(`${runs} runs (points x seeds): more than the ${MAX_RUNS} one sweep may have; split it`);
  const out: SweepPoint[] = [];
  const seen = new Map<string, string>();
  const swept = spec.axes.some((a) => a.name === PROFILE_AXIS);
  for (const cell of product(spec.axes, spec.profile ?? "paper")) {
    const sets = [...spec.sets, ...cell.assign.filter((a) => a.name !== PROFILE_AXIS).map((a) => `${a.name}=${a.value}`)];
    const where = cell.assign.map((a) => `${a.name}=${a.value}`).join(" ") || "the sweep's one point";
    let config: Config;
    try {
      config = resolveConfig(undefined, sets, cell.profile);
      check(config);
    } catch (e) {
      if (e instanceof ConfigError || e instanceof SweepError) throw new SweepError(`point ${where}: ${e.message}`);
      throw new SweepError(`point ${where}: ${(e as Error).message}`);
    }
    const flat = flattenConfig(config);
    const same = JSON.stringify(flat) + cell.profile;
    if (seen.has(same)) throw new SweepError(`points ${seen.get(same)} and ${where} are the same run (a value given twice in another spelling?)`);
    seen.set(same, where);
    const first = cell.assign[0];
    const varied = first === undefined ? { name: "sim.scheduler", value: config.sim.scheduler }
      : { name: first.name, value: first.name === PROFILE_AXIS ? cell.profile : flat[first.name] as number | boolean | string };
    const point: Point = {
      experiment: SWEEP, scheduler: config.sim.scheduler, profile: cell.profile, sets, varied,
      rho: config.workload.rho, nodes: config.cluster.nodes,
    };
    out.push({ point, config, assign: cell.assign, profile: swept ? cell.profile : spec.profile ?? null });
  }
  return out;
}

/** The point's value on an axis (the profile for PROFILE_AXIS), as written in its sets; its scheduler when sim.scheduler is not among them. */
export function axisValue(point: { sets: readonly string[]; profile: string; scheduler: string }, axis: string): string {
  if (axis === PROFILE_AXIS) return point.profile;
  const s = [...point.sets].reverse().find((x) => x.slice(0, x.indexOf("=")) === axis);
  if (s === undefined) return axis === "sim.scheduler" ? point.scheduler : "";
  return s.slice(s.indexOf("=") + 1);
}
