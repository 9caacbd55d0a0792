// One Laminar run split into Zone partitions that advance in lockstep
// windows (docs/parallel.md). Each partition is a LaminarModel on its own
// core instance that simulates a contiguous range of Zones and a replica of
// the gateway side; they meet only at window ends, where the messages each
// sent during the window are put in canonical order and handed to all.
//
// PartitionSet runs its partitions one after another on the calling thread:
// the reference for the threaded runner (parallel.ts), and what tests use to
// show that the result does not depend on the number of partitions.
import type { Config } from "../model/params.js";
import type { Core } from "../core/wasm.js";
import type { SlicedModel } from "../model/run-options.js";
import { runWindows } from "./mailbox.js";
import { exchange, LaminarModel } from "./model.js";
import type { RunMetricsJSON } from "../metrics/run-metrics.js";

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

export class PartitionSet implements SlicedModel {
  readonly models: LaminarModel[];
  readonly endArrivalsNs: number;
  private readonly L: number;
  private now = 0;

  constructor(config: Config, cores: Core[]) {
    const P = cores.length;
    this.models = cores.map((core, index) => new LaminarModel(core, config, { index, count: P }));
    this.endArrivalsNs = this.models[0].endArrivalsNs;
    this.L = this.models[0].deltaNs;
  }

  start(): void {
    for (const m of this.models) m.start();
  }

  runUntil(until: number): void {
    this.now = runWindows(this.now, until, this.L, (t) => {
      for (const m of this.models) m.runTo(t);
    }, () => exchange(this.models));
  }

  quiescent(): boolean {
    return this.models[0].gatewayIdle() && this.models.every((m) => m.zonesIdle() && m.pendingMessages === 0);
  }

  finish(): void {
    for (const m of this.models) m.finish();
  }

  reports(): PartReport[] {
    return this.models.map(reportOf);
  }
}
