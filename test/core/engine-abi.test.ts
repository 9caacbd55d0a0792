// The Zone engine's exports refuse bad input with a status code and change
// nothing: a block engineInit did not lay out, parameters out of range, a
// region too small, an event for a subject the engine does not own, an
// emission it cannot take (checked before any is taken), room asked for
// when none was requested. (That a laid-out engine runs the model's Zone
// side exactly is test/laminar/zone-engine.test.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Fingerprint } from "../../src/sim/fingerprint.js";
import { packageRoot } from "../../src/core/paths.js";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { loadCore } from "../../src/core/wasm.js";
import { Status } from "../../src/core/status.js";
import { EF, EM, EM_DECLARED, EMIT_BYTES, EMIT_MEM_BYTES, ENGINE_BLOCK_BYTES, MX, RAN_TO } from "../../src/core/engine-layout.js";
import { LaminarModel } from "../../src/laminar/model.js";
import { ZoneEngine } from "../../src/laminar/zone-engine.js";
import { Mailbox, REC, TO_GATEWAY } from "../../src/laminar/mailbox.js";
import { K_PULL, M_DA_END, M_PULL, M_REACTIVATE, M_UPLOAD } from "../../src/laminar/state.js";
import { streamRng } from "../../src/sim/rng.js";

/** A model on the engine, started: its block is laid out. */
function started(...sets: string[]) {
  const core = loadCore("auto");
  const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core", ...sets]));
  m.start();
  return { core, k: core.exports, block: m.zoneEngine!.block, ze: m.zoneEngine! };
}

describe("the core allocates nothing", () => {
  it("neither build links the runtime's allocator (an array literal in the engine would, over the host's memory)", () => {
    for (const f of ["laminar-simd.wat", "laminar-scalar.wat"]) {
      const wat = readFileSync(join(packageRoot(), "build", f), "utf8");
      expect(wat).not.toMatch(/rt\/stub|__alloc|__new/);
    }
  });
});

