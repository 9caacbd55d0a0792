// engineDrain (assembly/engine/drain.ts): the gateway side's proxy answers
// and DA ends, applied in the engine to a task table in core memory, equal
// to a twin of src/laminar/task-table.ts's proxy and taskLost over random
// tables and inboxes, in both builds and for any out capacity; bad input is
// refused with nothing changed. (Whole runs on it against the TypeScript
// model: test/laminar/fingerprints.test.ts and zone-engine.test.ts.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { EF, GT, START_HIST } from "../../src/core/engine-layout.js";
import { Status } from "../../src/core/status.js";
import { loadCore } from "../../src/core/wasm.js";
import { REC } from "../../src/laminar/mailbox.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { columnAt } from "../../src/laminar/store.js";
import { CoreStartHist } from "../../src/laminar/start-hist.js";
import { RunMetrics } from "../../src/metrics/run-metrics.js";

const runs = Number(process.env.LAMINAR_PROPERTY_RUNS ?? 40);
const M_DA_END = 1, M_PULL = 3, M_UPLOAD = 6, DA_BYTES = 64, DA_VERDICT = 58;

/** The tasks block of a started engine, for `outCap` out records and start deadline `deadlineNs`. */
const setup = (ze: LaminarModel["zoneEngine"], outCap: number, deadlineNs: number) =>
  ze!.tasksSetup({ outCap, deadlineNs, quietNs: 1.5e8, maxInstances: 5, squatterRatio: 0, squatterAtoms: 1, sweepNs: 1e6 });

/** Byte offsets of the columns the drain reads, in a region of cap tasks at p. */
const columns = (p: number, cap: number) => ({
  arrival: p + columnAt("arrival", cap), live: p + columnAt("live", cap), state: p + columnAt("state", cap),
  timers: p + columnAt("timers", cap), cls: p + columnAt("cls", cap),
});

/** A started model on the engine (its block laid out), in build `flavor`. */
function started(flavor: "simd" | "scalar") {
  const core = loadCore(flavor);
  const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core"]));
  m.start();
  return { core, k: core.exports, ze: m.zoneEngine!, block: m.zoneEngine!.block };
}

interface Task { arrival: number; live: number; state: number; timers: number; cls: number }

/** The tasks' columns the drain reads (columns()), written. */
function fill(core: ReturnType<typeof loadCore>, c: ReturnType<typeof columns>, tasks: Task[]): void {
  const f64 = core.arena.f64, i32 = core.arena.i32, u8 = core.arena.u8;
  tasks.forEach((t, s) => {
    f64[(c.arrival >> 3) + s] = t.arrival;
    i32[(c.live >> 2) + s] = t.live;
    u8[c.state + s] = t.state;
    u8[c.timers + s] = t.timers;
    u8[c.cls + s] = t.cls;
  });
}
interface Msg { kind: number; t: number; b: number; x: number; dt: number }

/** The twin: task-table.ts's proxy and taskLost on `tasks`, from `head` on, with the drain's stops. */
function twin(tasks: Task[], msgs: Msg[], times: number[], head: number, now: number, ocap: number, hop: number, delta: number, deadline: number) {
  const starts: [number, number][] = [], fails: number[] = [], freed: number[] = [], verdicts = new Map<number, number>();
  const answers: number[][] = []; // in order: DA, Zone (the message's c field, h % 5 here), verdict
  let h = head;
  const maybeFree = (t: number) => {
    const T = tasks[t];
    if (T.state !== 0 && T.live === 0 && (T.timers & 3) === 0) freed.push(t);
  };
  while (h < msgs.length && h - head < ocap && times[h] <= now && msgs[h].kind !== M_UPLOAD) {
    const { kind, t, b, x } = msgs[h], T = tasks[t];
    if (kind === M_PULL) {
      const startAt = times[h] + hop - delta + x;
      if (T.state === 0 && startAt < T.arrival + deadline) {
        T.state = 1;
        starts.push([startAt - T.arrival, T.cls]);
        verdicts.set(b, 1);
        answers.push([b, h % 5, 1]);
        T.live--;
        maybeFree(t);
      } else {
        verdicts.set(b, T.state === 1 ? 2 : 3);
        answers.push([b, h % 5, T.state === 1 ? 2 : 3]);
      }
    } else {
      T.live--;
      if (T.state === 0 && T.live === 0 && (T.timers & 4) === 0) {
        T.state = 2;
        fails.push(T.cls === 2 ? 4 : b);
      }
      maybeFree(t);
    }
    h++;
  }
  return { head: h, starts, fails, freed, verdicts, answers };
}

