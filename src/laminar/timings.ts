// The model's durations in integer nanoseconds (and memory lines in KiB),
// derived from the configuration once, in one place: every file that needs
// one takes it from here, so two mechanisms never round the same parameter
// two ways. Bottom of src/laminar: imports no other file of it.
import type { Config } from "../config/params.js";
import { NS_PER_MS } from "../sim/time.js";
import { kib } from "./memory.js";

export interface Timings {
  /** One network hop (network.hopMs). */
  readonly hopNs: number;
  /** Message delay between the gateway side and Zones (half a hop, at least 1): the partitions' synchronisation window. */
  readonly deltaNs: number;
  /** Arbitration window (arbiter.windowMs, at least 1). */
  readonly windowNs: number;
  /** Gateway micro-batch period (teg.batchMs, at least 1). */
  readonly batchNs: number;
  /** A DA's lifetime without a start (da.silenceTtlMs). */
  readonly silenceNs: number;
  /** A task's start deadline (task.deadlineMs). */
  readonly deadlineNs: number;
  /** A node's report interval (zhaf.reportIntervalMs), and the shortest gap its jitter may leave (a tenth of it, at least 1). */
  readonly reportNs: number;
  readonly minReportGapNs: number;
  /** Zone snapshot period (zhaf.broadcastMs, at least 1). */
  readonly broadcastNs: number;
  /** Age past which a Zone's snapshot (at a replica or in the gateway's table) counts as missing: degradeFactor broadcasts and a hop. */
  readonly staleNs: number;
  /** Reservation TTL (reservation.ttlMs). */
  readonly ttlNs: number;
  /** End of the arrival window (sim.durationS). */
  readonly endArrivalsNs: number;
  /** Regeneration's quiet interval (regeneration.quietMs, at least 1). */
  readonly quietNs: number;
  /** Runtime tick (memory.tickMs, at least 1). */
  readonly tickNs: number;
  /** Airlock's T_susp, T_surv (at least 1) and state-pull time. */
  readonly suspendNs: number;
  readonly survivalNs: number;
  readonly statePullNs: number;
  /** A node's memory capacity, and Airlock's high and safe watermarks, KiB. */
  readonly capKiB: number;
  readonly highKiB: number;
  readonly safeKiB: number;
}

export function timingsOf(c: Config): Timings {
  const ms = (x: number) => Math.round(x * NS_PER_MS);
  const hopNs = ms(c.network.hopMs), reportNs = ms(c.zhaf.reportIntervalMs), capKiB = kib(c.memory.nodeCapacityGiB);
  return {
    hopNs,
    deltaNs: Math.max(1, Math.floor(hopNs / 2)),
    windowNs: Math.max(1, ms(c.arbiter.windowMs)),
    batchNs: Math.max(1, ms(c.teg.batchMs)),
    silenceNs: ms(c.da.silenceTtlMs),
    deadlineNs: ms(c.task.deadlineMs),
    reportNs,
    minReportGapNs: Math.max(1, Math.round(reportNs * 0.1)),
    broadcastNs: Math.max(1, ms(c.zhaf.broadcastMs)),
    staleNs: c.zhaf.degradeFactor * c.zhaf.broadcastMs * NS_PER_MS + hopNs,
    ttlNs: ms(c.reservation.ttlMs),
    endArrivalsNs: Math.round(c.sim.durationS * 1e9),
    quietNs: Math.max(1, ms(c.regeneration.quietMs)),
    tickNs: Math.max(1, ms(c.memory.tickMs)),
    suspendNs: ms(c.airlock.suspendMs),
    survivalNs: Math.max(1, ms(c.airlock.survivalMs)),
    statePullNs: ms(c.airlock.statePullMs),
    capKiB,
    highKiB: Math.floor(c.airlock.highWatermark * capKiB),
    safeKiB: Math.floor(c.airlock.safeWatermark * capKiB),
  };
}
