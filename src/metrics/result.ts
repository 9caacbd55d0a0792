// The result fields every scheduler's run reports, named alike so runs can be
// compared column by column: counts, start success, arrival-to-start
// percentiles, the per-interval series and the run's own cost. Each scheduler
// adds its own counters beside them. Plain data in, plain data out: the run
// layer (src/run/) drives the models and hands their state here.
import type { Config } from "../config/params.js";
import { NS_PER_MS } from "../sim/time.js";
import { FAIL_CAUSES, type RunMetrics, type SeriesPoint } from "./run-metrics.js";

export interface CommonResult {
  scheduler: string;
  config: Config;
  lambdaPerS: number;
  muPerS: number;
  arrived: number;
  arrivedF: number;
  arrivedL: number;
  squatters: number;
  started: number;
  completed: number;
  failed: number;
  failedBy: Record<string, number>;
  inFlightAtEnd: number;
  runningAtEnd: number;
  startSuccessRatio: number;
  p50StartedMs: number | null;
  p99StartedMs: number | null;
  meanStartedMs: number | null;
  p99StartedFMs: number | null;
  p99StartedLMs: number | null;
  p99StartMs: number | null;
  controlWorkPerSuccessUs: number | null;
  simulatedSeconds: number;
  eventsProcessed: number;
  coreBuild: string;
  wallSeconds: number;
  tasksPerWallSecond: number;
  peakRssMiB: number;
  series: SeriesPoint[];
}

/** Fields that measure the run itself and differ between identical runs. */
export const TIMING_FIELDS = ["wallSeconds", "tasksPerWallSecond", "peakRssMiB"] as const;

export interface RunState {
  scheduler: string;
  config: Config;
  /** The workload's arrival and service rates (per second), as the run's generator derived them. */
  lambdaPerS: number;
  muPerS: number;
  metrics: RunMetrics;
  inFlight: number;
  running: number;
  simulatedNs: number;
  events: number;
  coreBuild: string;
  wallSeconds: number;
}

/** The common fields of a finished run. */
export function commonResult(s: RunState): CommonResult {
  const met = s.metrics, started = met.startedHist;
  const ms = (ns: number) => (Number.isNaN(ns) ? null : ns / NS_PER_MS);
  return {
    scheduler: s.scheduler,
    config: s.config,
    lambdaPerS: s.lambdaPerS,
    muPerS: s.muPerS,
    arrived: met.arrived,
    arrivedF: met.arrivedF,
    arrivedL: met.arrivedL,
    squatters: met.squatters,
    started: met.started,
    completed: met.completed,
    failed: met.failed,
    failedBy: Object.fromEntries(FAIL_CAUSES.map((n, i) => [n, met.failedBy[i]])),
    inFlightAtEnd: s.inFlight,
    runningAtEnd: s.running,
    startSuccessRatio: met.arrived > 0 ? met.started / met.arrived : 0,
    p50StartedMs: ms(started.quantile(0.5)),
    p99StartedMs: ms(started.quantile(0.99)),
    meanStartedMs: ms(started.mean()),
    p99StartedFMs: ms(met.startedHistF.quantile(0.99)),
    p99StartedLMs: ms(met.startedHistL.quantile(0.99)),
    p99StartMs: ms(met.allHist.quantile(0.99)),
    controlWorkPerSuccessUs: met.started > 0 ? met.controlWorkNs / met.started / 1000 : null,
    simulatedSeconds: s.simulatedNs / 1e9,
    eventsProcessed: s.events,
    coreBuild: s.coreBuild,
    wallSeconds: s.wallSeconds,
    tasksPerWallSecond: s.wallSeconds > 0 ? met.arrived / s.wallSeconds : 0,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    series: met.series,
  };
}
