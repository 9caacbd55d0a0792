// engineSweep (assembly/engine/sweep.ts): a timer ring's sweep event on the
// task table in core memory, equal to a twin of src/sim/timer-sweep.ts's
// sweep handing each timer to src/laminar/task-table.ts's timerDue, over
// random rings and tables, in both builds; bad input is refused with
// nothing changed. (Whole runs on it against the TypeScript model:
// test/laminar/fingerprints.test.ts.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { EF, GT } from "../../src/core/engine-layout.js";
import { Status } from "../../src/core/status.js";
import { loadCore } from "../../src/core/wasm.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { columnAt } from "../../src/laminar/store.js";

const runs = Number(process.env.LAMINAR_PROPERTY_RUNS ?? 40);
const K_REGEN_SWEEP = 9, K_DEADLINE_SWEEP = 10, K_REGEN = 11, K_DEADLINE = 12;

/** A started model on the engine in build `flavor`, its tasks block laid out. */
function started(flavor: "simd" | "scalar") {
  const core = loadCore(flavor);
  const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core"]));
  m.start();
  const ze = m.zoneEngine!;
  const gt = ze.tasksSetup({ outCap: 8, deadlineNs: 5e5, quietNs: 1.5e8, maxInstances: 5, squatterRatio: 0, squatterAtoms: 1, sweepNs: 1e6 });
  return { core, k: core.exports, ze, gt };
}

interface Timer { time: number; subject: number; tag: number }

/** The twin: TimerSweep.sweep at `now` with timerDue, on copies of the ring and the timers column. */
function twin(ring: { sweepAt: number; head: number; recs: Timer[]; cap: number }, now: number, period: number, which: number, gens: number[], state: number[], timers: number[]) {
  const posts: number[][] = [], t = [...timers];
  if (ring.sweepAt !== now) return { ret: 0, head: ring.head, size: ring.recs.length, sweepAt: ring.sweepAt, timers: t, posts };
  const limit = now + period, bit = which === 0 ? 1 : 2;
  let due = 0;
  while (due < ring.recs.length && ring.recs[due].time < limit) due++;
  for (const r of ring.recs.slice(0, due)) {
    if (gens[r.subject] !== r.tag) continue;
    if (state[r.subject] === 0) {
      t[r.subject] |= bit;
      posts.push([now + Math.max(0, r.time - now), which === 0 ? K_DEADLINE : K_REGEN, r.subject]);
    } else if (which === 1) t[r.subject] &= ~4;
  }
  const left = ring.recs.slice(due);
  let sweepAt = Infinity;
  if (left.length > 0) {
    sweepAt = Math.max(limit, left[0].time - period + 1);
    posts.push([now + (sweepAt - now), which === 0 ? K_DEADLINE_SWEEP : K_REGEN_SWEEP, 0]);
  }
  return { ret: due, head: (ring.head + due) % ring.cap, size: left.length, sweepAt, timers: t, posts };
}

