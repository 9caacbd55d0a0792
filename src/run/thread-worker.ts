// One Zone partition of a threaded run (threads.ts): the partition's whole
// loop, windows and exchanges through shared memory, as one piscina task.
// With the gateway side once (thread-once.ts), that file's loop instead.
import { performance } from "node:perf_hooks";
import { loadCore } from "../core/wasm.js";
import type { ThreadTiming } from "./options.js";
import { runSlices, type SlicedModel } from "./slices.js";
import { REC, mergeRuns, runWindows } from "../laminar/mailbox.js";
import { LaminarModel } from "../laminar/model.js";
import { reportOf } from "../laminar/result.js";
import { runOncePartition } from "./thread-once.js";
import { ThreadSync } from "./thread-sync.js";
import { BOX_BYTES, BOX_RECORDS, type ParallelTask, type PartitionResult } from "./threads.js";

/** What a partition's thread returns: its report, the core build it ran on, and where its time went. */

export default function runPartition(task: ParallelTask): PartitionResult {
  if (task.log !== undefined) return runOncePartition(task);
  const { config, index, count } = task;
  const t0 = performance.now();
  // two sets of regions, used by turns: a window's set is written again only two windows later (see exchange)
  const counts = [0, 1].map((k) => Array.from({ length: count }, (_, w) => new Int32Array(task.boxes, (k * count + w) * BOX_BYTES, 1)));
  const regions = [0, 1].map((k) => Array.from({ length: count }, (_, w) => new Float64Array(task.boxes, (k * count + w) * BOX_BYTES + 8, BOX_RECORDS * REC)));
  let turn = 0;
  const core = loadCore("auto");
  const m = new LaminarModel(core, config, { index, count });
  const sync = new ThreadSync(task, m.z0, m.z1, `Zones ${m.z0}-${m.z1 - 1}`);

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
    sync.barrier();
    mergeRuns(rs, cs.map((c) => c[0]), (f, at) => m.accept(f, at));
    m.outboxDelivered();
  };

  const runTo = (t: number): void => {
    m.runTo(t);
    sync.simNow = t;
    sync.injectFault();
  };

  // the one-thread run's slices and stopping rule (runSlices), the idle test decided on the same shared flags by everybody
  const partition: SlicedModel = {
    endArrivalsNs: m.endArrivalsNs,
    runUntil: (until) => runWindows(sync.simNow, until, m.deltaNs, runTo, exchange),
    quiescent: () => sync.quiescent(m.zonesIdle() && m.pendingMessages === 0, index === 0 ? m.gatewayIdle() : null),
  };

  try {
    const t1 = performance.now();
    m.start();
    runSlices(partition, config.sim.drainS, { onProgress: sync.onProgress });
    m.finish();
    m.invariants?.end();
    const t2 = performance.now();
    const timing: ThreadTiming = { index, zones: [m.z0, m.z1 - 1], setupS: (t1 - t0) / 1000, busyS: (t2 - t1 - sync.waitMs) / 1000, waitS: sync.waitMs / 1000 };
    return { ...reportOf(m), coreBuild: core.flavor, timing };
  } catch (e) {
    throw sync.failure(e);
  }
}
