// One thread of a threaded run with the gateway side once (threads.ts,
// docs/parallel.md "The gateway once"): every thread runs a partition of the
// Zones that replays the gateway's log behind its own run (log-replay.ts);
// thread 0 also runs the gateway side itself.
//
// Time goes in half windows (H = deltaNs / 2; half k is [kH, (k+1)H)). A
// message is delivered two halves after it is sent. Without the memory
// model, the only messages a Zone partition takes in are its own pull
// requests (the proxy's answers come in the gateway's log), so the Zone
// partitions never wait for each other: they are a pipeline around the
// gateway. Zone partition p replays the gateway's log of half k - 2, runs
// half k, then publishes what it sent in half k; the gateway runs half j
// once every Zone partition has published half j - 2 (what is delivered in
// half j). Each may lead the other by two halves, so four sets of the log
// are in flight. Thread 0 runs the gateway's halves as soon as they may run
// and its Zones' halves in between, so the gateway's bursts (a batch each
// millisecond) overlap the Zones' work instead of stalling it. A Zone
// partition takes its pull requests in at the usual (full) window ends, so
// every event is scheduled at the same point as in the one-thread run: the
// result is the same, field for field.
import { performance } from "node:perf_hooks";
import { loadCore } from "../core/wasm.js";
import { TIMELINE_PERIODS, type HalfPhases, type HalfTimes, type ThreadTiming } from "./options.js";
import { runSlices, type SlicedModel } from "./slices.js";
import { REC, mergeRuns } from "../laminar/mailbox.js";
import { LaminarModel } from "../laminar/model.js";
import { reportOf } from "../laminar/result.js";
import { GatewayLog, LogReader } from "../laminar/gateway-log.js";
import { ThreadSync } from "./thread-sync.js";
import { BOX_BYTES, BOX_RECORDS, LOG_SETS, PIPE_GATEWAY, PIPE_ZONES, logLayout, type ParallelTask, type PartitionResult } from "./threads.js";

/**
 * The gateway side's share of a run's work: thread 0 runs it besides its
 * Zones, so it gets that much less of the Zones ((1 / W - g) / (1 - g) of the
 * nodes; none from eight threads up). Measured at 32,000 nodes (rho 0.8, the
 * paper's network, 0.3 s simulated, one thread, the gateway once): about a
 * fifth to a quarter of the time; on two threads, with the Zones replaying
 * the log behind, 0.22 beat 0.27 and 0.17 (docs/parallel.md). With the
 * gateway's hot path in the engine (2026-11-28, later) it is about 15% of
 * the one-thread time, but 0.17 ran even with 0.22 (5 pairs, 0.997). Over
 * longer runs the Zones' work a task grows as the cluster fills and the
 * gateway's does not: on two threads at 2 s the gateway was 13% of the
 * threads' work, at 30 s 12%, and with 0.22 the Zone thread had a quarter
 * more work than thread 0. Replaying every half's measured times through
 * the schedule (docs/parallel.md, "Where the threads wait") put the best
 * share near 0.14 at both 0.3 s and 2 s.
 */
export const GATEWAY_SHARE = 0.14;

/** The share of the nodes for partition 0 of W, whose thread also runs the gateway (whose share of the work is `g`). */
export function firstShare(W: number, g = GATEWAY_SHARE): number {
  return Math.max(0, (1 / W - g) / (1 - g));
}

