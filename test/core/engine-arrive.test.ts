// engineArrive (assembly/engine/arrive.ts): the arrivals materialised by the
// engine on the task table are what the TypeScript path makes of them
// (src/laminar/ingress.ts arrive and emit, task-table.ts newTask and exact,
// src/sim/timer-sweep.ts push): the same columns, staged emissions, timer
// rings, posts, counts and squatter draws, over runs of arrivals with
// squatters, regeneration on and off, and deadlines short enough for exact
// timers; bad input is refused with nothing changed. (Whole runs on it
// against the TypeScript model: test/laminar/fingerprints.test.ts.)
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { EF, GT } from "../../src/core/engine-layout.js";
import { Status } from "../../src/core/status.js";
import { loadCore } from "../../src/core/wasm.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { COLUMNS } from "../../src/laminar/store.js";
import { GatewayLog } from "../../src/laminar/gateway-log.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the test reads the models' private state */

/** A started model on the engine; with `ts`, its arrivals go the TypeScript way. */
function model(sets: string[], ts: boolean) {
  const m = new LaminarModel(loadCore("auto"), applySets(defaultConfig(), ["cluster.nodes=600", "sim.durationS=0.2", "sim.engine=core", ...sets]));
  m.start();
  if (ts) (m.ingress as any).coreArrivals = null;
  return m;
}

/** What the arrivals change, read from a model. */
function state(m: LaminarModel) {
  const T = m.tasks, ze = m.zoneEngine as any, n = T.slots.live;
  ze.flushPosts();
  const ring = (r: any) => r === null ? null : { size: r.size, head: r.head, at: r.sweepAt, recs: Array.from({ length: r.size }, (_, i) => {
    const j = (r.head + i) & (r.cap - 1);
    return [r.time[j], r.subject[j], r.tag[j]];
  }) };
  const cols: Record<string, number[]> = {};
  for (const [name] of COLUMNS) cols[name] = Array.from((T as any)[name].subarray(0, n) as ArrayLike<number>);
  const emits = Array.from(ze.core.arena.u8.subarray(ze.emitAt, ze.emitAt + ze.emitN * 64) as Uint8Array);
  const met = m.gatewayMetrics as any;
  return {
    cols, emits, deadlines: ring(m.deadlines), regens: ring(m.regens), heap: ze.geti(EF.HEAP_SIZE), seq: ze.getf(EF.SEQ),
    counts: [met.arrived, met.arrivedF, met.arrivedL, met.squatters, m.inFlight, (m.taskTable as any).nextKey, (m.ingress as any).tegCount],
    squat: m.rSquat.nextU32(),
    // the slots taken (by the engine where their generations lie, or by the store)
    slots: T.slots.cyclicState(), gens: Array.from({ length: T.slots.capacity }, (_, t) => T.slots.generation(t)),
  };
}

