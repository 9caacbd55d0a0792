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
import { mergeRuns } from "./mailbox.js";
import { LaminarModel } from "./model.js";
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

/** Exchange one window's messages between partitions: canonical order, every partition sees all. */
export function exchange(models: LaminarModel[]): void {
  for (const m of models) m.outbox.sort();
  mergeRuns(models.map((m) => m.outbox.buf), models.map((m) => m.outbox.n), (f, at) => {
    for (const m of models) m.accept(f, at);
  });
  for (const m of models) m.outboxDelivered();
}

/** Synchronisation window (ns) of a run: the message delay, half a network hop. */
export function windowNs(c: Config): number {
  return Math.max(1, Math.floor(Math.round(c.network.hopMs * 1e6) / 2));
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
    if (this.L !== windowNs(config)) throw new Error("partitioned: window and message delay disagree");
  }

  start(): void {
    for (const m of this.models) m.start();
  }

  runUntil(until: number): void {
    const L = this.L;
    while (this.now < until) {
      const gridEnd = (Math.floor(this.now / L) + 1) * L;
      const stop = Math.min(until, gridEnd);
      for (const m of this.models) m.runTo(stop);
      this.now = stop;
      if (stop === gridEnd) exchange(this.models);
    }
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
