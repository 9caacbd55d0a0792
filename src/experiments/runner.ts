// Runs experiment points in parallel on a piscina pool of worker threads, one
// point per task, longest first (pointCost), each given its share of the
// threads free when it starts (grantThreads: a Laminar point splits its Zones
// over them; the result is the same for any split). Each finished point is
// written at once to DIR/points/<key>.json with the build of laminar that ran
// it (build-id.ts), so an interrupted sweep resumes where it stopped: points
// of this sweep whose file exists are read back, not rerun, when the same
// build wrote them; points of another build are refused (OtherBuildError)
// unless `fresh` deletes them. Other points in DIR are left alone.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { makeDir } from "./make-dir.js";
import { writeOutput } from "./safe-write.js";
import { pointKey, type Point } from "./specs.js";
import type { PointTask } from "./worker.js";
import { schedulerEntry } from "../schedulers/catalogue.js";

export interface PointResult {
  point: Point;
  seed: number;
  key: string;
  result: Record<string, unknown>;
  resumed: boolean;
}

export interface RunnerOptions {
  out: string;
  seeds: number;
  workers?: number;
  onDone?: (done: number, total: number, last: PointResult) => void;
  /**
   * Called every progressEveryMs while points run, and as each ends: work done
   * and work in all, in pointCost units (points read back and finished ones
   * whole, running ones by the share of their simulated time done).
   */
  onProgress?: (done: number, total: number) => void;
  /** How often onProgress is called while points run, ms (default 1000). */
  progressEveryMs?: number;
  /** The build running the sweep (buildId()): recorded in each point it writes; this sweep's points in `out` from another build are refused. */
  build: string;
  /** Delete this sweep's points already in `out` first (whatever build wrote them); other points there stay. */
  fresh?: boolean;
  /**
   * Keep each point's result as `laminar sim --json` prints it (the series
   * included, then `profile`: the point's when `namesProfile`, else null, as
   * sim without --profile), not the experiments' end-of-run record:
   * `laminar sweep` promises a point equal to a sim run.
   */
  simRecord?: { namesProfile: boolean };
  /**
   * Let a Laminar point split its Zones over the threads free when it starts
   * (default true). A sweep says false: one thread per point, so each
   * point's work counts (eventsProcessed, invariantChecks) are those of
   * `laminar sim --workers 1`, whatever --workers the sweep ran with.
   */
  splitPoints?: boolean;
}

/** `out` holds points of this sweep written by another build of laminar (or by one that recorded none). */
export class OtherBuildError extends Error {
  override name = "OtherBuildError";
}

/** What DIR/points/<key>.json holds: the build that ran the point, the point and seed (since this version), and its result. */
interface PointFile {
  build: string;
  point?: Point;
  seed?: number;
  result: Record<string, unknown>;
}

/**
 * A point's file: its build and result; null when absent or damaged (an
 * interrupted write: the point runs again); build null for a file from a
 * version of laminar that recorded none (the bare result).
 */
export function readPoint(file: string): { build: string | null; point?: Point; seed?: number; result: Record<string, unknown> } | null {
  if (!existsSync(file)) return null;
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as Partial<PointFile>;
  if (typeof o.build !== "string") return { build: null, result: v as Record<string, unknown> };
  if (o.result === null || typeof o.result !== "object" || Array.isArray(o.result)) return null; // a build but no result: damaged
  const point = o.point !== null && typeof o.point === "object" && typeof o.point.experiment === "string" && Array.isArray(o.point.sets) ? o.point : undefined;
  return { build: o.build, result: o.result, point, seed: Number.isInteger(o.seed) ? o.seed : undefined };
}

/** Write a point's file atomically (a temp file of this process, fsync, rename): it is either complete or absent. */
export function writePoint(dir: string, key: string, build: string, point: Point, seed: number, result: Record<string, unknown>): void {
  const body: PointFile = { build, point, seed, result };
  writeOutput(join(dir, `${key}.json`), JSON.stringify(body), true);
}

/**
 * A point's expected cost, to start the longest points first: its task count
 * (nodes x rho x simulated seconds of arrivals). Only the order matters.
 */
export function pointCost(p: Point): number {
  // the last assignment wins, as in applySets
  const d = [...p.sets].reverse().find((s) => s.startsWith("sim.durationS="));
  const seconds = d === undefined ? 1 : Number(d.slice("sim.durationS=".length));
  return p.nodes * p.rho * (Number.isFinite(seconds) ? seconds : 1);
}

/**
 * Threads for the next point to start, given the threads free now and the
 * points waiting (this one included): one each while waiting points
 * outnumber free threads, so every thread has a point; when fewer points
 * wait than threads are free (a sweep of fewer points than threads), they
 * share them, the larger share to the point that starts first (the
 * longest). Threads that come free one at a time go to the next point
 * whole: a point keeps its threads until it ends. Only a Laminar point
 * splits its Zones; any other takes one.
 */
export function grantThreads(free: number, waiting: number, splits: boolean): number {
  if (!splits || free <= 1) return 1;
  return Math.ceil(free / Math.min(waiting, free));
}

/** One run of a point: a point and seed, its file's key and its cost (pointCost). */
export interface Job {
  point: Point;
  seed: number;
  key: string;
  cost: number;
}