export function runOncePartition(task: ParallelTask): PartitionResult {
  const { config, index, count } = task;
  const t0 = performance.now();
  let gatewayMs = 0;
  const pipe = new Int32Array(task.pipe!);
  // each Zone partition's messages of a half, in four sets by turns (the gateway reads a half's two halves later)
  const counts = [0, 1, 2, 3].map((k) => Array.from({ length: count }, (_, w) => new Int32Array(task.boxes, (k * count + w) * BOX_BYTES, 1)));
  const regions = [0, 1, 2, 3].map((k) => Array.from({ length: count }, (_, w) => new Float64Array(task.boxes, (k * count + w) * BOX_BYTES + 8, BOX_RECORDS * REC)));
  // four sets of the gateway's log: from the half the slowest Zone partition replays to the one the gateway writes
  const lay = logLayout(config);
  const logSets = Array.from({ length: LOG_SETS }, (_, k) => ({
    head: new Float64Array(task.log!, k * lay.bytes, 2),
    ops: new Float64Array(task.log!, k * lay.bytes + 16, lay.ops),
    verdicts: new Float64Array(task.log!, k * lay.bytes + 16 + lay.ops * 8, lay.verdicts),
  }));

  const zones = new LaminarModel(loadCore("auto"), config, { index, count, role: "zones", firstShare: firstShare(count) });
  const shared = new GatewayLog();
  zones.logReader = new LogReader(shared);
  let gw: LaminarModel | null = null;
  const glog = new GatewayLog();
  if (index === 0) {
    gw = new LaminarModel(loadCore("auto"), config, { index: 0, count, role: "gateway" });
    gw.recordGateway(glog);
  }
  const H = zones.deltaNs / 2, L = zones.deltaNs;
  const phases = halfPhases(zones.batchNs / H);
  // the halves kept whole for the timeline: TIMELINE_PERIODS batch periods from the middle of the arrivals
  const spanFrom = phases.period * Math.floor(Math.floor(zones.endArrivalsNs / H) / (2 * phases.period || 1));
  const spanTo = spanFrom + TIMELINE_PERIODS * phases.period;
  const origin = performance.timeOrigin;
  // every half's start and end when asked (bench:sim --replay): a slot per half of the run's whole length
  const halves: HalfTimes | null = task.keepHalves === true ? keptHalves(Math.ceil(Math.round((config.sim.durationS + config.sim.drainS) * 1e9) / H) + 2, gw !== null) : null;
  /** When the last half this thread ran ended (the time since: waiting, before the next). */
  let lastEnd = -1;
  /** A half of `kind` (0 the gateway's, 1 the Zones') ran from a to b: its phase's time, the wait before it, and in the timeline's periods the half itself. */
  const timed = (kind: number, k: number, a: number, b: number): void => {
    const P = phases.period;
    if (k >= spanFrom && k < spanTo) phases.spans.push(kind, k, origin + a, origin + b);
    if (halves !== null) {
      const t = kind === 0 ? halves.gateway! : halves.zones;
      if (2 * k + 1 < t.length) {
        t[2 * k] = origin + a;
        t[2 * k + 1] = origin + b;
      }
    }
    if (P > 0 && k >= P) {
      const i = k % P;
      (kind === 0 ? phases.gatewayMs : phases.zonesMs)[i] += b - a;
      if (lastEnd >= 0) (kind === 0 ? phases.gatewayWaitMs : phases.zonesWaitMs)[i] += a - lastEnd;
    }
    lastEnd = b;
  };
  /** Next half to run: the Zones', the gateway's (thread 0). */
  let zNext = 0, gNext = 0, unacked = 0;
  const sync = new ThreadSync(task, zones.z0, zones.z1, zones.z1 > zones.z0 ? `Zones ${zones.z0}-${zones.z1 - 1}` : "no Zones");
  /** The fewest halves any Zone partition has published. */
  const zonesDone = (): number => {
    let m = Infinity;
    for (let w = 0; w < count; w++) m = Math.min(m, Atomics.load(pipe, PIPE_ZONES + w));
    return m;
  };
  /** Wait a little for pipe word `i` to move from `v` (a failed partition elsewhere ends this one). */
  const pause = (i: number, v: number): void => {
    sync.checkError();
    const w0 = performance.now();
    Atomics.wait(pipe, i, v, 5);
    sync.waitMs += performance.now() - w0;
  };

  /** Thread 0: the gateway's half j, once every Zone partition has sent what is delivered in it. */
  const gatewayHalf = (j: number): void => {
    const g0 = performance.now();
    if (j >= 2) {
      const k = (j - 2) % 4;
      const n = counts[k].map((c) => c[0]);
      if (!gw!.acceptRuns(regions[k], n)) mergeRuns(regions[k], n, (f, at) => gw!.accept(f, at));
    }
    gw!.runTo((j + 1) * H);
    const s = logSets[j % LOG_SETS];
    if (glog.n > lay.ops || glog.nv > lay.verdicts) {
      throw new Error(`the gateway's log of ${H / 1e3} us holds ${glog.n} words and ${glog.nv / 3} answers, more than the ${lay.ops} and ${lay.verdicts / 3} its shared region holds`);
    }
    s.ops.set(glog.ops.subarray(0, glog.n));
    s.verdicts.set(glog.verdicts.subarray(0, glog.nv));
    s.head[0] = glog.n;
    s.head[1] = glog.nv;
    glog.n = 0;
    glog.nv = 0;
    Atomics.store(pipe, PIPE_GATEWAY, j + 1);
    Atomics.notify(pipe, PIPE_GATEWAY);
    const g1 = performance.now();
    gatewayMs += g1 - g0;
    timed(0, j, g0, g1);
  };

  /** The Zones' half k (the gateway's log of half k - 2 published): replay that log, run, publish what they sent. */
  const zonesHalf = (k: number): void => {
    const z0 = performance.now();
    if (k === 0) zones.start();
    if (k >= 2) {
      const s = logSets[(k - 2) % LOG_SETS];
      shared.ops = s.ops;
      shared.n = s.head[0];
      shared.verdicts = s.verdicts;
      shared.nv = s.head[1];
      zones.replayLog((k - 1) * H);
    }
    zones.runTo((k + 1) * H);
    const simNow = (k + 1) * H;
    sync.simNow = simNow;
    const box = zones.outbox, r = k % 4;
    box.sort();
    if (box.n > BOX_RECORDS) throw new Error(`${box.n} messages in half a window, more than the ${BOX_RECORDS} a partition's shared mailbox holds`);
    regions[r][index].set(box.buf.subarray(0, box.n * REC));
    counts[r][index][0] = box.n;
    unacked += box.n;
    box.clear();
    Atomics.store(pipe, PIPE_ZONES + index, k + 1);
    Atomics.notify(pipe, PIPE_ZONES + index);
    if (simNow % L === 0) {
      // a window's end: this partition's own pull requests, in order (those of other Zones are no concern of its)
      for (const h of [(k + 3) % 4, r]) zones.acceptOwn(regions[h][index], counts[h][index][0]);
      zones.msgsPending -= unacked;
      unacked = 0;
    }
    sync.injectFault();
    timed(1, k, z0, performance.now());
  };

  const partition: SlicedModel = {
    endArrivalsNs: zones.endArrivalsNs,
    runUntil: (until) => {
      const end = until / H; // on the grid (threadsTakeGatewayOnce)
      while (zNext < end || (gw !== null && gNext < end)) {
        if (gw !== null && gNext < end && zonesDone() >= gNext - 1) gatewayHalf(gNext++);
        else if (zNext < end && Atomics.load(pipe, PIPE_GATEWAY) >= zNext - 1) zonesHalf(zNext++);
        else if (gw !== null && gNext < end) pause(PIPE_ZONES + slowest(), gNext - 2);
        else pause(PIPE_GATEWAY, zNext - 2);
      }
    },
    quiescent: () => sync.quiescent(zones.zonesIdle() && zones.pendingMessages === 0, gw !== null ? gw.gatewayIdle() && gw.pendingMessages === 0 : null),
  };
  /** The Zone partition furthest behind. */
  const slowest = (): number => {
    let s = 0;
    for (let w = 1; w < count; w++) if (Atomics.load(pipe, PIPE_ZONES + w) < Atomics.load(pipe, PIPE_ZONES + s)) s = w;
    return s;
  };

  try {
    const t1 = performance.now();
    // the gateway's first posts open its log of half 0, which every Zone partition's start replays
    gw?.start();
    runSlices(partition, config.sim.drainS, { onProgress: sync.onProgress });
    gw?.finish();
    zones.finish();
    const t2 = performance.now();
    const timing: ThreadTiming = { index, zones: [zones.z0, zones.z1 - 1], setupS: (t1 - t0) / 1000, busyS: (t2 - t1 - sync.waitMs) / 1000, waitS: sync.waitMs / 1000, gatewayS: gatewayMs / 1000, phases, nodes: zones.cluster.offsets[zones.z1] - zones.cluster.offsets[zones.z0], halves: halves ?? undefined };
    return { ...reportOf(zones), coreBuild: zones.core.flavor, timing, gateway: gw !== null ? reportOf(gw) : undefined };
  } catch (e) {
    throw sync.failure(e);
  }
}

/** Room for `n` halves' times, NaN until run: the Zones', and the gateway's where this thread runs it. */
function keptHalves(n: number, gateway: boolean): HalfTimes {
  return { zones: new Float64Array(2 * n).fill(NaN), gateway: gateway ? new Float64Array(2 * n).fill(NaN) : null };
}

/** Empty phase sums for a batch period of `halves` half windows (period 0 unless a whole number from 1 to 64). */
export function halfPhases(halves: number): HalfPhases {
  const P = Number.isInteger(halves) && halves >= 1 && halves <= 64 ? halves : 0;
  const zero = (): number[] => new Array<number>(P).fill(0);
  return { period: P, gatewayMs: zero(), zonesMs: zero(), gatewayWaitMs: zero(), zonesWaitMs: zero(), spans: [] };
}
