// A p99 at the deadline is a cap, not a measured latency: a task that fails
// is counted at its scheduler's deadline in the all-arrivals distribution
// (p99StartMs), so once 1% of the tasks fail, that distribution's p99 is the
// deadline itself and says only "at least the deadline".
import type { PointRun } from "./data.js";
import { schedulerEntry } from "../schedulers/catalogue.js";

/** Quantiles of the latency histogram are within 2^-7 (relative) of the exact value (metrics/histogram.ts, 7 sub-bucket bits). */
const QUANTILE_REL_ERROR = 2 ** -7;

/** The deadline a failed task of this run is counted at, ms (the parameter its scheduler's entry names: Laminar task.deadlineMs, the baselines baselines.deadlineMs); null when the result does not carry its config. */
export function deadlineMs(r: PointRun): number | null {
  let v: unknown = r.result.config;
  for (const k of schedulerEntry(r.point.scheduler).deadlineParam.split(".")) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === "number" && v > 0 ? v : null;
}

/** The value is the deadline, within the histogram's resolution. */
export function atDeadline(value: number, deadline: number): boolean {
  return Math.abs(value - deadline) <= deadline * QUANTILE_REL_ERROR;
}

/** The run's all-arrivals p99 equals its deadline (within the histogram's resolution) and some task failed: a cap. */
export function p99AtDeadline(r: PointRun): boolean {
  const d = deadlineMs(r), p99 = r.result.p99StartMs, failed = r.result.failed;
  if (d === null || typeof p99 !== "number" || typeof failed !== "number" || failed <= 0) return false;
  return atDeadline(p99, d);
}