describe.each(["simd", "scalar"] as const)("engineSweep (%s)", (flavor) => {
  it("sweeps a ring as TimerSweep.sweep with the task table's timerDue: stale timers dropped, a pending task's posted exact, a resolved task's check disarmed", () => {
    const { core, k, ze, gt } = started(flavor);
    const cap = 24, RCAP = 64, period = 1e6;
    const base = core.arena.alloc(cap * GT.TASK_BYTES, 8), gens = core.arena.alloc(cap * 4, 8);
    const data = core.arena.alloc(16 * RCAP, 8), posts = core.arena.alloc((RCAP + 1) * GT.POST_BYTES, 8);
    const state = base + columnAt("state", cap), timersAt = base + columnAt("timers", cap);
    fc.assert(
      fc.property(
        fc.array(fc.record({ state: fc.integer({ min: 0, max: 2 }), timers: fc.integer({ min: 0, max: 7 }), gen: fc.integer({ min: 0, max: 9 }) }), { minLength: cap, maxLength: cap }),
        fc.array(fc.record({ gap: fc.constantFrom(0, 1, 1000, 3e5, 9e5), subject: fc.integer({ min: 0, max: cap - 1 }), stale: fc.boolean() }), { maxLength: 40 }),
        fc.integer({ min: 0, max: RCAP - 1 }),
        fc.constantFrom(0, 1),
        fc.boolean(),
        fc.integer({ min: 0, max: 2e6 }),
        (tasks, timers, head, which, superseded, first) => {
          const now = 5e6;
          const recs: Timer[] = [];
          let at = now - 1e6 + first;
          for (const r of timers) recs.push({ time: (at += r.gap), subject: r.subject, tag: r.stale ? tasks[r.subject].gen + 1 : tasks[r.subject].gen });
          const sweepAt = superseded ? now + 7 : now;
          const f64 = core.arena.f64, i32 = core.arena.i32, u8 = core.arena.u8;
          tasks.forEach((t, s) => { u8[state + s] = t.state; u8[timersAt + s] = t.timers; i32[(gens >> 2) + s] = t.gen; });
          recs.forEach((r, i) => {
            const j = (head + i) % RCAP;
            f64[(data >> 3) + j] = r.time;
            i32[((data + 8 * RCAP) >> 2) + j] = r.subject;
            i32[((data + 12 * RCAP) >> 2) + j] = r.tag;
          });
          const g = gt >> 2, ringAt = i32[g + 2 * (which === 0 ? GT.RING_DEADLINE : GT.RING_REGEN)];
          f64[ringAt >> 3] = sweepAt;
          i32[(ringAt >> 2) + 2] = head;
          i32[(ringAt >> 2) + 3] = recs.length;
          i32[(ringAt >> 2) + 4] = RCAP;
          i32[(ringAt >> 2) + 5] = data;
          i32[g + 2 * GT.BASE] = base;
          i32[g + 2 * GT.CAP] = cap;
          i32[g + 2 * GT.GEN] = gens;
          i32[g + 2 * GT.POSTS] = posts;
          f64[(gt >> 3) + GT.SWEEP] = period;
          ze.setf(EF.NOW, now);
          const want = twin({ sweepAt, head, recs, cap: RCAP }, now, period, which, tasks.map((t) => t.gen), tasks.map((t) => t.state), tasks.map((t) => t.timers));
          expect(k.engineSweep(ze.block, gt, which)).toBe(want.ret);
          const v64 = core.arena.f64, v32 = core.arena.i32, v8 = core.arena.u8;
          expect([v64[ringAt >> 3], v32[(ringAt >> 2) + 2], v32[(ringAt >> 2) + 3]]).toEqual([want.sweepAt, want.head, want.size]);
          expect(Array.from(v8.subarray(timersAt, timersAt + cap))).toEqual(want.timers);
          const n = v32[g + 2 * GT.POSTS_N];
          expect(Array.from({ length: n }, (_, i) => Array.from(v64.subarray((posts >> 3) + 3 * i, (posts >> 3) + 3 * i + 3)))).toEqual(want.posts);
        },
      ),
      { numRuns: runs },
    );
  });

  it("refuses bad input, changing nothing", () => {
    const { core, k, ze, gt } = started(flavor);
    const cap = 8, base = core.arena.alloc(cap * GT.TASK_BYTES, 8), gens = core.arena.alloc(cap * 4, 8), data = core.arena.alloc(16 * 16, 8);
    const g = gt >> 2, i32 = () => core.arena.i32, f64 = () => core.arena.f64;
    const ringAt = i32()[g + 2 * GT.RING_DEADLINE];
    // two timers due for slots 1 and 2, the clock at the ring's sweep time
    f64().set([10, 20], data >> 3);
    i32().set([1, 2], (data + 8 * 16) >> 2);
    f64()[ringAt >> 3] = 5;
    i32().set([0, 2, 16, data], (ringAt >> 2) + 2);
    i32()[g + 2 * GT.BASE] = base;
    i32()[g + 2 * GT.CAP] = cap;
    i32()[g + 2 * GT.GEN] = gens;
    i32()[g + 2 * GT.POSTS] = 0;
    f64()[(gt >> 3) + GT.SWEEP] = 1e6;
    ze.setf(EF.NOW, 5);
    const snapshot = () => Array.from(core.arena.u8.subarray(ringAt, ringAt + 32)).join() + "|" + Array.from(core.arena.u8.subarray(base, base + cap * GT.TASK_BYTES)).join();
    const refused = (code: number, spoil: () => void, mend: () => void, which = 0) => {
      const before = snapshot();
      spoil();
      expect(k.engineSweep(ze.block, gt, which)).toBe(code);
      mend();
      expect(snapshot()).toBe(before);
    };
    refused(Status.E_ARG, () => {}, () => {}, 2);
    refused(Status.E_ARG, () => { i32()[g + 2 * GT.GEN] = 0; }, () => { i32()[g + 2 * GT.GEN] = gens; });
    refused(Status.E_ARG, () => { i32()[g + 2 * GT.CAP] = 0; }, () => { i32()[g + 2 * GT.CAP] = cap; });
    refused(Status.E_ARG, () => { f64()[(gt >> 3) + GT.SWEEP] = 0; }, () => { f64()[(gt >> 3) + GT.SWEEP] = 1e6; });
    refused(Status.E_ARG, () => { i32()[(ringAt >> 2) + 4] = 12; }, () => { i32()[(ringAt >> 2) + 4] = 16; }); // not a power of two
    refused(Status.E_ID, () => { i32()[((data + 8 * 16) >> 2) + 1] = cap; }, () => { i32()[((data + 8 * 16) >> 2) + 1] = 2; });
    refused(Status.E_BOUNDS, () => { i32()[g + 2 * GT.GEN] = core.arena.u8.length - 8; }, () => { i32()[g + 2 * GT.GEN] = gens; });
    expect(k.engineSweep(ze.block + 8, gt, 0)).toBe(Status.E_ARG); // not a laid-out block
    // then it goes through: both timers were armed for slots that were never handed out (generation 0, tag 0), tasks pending
    expect(k.engineSweep(ze.block, gt, 0)).toBe(2);
    expect(core.arena.u8[base + columnAt("timers", cap) + 1]).toBe(1);
  });
});
