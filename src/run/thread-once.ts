// One thread of a threaded run with the gateway side once (threads.ts,
// docs/parallel.md "The gateway once"): every thread runs a partition of the
// Zones that replays the gateway's log; thread 0 also runs the gateway side
// itself, half a window ahead of the Zones.
//
// Windows are half of the usual (H = deltaNs / 2): a message sent in half h
// is delivered in half h + 2, so the gateway's half h + 1 needs only what
// was sent up to half h - 1, which every thread has shared at the end of
// half h - 1. Thread 0 runs the gateway's half h + 1 while all threads run
// their Zones' half h, and publishes its log for the next half. A Zone
// partition takes the messages in at the usual (full) window ends, so every
// event is scheduled at the same point as in the one-thread run: the result
// is the same, field for field.
import { performance } from "node:perf_hooks";
import { loadCore } from "../core/wasm.js";
import type { ThreadTiming } from "./options.js";
import { runSlices, type SlicedModel } from "./slices.js";
import { REC, mergeRuns } from "../laminar/mailbox.js";
import { LaminarModel } from "../laminar/model.js";
import { reportOf } from "../laminar/result.js";
import { GatewayLog, LogReader } from "../laminar/gateway-log.js";
import { InvariantError } from "../laminar/invariants.js";
import { BOX_RECORDS, C_COUNT, C_ERROR, C_GEN, C_PARTS, C_PROGRESS_MS, INVARIANT_TAG, P_IDLE, P_MS, P_WORDS, P_Z0, P_Z1, logLayout, type ParallelTask, type PartitionResult } from "./threads.js";

const BOX_BYTES = 8 + BOX_RECORDS * REC * 8;

class PartitionFailed extends Error {}

/**
 * The gateway side's share of a run's work: thread 0 runs it besides its
 * Zones, so it gets that much less of the Zones ((1 / W - g) / (1 - g) of the
 * nodes; none from five threads up). Measured at 32,000 nodes (rho 0.8, the
 * paper's network, two threads): the gateway took 2.4 s of thread time
 * against 8.3 s for all the Zones.
 */
export const GATEWAY_SHARE = 0.22;

/** The share of the nodes for partition 0 of W, whose thread also runs the gateway. */
export function firstShare(W: number): number {
  return Math.max(0, (1 / W - GATEWAY_SHARE) / (1 - GATEWAY_SHARE));
}