describe("engineArrive", () => {
  const cases: [string, string[]][] = [
    ["the default workload", []],
    ["squatters, no regeneration", ["workload.squatterRatio=0.3", "regeneration.enabled=false"]],
    ["deadlines and checks too short for the rings (exact events)", ["task.deadlineMs=0.7", "regeneration.quietMs=0.4", "workload.squatterRatio=0.1"]],
    ["one instance at most, a heavy load", ["regeneration.maxInstances=1", "workload.rho=2"]],
  ];
  for (const [what, sets] of cases) {
    it(`makes of the arrivals what the TypeScript path does: ${what}`, () => {
      const a = model(sets, false), b = model(sets, true);
      // limits that take a few arrivals, then whole batches (the core's batches are 512)
      for (const limit of [0, 2e4, 5e4, 1e5, 1.3e6, 4e6, 9e6, 2.5e7]) {
        a.ingress.flushArrivals(limit);
        b.ingress.flushArrivals(limit);
      }
      const sa = state(a), sb = state(b);
      expect(sa.counts[0]).toBeGreaterThan(1000);
      expect(sa).toEqual(sb);
    });
  }

  it("records its posts, for the gateway run once, as the gateway's log records the TypeScript path's", () => {
    const sets = ["task.deadlineMs=0.7", "regeneration.quietMs=0.4", "workload.squatterRatio=0.1"];
    const gateway = (ts: boolean) => {
      const m = new LaminarModel(loadCore("auto"), applySets(defaultConfig(), ["cluster.nodes=600", "sim.durationS=0.2", "sim.engine=core", ...sets]),
        { index: 0, count: 2, role: "gateway" });
      const log = new GatewayLog();
      m.recordGateway(log);
      m.start();
      if (ts) (m.ingress as any).coreArrivals = null;
      return { m, log };
    };
    const a = gateway(false), b = gateway(true);
    expect((a.m.ingress as any).coreArrivals).not.toBeNull();
    for (const limit of [0, 2e4, 5e4, 1e5, 1.3e6, 4e6]) {
      a.m.ingress.flushArrivals(limit);
      b.m.ingress.flushArrivals(limit);
    }
    const posts = (log: GatewayLog) => Array.from(log.ops.subarray(0, log.n));
    expect(posts(a.log).length).toBeGreaterThan(40); // exact timers, and the rings' sweeps
    expect(posts(a.log)).toEqual(posts(b.log));
    expect(state(a.m)).toEqual(state(b.m));
  });

  it("refuses bad input, changing nothing", () => {
    const m = model(["workload.squatterRatio=0.2"], false), ze = m.zoneEngine as any, core = ze.core, k = core.exports;
    const gt = ze.gt, T = m.tasks, n = 3;
    // three arrivals of the core's batch, slots 0..2 with their generations
    const src = (m.arrivals as any).at(), ids = core.arena.alloc(8 * n, 8);
    for (let i = 0; i < n; i++) { core.arena.i32[(ids >> 2) + 2 * i] = T.alloc(); core.arena.i32[(ids >> 2) + 2 * i + 1] = 1; }
    ze.arrive(T.columnsAt, T.capacity, src, 0, ids, 0, m.rSquat, m.deadlines, m.regens); // lays out the block's pointers
    const snap = () => Array.from(core.arena.u8.subarray(T.columnsAt, T.columnsAt + T.capacity * GT.TASK_BYTES)).join() + ze.geti(EF.HEAP_SIZE);
    const before = snap();
    const call = () => k.engineArrive(ze.block, gt, src, n, ids);
    const f64 = () => core.arena.f64, i32 = () => core.arena.i32;
    const spoil = (code: number, set: () => void, undo: () => void) => { set(); expect(call()).toBe(code); undo(); expect(snap()).toBe(before); };
    spoil(Status.E_ID, () => { i32()[(ids >> 2) + 2] = T.capacity; }, () => { i32()[(ids >> 2) + 2] = 1; });
    const rec = (i: number, f: number) => (src >> 3) + 5 * i + f, keep = f64()[rec(1, 3)], keepT = f64()[rec(2, 0)];
    spoil(Status.E_K, () => { f64()[rec(1, 3)] = 0; }, () => { f64()[rec(1, 3)] = keep; });
    spoil(Status.E_K, () => { f64()[rec(1, 3)] = 1.5; }, () => { f64()[rec(1, 3)] = keep; });
    spoil(Status.E_ARG, () => { f64()[rec(2, 0)] = NaN; }, () => { f64()[rec(2, 0)] = keepT; });
    spoil(Status.E_ARG, () => { f64()[rec(2, 1)] = 2; }, () => { f64()[rec(2, 1)] = f64()[rec(1, 1)]; });
    const g = (f: number) => (gt >> 2) + 2 * f, cap = i32()[g(GT.EMIT_CAP)];
    spoil(Status.E_ARG, () => { i32()[g(GT.EMIT_N)] = cap - 2; }, () => { i32()[g(GT.EMIT_N)] = 0; }); // no room for three emissions
    const ring = i32()[g(GT.RING_DEADLINE)], rcap = i32()[(ring >> 2) + 4];
    spoil(Status.E_ARG, () => { i32()[(ring >> 2) + 3] = rcap - 1; }, () => { i32()[(ring >> 2) + 3] = 0; }); // a ring without room
    spoil(Status.E_ARG, () => { i32()[(ring >> 2) + 4] = 3; }, () => { i32()[(ring >> 2) + 4] = rcap; }); // not a power of two
    spoil(Status.E_ARG, () => { f64()[(gt >> 3) + GT.SWEEP] = 0; }, () => { f64()[(gt >> 3) + GT.SWEEP] = 1e6; });
    const rng = i32()[g(GT.RNG)] >> 2, words = Array.from(i32().subarray(rng, rng + 4));
    spoil(Status.E_ARG, () => { i32().fill(0, rng, rng + 4); }, () => { i32().set(words, rng); }); // xoshiro's fixed point
    expect(k.engineArrive(ze.block, gt, src, -1, ids)).toBe(Status.E_COUNT);
    expect(k.engineArrive(ze.block + 8, gt, src, n, ids)).toBe(Status.E_ARG);
    // the queue without room: E_FULL, room asked for, nothing done
    const heap = ze.geti(EF.HEAP_SIZE), heapCap = ze.geti(EF.HEAP_CAP);
    spoil(Status.E_FULL, () => ze.seti(EF.HEAP_CAP, heap + 2 * n + 1), () => ze.seti(EF.HEAP_CAP, heapCap));
    expect(ze.geti(EF.ROOM_NEED)).toBe(heap + 2 * n + 2);
    // the slots taken by the engine (ids 0): without the generations, or where the store would grow, refused
    const own = () => k.engineArrive(ze.block, gt, src, n, 0);
    const st = T.slots.cyclicState();
    i32()[g(GT.GEN)] = T.genAt;
    i32()[g(GT.SLOT_CURSOR)] = st.cursor;
    i32()[g(GT.SLOT_FRESH)] = st.fresh;
    i32()[g(GT.SLOT_LIVE)] = st.live;
    const refusedOwn = (set: () => void, undo: () => void) => { set(); expect(own()).toBe(Status.E_ARG); undo(); expect(snap()).toBe(before); };
    refusedOwn(() => { i32()[g(GT.GEN)] = 0; }, () => { i32()[g(GT.GEN)] = T.genAt; });
    refusedOwn(() => { i32()[g(GT.SLOT_LIVE)] = T.capacity / 2 - n + 1; i32()[g(GT.SLOT_FRESH)] = T.capacity; }, () => { i32()[g(GT.SLOT_LIVE)] = st.live; i32()[g(GT.SLOT_FRESH)] = st.fresh; });
    refusedOwn(() => { i32()[g(GT.SLOT_FRESH)] = T.capacity + 1; }, () => { i32()[g(GT.SLOT_FRESH)] = st.fresh; });
    refusedOwn(() => { i32()[g(GT.SLOT_LIVE)] = st.fresh + 1; }, () => { i32()[g(GT.SLOT_LIVE)] = st.live; });
    // then it goes through
    expect(call()).toBe(n);
    expect(i32()[g(GT.EMIT_N)]).toBe(n);
  });
});
