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
import { GatewayLog, LogReader } from "../laminar/gateway-log.js";
import { usesEngine } from "../laminar/zone-engine.js";
import { timingsOf } from "../laminar/timings.js";
import { NS_PER_MS } from "../sim/time.js";
import { performance } from "node:perf_hooks";

/**
 * Whether the gateway side can run once for all partitions (docs/parallel.md,
 * "The gateway once"): the Zones on the core's engine, which takes each DA
 * whole in its emission, without the memory model (Airlock's task states
 * and reactivations travel between the gateway and the Zones by other
 * ways), without the invariant checker (which reads both sides at once),
 * and with series samples no closer than a message delay.
 */
export function gatewayOnceOk(c: Config): boolean {
  // a Zone partition replays the gateway's log a message delay behind its own run: the next series sample, which the
  // gateway posts a sampling period ahead, must still lie ahead of it (docs/parallel.md)
  const seriesNs = Math.max(1, Math.round(c.sim.seriesIntervalMs * NS_PER_MS));
  return usesEngine(c) && !c.memory.enabled && !c.sim.checkInvariants && seriesNs >= timingsOf(c).deltaNs;
}

/** Wall milliseconds by part of a gateway-once run on this thread (PartitionSet.timing; bench:sim --split). */
export interface SplitTiming {
  /** The gateway side's windows (models[0]). */
  gateway: number;
  /** The Zone partitions' windows. */
  zones: number;
  /** Their replay of the gateway's log. */
  replay: number;
  /** The window ends' exchange of messages. */
  exchange: number;
}

export class PartitionSet implements SlicedModel {
  readonly models: LaminarModel[];
  readonly endArrivalsNs: number;
  private readonly L: number;
  private now = 0;
  /** With the gateway once: its log, and each Zone partition's place in it. */
  private readonly log: GatewayLog | null = null;
  private readonly zones: LaminarModel[] = [];
  /** With the gateway once: where the wall time goes, when given (a few clock reads per window). */
  timing: SplitTiming | null = null;

  /**
   * `cores.length` partitions of the Zones, each with a replica of the
   * gateway side; with `gatewayOnce` (gatewayOnceOk(config)), one more core
   * (the first) runs the gateway side alone, and the others replay its log.
   */
  constructor(config: Config, cores: Core[], gatewayOnce = false) {
    if (!gatewayOnce) {
      const P = cores.length;
      this.models = cores.map((core, index) => new LaminarModel(core, config, { index, count: P }));
    } else {
      const P = cores.length - 1;
      if (P < 1) throw new RangeError("gateway once: a core for the gateway and one for each Zone partition");
      if (!gatewayOnceOk(config)) throw new RangeError("gateway once: needs the core's Zone engine, without the memory model and the invariant checker");
      const log = new GatewayLog();
      const gateway = new LaminarModel(cores[0], config, { index: 0, count: P, role: "gateway" });
      gateway.recordGateway(log);
      this.zones = cores.slice(1).map((core, index) => {
        const m = new LaminarModel(core, config, { index, count: P, role: "zones" });
        m.logReader = new LogReader(log);
        return m;
      });
      this.models = [gateway, ...this.zones];
      this.log = log;
    }
    this.endArrivalsNs = this.models[0].endArrivalsNs;
    this.L = this.models[0].deltaNs;
  }

  start(): void {
    for (const m of this.models) m.start();
  }

  runUntil(until: number): void {
    if (this.timing !== null && this.log !== null) return this.runTimed(until, this.timing);
    this.now = runWindows(this.now, until, this.L, (t) => {
      // the gateway's run (models[0]) goes first; the Zone partitions replay its window's log after running the window
      for (const m of this.models) m.runTo(t);
      for (const m of this.zones) m.replayLog(t);
      this.log?.endWindow();
    }, () => exchange(this.models));
  }

  /** runUntil with the gateway once, timing each part. */
  private runTimed(until: number, timing: SplitTiming): void {
    const gateway = this.models[0];
    this.now = runWindows(this.now, until, this.L, (t) => {
      let a = performance.now();
      gateway.runTo(t);
      let b = performance.now();
      timing.gateway += b - a;
      for (const m of this.zones) m.runTo(t);
      a = performance.now();
      timing.zones += a - b;
      for (const m of this.zones) m.replayLog(t);
      this.log!.endWindow();
      b = performance.now();
      timing.replay += b - a;
    }, () => {
      const a = performance.now();
      exchange(this.models);
      timing.exchange += performance.now() - a;
    });
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