export function runOncePartition(task: ParallelTask): PartitionResult {
  const { config, index, count } = task;
  const t0 = performance.now();
  let waitMs = 0, gatewayMs = 0;
  const ctl = new Int32Array(task.control);
  // four sets of regions, by turns of half windows: a Zone partition reads a first half's set only at the full window's end
  const counts = [0, 1, 2, 3].map((k) => Array.from({ length: count }, (_, w) => new Int32Array(task.boxes, (k * count + w) * BOX_BYTES, 1)));
  const regions = [0, 1, 2, 3].map((k) => Array.from({ length: count }, (_, w) => new Float64Array(task.boxes, (k * count + w) * BOX_BYTES + 8, BOX_RECORDS * REC)));
  // two sets of the gateway's log: the half being replayed and the next
  const lay = logLayout(config);
  const logSets = [0, 1].map((k) => ({
    head: new Float64Array(task.log!, k * lay.bytes, 2),
    ops: new Float64Array(task.log!, k * lay.bytes + 16, lay.ops),
    verdicts: new Float64Array(task.log!, k * lay.bytes + 16 + lay.ops * 8, lay.verdicts),
  }));

  const zones = new LaminarModel(loadCore("auto"), config, { index, count, role: "zones", firstShare: firstShare(count) });
  const shared = new GatewayLog();
  const reader = new LogReader(shared);
  zones.logReader = reader;
  let gw: LaminarModel | null = null;
  const glog = new GatewayLog();
  if (index === 0) {
    gw = new LaminarModel(loadCore("auto"), config, { index: 0, count, role: "gateway" });
    gw.gatewayLog = glog;
    gw.engine.onPost = (t, k, s) => glog.post(t, k, s);
  }
  const H = zones.deltaNs / 2, L = zones.deltaNs;
  let simNow = 0, gNow = 0, piece = 0, unacked = 0;
  const name = `Zones ${zones.z0}-${zones.z1 - 1}`;
  const me = C_PARTS + P_WORDS * index;
  Atomics.store(ctl, me + P_Z0, zones.z0);
  Atomics.store(ctl, me + P_Z1, zones.z1);

  const stopped = (): PartitionFailed => new PartitionFailed(`partition ${index} (${name}) stopped at ${simNow / 1e6} ms: another partition failed`);
  const barrier = (): void => {
    const w0 = performance.now();
    const gen = Atomics.load(ctl, C_GEN);
    if (Atomics.load(ctl, C_ERROR) !== 0) throw stopped();
    if (Atomics.add(ctl, C_COUNT, 1) === count - 1) {
      Atomics.store(ctl, C_COUNT, 0);
      Atomics.add(ctl, C_GEN, 1);
      Atomics.notify(ctl, C_GEN);
    } else {
      for (let spin = 0; Atomics.load(ctl, C_GEN) === gen; spin++) {
        if (spin > 2000) Atomics.wait(ctl, C_GEN, gen, 50);
      }
    }
    waitMs += performance.now() - w0;
    if (Atomics.load(ctl, C_ERROR) !== 0) throw stopped();
  };

  /** Thread 0: the gateway runs to `t`; its log of that stretch goes to set `k`. */
  const gatewayTo = (t: number, k: number): void => {
    const g0 = performance.now();
    gw!.runTo(t);
    gNow = t;
    const s = logSets[k];
    if (glog.n > lay.ops || glog.nv > lay.verdicts) {
      throw new Error(`the gateway's log of ${H / 1e3} us holds ${glog.n} words and ${glog.nv / 3} answers, more than the ${lay.ops} and ${lay.verdicts / 3} its shared region holds`);
    }
    s.ops.set(glog.ops.subarray(0, glog.n));
    s.verdicts.set(glog.verdicts.subarray(0, glog.nv));
    s.head[0] = glog.n;
    s.head[1] = glog.nv;
    glog.n = 0;
    glog.nv = 0;
    gatewayMs += performance.now() - g0;
  };

  /** The Zones replay set `k` of the log. */
  const attach = (k: number): void => {
    const s = logSets[k];
    shared.ops = s.ops;
    shared.n = s.head[0];
    shared.verdicts = s.verdicts;
    shared.nv = s.head[1];
    reader.pos = 0;
    reader.vpos = 0;
  };
  const consumed = (): void => {
    if (!zones.replayedAll()) throw new Error(`gateway log: ${name} left records unread (${shared.n - reader.pos} words from ${reader.pos})`);
  };

  /** A half window's end: every thread's messages of the half are shared; the gateway takes them in now, the Zones at a full window's end. */
  const exchange = (grid: number): void => {
    const h = Math.round(grid / H), box = zones.outbox, rs = regions[h % 4], cs = counts[h % 4];
    box.sort();
    if (box.n > BOX_RECORDS) throw new Error(`${box.n} messages in half a window, more than the ${BOX_RECORDS} a partition's shared mailbox holds`);
    rs[index].set(box.buf.subarray(0, box.n * REC));
    cs[index][0] = box.n;
    unacked += box.n;
    box.clear();
    barrier();
    if (gw !== null) mergeRuns(rs, cs.map((c) => c[0]), (f, at) => gw!.accept(f, at));
    if (grid % L === 0) {
      for (const k of [(h + 3) % 4, h % 4]) mergeRuns(regions[k], counts[k].map((c) => c[0]), (f, at) => zones.accept(f, at));
      zones.msgsPending -= unacked;
      unacked = 0;
    }
  };

  const check = (): void => {
    if (task.fault?.index === index && simNow >= task.fault.ns) {
      Atomics.store(ctl, me + P_MS, Math.floor(simNow / 1e6));
      if (task.fault.exit === true) process.exit(1);
      throw task.fault.invariant === true ? new InvariantError("injected violation") : new Error("injected fault");
    }
  };

  const partition: SlicedModel = {
    endArrivalsNs: zones.endArrivalsNs,
    runUntil: (until) => {
      // the pieces: half windows on the grid k * H, the last cut at `until`
      const ends: number[] = [];
      for (let t = simNow; t < until;) {
        t = Math.min(until, (Math.floor(t / H) + 1) * H);
        ends.push(t);
      }
      // the gateway's first piece, shared before anybody replays it
      if (gw !== null) gatewayTo(ends[0], piece % 2);
      barrier();
      for (let j = 0; j < ends.length; j++) {
        // thread 0: the gateway's next piece, while the Zones run this one
        if (gw !== null && j + 1 < ends.length) gatewayTo(ends[j + 1], (piece + 1) % 2);
        attach(piece % 2);
        zones.runTo(ends[j]);
        consumed();
        simNow = ends[j];
        piece++;
        check();
        if (ends[j] % H === 0) exchange(ends[j]);
      }
    },
    quiescent: () => {
      Atomics.store(ctl, me + P_IDLE, zones.zonesIdle() && zones.pendingMessages === 0 ? 1 : 0);
      if (gw !== null) Atomics.store(ctl, C_PARTS + P_WORDS * count, gw.gatewayIdle() && gw.pendingMessages === 0 ? 1 : 0);
      barrier();
      let idle = Atomics.load(ctl, C_PARTS + P_WORDS * count) === 1;
      for (let w = 0; w < count; w++) idle &&= Atomics.load(ctl, C_PARTS + P_WORDS * w + P_IDLE) === 1;
      barrier();
      return idle;
    },
  };
  const onProgress = (now: number): void => {
    Atomics.store(ctl, me + P_MS, Math.floor(now / 1e6));
    if (index === 0) Atomics.store(ctl, C_PROGRESS_MS, Math.floor(now / 1e6));
  };

  try {
    const t1 = performance.now();
    // the gateway's first posts (its run starts first), then every Zone partition's start replays them
    if (gw !== null) {
      gw.start();
      gatewayTo(0, 0);
    }
    barrier();
    attach(0);
    zones.start();
    consumed();
    barrier();
    runSlices(partition, config.sim.drainS, { onProgress });
    gw?.finish();
    zones.finish();
    const t2 = performance.now();
    const timing: ThreadTiming = { index, zones: [zones.z0, zones.z1 - 1], setupS: (t1 - t0) / 1000, busyS: (t2 - t1 - waitMs) / 1000, waitS: waitMs / 1000, gatewayS: gatewayMs / 1000 };
    return { ...reportOf(zones), coreBuild: zones.core.flavor, timing, gateway: gw !== null ? reportOf(gw) : undefined };
  } catch (e) {
    if (e instanceof PartitionFailed) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    // the error's class does not survive the thread boundary: its name travels in the message
    const kind = e instanceof InvariantError ? INVARIANT_TAG : "";
    throw new Error(`partition ${index} (${name}) failed at simulated ${simNow / 1e6} ms: ${kind}${msg}`);
  }
}