/** The runs of `points` with seeds 1..seeds, in that order. */
export function pointJobs(points: Point[], seeds: number): Job[] {
  const jobs: Job[] = [];
  for (const point of points) for (let seed = 1; seed <= seeds; seed++) jobs.push({ point, seed, key: pointKey(point, seed), cost: pointCost(point) });
  return jobs;
}

/**
 * The jobs' points already in `dir` (null where absent): resumed when this
 * build wrote them; from another build, refused (OtherBuildError), or
 * deleted first with `fresh`.
 */
export function donePoints(dir: string, jobs: Job[], build: string, fresh: boolean): Array<ReturnType<typeof readPoint>> {
  if (fresh) for (const j of jobs) for (const f of [`${j.key}.json`, `${j.key}.json.tmp`]) rmSync(join(dir, f), { force: true });
  const found = jobs.map((j) => (fresh ? null : readPoint(join(dir, `${j.key}.json`))));
  const others = found.filter((f) => f !== null && f.build !== build) as Array<{ build: string | null }>;
  if (others.length > 0) {
    const builds = [...new Set(others.map((f) => f.build ?? "none recorded"))];
    throw new OtherBuildError(
      `${dir} holds ${others.length} of this sweep's ${jobs.length} point(s) from another build of laminar ` +
      `(${builds.length === 1 ? builds[0] : `${builds.length} builds`}; this is ${build}): pass --fresh to run them again, or choose another --out`,
    );
  }
  return found;
}

/** The piscina task that runs one point (worker.ts), with the seed as its last --set. */
export function pointTask(point: Point, seed: number, threads: number, progress?: SharedArrayBuffer, simRecord?: { profile: string | null }): PointTask {
  return { sets: [...point.sets, `sim.seed=${seed}`], profile: point.profile, threads, progress, simRecord };
}

/** The file piscina loads to run a point. */
export const POINT_WORKER = fileURLToPath(new URL("./worker.js", import.meta.url));

export async function runPoints(points: Point[], o: RunnerOptions): Promise<PointResult[]> {
  const workers = o.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`runPoints: workers must be a positive integer, got ${workers}`);
  const dir = join(o.out, "points");
  makeDir(dir);
  const jobs = pointJobs(points, o.seeds);
  const results: PointResult[] = [];
  let done = 0, doneCost = 0;
  const totalCost = jobs.reduce((a, j) => a + j.cost, 0);
  // points running now: their cost and the share of it done, written by their worker
  const running = new Map<string, { cost: number; share: Float64Array }>();
  const progress = (): void => {
    let d = doneCost;
    for (const r of running.values()) d += r.cost * r.share[0];
    o.onProgress?.(d, totalCost);
  };
  const finish = ({ point, seed, key, cost }: Job, result: Record<string, unknown>, resumed: boolean) => {
    const r: PointResult = { point, seed, key, result, resumed };
    results.push(r);
    running.delete(key);
    doneCost += cost;
    o.onDone?.(++done, jobs.length, r);
    progress();
  };
  const found = donePoints(dir, jobs, o.build, o.fresh === true);
  const todo = jobs.filter((j, i) => {
    const f = found[i];
    if (f === null) return true;
    finish(j, f.result, true);
    return false;
  });
  if (todo.length > 0) {
    // longest first (a stable sort: the specs' order among equals), so a long point does not start last and run alone
    const queue = [...todo].sort((a, b) => b.cost - a.cost);
    const pool = new Piscina({
      filename: POINT_WORKER,
      maxThreads: Math.min(workers, todo.length),
      minThreads: 1,
      idleTimeout: 1000,
    });
    let ticker: ReturnType<typeof setInterval> | null = null;
    try {
      await new Promise<void>((resolve, reject) => {
        let free = workers, busy = 0, failed = false;
        const fail = (e: unknown): void => {
          failed = true;
          reject(e);
        };
        if (o.onProgress !== undefined) {
          ticker = setInterval(() => {
            try {
              progress();
            } catch (e) {
              fail(e);
            }
          }, o.progressEveryMs ?? 1000);
        }
        const startMore = (): void => {
          while (!failed && queue.length > 0 && free > 0) {
            const j = queue.shift()!;
            const threads = grantThreads(free, queue.length + 1, schedulerEntry(j.point.scheduler).supports.threads && o.splitPoints !== false);
            free -= threads;
            busy++;
            const shared = new SharedArrayBuffer(8);
            running.set(j.key, { cost: j.cost, share: new Float64Array(shared) });
            pool.run(pointTask(j.point, j.seed, threads, shared, o.simRecord && { profile: o.simRecord.namesProfile ? j.point.profile : null })).then((r) => {
              const result = r as Record<string, unknown>;
              writePoint(dir, j.key, o.build, j.point, j.seed, result);
              finish(j, result, false);
              free += threads;
              busy--;
              if (queue.length === 0 && busy === 0) resolve();
              else startMore();
            }).catch(fail);
          }
        };
        startMore();
      });
    } finally {
      if (ticker !== null) clearInterval(ticker);
      await pool.destroy();
    }
  }
  // the specs' order, whatever order the points finished in
  const order = new Map(jobs.map((j, i) => [j.key, i]));
  return results.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
}