describe("the Zone engine's exports", () => {
  for (const flavor of ["simd", "scalar"] as const) {
    it(`${flavor}: a block engineInit did not lay out is refused by every call`, () => {
      const core = loadCore(flavor), k = core.exports;
      const block = core.arena.alloc(ENGINE_BLOCK_BYTES, 16), src = core.arena.alloc(EMIT_BYTES, 16);
      core.arena.u8.fill(0, block, block + ENGINE_BLOCK_BYTES);
      expect(k.engineRun(block, 1000, Infinity)).toBe(Status.E_ARG);
      expect(k.enginePost(block, 0, 3, 0)).toBe(Status.E_ARG);
      expect(k.engineEmit(block, src, 1)).toBe(Status.E_ARG);
      expect(k.engineDispatch(block, src, 1, src, src, src)).toBe(Status.E_ARG);
      expect(k.engineExchange(block)).toBe(Status.E_ARG);
      expect(k.engineSetVerdict(block, 0, 1)).toBe(Status.E_ARG);
      expect(k.engineRoomBytes(block)).toBe(Status.E_ARG);
      expect(k.engineGrow(block, src, 64)).toBe(Status.E_ARG);
      expect(k.engineTrace(block, 1)).toBe(Status.E_ARG);
      expect(k.engineTraceState(block, src)).toBe(Status.E_ARG);
      expect(k.engineRun(0, 1000, Infinity)).toBe(Status.E_ARG);
      // parameters out of range: no atoms, then no nodes
      expect(k.engineBytes(block)).toBe(Status.E_ATOMS);
      core.arena.i32[(block >> 2) + 2 * EF.ATOMS] = 256;
      expect(k.engineBytes(block)).toBe(Status.E_COUNT);
      expect(k.engineBytes(8)).toBe(Status.E_NULL);
    });
  }

  it("init refuses a region smaller than engineBytes, or one over its own block", () => {
    const { core, k, block } = started();
    const need = k.engineBytes(block);
    expect(need).toBeGreaterThan(0);
    const small = core.arena.alloc(1024, 16);
    expect(k.engineInit(block, small, 1024)).toBe(Status.E_BOUNDS);
    expect(k.engineInit(block, block, need)).toBe(Status.E_ARG);
  });

  it("an event for a subject it does not own, or a bad delay, is refused", () => {
    const { k, block, ze } = started();
    const size = ze.geti(EF.HEAP_SIZE);
    expect(k.enginePost(block, 10, 4, -1)).toBe(Status.E_ID); // a DA slot
    expect(k.enginePost(block, 10, 6, 300)).toBe(Status.E_ID); // a node
    expect(k.enginePost(block, 10, 13, 99)).toBe(Status.E_ID); // a Zone
    expect(k.enginePost(block, 0.5, 3, 0)).toBe(Status.E_ARG);
    expect(k.enginePost(block, -1, 3, 0)).toBe(Status.E_ARG);
    expect(k.enginePost(block, 10, -3, 0)).toBe(Status.E_ARG);
    expect(ze.geti(EF.HEAP_SIZE)).toBe(size);
    expect(k.engineRun(block, -5, Infinity)).toBe(Status.E_ARG);
    expect(k.engineRun(block, NaN, Infinity)).toBe(Status.E_ARG);
    expect(k.engineSetVerdict(block, -1, 1)).toBe(Status.E_ID);
    expect(k.engineSetVerdict(block, 0, 9)).toBe(Status.E_ARG);
    expect(k.engineRoomBytes(block)).toBe(Status.E_ARG); // no room was asked for
  });

  it("a batch of posts or of answers with one bad record is refused whole", () => {
    const { core, k, block, ze } = started();
    const src = core.arena.alloc(3 * 16, 16), f64 = core.arena.f64, i32 = core.arena.i32;
    const now = ze.getf(EF.NOW), size = ze.geti(EF.HEAP_SIZE);
    for (let i = 0; i < 3; i++) { f64[(src >> 3) + 2 * i] = now + 1000 * (i + 1); i32[(src >> 2) + 4 * i + 2] = 3; i32[(src >> 2) + 4 * i + 3] = 0; }
    i32[(src >> 2) + 4 * 2 + 2] = 6; i32[(src >> 2) + 4 * 2 + 3] = 300; // arbitrate a node it does not own
    expect(k.enginePostBatch(block, src, 3)).toBe(Status.E_ID);
    i32[(src >> 2) + 4 * 2 + 3] = 3; f64[(src >> 3) + 4] = now - 1; // before the clock
    expect(k.enginePostBatch(block, src, 3)).toBe(Status.E_ARG);
    expect(ze.geti(EF.HEAP_SIZE)).toBe(size);
    f64[(src >> 3) + 4] = now + 3000;
    expect(k.enginePostBatch(block, src, 3)).toBe(0);
    expect(ze.geti(EF.HEAP_SIZE)).toBe(size + 3);
    const pairs = core.arena.alloc(2 * 8, 8), p32 = core.arena.i32;
    p32[pairs >> 2] = 0; p32[(pairs >> 2) + 1] = 1; p32[(pairs >> 2) + 2] = 1 << 30; p32[(pairs >> 2) + 3] = 1;
    expect(k.engineSetVerdicts(block, pairs, 2)).toBe(Status.E_ID);
    p32[(pairs >> 2) + 2] = 1; p32[(pairs >> 2) + 3] = 7;
    expect(k.engineSetVerdicts(block, pairs, 2)).toBe(Status.E_ARG);
    expect(k.engineSetVerdicts(block, pairs, -1)).toBe(Status.E_COUNT);
  });

  it("lag mode: refused outside it and for bad steps; the counter's history answers any point it holds; a post at a point runs there", () => {
    const { k, block, ze } = started();
    // outside lag mode the lag exports refuse
    expect(k.engineSeqAt(block, 0, 0)).toBe(Status.E_ARG);
    expect(k.engineHistoryTrim(block, 0)).toBe(Status.E_ARG);
    expect(k.engineHistoryRecords(block)).toBe(Status.E_ARG);
    expect(k.enginePostAt(block, 1e6, 5, 25, 1)).toBe(Status.E_ARG);
    expect(k.engineEmitAt(block, 0, 0, 1e6, 5)).toBe(Status.E_ARG);
    for (const step of [0, 1, 3, 1000, 2 ** 31, NaN]) expect(k.engineLagMode(block, step)).toBe(Status.E_ARG);
    const before = ze.getf(EF.SEQ);
    expect(k.engineLagMode(block, 1024)).toBe(0);
    expect(k.engineLagMode(block, 1024)).toBe(Status.E_ARG); // once
    expect(ze.getf(EF.SEQ)).toBe((before + 1) * 1024); // past every number given so far
    expect(k.engineSeqAt(block, 0, -0.5)).toBe((before + 1) * 1024);
    // run a while: the history records the counter after each event that posted
    while (ze.run(50e6, Infinity) !== RAN_TO); // the model's own host events are passed over (its Zone's snapshots run)
    const now = ze.now, n = k.engineHistoryRecords(block);
    expect(n).toBeGreaterThanOrEqual(5); // a snapshot each 10 ms posts its broadcast, upload and next snapshot
    expect(k.engineSeqAt(block, now + 1, 0)).toBe(ze.getf(EF.SEQ));
    let last = 0;
    for (let t = 0; t <= now; t += 1e6) {
      const v = k.engineSeqAt(block, t, 0);
      expect(v % 1024).toBe(0);
      expect(v).toBeGreaterThanOrEqual(last);
      last = v;
    }
    // trimmed: earlier points are refused, later ones still answered
    expect(k.engineHistoryTrim(block, 25e6)).toBe(0);
    expect(k.engineHistoryRecords(block)).toBeLessThan(n);
    expect(k.engineSeqAt(block, 25e6 - 1, 0)).toBe(Status.E_ARG);
    expect(k.engineSeqAt(block, 25e6, 0)).toBeGreaterThan(0);
    // explicit posts: not before the clock, a finite number
    expect(k.enginePostAt(block, now - 1, 5, 25, 1)).toBe(Status.E_ARG);
    expect(k.enginePostAt(block, now + 10, NaN, 25, 1)).toBe(Status.E_ARG);
    expect(k.engineEmitAt(block, 0, 0, now - 1, 5)).toBe(Status.E_ARG);
    // two of the engine's own posts at T, and one placed between them by its sequence number: it runs between them
    const T = now + 5e5, a = ze.getf(EF.SEQ);
    for (const subject of [1, 3]) {
      let r: number;
      while ((r = k.enginePost(block, T - now, 25, subject)) === Status.E_FULL) (ze as unknown as { makeRoom(): void }).makeRoom();
      expect(r).toBe(0);
    }
    expect(k.enginePostAt(block, T, a + 1, 25, 2)).toBe(0);
    const seen: number[] = [];
    for (;;) {
      const r = ze.run(T + 1, Infinity);
      if (r === RAN_TO) break;
      if (ze.hostKind === 25) seen.push(ze.hostSubject);
    }
    expect(seen).toEqual([1, 2, 3]);
    // a rebase moves every number by the same multiple of the step: the order of what is pending stays
    const counter = ze.getf(EF.SEQ);
    for (const bad of [-1024, 1000, counter + 1024, NaN]) expect(k.engineSeqRebase(block, bad)).toBe(Status.E_ARG);
    const U = ze.now + 5e5, b = ze.getf(EF.SEQ);
    for (const subject of [4, 6]) expect(k.enginePost(block, U - ze.now, 25, subject)).toBe(0);
    expect(k.enginePostAt(block, U, b + 1, 25, 5)).toBe(0);
    const offset = Math.floor(counter / 1024 / 2) * 1024, pre = ze.getf(EF.SEQ), at = k.engineSeqAt(block, ze.now, 0);
    expect(at).toBe(pre); // the host's two posts at the clock are in the history, before the events at that time
    expect(k.engineSeqRebase(block, offset)).toBe(0);
    expect(ze.getf(EF.SEQ)).toBe(pre - offset);
    expect(k.engineSeqAt(block, ze.now, 0)).toBe(at - offset);
    seen.length = 0;
    for (;;) {
      const r = ze.run(U + 1, Infinity);
      if (r === RAN_TO) break;
      if (ze.hostKind === 25) seen.push(ze.hostSubject);
    }
    expect(seen).toEqual([4, 5, 6]);
  });

  it("events run in (time, sequence number) order however they were posted; equal ones, the later posted first", () => {
    // the host's posts at given points (lag mode) into a few buckets ahead, scrambled, some of them at one time, some
    // with one number twice: a bucket gets a few events, or many in several runs in order (a replayed batch's)
    for (const flavor of ["simd", "scalar"] as const) {
      const core = loadCore(flavor);
      const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core"]));
      m.start();
      const k = core.exports, ze = m.zoneEngine!, block = ze.block;
      expect(k.engineLagMode(block, 1024)).toBe(0);
      while (ze.run(2e6, Infinity) !== RAN_TO);
      const now = ze.now, T = now + 5e5, base = ze.getf(EF.SEQ);
      let seed = 7;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
      const posts: [number, number][] = [];
      for (let i = 0; i < 400; i++) {
        const kind = rand(4);
        // a run of one time and rising numbers (a replayed batch), a stray post, or a number given twice
        const time = kind === 0 ? T + 700 : T + rand(2048);
        const seq = kind === 0 ? base + i : kind === 3 && posts.length > 0 ? posts[rand(posts.length)][1] : base + rand(400);
        posts.push([kind === 3 && posts.length > 0 ? posts[posts.length - 1][0] : time, seq]);
      }
      posts.forEach(([time, seq], i) => {
        let r: number;
        while ((r = k.enginePostAt(block, time, seq, 25, i)) === Status.E_FULL) (ze as unknown as { makeRoom(): void }).makeRoom();
        expect(r).toBe(0);
      });
      const seen: number[] = [];
      for (;;) {
        const r = ze.run(T + 4096, Infinity);
        if (r === RAN_TO) break;
        if (ze.hostKind === 25) seen.push(ze.hostSubject);
      }
      const order = posts.map((_, i) => i).sort((a, b) => posts[a][0] - posts[b][0] || posts[a][1] - posts[b][1] || b - a);
      expect(new Set(posts.map(([t, q]) => `${t},${q}`)).size).toBeLessThan(posts.length); // some posts share both
      expect(seen).toEqual(order);
    }
  });

  it("the event trace folds every event run, the host's included, and only while it is on; both builds fold alike", () => {
    const lanes: number[][] = [];
    for (const flavor of ["simd", "scalar"] as const) {
      const core = loadCore(flavor);
      const m = new LaminarModel(core, applySets(defaultConfig(), ["cluster.nodes=300", "sim.durationS=0.05", "sim.engine=core"]));
      m.start();
      const k = core.exports, ze = m.zoneEngine!, block = ze.block;
      const out = core.arena.alloc(16, 8);
      expect(k.engineTrace(block, 2)).toBe(Status.E_ARG);
      expect(k.engineTrace(block, -1)).toBe(Status.E_ARG);
      expect(k.engineTraceState(block, out + 4)).toBe(Status.E_ALIGN);
      expect(k.engineTraceState(block, 0)).toBe(Status.E_NULL);
      const state = () => {
        expect(k.engineTraceState(block, out)).toBe(0);
        return [core.arena.i32[out >> 2], core.arena.i32[(out >> 2) + 1], core.arena.f64[(out >> 3) + 1]];
      };
      // off by default: nothing is folded (engineInit left the lanes at their seeds)
      while (ze.run(5e6, Infinity) !== RAN_TO);
      expect(state()).toEqual([0x6a09e667, 0x3c6ef372, 0]);
      expect(k.engineTrace(block, 1)).toBe(0);
      expect(state()).toEqual([0x6a09e667, 0x3c6ef372, 0]);
      // the engine's own events (its Zones' snapshots, broadcasts, uploads) and three of the host's
      const processed = ze.getf(EF.PROCESSED);
      for (const subject of [7, 8, 9]) expect(k.enginePost(block, 1e6 * subject, 25, subject)).toBe(0);
      let host = 0;
      while (ze.run(40e6, Infinity) !== RAN_TO) host++;
      expect(host).toBe(3);
      const own = ze.getf(EF.PROCESSED) - processed;
      expect(own).toBeGreaterThan(5);
      const on = state();
      expect(on[2]).toBe(own + host);
      lanes.push(on);
      // stopped: what it folded stays; nothing more is folded
      expect(k.engineTrace(block, 0)).toBe(0);
      while (ze.run(60e6, Infinity) !== RAN_TO);
      expect(state()).toEqual(on);
      // one host event past 2^32 ns with a negative subject, alone in a fresh trace: the TypeScript fingerprint's hash
      const T = 5_000_000_123;
      while (ze.run(T, Infinity) !== RAN_TO);
      expect(k.engineTrace(block, 1)).toBe(0);
      expect(k.enginePost(block, 0, 25, -7)).toBe(0);
      while (ze.run(T + 1, Infinity) !== RAN_TO);
      const [h0, h1, n] = state();
      const mine = new Fingerprint(), ref = new Fingerprint();
      mine.restore(h0, h1, n);
      ref.add(T, 25, -7);
      expect(mine.hex()).toBe(ref.hex());
    }
    expect(lanes[1]).toEqual(lanes[0]);
  });

  it("a batch of emissions with one bad record is refused whole", () => {
    const { core, k, block, ze } = started();
    const src = core.arena.alloc(3 * EMIT_BYTES, 16), i32 = core.arena.i32, f64 = core.arena.f64;
    for (let i = 0; i < 3; i++) {
      const b = src + i * EMIT_BYTES;
      i32[(b + EM.TASK) >> 2] = i; i32[(b + EM.NODE) >> 2] = 5; i32[(b + EM.CLS) >> 2] = 0; i32[(b + EM.M) >> 2] = 4;
      f64[(b + EM.EMITTED) >> 3] = 0; f64[(b + EM.ARRIVAL) >> 3] = 0; f64[(b + EM.EV) >> 3] = 72; f64[(b + EM.BUDGET) >> 3] = 72;
      f64[(b + EM.SERVICE) >> 3] = 1e6; i32[(b + EM.KEY) >> 2] = i; i32[(b + EM.FLAGS) >> 2] = 0;
    }
    const live = ze.live, size = ze.geti(EF.HEAP_SIZE);
    const last = src + 2 * EMIT_BYTES;
    i32[(last + EM.NODE) >> 2] = 300;
    expect(k.engineEmit(block, src, 3)).toBe(Status.E_ID);
    i32[(last + EM.NODE) >> 2] = 5; i32[(last + EM.M) >> 2] = 257;
    expect(k.engineEmit(block, src, 3)).toBe(Status.E_K);
    i32[(last + EM.M) >> 2] = 4; f64[(last + EM.SERVICE) >> 3] = -1;
    expect(k.engineEmit(block, src, 3)).toBe(Status.E_ARG);
    i32[(last + EM.FLAGS) >> 2] = 2; f64[(last + EM.SERVICE) >> 3] = 1e6;
    expect(k.engineEmit(block, src, 3)).toBe(Status.E_ARG);
    expect(k.engineEmit(block, src, -1)).toBe(Status.E_COUNT);
    expect([ze.live, ze.geti(EF.HEAP_SIZE)]).toEqual([live, size]);
    i32[(last + EM.FLAGS) >> 2] = 0;
    expect(k.engineEmit(block, src, 3)).toBe(0);
    expect([ze.live, ze.geti(EF.HEAP_SIZE)]).toEqual([live + 3, size + 3]);
  });

  for (const index of [0, 1]) it(`engineStageOwn picks a Zone partition's DAs out of a batch, in order and bit for bit, and refuses a launchpad outside the cluster moving nothing (partition ${index} of 2)`, () => {
    const core = loadCore("auto"), k = core.exports;
    const config = applySets(defaultConfig(), ["cluster.nodes=2000", "sim.durationS=0.05", "sim.engine=core"]);
    const m = new LaminarModel(core, config, { index, count: 2, role: "zones" });
    m.start();
    const ze = m.zoneEngine!, block = ze.block, n0 = ze.geti(EF.N0), n1 = ze.geti(EF.N1), nodes = ze.geti(EF.NODES);
    expect([n0 < n1, index === 0 ? n0 === 0 && n1 < nodes : n0 > 0 && n1 === nodes]).toEqual([true, true]);
    const W = EMIT_BYTES >> 2, cap = 64, src = core.arena.alloc(cap * EMIT_BYTES, 16);
    // launchpads anywhere in the cluster, -1 (lost on the hop), and either side of the partition's bounds
    const edges = [-1, n0 - 1, n0, n1 - 1, n1].filter((v) => v >= -1 && v < nodes);
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.integer({ min: -1, max: nodes - 1 }), fc.constantFrom(...edges)), { maxLength: cap }),
      fc.array(fc.integer(), { minLength: cap * W, maxLength: cap * W }),
      (launchpads, words) => {
        const i32 = core.arena.i32, at = src >> 2, n = launchpads.length;
        // every word random (f64 fields whose bits are NaNs among them), then the launchpads
        for (let i = 0; i < cap * W; i++) i32[at + i] = words[i];
        for (let i = 0; i < n; i++) i32[at + i * W + (EM.NODE >> 2)] = launchpads[i];
        const want: number[][] = [];
        for (let i = 0; i < n; i++) if (launchpads[i] >= n0 && launchpads[i] < n1) want.push([...i32.subarray(at + i * W, at + (i + 1) * W)]);
        expect(k.engineStageOwn(block, src, n)).toBe(want.length);
        for (let j = 0; j < want.length; j++) expect([...core.arena.i32.subarray(at + j * W, at + (j + 1) * W)]).toEqual(want[j]);
      },
    ), { numRuns: 200, seed: 24 + index });
    // a launchpad outside the cluster: E_ID, nothing moved
    const i32 = core.arena.i32, at = src >> 2;
    for (const bad of [-2, nodes]) {
      for (let i = 0; i < 3; i++) i32[at + i * W + (EM.NODE >> 2)] = i === 2 ? bad : i === 0 ? nodes - 1 : n0;
      const before = [...i32.subarray(at, at + 3 * W)];
      expect(k.engineStageOwn(block, src, 3)).toBe(Status.E_ID);
      expect([...i32.subarray(at, at + 3 * W)]).toEqual(before);
    }
    expect(k.engineStageOwn(block, src, -1)).toBe(Status.E_COUNT);
    expect(k.engineStageOwn(block, src + 4, 1)).toBe(Status.E_ALIGN);
    expect(k.engineStageOwn(block, 8, 1)).toBe(Status.E_NULL);
    expect(k.engineStageOwn(block, core.arena.u8.length - 32, 1)).toBe(Status.E_BOUNDS);
    expect(k.engineStageOwn(0, src, 1)).toBe(Status.E_ARG);
    expect(k.engineStageOwn(block, src, 0)).toBe(0);
  });

  it("engineStagePulls turns a Zone partition's own pull requests into their completions' posts, as the model's accept does, and refuses what is not for the gateway side writing nothing", () => {
    const core = loadCore("auto"), k = core.exports;
    const config = applySets(defaultConfig(), ["cluster.nodes=2000", "sim.durationS=0.05", "sim.engine=core"]);
    const m = new LaminarModel(core, config, { index: 1, count: 2, role: "zones" });
    m.start();
    m.runTo(1_000_037); // a clock away from 0, so that the delay's arithmetic shows
    const ze = m.zoneEngine!, block = ze.block, z0 = ze.geti(EF.Z0), z1 = ze.geti(EF.Z1), zones = ze.geti(EF.ZONES);
    expect([z0 > 0, z0 < z1]).toEqual([true, true]);
    const now = ze.getf(EF.NOW), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA);
    expect(now).toBe(1_000_037);
    const cap = 48, src = core.arena.alloc(cap * REC * 8, 8), dst = core.arena.alloc(cap * 16 + 16, 8);
    const message = fc.record({
      t: fc.double({ min: 0, max: 2 ** 45, noNaN: true }), from: fc.integer({ min: 0, max: zones - 1 }), kind: fc.constantFrom(M_DA_END, M_PULL, M_UPLOAD, M_PULL),
      a: fc.double({ noNaN: true }), da: fc.integer({ min: 0, max: 2 ** 31 - 1 }), zone: fc.oneof(fc.integer({ min: 0, max: zones - 1 }), fc.constantFrom(z0 - 1, z0, z1 - 1, z1)),
      x: fc.double({ min: 0, max: 1e9, noNaN: true }),
    });
    fc.assert(fc.property(fc.array(message, { maxLength: cap }), (msgs) => {
      const f64 = core.arena.f64, i32 = core.arena.i32, at = src >> 3;
      msgs.forEach((g, i) => f64.set([g.t, g.from, g.kind, TO_GATEWAY, g.a, g.da, g.zone, g.x, 0, 0], at + i * REC));
      // the model's accept, one by one: a pull request of a Zone here posts its completion (pullAnswered, ZoneEngine.post)
      const want = msgs.filter((g) => g.kind === M_PULL && g.zone >= z0 && g.zone < z1).map((g) => [now + (g.t + hop - delta + g.x - now), K_PULL, g.da]);
      expect(k.engineStagePulls(block, src, msgs.length, dst)).toBe(want.length);
      expect(want.map((_, j) => [f64[(dst >> 3) + 2 * j], i32[(dst >> 2) + 4 * j + 2], i32[(dst >> 2) + 4 * j + 3]])).toEqual(want);
    }), { numRuns: 200, seed: 24 });
    // one record not for the gateway side (a message for a Zone, a reactivation): E_ARG, nothing written
    const f64 = core.arena.f64, at = src >> 3;
    for (let i = 0; i < 3; i++) f64.set([1e6, z0, M_PULL, TO_GATEWAY, 0, 7, z0, 100, 0, 0], at + i * REC);
    for (const [field, v] of [[3, z0], [2, M_REACTIVATE]] as const) {
      const keep = f64[at + 2 * REC + field];
      f64[at + 2 * REC + field] = v;
      f64.fill(-5, dst >> 3, (dst >> 3) + 6);
      expect(k.engineStagePulls(block, src, 3, dst)).toBe(Status.E_ARG);
      expect([...f64.subarray(dst >> 3, (dst >> 3) + 6)]).toEqual([-5, -5, -5, -5, -5, -5]);
      f64[at + 2 * REC + field] = keep;
    }
    expect(k.engineStagePulls(block, src, 3, dst)).toBe(3);
    expect(k.engineStagePulls(block, src, -1, dst)).toBe(Status.E_COUNT);
    expect(k.engineStagePulls(block, src + 4, 1, dst)).toBe(Status.E_ALIGN);
    expect(k.engineStagePulls(block, src, 1, dst + 4)).toBe(Status.E_ALIGN);
    expect(k.engineStagePulls(block, 8, 1, dst)).toBe(Status.E_NULL);
    expect(k.engineStagePulls(block, src, 1, core.arena.u8.length - 8)).toBe(Status.E_BOUNDS);
    expect(k.engineStagePulls(block, src, 3, src + 8)).toBe(Status.E_ARG); // dst over src
    expect(k.engineStagePulls(0, src, 1, dst)).toBe(Status.E_ARG);
    expect(k.engineStagePulls(block, src, 0, dst)).toBe(0);
  });

  it("the gateway's batch (engineDispatch, engineDispatchAll) draws what the TypeScript batch draws, and refuses bad input changing nothing", () => {
    const before = ZoneEngine.initialCapacity;
    ZoneEngine.initialCapacity = 16; // so that 40 DAs need room
    let env: ReturnType<typeof started>;
    try {
      env = started("network.loss=0.3", "cluster.nodes=900");
    } finally {
      ZoneEngine.initialCapacity = before;
    }
    const { core, k, block, ze } = env;
    const n = 40, Z = ze.geti(EF.ZONES), loss = ze.getf(EF.LOSS);
    expect(Z).toBeGreaterThan(2);
    expect(loss).toBe(0.3);
    const src = core.arena.alloc(n * EMIT_BYTES, 16), cum = core.arena.alloc(8 * Z, 16), rngAt = core.arena.alloc(16, 16);
    const lost = core.arena.alloc(4 * n, 16);
    let i32 = core.arena.i32, f64 = core.arena.f64;
    const offsets = Array.from(i32.subarray(ze.geti(EF.OFFSETS) >> 2, (ze.geti(EF.OFFSETS) >> 2) + Z + 1));
    for (let i = 0; i < n; i++) {
      const b = src + i * EMIT_BYTES;
      i32[(b + EM.TASK) >> 2] = 100 + i; i32[(b + EM.NODE) >> 2] = 12345; i32[(b + EM.CLS) >> 2] = i % 2; i32[(b + EM.M) >> 2] = 4;
      f64[(b + EM.EMITTED) >> 3] = 0; f64[(b + EM.ARRIVAL) >> 3] = 0; f64[(b + EM.EV) >> 3] = 72; f64[(b + EM.BUDGET) >> 3] = 72;
      f64[(b + EM.SERVICE) >> 3] = 1e6; i32[(b + EM.KEY) >> 2] = i; i32[(b + EM.FLAGS) >> 2] = 0;
    }
    // uneven weights, one Zone almost never drawn
    let acc = 0;
    for (let z = 0; z < Z; z++) f64[(cum >> 3) + z] = acc += z === 1 ? 1e-9 : 1 + (z % 3);
    streamRng(7, "gateway").saveState(i32, rngAt >> 2);
    const snapshot = () => [Buffer.from(core.arena.u8.subarray(src, src + n * EMIT_BYTES)), Buffer.from(core.arena.u8.subarray(rngAt, rngAt + 16)), ze.live, ze.geti(EF.HEAP_SIZE)];
    const was = snapshot();
    const refused: [number, number][] = [
      [k.engineDispatch(block, src, -1, cum, rngAt, lost), Status.E_COUNT],
      [k.engineDispatch(block, 8, n, cum, rngAt, lost), Status.E_NULL],
      [k.engineDispatch(block, src + 4, n, cum, rngAt, lost), Status.E_ALIGN],
      [k.engineDispatch(block, src, n, cum, rngAt, src + 64), Status.E_ARG], // lost over the records
      [k.engineDispatch(block, src, n, cum, block + 64, lost), Status.E_ARG], // the stream inside the block
      [k.engineDispatch(block, src, n, cum, rngAt, core.arena.u8.length - 8), Status.E_BOUNDS],
    ];
    for (const [got, want] of refused) expect(got).toBe(want);
    const w = f64[(cum >> 3) + Z - 1];
    f64[(cum >> 3) + Z - 1] = 0;
    expect(k.engineDispatch(block, src, n, cum, rngAt, lost)).toBe(Status.E_ARG); // no weight
    f64[(cum >> 3) + Z - 1] = w;
    const state = Array.from(i32.subarray(rngAt >> 2, (rngAt >> 2) + 4));
    i32.fill(0, rngAt >> 2, (rngAt >> 2) + 4);
    expect(k.engineDispatch(block, src, n, cum, rngAt, lost)).toBe(Status.E_ARG); // an all-zero stream
    i32.set(state, rngAt >> 2);
    const last = src + (n - 1) * EMIT_BYTES;
    i32[(last + EM.M) >> 2] = 0;
    expect(k.engineDispatch(block, src, n, cum, rngAt, lost)).toBe(Status.E_K);
    i32[(last + EM.M) >> 2] = 4; i32[(last + EM.TASK) >> 2] = -1;
    expect(k.engineDispatch(block, src, n, cum, rngAt, lost)).toBe(Status.E_ID);
    i32[(last + EM.TASK) >> 2] = 100 + n - 1;
    // no room for 40 DAs: asked for, nothing drawn; given, then taken
    let got = k.engineDispatch(block, src, n, cum, rngAt, lost);
    expect(got).toBe(Status.E_FULL);
    expect(snapshot()).toEqual(was);
    for (let rounds = 0; got === Status.E_FULL && rounds < 4; rounds++) {
      const need = k.engineRoomBytes(block);
      expect(k.engineGrow(block, core.arena.alloc(need, 16), need)).toBe(0);
      got = k.engineDispatch(block, src, n, cum, rngAt, lost);
    }
    i32 = core.arena.i32; f64 = core.arena.f64;
    // the TypeScript batch's draws (ingress.ts gatewayBatch, teg.ts dispatch)
    const r = streamRng(7, "gateway"), total = f64[(cum >> 3) + Z - 1];
    const zs = Array.from({ length: n }, () => {
      const t = r.float() * total;
      let z = 0;
      while (z < Z - 1 && !(f64[(cum >> 3) + z] > t)) z++;
      return z;
    });
    const nodes: number[] = [], lostTasks: number[] = [];
    zs.forEach((z, i) => {
      const node = offsets[z] + r.int(offsets[z + 1] - offsets[z]);
      if (r.float() < loss) { lostTasks.push(100 + i); nodes.push(-1); } else nodes.push(node);
    });
    expect(got).toBe(lostTasks.length);
    expect(lostTasks.length).toBeGreaterThan(3);
    expect(Array.from(i32.subarray(lost >> 2, (lost >> 2) + got))).toEqual(lostTasks);
    expect(Array.from({ length: n }, (_, i) => i32[(src + i * EMIT_BYTES + EM.NODE) >> 2])).toEqual(nodes);
    const after = new Int32Array(4);
    r.saveState(after, 0);
    expect(Array.from(i32.subarray(rngAt >> 2, (rngAt >> 2) + 4))).toEqual(Array.from(after));
    expect(ze.live).toBe((was[2] as number) + n - got);
    expect(ze.geti(EF.HEAP_SIZE)).toBe((was[3] as number) + n - got);
    // engineDispatchAll (the gateway once, for Zone partitions elsewhere): the same draws, every launchpad kept, none taken
    for (let i = 0; i < n; i++) i32[(src + i * EMIT_BYTES + EM.NODE) >> 2] = 12345;
    streamRng(7, "gateway").saveState(i32, rngAt >> 2);
    const [live, size] = [ze.live, ze.geti(EF.HEAP_SIZE)];
    expect(k.engineDispatchAll(block, src, n, cum, rngAt, src + 64)).toBe(Status.E_ARG); // lost over the records
    expect(k.engineDispatchAll(block, src, n, cum, rngAt, lost)).toBe(lostTasks.length);
    expect(Array.from({ length: n }, (_, i) => i32[(src + i * EMIT_BYTES + EM.NODE) >> 2])).toEqual(nodes);
    expect(Array.from(i32.subarray(lost >> 2, (lost >> 2) + lostTasks.length))).toEqual(lostTasks);
    expect(Array.from(i32.subarray(rngAt >> 2, (rngAt >> 2) + 4))).toEqual(Array.from(after));
    expect([ze.live, ze.geti(EF.HEAP_SIZE)]).toEqual([live, size]);
  });

  it("engineExchange orders the outbox into the inbox as the mailbox's sort does, schedules the pulls' completions, and refuses bad input changing nothing", () => {
    const before = ZoneEngine.initialCapacity;
    let env: ReturnType<typeof started>;
    try {
      ZoneEngine.initialCapacity = 16;
      env = started("cluster.nodes=900");
    } finally {
      ZoneEngine.initialCapacity = before;
    }
    const { core, k, block, ze } = env;
    const Z = ze.geti(EF.ZONES), hop = ze.getf(EF.HOP), delta = ze.getf(EF.DELTA), now = ze.getf(EF.NOW);
    expect(Z).toBeGreaterThan(2);
    // 2,000 records (the outbox grows): runs of equal times from random Zones, pulls (3), DA ends (1), uploads (6)
    const box = new Mailbox(), kinds = [1, 3, 6], n = 2000;
    let seed = 12345, t = now + delta;
    const rnd = (m: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % m;
    for (let i = 0; i < n; i++) {
      if (rnd(4) === 0) t += 1 + rnd(500);
      box.push(t, rnd(Z), kinds[rnd(3)], -1, 100 + i, i % 16, rnd(Z), rnd(7) * 0.5, i, -i);
    }
    const write = (m: number) => {
      while (ze.geti(EF.OUT_CAP) < m) {
        ze.seti(EF.ROOM_WHAT, 2); ze.seti(EF.ROOM_NEED, m);
        const bytes = k.engineRoomBytes(block), p = core.arena.alloc(bytes, 16);
        expect(k.engineGrow(block, p, bytes)).toBe(0);
      }
      core.arena.f64.set(box.buf.subarray(0, m * REC), ze.geti(EF.OUTBOX) >> 3);
      ze.seti(EF.OUT_N, m);
    };
    write(n);
    const heap = ze.geti(EF.HEAP_SIZE), seq = ze.getf(EF.SEQ);
    // refused, nothing moved or scheduled
    const f64 = () => core.arena.f64, rec = (i: number) => (ze.geti(EF.OUTBOX) >> 3) + i * REC;
    f64()[rec(7) + 2] = 2; // a retirement: not without the memory model
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    f64()[rec(7) + 2] = 3; f64()[rec(9) + 3] = 0; // for a Zone
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    f64()[rec(9) + 3] = -1; f64()[rec(11) + 1] = Z; // from a Zone outside the cluster (the sort counts by it)
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    f64()[rec(11) + 1] = 0; const t10 = f64()[rec(10)]; f64()[rec(10)] = t10 + 1e6; // a time after the next's
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    write(n);
    ze.seti(EF.IN_N, 1); // the last window's inbox not applied
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    ze.seti(EF.IN_N, 0);
    ze.seti(EF.Z1, Z - 1); // not every Zone
    expect(k.engineExchange(block)).toBe(Status.E_ARG);
    ze.seti(EF.Z1, Z);
    expect([ze.geti(EF.OUT_N), ze.geti(EF.IN_N), ze.geti(EF.HEAP_SIZE), ze.getf(EF.SEQ)]).toEqual([n, 0, heap, seq]);
    // the queue lacks room: E_FULL, nothing done; then grown, the call goes through
    const pulls: number[] = [];
    box.sort();
    for (let i = 0; i < n; i++) if (box.buf[i * REC + 2] === 3) pulls.push(i);
    expect(pulls.length).toBeGreaterThan(500);
    expect(k.engineExchange(block)).toBe(Status.E_FULL);
    expect([ze.geti(EF.OUT_N), ze.geti(EF.IN_N), ze.geti(EF.HEAP_SIZE)]).toEqual([n, 0, heap]);
    const bytes = k.engineRoomBytes(block), p = core.arena.alloc(bytes, 16);
    expect(k.engineGrow(block, p, bytes)).toBe(0);
    expect(k.engineExchange(block)).toBe(n);
    expect([ze.geti(EF.OUT_N), ze.geti(EF.IN_N), ze.geti(EF.HEAP_SIZE), ze.getf(EF.SEQ)]).toEqual([0, n, heap + pulls.length, seq + pulls.length]);
    const inbox = ze.inboxAt();
    expect(Array.from(ze.f64view().subarray(inbox, inbox + n * REC))).toEqual(Array.from(box.buf.subarray(0, n * REC)));
    // (the completions' times and order: the twin tests, test/laminar/zone-engine.test.ts, run them against the model's)
    // a grown outbox keeps the inbox behind it
    ze.seti(EF.ROOM_WHAT, 2); ze.seti(EF.ROOM_NEED, 2 * ze.geti(EF.OUT_CAP));
    const b2 = k.engineRoomBytes(block), p2 = core.arena.alloc(b2, 16);
    expect(k.engineGrow(block, p2, b2)).toBe(0);
    const inbox2 = ze.inboxAt();
    expect(inbox2).not.toBe(inbox);
    expect(Array.from(ze.f64view().subarray(inbox2, inbox2 + n * REC))).toEqual(Array.from(box.buf.subarray(0, n * REC)));
  });

  it("without the memory model, its calls are refused and a secondary probe cannot be emitted", () => {
    const { core, k, block } = started();
    expect(k.engineTaskState(block, 0, 0, 1)).toBe(Status.E_ARG);
    expect(k.engineLandRequest(block, 0, 0, 0, 0, 0)).toBe(Status.E_ARG);
    expect(k.engineLandAnswer(block, 0, 0, 0, 0, 0, 0, 0)).toBe(Status.E_ARG);
    const src = core.arena.alloc(EMIT_BYTES, 16), i32 = core.arena.i32, f64 = core.arena.f64;
    i32[(src + EM.NODE) >> 2] = 5; i32[(src + EM.M) >> 2] = 4; f64[(src + EM.EV) >> 3] = 72; f64[(src + EM.BUDGET) >> 3] = 72;
    f64[(src + EM.SERVICE) >> 3] = 1e6; i32[(src + EM.FLAGS) >> 2] = 2;
    expect(k.engineEmit(block, src, 1)).toBe(Status.E_ARG);
  });

  it("with the memory model: out-of-range parameters, task states, landing messages and emissions are refused, and nothing changes", () => {
    const { core, k, block, ze } = started("memory.enabled=true");
    const mx = ze.geti(EF.MEMX);
    let f64 = core.arena.f64, i32 = core.arena.i32;
    expect(mx).toBeGreaterThan(0);
    // a bad parameter in the extension block: engineBytes refuses the layout
    const kappa = f64[(mx >> 3) + MX.KAPPA];
    f64[(mx >> 3) + MX.KAPPA] = 2;
    expect(k.engineBytes(block)).toBe(Status.E_ARG);
    f64[(mx >> 3) + MX.KAPPA] = kappa;
    expect(k.engineBytes(block)).toBeGreaterThan(0);
    expect(k.engineTaskState(block, -1, 0, 1)).toBe(Status.E_ID);
    expect(k.engineTaskState(block, 0, 99, 1)).toBe(Status.E_ID); // no such Zone
    expect(k.engineTaskState(block, 0, 0, 2)).toBe(Status.E_ARG);
    expect(k.engineTaskState(block, 0, 0, 1)).toBe(0);
    // a task beyond the table: room is asked for, then given
    expect(k.engineTaskState(block, 1 << 20, 0, 1)).toBe(Status.E_FULL);
    const need = k.engineRoomBytes(block);
    expect(need).toBeGreaterThan(16 << 20);
    expect(k.engineGrow(block, core.arena.alloc(need, 16), need)).toBe(0);
    expect(k.engineTaskState(block, 1 << 20, 0, 1)).toBe(0);
    expect(k.engineLandRequest(block, 99, 0, 0, 0, 0)).toBe(Status.E_ID); // a Zone it does not run
    expect(k.engineLandRequest(block, 0, 0, 0, 0, -1)).toBe(Status.E_ARG);
    const out = ze.geti(EF.OUT_N);
    expect(k.engineLandRequest(block, 0, 5, 3, 0, 1000)).toBe(0); // no ledger entry for task 5: refused, one answer
    expect(ze.geti(EF.OUT_N)).toBe(out + 1);
    expect(k.engineLandAnswer(block, 0, 1, 0, 1, 1, 1, 0)).toBe(Status.E_ID); // DA 0 does not exist yet
    // an emission record is longer: its declared memory must be a size
    const src = core.arena.alloc(EMIT_MEM_BYTES, 16);
    f64 = core.arena.f64; i32 = core.arena.i32; // the growth above detached the old views
    i32[(src + EM.NODE) >> 2] = 5; i32[(src + EM.M) >> 2] = 4; f64[(src + EM.EV) >> 3] = 72; f64[(src + EM.BUDGET) >> 3] = 72;
    f64[(src + EM.SERVICE) >> 3] = 1e6; i32[(src + EM.FLAGS) >> 2] = 2; f64[(src + EM_DECLARED) >> 3] = -1;
    const live = ze.live;
    expect(k.engineEmit(block, src, 1)).toBe(Status.E_ARG);
    f64[(src + EM_DECLARED) >> 3] = 4;
    expect(k.engineEmit(block, src, 1)).toBe(0); // a secondary probe, with the memory model
    expect(ze.live).toBe(live + 1);
    expect(k.engineLandAnswer(block, 0, 1, 0, -1, 1, 1, 0)).toBe(Status.E_ARG);
    expect(k.engineLandAnswer(block, 0, 2, 0, 1, 1, 1, 0)).toBe(Status.E_ARG);
  });
});

