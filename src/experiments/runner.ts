// Runs experiment points in parallel on a piscina pool of worker threads, one
// point per task (a Laminar point may split its Zones over threads of its
// own when there are fewer points than threads: splitWorkers). Each finished point is written at once to
// DIR/points/<key>.json, so an interrupted sweep resumes where it stopped:
// points whose file exists are read back, not rerun.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { pointKey, type Point } from "./specs.js";

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
}

/**
 * How W worker threads are shared between `todo` points: as many points at
 * a time as threads (one thread each) while there are more points than
 * threads; with fewer points, each Laminar point splits its Zones over the
 * threads left to it (results do not depend on the split).
 */
export function splitWorkers(workers: number, todo: number): { points: number; threads: number } {
  const w = Math.max(1, Math.floor(workers));
  const points = Math.max(1, Math.min(w, todo));
  return { points, threads: Math.max(1, Math.floor(w / points)) };
}

export async function runPoints(points: Point[], o: RunnerOptions): Promise<PointResult[]> {
  const dir = join(o.out, "points");
  mkdirSync(dir, { recursive: true });
  const jobs: Array<{ point: Point; seed: number; key: string }> = [];
  for (const point of points) for (let seed = 1; seed <= o.seeds; seed++) jobs.push({ point, seed, key: pointKey(point, seed) });
  const results: PointResult[] = [];
  let done = 0;
  const finish = (r: PointResult) => {
    results.push(r);
    o.onDone?.(++done, jobs.length, r);
  };
  const todo = jobs.filter((j) => {
    const file = join(dir, `${j.key}.json`);
    if (!existsSync(file)) return true;
    try {
      finish({ ...j, result: JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>, resumed: true });
      return false;
    } catch {
      return true; // a damaged file (an interrupted write): run the point again
    }
  });
  if (todo.length > 0) {
    const { points: concurrent, threads } = splitWorkers(o.workers ?? availableParallelism(), todo.length);
    const pool = new Piscina({
      filename: fileURLToPath(new URL("./worker.js", import.meta.url)),
      maxThreads: concurrent,
      minThreads: 1,
      idleTimeout: 1000,
    });
    try {
      await Promise.all(todo.map(async (j) => {
        const result = (await pool.run({ sets: [...j.point.sets, `sim.seed=${j.seed}`], threads })) as Record<string, unknown>;
        writeFileSync(join(dir, `${j.key}.json.tmp`), JSON.stringify(result));
        // rename is atomic: a point file is either complete or absent
        renameSync(join(dir, `${j.key}.json.tmp`), join(dir, `${j.key}.json`));
        finish({ ...j, result, resumed: false });
      }));
    } finally {
      await pool.destroy();
    }
  }
  // the specs' order, whatever order the points finished in
  const order = new Map(jobs.map((j, i) => [j.key, i]));
  return results.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
}