const task = fc.record({
  arrival: fc.double({ min: 0, max: 2e6, noNaN: true }),
  live: fc.integer({ min: 0, max: 3 }),
  state: fc.integer({ min: 0, max: 2 }),
  timers: fc.integer({ min: 0, max: 7 }),
  cls: fc.integer({ min: 0, max: 2 }),
});

describe.each(["simd", "scalar"] as const)("engineDrain (%s)", (flavor) => {
  it("applies the proxy's answers and the DA ends as the task table does, stopping at uploads, `now` and its out capacity; from the engine's inbox or the host's, answering into the DAs or out", () => {
    const { core, k, ze, block } = started(flavor);
    const daCap = ze.geti(EF.DA_CAP), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA);
    const cap = 40, base = core.arena.alloc(cap * GT.TASK_BYTES, 8), c = columns(base, cap);
    const gt = setup(ze, 8, 5e5);
    // the gateway run once's way: the messages in a region of the host's, the answers out (DA, Zone, verdict)
    const hostIn = core.arena.alloc(64 * REC * 8, 16), verdictsAt = core.arena.alloc(8 * GT.VERDICT_BYTES, 16);
    fc.assert(
      fc.property(
        fc.array(task, { minLength: cap, maxLength: cap }),
        fc.array(fc.record({
          kind: fc.constantFrom(M_DA_END, M_PULL, M_PULL, M_UPLOAD),
          t: fc.integer({ min: 0, max: cap - 1 }),
          b: fc.integer({ min: 0, max: 10 }),
          x: fc.double({ min: 0, max: 2e4, noNaN: true }),
          dt: fc.constantFrom(0, 0, 1, 37.5, 1e4),
        }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 0, max: 4e5, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.boolean(),
        (tasks, msgs, ocap, nowOff, deadline, host) => {
          // a pull names a DA: one of the engine's slots
          for (const m of msgs) if (m.kind === M_PULL) m.b = (m.b * 97) % daCap;
          const times: number[] = [];
          let at = 1e5;
          for (const m of msgs) times.push((at += m.dt));
          expect(msgs.length).toBeLessThanOrEqual(ze.geti(EF.OUT_CAP));
          const f64 = core.arena.f64, i32 = core.arena.i32, u8 = core.arena.u8;
          fill(core, c, tasks);
          const inbox = host ? hostIn >> 3 : ze.inboxAt(); // as f64 indexes
          msgs.forEach((m, i) => {
            f64.set([times[i], i % 5, m.kind, -1, m.t, m.b, i % 5, m.x, 0, 0], inbox + i * REC);
          });
          ze.seti(EF.IN_N, host ? 0 : msgs.length);
          const das = ze.geti(EF.DAS);
          const now = 1e5 + nowOff;
          i32[(gt >> 2) + 2 * GT.OUT_CAP] = ocap;
          f64[(gt >> 3) + GT.DEADLINE] = deadline;
          // the host's loop: an upload is its own; the engine applies the rest, ocap at a time
          let h = 0;
          const want = tasks.map((t) => ({ ...t }));
          while (h < msgs.length && times[h] <= now) {
            if (msgs[h].kind === M_UPLOAD) { h++; continue; }
            const w = twin(want, msgs, times, h, now, ocap, hop, delta, deadline);
            const got = host ? ze.drainTasks(base, cap, h, now, hostIn, msgs.length, verdictsAt) : ze.drainTasks(base, cap, h, now);
            expect(got).toBe(w.head - h);
            expect(i32[(gt >> 2) + 2 * GT.HEAD]).toBe(w.head);
            const out = i32[(gt >> 2) + 2 * GT.OUT];
            const starts = i32[(gt >> 2) + 2 * GT.STARTS], fails = i32[(gt >> 2) + 2 * GT.FAILS], freed = i32[(gt >> 2) + 2 * GT.FREED];
            const gotStarts = Array.from({ length: starts }, (_, i) => [f64[(out >> 3) + i], i32[(out >> 2) + 2 * ocap + i]]);
            expect(gotStarts).toEqual(w.starts);
            expect(Array.from(i32.subarray((out >> 2) + 3 * ocap, (out >> 2) + 3 * ocap + fails))).toEqual(w.fails);
            expect(Array.from(i32.subarray((out >> 2) + 4 * ocap, (out >> 2) + 4 * ocap + freed))).toEqual(w.freed);
            if (!host) for (const [d, v] of w.verdicts) expect(u8[das + d * DA_BYTES + DA_VERDICT]).toBe(v);
            else {
              expect(ze.verdictsOut()).toBe(w.answers.length);
              expect(Array.from({ length: w.answers.length }, (_, i) => Array.from(f64.subarray((verdictsAt >> 3) + 3 * i, (verdictsAt >> 3) + 3 * i + 3)))).toEqual(w.answers);
            }
            h = w.head;
          }
          for (let t = 0; t < cap; t++) {
            expect([f64[(c.arrival >> 3) + t], i32[(c.live >> 2) + t], u8[c.state + t], u8[c.timers + t], u8[c.cls + t]])
              .toEqual([want[t].arrival, want[t].live, want[t].state, want[t].timers, want[t].cls]);
          }
          ze.seti(EF.IN_N, 0);
        },
      ),
      { numRuns: runs },
    );
    expect(k.engineTasksBlockBytes()).toBe(GT.BYTES);
    void block;
  });

  it("with the block's HIST, counts each start's latency in its class's histogram (as the host would record it), handing out only those it cannot hold", () => {
    const { core, ze } = started(flavor);
    const cap = 64, base = core.arena.alloc(cap * GT.TASK_BYTES, 8), c = columns(base, cap);
    const gt = setup(ze, 16, 1e13), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA);
    const hist = new CoreStartHist(core.arena);
    core.arena.i32[(gt >> 2) + 2 * GT.HIST] = hist.at;
    fc.assert(
      fc.property(
        fc.array(fc.record({ arrival: fc.integer({ min: 0, max: 1e9 }), cls: fc.integer({ min: 0, max: 2 }) }), { minLength: cap, maxLength: cap }),
        // a pull's compute time: mostly whole nanoseconds over a wide range, sometimes not (the drain hands those out)
        fc.array(fc.record({ t: fc.integer({ min: 0, max: cap - 1 }), x: fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 300 }), fc.double({ min: 0, max: 1e6, noNaN: true })) }), { maxLength: 48 }),
        (tasks, pulls) => {
          // whatever an earlier (failed) case left there
          hist.take();
          hist.foldInto(new RunMetrics(1e12));
          const f64 = core.arena.f64, i32 = core.arena.i32, u8 = core.arena.u8;
          for (let t = 0; t < cap; t++) {
            f64[(c.arrival >> 3) + t] = tasks[t].arrival;
            i32[(c.live >> 2) + t] = 2;
            u8[c.state + t] = 0;
            u8[c.timers + t] = 0;
            u8[c.cls + t] = tasks[t].cls;
          }
          const inbox = ze.inboxAt(), at = 2e9;
          pulls.forEach((m, i) => f64.set([at, 0, M_PULL, -1, m.t, i, 0, m.x, 0, 0], inbox + i * REC));
          ze.seti(EF.IN_N, pulls.length);
          // the twin: a task's first pull starts it; the metrics record its latency
          const want = new RunMetrics(1e12), seen = new Set<number>(), odd: number[][] = [];
          for (const m of pulls) {
            if (seen.has(m.t)) continue;
            seen.add(m.t);
            const v = at + hop - delta + m.x - tasks[m.t].arrival;
            if (Number.isInteger(v)) want.onStart(v, tasks[m.t].cls);
            else odd.push([v, tasks[m.t].cls]);
          }
          const got = new RunMetrics(1e12);
          got.foldStarts(() => hist.foldInto(got));
          let h = 0, out: number[][] = [], counted = 0;
          while (h < pulls.length) {
            h += ze.drainTasks(base, cap, h, at);
            const o = core.arena.i32[(gt >> 2) + 2 * GT.OUT], n = core.arena.i32[(gt >> 2) + 2 * GT.STARTS];
            for (let i = 0; i < n; i++) out.push([core.arena.f64[(o >> 3) + i], core.arena.i32[(o >> 2) + 2 * 16 + i]]);
            counted += hist.take();
          }
          expect(out).toEqual(odd);
          expect(counted).toBe(seen.size - odd.length);
          expect(got.toJSON().histograms).toEqual(want.toJSON().histograms);
          // taken: the region is empty again
          expect(hist.take()).toBe(0);
          expect(core.arena.f64.subarray(hist.at >> 3, (hist.at + START_HIST.BYTES) >> 3).every((v) => v === 0)).toBe(true);
          ze.seti(EF.IN_N, 0);
        },
      ),
      { numRuns: runs },
    );
  });

  it("with the block's GEN, frees each slot to free where the generations lie (a live one's odd generation bumped), as the host's SlotStore would", () => {
    const { core, ze } = started(flavor);
    const cap = 32, base = core.arena.alloc(cap * GT.TASK_BYTES, 8), c = columns(base, cap), gens = core.arena.alloc(cap * 4, 8);
    const gt = setup(ze, 64, 5e5), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA);
    const hostIn = core.arena.alloc(64 * REC * 8, 16), verdictsAt = core.arena.alloc(64 * GT.VERDICT_BYTES, 16);
    fc.assert(
      fc.property(
        fc.array(task, { minLength: cap, maxLength: cap }),
        fc.array(fc.integer({ min: 0, max: (1 << 21) - 1 }), { minLength: cap, maxLength: cap }),
        fc.array(fc.record({ kind: fc.constantFrom(M_DA_END, M_PULL), t: fc.integer({ min: 0, max: cap - 1 }), b: fc.integer({ min: 0, max: 10 }), x: fc.integer({ min: 0, max: 2e4 }) }), { maxLength: 60 }),
        (tasks, gen0, msgs) => {
          const f64 = core.arena.f64, i32 = core.arena.i32;
          fill(core, c, tasks);
          i32.set(gen0, gens >> 2);
          const at = 1e5, times = msgs.map(() => at);
          msgs.forEach((m, i) => f64.set([at, i % 5, m.kind, -1, m.t, m.b, i % 5, m.x, 0, 0], (hostIn >> 3) + i * REC));
          // the twin: the slots to free, each freed if live (SlotStore.release after isLive)
          const w = twin(tasks.map((t) => ({ ...t })), msgs.map((m) => ({ ...m, dt: 0 })), times, 0, at, msgs.length, hop, delta, 5e5);
          const want = [...gen0];
          let freed = 0;
          for (const t of w.freed) if (want[t] & 1) { want[t] = (want[t] + 1) & ((1 << 21) - 1); freed++; }
          let h = 0, got = 0;
          while (h < msgs.length) {
            h += ze.drainTasks(base, cap, h, at, hostIn, msgs.length, verdictsAt, gens);
            got += core.arena.i32[(gt >> 2) + 2 * GT.FREED];
          }
          expect(got).toBe(freed);
          expect(Array.from(core.arena.i32.subarray(gens >> 2, (gens >> 2) + cap))).toEqual(want);
        },
      ),
      { numRuns: runs },
    );
  });

  it("keeps a histogram's sum exact past 2^62 (it carries into the units of 2^32)", () => {
    const { core, ze } = started(flavor);
    const cap = 64, base = core.arena.alloc(cap * GT.TASK_BYTES, 8), c = columns(base, cap);
    const gt = setup(ze, 64, 2 ** 54), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA);
    const hist = new CoreStartHist(core.arena);
    core.arena.i32[(gt >> 2) + 2 * GT.HIST] = hist.at;
    const want = new RunMetrics(1), got = new RunMetrics(1), at = 1e6;
    got.foldStarts(() => hist.foldInto(got));
    // 12 rounds of 64 starts near 2^53 ns each: their sum passes 2^62 before the host takes it
    for (let round = 0; round < 12; round++) {
      const f64 = core.arena.f64, i32 = core.arena.i32, u8 = core.arena.u8;
      for (let t = 0; t < cap; t++) {
        f64[(c.arrival >> 3) + t] = 0;
        i32[(c.live >> 2) + t] = 2;
        u8[c.state + t] = 0;
        u8[c.cls + t] = t % 3;
        const x = 2 ** 53 - at - hop + delta - 1000 * round - t;
        f64.set([at, 0, M_PULL, -1, t, t, 0, x, 0, 0], ze.inboxAt() + t * REC);
        want.onStart(at + hop - delta + x, t % 3);
      }
      ze.seti(EF.IN_N, cap);
      expect(ze.drainTasks(base, cap, 0, at)).toBe(cap);
      expect(core.arena.i32[(gt >> 2) + 2 * GT.STARTS]).toBe(0);
      expect(hist.take()).toBe(cap);
    }
    expect(got.toJSON().histograms).toEqual(want.toJSON().histograms);
    expect(typeof got.toJSON().histograms.startedF.sum).toBe("string"); // past 2^53: exact, as a decimal string
    ze.seti(EF.IN_N, 0);
  });

  it("refuses bad input, changing nothing", () => {
    const { core, k, ze, block } = started(flavor);
    const cap = 8, cols = core.arena.alloc(cap * GT.TASK_BYTES, 8), gt = setup(ze, 4, 5e5), c = columns(cols, cap);
    const f64 = () => core.arena.f64, i32 = () => core.arena.i32;
    const inbox = ze.inboxAt();
    // a pull of task 3 by DA 2, a DA end of task 5, both at 1,000
    f64().set([1000, 0, M_PULL, -1, 3, 2, 0, 0, 0, 0, 1000, 0, M_DA_END, -1, 5, 0, 0, 0, 0, 0], inbox);
    ze.seti(EF.IN_N, 2);
    for (let t = 0; t < cap; t++) i32()[(c.live >> 2) + t] = 1;
    const snapshot = () => Array.from(core.arena.u8.subarray(cols, cols + cap * GT.TASK_BYTES)).join() + "|" + i32()[(gt >> 2) + 2 * GT.HEAD];
    const call = (now = 2000) => ze.drainTasks(cols, cap, 0, now);
    const refused = (code: number, spoil: () => void, mend: () => void) => {
      const before = snapshot();
      spoil();
      expect(() => call()).toThrow(new RegExp(`status ${code}\\b`));
      mend();
      expect(snapshot()).toBe(before);
    };
    const set = (i: number, v: number) => { f64()[inbox + i] = v; };
    refused(Status.E_ID, () => set(4, cap), () => set(4, 3)); // a task outside the columns
    refused(Status.E_ID, () => set(4, 1.5), () => set(4, 3)); // not a slot
    refused(Status.E_ID, () => set(5, ze.geti(EF.DA_CAP)), () => set(5, 2)); // a DA outside its table
    refused(Status.E_ID, () => set(REC + 5, 11), () => set(REC + 5, 0)); // a cause that does not exist
    const g = (f: number) => (gt >> 2) + 2 * f;
    refused(Status.E_ARG, () => { i32()[g(GT.OUT_CAP)] = 0; }, () => { i32()[g(GT.OUT_CAP)] = 4; });
    refused(Status.E_ARG, () => { f64()[(gt >> 3) + GT.DEADLINE] = NaN; }, () => { f64()[(gt >> 3) + GT.DEADLINE] = 5e5; });
    // the out region over the columns
    const out = i32()[g(GT.OUT)];
    refused(Status.E_ARG, () => { i32()[g(GT.OUT)] = cols; }, () => { i32()[g(GT.OUT)] = out; });
    // past memory
    refused(Status.E_BOUNDS, () => { i32()[g(GT.OUT)] = core.arena.u8.length - 8; }, () => { i32()[g(GT.OUT)] = out; });
    expect(() => ze.drainTasks(cols, 0, 0, 2000)).toThrow(/status -11\b/);
    expect(() => ze.drainTasks(cols, cap, 3, 2000)).toThrow(/status -11\b/); // past the inbox's end
    expect(() => call(NaN)).toThrow(/status -11\b/);
    expect(k.engineDrain(block + 8, gt, 2000)).toBe(Status.E_ARG); // not a laid-out block
    // the host's messages and the answers out (the gateway run once): the answers over the columns, the messages past memory
    const answers = core.arena.alloc(4 * GT.VERDICT_BYTES, 16), before = snapshot();
    expect(() => ze.drainTasks(cols, cap, 0, 2000, inbox * 8, 2, cols)).toThrow(/status -11\b/);
    expect(() => ze.drainTasks(cols, cap, 0, 2000, core.arena.u8.length - 8, 2, answers)).toThrow(new RegExp(`status ${Status.E_BOUNDS}\\b`));
    expect(() => ze.drainTasks(cols, cap, 0, 2000, inbox * 8, -1, answers)).toThrow(/status -11\b/);
    expect(snapshot()).toBe(before);
    // then the call goes through: task 3 starts, task 5's last DA ends
    expect(call()).toBe(2);
    expect(i32()[g(GT.STARTS)]).toBe(1);
    expect(i32()[g(GT.FAILS)]).toBe(1);
    expect(core.arena.u8[c.state + 3]).toBe(1);
    expect(core.arena.u8[c.state + 5]).toBe(2);
  });
});