describe("the Zone tables' records", () => {
  /** A row's free atoms and longest run of free atoms, bit by bit (the twin of choose.ts rowStats). */
  function stats(u8: Uint8Array, row: number, bytes: number): [number, number] {
    let free = 0, best = 0, cur = 0;
    for (let b = 0; b < bytes * 8; b++) {
      if ((u8[row + (b >> 3)] >> (b & 7)) & 1) { free++; cur++; best = Math.max(best, cur); } else cur = 0;
    }
    return [free, best];
  }

  /**
   * Every record of every Zone table (the master and each published copy; 32 bytes a node: its five values and its
   * row's summary, no row) against the row at `rowAt(z, v, r)` in `rows` (node r of Zone z, table v); how many rows
   * have more than one free run.
   */
  function checkRecords(core: ReturnType<typeof loadCore>, ze: ZoneEngine, rows: Uint8Array, rowAt: (z: number, v: number, r: number) => number): { checked: number; fragmented: number } {
    const u8 = core.arena.u8, i32 = core.arena.i32;
    const rowBytes = ze.geti(EF.ROW_BYTES), copies = ze.geti(EF.COPIES), offsets = ze.geti(EF.OFFSETS) >> 2;
    let fragmented = 0, checked = 0;
    for (let z = 0; z < ze.geti(EF.ZONES); z++) {
      const nz = i32[offsets + z + 1] - i32[offsets + z];
      const master = i32[(ze.geti(EF.MASTER) >> 2) + z], zt = i32[(ze.geti(EF.ZT_BYTES) >> 2) + z];
      expect(zt).toBe(Math.ceil((nz * 32) / 64) * 64);
      for (let v = 0; v <= copies; v++) {
        for (let r = 0; r < nz; r++) {
          const p = master + v * zt + r * 32;
          const [free, run] = stats(rows, rowAt(z, v, r), rowBytes);
          expect([i32[(p + 20) >> 2], i32[(p + 24) >> 2]]).toEqual([free, run]);
          if (run < free) fragmented++;
          checked++;
        }
      }
    }
    return { checked, fragmented };
  }

  type Twin = { zhaf: { master: Float64Array; ztBytes: Int32Array; rowsOffset(z: number): number } };
  type WithCluster = { cluster: { row(n: number): number; nodes: number } };

  /**
   * The same run on the core's Zone engine and on the TypeScript twin, which keeps the rows in its Z-HAF tables
   * (src/laminar/zhaf.ts): both models, and where the twin's table v of Zone z holds node r's row.
   */
  function pair(atoms: number, rows?: (u8: Uint8Array, at: number, bytes: number) => void) {
    const sets = ["cluster.nodes=300", "sim.durationS=0.1", `cluster.atomsPerNode=${atoms}`, "workload.rho=0.9"];
    const core = loadCore("auto"), twinCore = loadCore("auto");
    const m = new LaminarModel(core, applySets(defaultConfig(), [...sets, "sim.engine=core"]));
    const twin = new LaminarModel(twinCore, applySets(defaultConfig(), [...sets, "sim.engine=ts"]));
    for (const [model, c] of [[m, core], [twin, twinCore]] as const) {
      const cluster = (model as unknown as WithCluster).cluster;
      rows?.(c.arena.u8, cluster.row(0), cluster.nodes * (atoms >> 3));
      model.start();
    }
    const zf = (twin as unknown as Twin).zhaf, rowBytes = atoms >> 3;
    const twinRow = (z: number, v: number, r: number) => zf.master[z] + v * zf.ztBytes[z] + zf.rowsOffset(z) + r * rowBytes;
    return { core, m, twinCore, twin, twinRow };
  }

  it("each record's summary of its row (free atoms, longest free run) matches the row the twin's tables hold: random rows at the start", () => {
    for (const atoms of [64, 256, 1024]) {
      // rows of random runs (taken and free, 1 to a quarter of a row each) before either publishes them as snapshot 0
      // (the nodes' free counts are not made to agree: the run is not taken further)
      const { core, m, twinCore, twinRow } = pair(atoms, (u8, at, bytes) => {
        let seed = 12345 + atoms, free = 1;
        const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
        u8.fill(0, at, at + bytes);
        for (let b = 0; b < bytes * 8;) {
          for (let run = 1 + rand(atoms >> 2); run > 0 && b < bytes * 8; run--, b++) if (free) u8[at + (b >> 3)] |= 1 << (b & 7);
          free ^= 1;
        }
      });
      // the twin's master holds the cluster's rows
      const first = (m as unknown as WithCluster).cluster.row(0), rowBytes = atoms >> 3;
      expect(twinCore.arena.u8.subarray(twinRow(0, 0, 0), twinRow(0, 0, 0) + 8 * rowBytes)).toEqual(core.arena.u8.subarray(first, first + 8 * rowBytes));
      const start = checkRecords(core, m.zoneEngine!, twinCore.arena.u8, twinRow);
      expect(start.fragmented).toBeGreaterThan(start.checked / 3);
    }
  });

  it("each record's summary of its row matches the row the twin's tables hold in every table under load", () => {
    for (const atoms of [64, 256, 1024]) {
      const { core, m, twinCore, twin, twinRow } = pair(atoms);
      m.runUntil(60e6);
      twin.runUntil(60e6);
      const later = checkRecords(core, m.zoneEngine!, twinCore.arena.u8, twinRow);
      expect(later.checked).toBe((1 + m.zoneEngine!.geti(EF.COPIES)) * 300);
      expect(later.fragmented).toBeGreaterThan(0);
    }
  });

});
