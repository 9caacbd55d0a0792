// The public way to run one of the paper's experiments (src/experiments/
// specs.ts) from code: the same points, runner and table as `laminar
// reproduce`, returned rather than written, figures left to the caller.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applySets, defaultConfig } from "../config/params-config.js";
import { ConfigError } from "../config/params-error.js";
import { isProfileName, type ProfileName } from "../config/profiles.js";
import { buildId } from "../experiments/build-id.js";
import { pointsUnder } from "../experiments/points-under.js";
import { experimentTable } from "../experiments/report.js";
import { runPoints, type PointResult } from "../experiments/runner.js";
import { EXPERIMENTS, SCALES, type Scale } from "../experiments/specs.js";

export interface ExperimentOptions {
  /** "quick" (the default: minutes) or "paper" (the paper's sizes and durations: hours). */
  scale?: Scale;
  /** Seeds per point (default 1); seed k runs with sim.seed=k. */
  seeds?: number;
  /** Run every point under this profile (default: Exp1 under both, the others under "paper"). */
  profile?: ProfileName;
  /** Worker threads (default: the cores available). */
  workers?: number;
  /** `name=value` assignments laid over every point's own (a variant of the experiment: its points are keyed apart). */
  sets?: readonly string[];
  /**
   * A folder to keep each point's result in (DIR/points/), so that a later
   * call with the same folder resumes instead of rerunning; points there from
   * another build of laminar are refused. Default: a temporary folder,
   * removed at the end.
   */
  out?: string;
  /** Called as the work proceeds: done and total, in the runner's cost units. */
  onProgress?: (done: number, total: number) => void;
}

/** An experiment's id and title, e.g. "exp4a". */
export interface ExperimentInfo {
  id: string;
  title: string;
}

export interface ExperimentRun extends ExperimentInfo {
  /** One record per point and seed: the point (scheduler, sets, varied parameter, the paper's figures) and the run's result fields. */
  points: PointResult[];
  /** The experiment's table, as `laminar reproduce` prints it. */
  table: string;
}

/** The paper's experiments: id and title of each, in order. */
export function listExperiments(): ExperimentInfo[] {
  return EXPERIMENTS.map((e) => ({ id: e.id, title: e.title }));
}

/**
 * Run one of the paper's experiments (listExperiments() names them) on
 * worker threads and return every point's result and the experiment's table.
 *
 * @example
 * const run = await runExperiment("exp4a", { seeds: 2 });
 * console.log(run.table);
 */
export async function runExperiment(id: string, options: ExperimentOptions = {}): Promise<ExperimentRun> {
  const e = EXPERIMENTS.find((x) => x.id === id);
  if (e === undefined) throw new RangeError(`runExperiment: no experiment "${id}" (choose from ${EXPERIMENTS.map((x) => x.id).join(", ")})`);
  const scale = options.scale ?? "quick";
  if (!SCALES.includes(scale)) throw new RangeError(`runExperiment: scale must be ${SCALES.join(" or ")}, got ${JSON.stringify(scale)}`);
  const seeds = options.seeds ?? 1;
  if (!Number.isInteger(seeds) || seeds < 1) throw new RangeError(`runExperiment: seeds must be a positive integer, got ${seeds}`);
  if (options.profile !== undefined && !isProfileName(options.profile)) throw new ConfigError(`profile must be paper or artifact, got ${JSON.stringify(options.profile)}`);
  const extra = options.sets ?? [];
  applySets(defaultConfig(), extra); // a bad assignment fails here, in the caller's thread, not in every worker
  const points = pointsUnder(e.points(scale), options.profile).map((p) => ({ ...p, sets: [...p.sets, ...extra] }));
  const out = options.out ?? mkdtempSync(join(tmpdir(), "laminar-experiment-"));
  try {
    // a folder of the caller's may be resumed, so its points carry this build's id; a temporary one is never read again
    const build = options.out === undefined ? "temporary" : buildId();
    const results = await runPoints(points, { out, seeds, workers: options.workers, build, onProgress: options.onProgress });
    return { id: e.id, title: e.title, points: results, table: experimentTable(e, results) };
  } finally {
    if (options.out === undefined) rmSync(out, { recursive: true, force: true });
  }
}
