// One Zone partition of a threaded run (threads.ts): the partition's whole
// loop, windows and exchanges through shared memory, as one piscina task.
import { performance } from "node:perf_hooks";
import { loadCore } from "../core/wasm.js";
import type { ThreadTiming } from "./options.js";
import { runSlices, type SlicedModel } from "./slices.js";
import { REC, mergeRuns, runWindows } from "../laminar/mailbox.js";
import { LaminarModel } from "../laminar/model.js";
import { reportOf } from "../laminar/result.js";
import { InvariantError } from "../laminar/invariants.js";
import { runOncePartition } from "./thread-once.js";
import { BOX_RECORDS, C_COUNT, C_ERROR, C_GEN, C_PARTS, C_PROGRESS_MS, INVARIANT_TAG, P_IDLE, P_MS, P_WORDS, P_Z0, P_Z1, type ParallelTask, type PartitionResult } from "./threads.js";

const BOX_BYTES = 8 + BOX_RECORDS * REC * 8;

class PartitionFailed extends Error {}

/** What a partition's thread returns: its report, the core build it ran on, and where its time went. */

export default function runPartition(task: ParallelTask): PartitionResult {
  if (task.log !== undefined) return runOncePartition(task);
  const { config, index, count } = task;
  const t0 = performance.now();
  let waitMs = 0;
  const ctl = new Int32Array(task.control);
  // two sets of regions, used by turns: a window's set is written again only two windows later (see exchange)
  const counts = [0, 1].map((k) => Array.from({ length: count }, (_, w) => new Int32Array(task.boxes, (k * count + w) * BOX_BYTES, 1)));
  const regions = [0, 1].map((k) => Array.from({ length: count }, (_, w) => new Float64Array(task.boxes, (k * count + w) * BOX_BYTES + 8, BOX_RECORDS * REC)));
  let turn = 0;
  const core = loadCore("auto");
  const m = new LaminarModel(core, config, { index, count });
  let simNow = 0;
  const zones = `Zones ${m.z0}-${m.z1 - 1}`;
  const me = C_PARTS + P_WORDS * index;
  Atomics.store(ctl, me + P_Z0, m.z0);
  Atomics.store(ctl, me + P_Z1, m.z1);

  /** Everybody waits here; a failed partition elsewhere ends this one too. */
  const barrier = (): void => {
    const w0 = performance.now();
    try {
      wait();
    } finally {
      waitMs += performance.now() - w0;
    }
  };
  const wait = (): void => {
    const gen = Atomics.load(ctl, C_GEN);
    if (Atomics.load(ctl, C_ERROR) !== 0) throw new PartitionFailed(`partition ${index} (${zones}) stopped at ${simNow / 1e6} ms: another partition failed`);
    if (Atomics.add(ctl, C_COUNT, 1) === count - 1) {
      Atomics.store(ctl, C_COUNT, 0);
      Atomics.add(ctl, C_GEN, 1);
      Atomics.notify(ctl, C_GEN);
      return;
    }
    for (let spin = 0; Atomics.load(ctl, C_GEN) === gen; spin++) {
      if (spin > 2000) Atomics.wait(ctl, C_GEN, gen, 50);
    }
    if (Atomics.load(ctl, C_ERROR) !== 0) throw new PartitionFailed(`partition ${index} (${zones}) stopped at ${simNow / 1e6} ms: another partition failed`);
  };

  // One barrier a window: a partition writes this window's set of regions, waits for all, and reads them all.
  // It writes that set again two windows later, after the next window's barrier, which every partition
  // reaches only once it has read this window's set: so nobody reads a region while it is rewritten.
  const exchange = (): void => {
    const box = m.outbox, rs = regions[turn], cs = counts[turn];
    turn ^= 1;
    box.sort();
    if (box.n > BOX_RECORDS) throw new Error(`${box.n} messages in one window, more than the ${BOX_RECORDS} a partition's shared mailbox holds`);
    rs[index].set(box.buf.subarray(0, box.n * REC));
    cs[index][0] = box.n;
    barrier();
    mergeRuns(rs, cs.map((c) => c[0]), (f, at) => m.accept(f, at));
    m.outboxDelivered();
  };

  const runTo = (t: number): void => {
    m.runTo(t);
    simNow = t;
    if (task.fault?.index === index && simNow >= task.fault.ns) {
      Atomics.store(ctl, me + P_MS, Math.floor(simNow / 1e6));
      if (task.fault.exit === true) process.exit(1);
      throw task.fault.invariant === true ? new InvariantError("injected violation") : new Error("injected fault");
    }
  };

  // the one-thread run's slices and stopping rule (runSlices), the idle test decided on the same shared flags by everybody
  const partition: SlicedModel = {
    endArrivalsNs: m.endArrivalsNs,
    runUntil: (until) => runWindows(simNow, until, m.deltaNs, runTo, exchange),
    quiescent: () => {
      Atomics.store(ctl, me + P_IDLE, m.zonesIdle() && m.pendingMessages === 0 ? 1 : 0);
      if (index === 0) Atomics.store(ctl, C_PARTS + P_WORDS * count, m.gatewayIdle() ? 1 : 0);
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
    m.start();
    runSlices(partition, config.sim.drainS, { onProgress });
    m.finish();
    m.invariants?.end();
    const t2 = performance.now();
    const timing: ThreadTiming = { index, zones: [m.z0, m.z1 - 1], setupS: (t1 - t0) / 1000, busyS: (t2 - t1 - waitMs) / 1000, waitS: waitMs / 1000 };
    return { ...reportOf(m), coreBuild: core.flavor, timing };
  } catch (e) {
    if (e instanceof PartitionFailed) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    // the error's class does not survive the thread boundary: its name travels in the message
    const kind = e instanceof InvariantError ? INVARIANT_TAG : "";
    throw new Error(`partition ${index} (${zones}) failed at simulated ${simNow / 1e6} ms: ${kind}${msg}`);
  }
}
