// One Laminar run split into Zone partitions that advance in lockstep
// windows (docs/parallel.md). Each partition is a LaminarModel on its own
// core instance that simulates a contiguous range of Zones and a replica of
// the gateway side; they meet only at window ends, where the messages each
// sent during the window are put in canonical order and handed to all.
//
// PartitionSet runs its partitions one after another on the calling thread:
// the reference for the threaded runner (threads.ts), and what tests use to
// show that the result does not depend on the number of partitions.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { SlicedModel } from "./slices.js";
import { runWindows } from "../laminar/mailbox.js";
import { exchange, LaminarModel } from "../laminar/model.js";
import { reportOf, type PartReport } from "../laminar/result.js";

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
