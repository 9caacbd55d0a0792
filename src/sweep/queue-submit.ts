// The submitting side of a sweep on a queue: the points not yet in --out go
// on the queue of this build (one job per point and seed, its id the point's
// key, so submitting again adds nothing twice), and their results are
// gathered into --out as they come, each written as a local run writes it
// (runner.ts's point file), so a sweep interrupted here resumes from the same
// folder with the same command, or with --collect, which adds nothing and
// gathers what the queue holds. A collected job is removed from Redis once
// its point file is written. A point that failed is reported with its error
// and left on the queue, where --collect finds it failed; submitting again
// replaces it with a new job.
import { Queue, type Job } from "bullmq";
import { join } from "node:path";
import { flattenConfig } from "../config/params-config.js";
import { makeDir } from "../experiments/make-dir.js";
import { donePoints, writePoint, type Job as Run, type PointResult } from "../experiments/runner.js";
import { acceptResult, ATTEMPTS, jobId, queueName, type PointJobData, type PointJobResult, type RedisAddress } from "./queue.js";
import type { SweepPoint } from "./grid.js";

export interface QueueSweepOptions {
  address: RedisAddress;
  out: string;
  build: string;
  fresh: boolean;
  /** Add the missing points (submit) or only gather (collect). */
  submit: boolean;
  /** Wait for the results (false: submit and return). */
  wait: boolean;
  pollMs?: number;
  onDone?: (done: number, total: number, last: PointResult) => void;
  /** Work done and in all, in pointCost units (running points by the share their worker reported). */
  onProgress?: (done: number, total: number) => void;
}

export interface QueueSweepResult {
  results: PointResult[];
  /** Points that failed, were refused, or (collect) are neither in --out nor on the queue. */
  failed: Array<{ key: string; error: string }>;
  /** Points put on the queue by this command. */
  added: number;
  /** Points left on the queue, not waited for (wait false). */
  pending: number;
}

function jobData(sp: SweepPoint, run: Run, build: string): PointJobData {
  const config = { ...flattenConfig(sp.config), "sim.seed": run.seed };
  return {
    build, key: run.key, point: run.point, seed: run.seed, sets: [...run.point.sets, `sim.seed=${run.seed}`],
    profile: run.point.profile, recordProfile: sp.profile, config,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function queueSweep(points: SweepPoint[], runs: Run[], o: QueueSweepOptions): Promise<QueueSweepResult> {
  const dir = join(o.out, "points");
  makeDir(dir);
  const byPoint = new Map(points.map((sp) => [sp.point, sp]));
  const found = donePoints(dir, runs, o.build, o.fresh);
  const results: PointResult[] = [];
  const failed: Array<{ key: string; error: string }> = [];
  const totalCost = runs.reduce((a, r) => a + r.cost, 0);
  let doneCost = 0;
  const finish = (run: Run, result: Record<string, unknown>, resumed: boolean) => {
    const r: PointResult = { point: run.point, seed: run.seed, key: run.key, result, resumed };
    results.push(r);
    doneCost += run.cost;
    o.onDone?.(results.length, runs.length, r);
  };
  const pending = runs.filter((run, i) => {
    const f = found[i];
    if (f === null) return true;
    finish(run, f.result, true);
    return false;
  });
  const queue = new Queue<PointJobData, PointJobResult>(queueName(o.build), { connection: o.address });
  let added = 0;
  try {
    const add = async (list: Run[]) => {
      if (list.length === 0) return;
      await queue.addBulk(list.map((run) => ({
        name: "point", data: jobData(byPoint.get(run.point)!, run, o.build),
        opts: { jobId: jobId(run.key), attempts: ATTEMPTS, backoff: { type: "fixed", delay: 1000 }, removeOnComplete: false, removeOnFail: false },
      })));
    };
    const waiting = new Map<string, Run>();
    const toAdd: Run[] = [];
    for (const run of pending) {
      let job = await queue.getJob(jobId(run.key));
      // submitting again replaces a failed job (its data may be another submitter's) and, with --fresh, any other
      if (job !== undefined && o.submit && (o.fresh || (await job.getState()) === "failed")) {
        await job.remove().catch(() => {}); // a running one cannot be: its result is then collected as any other
        job = await queue.getJob(jobId(run.key));
      }
      if (job === undefined) {
        if (!o.submit) {
          failed.push({ key: run.key, error: "neither in --out nor on the queue (submit the sweep again, without --collect)" });
          continue;
        }
        toAdd.push(run);
      }
      waiting.set(run.key, run);
    }
    // longest first, as a local run starts them: the queue hands out points in the order they were added
    await add([...toAdd].sort((a, b) => b.cost - a.cost));
    added = toAdd.length;
    if (!o.wait) return { results, failed, added, pending: waiting.size };
    const poll = o.pollMs ?? 500;
    while (waiting.size > 0) {
      let running = 0;
      for (const [key, run] of waiting) {
        // the state first, then the job: a job read first and completed in between would carry no result yet
        const state = await queue.getJobState(jobId(key));
        const job: Job<PointJobData, PointJobResult> | undefined = state === "unknown" ? undefined : await queue.getJob(jobId(key));
        if (job === undefined) {
          // removed under us (another submitter of the same points collected it, or a user): put it back, or report it
          if (o.submit) await add([run]);
          else {
            waiting.delete(key);
            failed.push({ key, error: "removed from the queue before it was collected" });
          }
          continue;
        }
        if (state === "completed") {
          waiting.delete(key);
          const got = acceptResult(job.returnvalue, o.build, key);
          if ("refused" in got) {
            failed.push({ key, error: got.refused });
            continue;
          }
          writePoint(dir, key, o.build, run.point, run.seed, got.result);
          finish(run, got.result, false);
          await job.remove().catch(() => {});
        } else if (state === "failed") {
          waiting.delete(key);
          failed.push({ key, error: job.failedReason || "failed" });
        } else if (state === "active" && typeof job.progress === "number") running += run.cost * Math.min(1, Math.max(0, job.progress));
      }
      o.onProgress?.(doneCost + running, totalCost);
      if (waiting.size > 0) await sleep(poll);
    }
  } finally {
    await queue.close();
  }
  const order = new Map(runs.map((r, i) => [r.key, i]));
  results.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  return { results, failed, added, pending: 0 };
}
