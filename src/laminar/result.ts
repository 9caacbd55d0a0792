// The result record of a Laminar run: what each Zone partition reports at the
// end (plain data, so it may cross a thread boundary) and the record built
// from those reports in partition order. Deterministic for a given config:
// only wallSeconds, tasksPerWallSecond and peakRssMiB vary between runs. The
// runs themselves (one thread, partitions, threads) are in src/run/.
import type { Config } from "../config/params.js";
import { DA_ENDS, RunMetrics, type RunMetricsJSON } from "../metrics/run-metrics.js";
import { commonResult, TIMING_FIELDS, type CommonResult } from "../metrics/result.js";
import { NS_PER_MS } from "../sim/time.js";
import { workloadRates } from "../workload/sources.js";
import { settleMetrics, type LaminarModel } from "./model.js";

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

export { TIMING_FIELDS };

/** What one partition reports at the end of a run (plain data: it may cross a thread boundary). */
export interface PartReport {
  index: number;
  metrics: RunMetricsJSON;
  forfeitByZone: number[];
  zhaf: { reportsSent: number; reportsLost: number; replicaCopiesLost: number; uploadsLost: number; staleReplicaReads: number };
  missingZoneReads: number;
  invariantChecks: number;
  inFlight: number;
  running: number;
  suspended: number;
  simulatedNs: number;
  events: number;
}

/** The end-of-run report of a finished partition. */
export function reportOf(m: LaminarModel): PartReport {
  const z = m.zhaf;
  return {
    index: m.partition.index,
    metrics: m.metrics.toJSON(),
    forfeitByZone: Array.from(m.forfeitByZone),
    zhaf: { reportsSent: z.reportsSent, reportsLost: z.reportsLost, replicaCopiesLost: z.replicaCopiesLost, uploadsLost: z.uploadsLost, staleReplicaReads: z.staleReplicaReads },
    missingZoneReads: m.teg.missingZoneReads,
    invariantChecks: m.invariants?.checks ?? 0,
    inFlight: m.inFlight,
    running: m.running,
    suspended: m.suspended,
    simulatedNs: m.engine.now,
    events: m.engine.processed,
  };
}

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
  const rates = workloadRates(config);
  const common = commonResult({
    scheduler: "laminar", config, lambdaPerS: rates.lambda, muPerS: rates.mu, metrics: met, inFlight: parts[0].inFlight, running: sum((p) => p.running),
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
