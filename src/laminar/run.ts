// One Laminar run from a validated Config to its result record: build the
// model on a fresh core instance, run arrivals for sim.durationS and then
// drain for up to sim.drainS (stopping early once nothing is in flight or
// running), and collect the metrics. Deterministic for a given config: only
// wallSeconds, tasksPerWallSecond and peakRssMiB vary between runs.
import type { Config } from "../model/params.js";
import type { RunOptions } from "../model/run-options.js";
import { performance } from "node:perf_hooks";
import { DA_ENDS, RunMetrics } from "../metrics/run-metrics.js";
import { commonResult, TIMING_FIELDS, type CommonResult } from "../metrics/result.js";
import { runSlices } from "../model/run-options.js";
import { loadCore } from "../core/wasm.js";
import { NS_PER_MS } from "../sim/time.js";
import { settleMetrics } from "./model.js";
import { PartitionSet, type PartReport } from "./partitioned.js";

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
function survivalFields(met: RunMetrics, suspended: number): Partial<SimResult> {
  const v = met.survival;
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
    suspendedAtEnd: suspended,
  };
}

export interface LaminarRunOptions extends RunOptions {
  /** Zone partitions run one after another on this thread (default 1); the result is the same for any number. */
  partitions?: number;
}

/** One run on this thread, in `partitions` Zone partitions (the threaded runner is parallel.ts). */
export function runLaminar(config: Config, opts: LaminarRunOptions = {}): SimResult {
  const wall0 = performance.now();
  const P = opts.partitions ?? 1;
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`partitions must be a positive integer, got ${P}`);
  const cores = Array.from({ length: P }, (_, i) => (i === 0 && opts.core !== undefined ? opts.core : loadCore("auto")));
  const set = new PartitionSet(config, cores);
  set.start();
  runSlices(set, config.sim.drainS, opts);
  set.finish();
  for (const m of set.models) m.invariants?.end();
  return laminarResult(config, set.reports(), cores[0].flavor, (performance.now() - wall0) / 1000);
}

/** The result record of a run from its partitions' reports (in partition order). */
export function laminarResult(config: Config, parts: PartReport[], coreBuild: string, wallSeconds: number): SimResult {
  const met = RunMetrics.fromJSON(parts[0].metrics, Math.round(config.task.deadlineMs * NS_PER_MS));
  const forfeit = new Float64Array(parts[0].forfeitByZone.length);
  const sum = (f: (p: PartReport) => number) => parts.reduce((a, p) => a + f(p), 0);
  parts.forEach((p, i) => {
    if (i > 0) met.add(p.metrics);
    for (let z = 0; z < forfeit.length; z++) forfeit[z] += p.forfeitByZone[z];
  });
  settleMetrics(met, config, forfeit);
  const zhaf = {
    reportsSent: sum((p) => p.zhaf.reportsSent),
    reportsLost: sum((p) => p.zhaf.reportsLost),
    replicaCopiesLost: sum((p) => p.zhaf.replicaCopiesLost),
    uploadsLost: sum((p) => p.zhaf.uploadsLost),
    staleReplicaReads: sum((p) => p.zhaf.staleReplicaReads),
    missingZoneReads: parts[0].missingZoneReads,
  };
  const common = commonResult({
    scheduler: "laminar", config, metrics: met, inFlight: parts[0].inFlight, running: sum((p) => p.running),
    simulatedNs: parts[0].simulatedNs, events: sum((p) => p.events), coreBuild, wallSeconds,
  });
  const byName = (names: readonly string[], values: Float64Array) => Object.fromEntries(names.map((n, i) => [n, values[i]]));
  const { series, simulatedSeconds, eventsProcessed, coreBuild: build, wallSeconds: wall, tasksPerWallSecond, peakRssMiB, ...head } = common;
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
    packetsLost: met.packetsLost + zhaf.reportsLost + zhaf.replicaCopiesLost + zhaf.uploadsLost,
    daEnds: byName(DA_ENDS, met.daEnds),
    zhaf,
    simulatedSeconds,
    eventsProcessed,
    invariantChecks: sum((p) => p.invariantChecks),
    ...survivalFields(met, sum((p) => p.suspended)),
    coreBuild: build,
    wallSeconds: wall,
    tasksPerWallSecond,
    peakRssMiB,
    series,
  };
}
