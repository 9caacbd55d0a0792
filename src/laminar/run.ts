// One Laminar run from a validated Config to its result record: build the
// model on a fresh core instance, run arrivals for sim.durationS and then
// drain for up to sim.drainS (stopping early once nothing is in flight or
// running), and collect the metrics. Deterministic for a given config: only
// wallSeconds, tasksPerWallSecond and peakRssMiB vary between runs.
import { performance } from "node:perf_hooks";
import type { Config } from "../model/params.js";
import { loadCore, type Core } from "../core/wasm.js";
import { NS_PER_MS } from "../sim/time.js";
import { arrivalRates } from "../workload/bimodal.js";
import { DA_ENDS, FAIL_CAUSES, type SeriesPoint } from "../metrics/run-metrics.js";
import { LaminarModel } from "./model.js";

export interface RunOptions {
  /** Called every slice of simulated time with (simulated ns so far, horizon ns). */
  onProgress?: (nowNs: number, endNs: number) => void;
  /** A core instance to build on (default: a fresh one; a run takes it over). */
  core?: Core;
}

export interface SimResult {
  scheduler: "laminar";
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
  probeActions: number;
  probeActionsPerStart: number | null;
  bounces: number;
  arbitrationLosses: number;
  falseOptimism: number;
  fastFails: number;
  regenerations: number;
  duplicateWinners: number;
  lateWinners: number;
  reservations: number;
  reservationsExpired: number;
  depositsForfeited: number;
  packetsLost: number;
  daEnds: Record<string, number>;
  zhaf: { reportsSent: number; reportsLost: number; replicaCopiesLost: number; uploadsLost: number; staleReplicaReads: number; missingZoneReads: number };
  simulatedSeconds: number;
  eventsProcessed: number;
  invariantChecks: number;
  coreBuild: string;
  wallSeconds: number;
  tasksPerWallSecond: number;
  peakRssMiB: number;
  series: SeriesPoint[];
}

/** Fields that measure the run itself and differ between identical runs. */
export const TIMING_FIELDS = ["wallSeconds", "tasksPerWallSecond", "peakRssMiB"] as const;

const SLICE_NS = 10 * NS_PER_MS;

export function runLaminar(config: Config, opts: RunOptions = {}): SimResult {
  const wall0 = performance.now();
  const core = opts.core ?? loadCore("auto");
  const model = new LaminarModel(core, config);
  model.start();
  const endNs = model.endArrivalsNs + Math.round(config.sim.drainS * 1e9);
  let now = 0;
  while (now < endNs) {
    now = Math.min(now + SLICE_NS, endNs);
    model.run(now);
    opts.onProgress?.(now, endNs);
    if (model.quiescent()) break;
  }
  model.finish();
  model.invariants?.end();
  const wallSeconds = (performance.now() - wall0) / 1000;
  const met = model.metrics;
  const rates = arrivalRates(config);
  const ms = (ns: number) => (Number.isNaN(ns) ? null : ns / NS_PER_MS);
  const byName = (names: readonly string[], values: Float64Array) => Object.fromEntries(names.map((n, i) => [n, values[i]]));
  return {
    scheduler: "laminar",
    config,
    lambdaPerS: rates.lambda,
    muPerS: rates.mu,
    arrived: met.arrived,
    arrivedF: met.arrivedF,
    arrivedL: met.arrivedL,
    squatters: met.squatters,
    started: met.started,
    completed: met.completed,
    failed: met.failed,
    failedBy: byName(FAIL_CAUSES, met.failedBy),
    inFlightAtEnd: model.inFlight,
    runningAtEnd: model.running,
    startSuccessRatio: met.arrived > 0 ? met.started / met.arrived : 0,
    p50StartedMs: ms(met.startedHist.quantile(0.5)),
    p99StartedMs: ms(met.startedHist.quantile(0.99)),
    meanStartedMs: ms(met.startedHist.mean()),
    p99StartedFMs: ms(met.startedHistF.quantile(0.99)),
    p99StartedLMs: ms(met.startedHistL.quantile(0.99)),
    p99StartMs: ms(met.allHist.quantile(0.99)),
    controlWorkPerSuccessUs: met.started > 0 ? met.controlWorkNs / met.started / 1000 : null,
    probeActions: met.probeActions,
    probeActionsPerStart: met.started > 0 ? met.probeActions / met.started : null,
    bounces: met.bounces,
    arbitrationLosses: met.arbitrationLosses,
    falseOptimism: met.falseOptimism,
    fastFails: met.fastFails,
    regenerations: met.regenerations,
    duplicateWinners: met.daEnds[DA_ENDS.indexOf("duplicateWinner")],
    lateWinners: met.daEnds[DA_ENDS.indexOf("lateWinner")],
    reservations: met.reservations,
    reservationsExpired: met.reservationsExpired,
    depositsForfeited: met.depositsForfeited,
    packetsLost: met.packetsLost + model.zhaf.reportsLost + model.zhaf.replicaCopiesLost + model.zhaf.uploadsLost,
    daEnds: byName(DA_ENDS, met.daEnds),
    zhaf: {
      reportsSent: model.zhaf.reportsSent,
      reportsLost: model.zhaf.reportsLost,
      replicaCopiesLost: model.zhaf.replicaCopiesLost,
      uploadsLost: model.zhaf.uploadsLost,
      staleReplicaReads: model.zhaf.staleReplicaReads,
      missingZoneReads: model.teg.missingZoneReads,
    },
    simulatedSeconds: model.engine.now / 1e9,
    eventsProcessed: model.engine.processed,
    invariantChecks: model.invariants?.checks ?? 0,
    coreBuild: core.flavor,
    wallSeconds,
    tasksPerWallSecond: wallSeconds > 0 ? met.arrived / wallSeconds : 0,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    series: met.series,
  };
}
