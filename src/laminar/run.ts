// One Laminar run from a validated Config to its result record: build the
// model on a fresh core instance, run arrivals for sim.durationS and then
// drain for up to sim.drainS (stopping early once nothing is in flight or
// running), and collect the metrics. Deterministic for a given config: only
// wallSeconds, tasksPerWallSecond and peakRssMiB vary between runs.
import type { Config } from "../model/params.js";
import type { RunOptions } from "../model/run-options.js";
import { DA_ENDS } from "../metrics/run-metrics.js";
import { runModel, TIMING_FIELDS, type CommonResult } from "../metrics/result.js";
import { LaminarModel } from "./model.js";

export interface SimResult extends CommonResult {
  scheduler: "laminar";
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
  invariantChecks: number;
  /** Runtime survival (memory.enabled only). */
  completedSuccessRatio?: number;
  executionSurvival?: number | null;
  lTaskOomKills?: number;
  fTaskOomKills?: number;
  suspensions?: number;
  resumedInPlace?: number;
  secondaryReactivations?: number;
  secondaryLandings?: number;
  reclaimed?: number;
  probeDrops?: number;
  preemptions?: number;
  suspendedAtEnd?: number;
}

export { TIMING_FIELDS, type RunOptions };

/** The runtime-survival fields, when the memory model ran. */
function survivalFields(model: LaminarModel): Partial<SimResult> {
  const met = model.metrics, v = met.survival;
  if (v === null) return {};
  return {
    completedSuccessRatio: met.arrived > 0 ? met.completed / met.arrived : 0,
    executionSurvival: met.started > 0 ? met.completed / met.started : null,
    lTaskOomKills: v.oomKillsL,
    fTaskOomKills: v.oomKillsF,
    suspensions: v.suspensions,
    resumedInPlace: v.resumedInPlace,
    secondaryReactivations: v.secondaryReactivations,
    secondaryLandings: v.secondaryLandings,
    reclaimed: v.reclaimed,
    probeDrops: v.probeDrops,
    preemptions: v.preemptions,
    suspendedAtEnd: model.suspended,
  };
}

export function runLaminar(config: Config, opts: RunOptions = {}): SimResult {
  const { model, common } = runModel("laminar", config, opts, (core) => new LaminarModel(core, config), (m) => m.invariants?.end());
  const met = model.metrics;
  const byName = (names: readonly string[], values: Float64Array) => Object.fromEntries(names.map((n, i) => [n, values[i]]));
  const { series, simulatedSeconds, eventsProcessed, coreBuild, wallSeconds: wall, tasksPerWallSecond, peakRssMiB, ...head } = common;
  return {
    ...head,
    scheduler: "laminar",
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
    simulatedSeconds,
    eventsProcessed,
    invariantChecks: model.invariants?.checks ?? 0,
    ...survivalFields(model),
    coreBuild,
    wallSeconds: wall,
    tasksPerWallSecond,
    peakRssMiB,
    series,
  };
}
