// One benchmark case per (kernel, impl). Every case is set up from the same
// deterministic inputs as the native C bench (bench/inputs.ts), reports the
// same checksum, and says how many ops one call performs, so rows compare.
import * as rb from "../src/core/reference/bitmap.js";
import * as rm from "../src/core/reference/micro.js";
import * as rp from "../src/core/reference/probe.js";
import * as rs from "../src/core/reference/score.js";
import { BLOCK_ALIGN, CHOICE, writeChoice, writeZone, ZONE } from "../src/core/blocks.js";
import { Status } from "../src/core/status.js";
import { Views } from "../src/core/views.js";
import { Core } from "../src/core/wasm.js";
import { Prober } from "../src/laminar/probe.js";
import { Rng } from "../src/sim/rng.js";
import { writeZigguratTables, ZIG_BYTES, zigguratFinish } from "../src/sim/ziggurat.js";
import {
  ATOMS, DEGRADE_AGE, DEGRADE_HEAT, GAMMA, K, NCAND, NODES, NOW, PROBE_SIGMA, SETS, ZONE_BETA, ZONE_EPS, ZONE_GAMMA, ZONES,
  fieldInput, hash31, maskInput, probeStream, scoreInput, SplitMix64, bitmapInput, zoneInput,
} from "./inputs.js";
import { wheelCases } from "./wheel-case.js";
import type { Case, Impl } from "./case.js";

export type { Case, Impl } from "./case.js";
export const JS_IMPLS: Impl[] = ["wasm-simd", "wasm-scalar", "ts"];

export const KERNELS = [
  "mask-update", "fastlog-score", "zone-update", "feasible-count", "contiguous-run",
  "score-candidates", "probe-candidates", "zone-aggregate", "wheel-schedule-advance",
] as const;
export type Kernel = (typeof KERNELS)[number];

const MASK_CHECK = 1_000_000, MASK_CALL = 200_000;
const SCORE_CHECK = 1_000_000, SCORE_CALL = 200_000;
const ZONE_CHECK = 1000, ZONE_CALL = 2000;

const rowPop = (t: Uint32Array, j: number) => rb.rowFree(t, j * (ATOMS / 32), ATOMS / 32);

function hashArray(h: number, a: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) h = hash31(h, a[i]);
  return h;
}

const f32u = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/**
 * probe-candidates: the 1,024 probe actions of one call, the stream going on
 * from call to call; the checksum hashes the chosen nodes (or E_NOFIT) of
 * the first call, then the stream's four words after it.
 */
function probeCase(action: (s: number) => number, rng: Rng): Case {
  let checksum = 0;
  for (let s = 0; s < SETS; s++) checksum = hash31(checksum, action(s));
  const st = new Int32Array(4);
  rng.saveState(st, 0);
  for (let i = 0; i < 4; i++) checksum = hash31(checksum, st[i]);
  return { name: "probe-candidates", opsPerCall: SETS, checksum, run: () => { for (let s = 0; s < SETS; s++) action(s); } };
}

/** Build the case for one kernel and impl (each WASM case gets its own core instance). */
export function makeCase(kernel: Kernel, impl: Impl): Case {
  if (kernel === "wheel-schedule-advance") return wheelCases(impl);
  if (impl === "ts") return tsCase(kernel);
  const core = new Core(impl === "wasm-simd" ? "simd" : "scalar");
  const e = core.exports;
  switch (kernel) {
    case "mask-update": {
      const p = core.arena.put(maskInput());
      const checksum = e.microMaskUpdate(p, MASK_CHECK, 0, 42);
      return { name: kernel, opsPerCall: MASK_CALL, checksum, run: () => void e.microMaskUpdate(p, MASK_CALL, 0, 42) };
    }
    case "fastlog-score": {
      const p = core.arena.put(scoreInput());
      const checksum = e.microFastlogScore(p, SCORE_CHECK, 0, 0.5);
      return { name: kernel, opsPerCall: SCORE_CALL, checksum, run: () => void e.microFastlogScore(p, SCORE_CALL, 0, 0.5) };
    }
    case "zone-update": {
      const { o, h, s } = zoneInput();
      const op = core.arena.put(o), hp = core.arena.put(h), sp = core.arena.put(s);
      e.microZoneUpdate(op, hp, sp, ZONE_CHECK, ZONE_GAMMA, ZONE_BETA, ZONE_EPS);
      const mem = core.arena.u32;
      const checksum = hashArray(hashArray(0, mem.subarray(op >> 2, (op >> 2) + 256)), mem.subarray(hp >> 2, (hp >> 2) + 256));
      return { name: kernel, opsPerCall: ZONE_CALL, checksum, run: () => void e.microZoneUpdate(op, hp, sp, ZONE_CALL, ZONE_GAMMA, ZONE_BETA, ZONE_EPS) };
    }
    case "feasible-count": {
      const t = core.arena.put(bitmapInput(new SplitMix64(42))), out = core.arena.alloc(NODES);
      const n = e.bmCountAtLeast(t, NODES, ATOMS, K, out);
      const checksum = hashArray(hash31(0, n), core.arena.u8.subarray(out, out + NODES));
      return { name: kernel, opsPerCall: NODES, checksum, run: () => void e.bmCountAtLeast(t, NODES, ATOMS, K, out) };
    }
    case "contiguous-run": {
      const t = core.arena.put(bitmapInput(new SplitMix64(42))), out = core.arena.alloc(4 * NODES);
      const n = e.bmFirstRun(t, NODES, ATOMS, K, out);
      const checksum = hashArray(hash31(0, n), core.arena.u32.subarray(out >> 2, (out >> 2) + NODES));
      return { name: kernel, opsPerCall: NODES, checksum, run: () => void e.bmFirstRun(t, NODES, ATOMS, K, out) };
    }
    case "score-candidates": {
      const inp = fieldInput(rowPop);
      const f = core.arena.put(inp.field), t = core.arena.put(inp.table), c = core.arena.put(inp.cand), nz = core.arena.put(inp.noise);
      // one block, its constant fields written once; per call the candidate set (cand, noise) and contiguous, as a caller would
      const b = core.arena.alloc(CHOICE.BYTES, BLOCK_ALIGN), v = new Views(e.memory);
      writeChoice(v, b, { field: f, nodeCount: NODES, table: t, atoms: ATOMS, cand: c, n: NCAND, now: NOW, m: K, contiguous: 0, gamma: GAMMA, degradeAge: DEGRADE_AGE, noise: nz });
      const i32 = v.i32, bi = b >> 2;
      const call = (s: number) => {
        i32[bi + (CHOICE.CAND >> 2)] = c + s * NCAND * 4;
        i32[bi + (CHOICE.CONTIGUOUS >> 2)] = s & 1;
        i32[bi + (CHOICE.NOISE >> 2)] = nz + s * NCAND * 4;
        return e.scoreCandidates(b);
      };
      let checksum = 0;
      for (let s = 0; s < SETS; s++) checksum = hash31(checksum, call(s));
      return { name: kernel, opsPerCall: SETS, checksum, run: () => { for (let s = 0; s < SETS; s++) call(s); } };
    }
    case "probe-candidates": {
      const inp = fieldInput(rowPop);
      const f = core.arena.put(inp.field), t = core.arena.put(inp.table);
      const prober = new Prober(core, new Views(e.memory), NCAND, NODES), rng = new Rng(probeStream());
      prober.configure(ATOMS, GAMMA, DEGRADE_AGE, PROBE_SIGMA);
      const action = (s: number) => {
        const r = prober.choose(f, NODES, t, NCAND, NOW, K, s & 1, rng);
        return r < 0 ? Status.E_NOFIT : r;
      };
      return probeCase(action, rng);
    }
    case "zone-aggregate": {
      const inp = fieldInput(rowPop);
      const f = core.arena.put(inp.field), o = core.arena.put(inp.offsets);
      const sl = core.arena.alloc(4 * ZONES), ht = core.arena.alloc(4 * ZONES), b = core.arena.alloc(ZONE.BYTES, BLOCK_ALIGN);
      writeZone(new Views(e.memory), b, { field: f, nodeCount: NODES, offsets: o, zones: ZONES, now: NOW, degradeAge: DEGRADE_AGE, degradeHeat: DEGRADE_HEAT, outSlack: sl, outHeat: ht });
      const call = () => e.zoneAggregate(b);
      call();
      const m = core.arena.u32;
      const checksum = hashArray(hashArray(0, m.subarray(sl >> 2, (sl >> 2) + ZONES)), m.subarray(ht >> 2, (ht >> 2) + ZONES));
      return { name: kernel, opsPerCall: ZONES, checksum, run: () => void call() };
    }
  }
}

function tsCase(kernel: Exclude<Kernel, "wheel-schedule-advance">): Case {
  switch (kernel) {
    case "mask-update": {
      const m = maskInput();
      const checksum = rm.microMaskUpdate(m, MASK_CHECK, 0, 42) >>> 0;
      return { name: kernel, opsPerCall: MASK_CALL, checksum, run: () => void rm.microMaskUpdate(m, MASK_CALL, 0, 42) };
    }
    case "fastlog-score": {
      const t = scoreInput();
      const checksum = rm.microFastlogScore(t, SCORE_CHECK, 0, 0.5);
      return { name: kernel, opsPerCall: SCORE_CALL, checksum, run: () => void rm.microFastlogScore(t, SCORE_CALL, 0, 0.5) };
    }
    case "zone-update": {
      const { o, h, s } = zoneInput();
      rm.microZoneUpdate(o, h, s, ZONE_CHECK, ZONE_GAMMA, ZONE_BETA, ZONE_EPS);
      const checksum = hashArray(hashArray(0, f32u(o)), f32u(h));
      return { name: kernel, opsPerCall: ZONE_CALL, checksum, run: () => void rm.microZoneUpdate(o, h, s, ZONE_CALL, ZONE_GAMMA, ZONE_BETA, ZONE_EPS) };
    }
    case "feasible-count": {
      const t = bitmapInput(new SplitMix64(42)), out = new Uint8Array(NODES);
      const checksum = hashArray(hash31(0, rb.bmCountAtLeast(t, NODES, ATOMS, K, out)), out);
      return { name: kernel, opsPerCall: NODES, checksum, run: () => void rb.bmCountAtLeast(t, NODES, ATOMS, K, out) };
    }
    case "contiguous-run": {
      const t = bitmapInput(new SplitMix64(42)), out = new Int32Array(NODES);
      const checksum = hashArray(hash31(0, rb.bmFirstRun(t, NODES, ATOMS, K, out)), new Uint32Array(out.buffer));
      return { name: kernel, opsPerCall: NODES, checksum, run: () => void rb.bmFirstRun(t, NODES, ATOMS, K, out) };
    }
    case "score-candidates": {
      const inp = fieldInput(rowPop);
      const cands = Array.from({ length: SETS }, (_, s) => inp.cand.subarray(s * NCAND, (s + 1) * NCAND));
      const noises = Array.from({ length: SETS }, (_, s) => inp.noise.subarray(s * NCAND, (s + 1) * NCAND));
      const call = (s: number) =>
        rs.scoreCandidates(inp.field, NODES, inp.table, ATOMS, cands[s], NCAND, NOW, K, s & 1, GAMMA, DEGRADE_AGE, noises[s]);
      let checksum = 0;
      for (let s = 0; s < SETS; s++) checksum = hash31(checksum, call(s));
      return { name: kernel, opsPerCall: SETS, checksum, run: () => { for (let s = 0; s < SETS; s++) call(s); } };
    }
    case "probe-candidates": {
      // the twin, with the host's share of a deferred draw as Prober does it
      const inp = fieldInput(rowPop), rng = new Rng(probeStream()), zig = new ArrayBuffer(ZIG_BYTES);
      writeZigguratTables(zig, 0);
      const KN = new Uint32Array(zig, 0, 128), WN = new Float64Array(zig, 512, 128);
      const st = new Int32Array(6), seen = new Uint32Array(NODES / 32), cand = new Int32Array(NCAND), noise = new Float32Array(NCAND);
      const action = (s: number) => {
        rng.saveState(st, 0);
        let start = 0, r: number;
        for (;;) {
          r = rp.probeCandidates(inp.field, NODES, inp.table, ATOMS, NCAND, NOW, K, s & 1, GAMMA, DEGRADE_AGE, PROBE_SIGMA,
            st, KN, WN, seen, cand, noise, start);
          if (r !== Status.E_DEFER) break;
          rng.loadState(st, 0);
          noise[st[4]] = PROBE_SIGMA * zigguratFinish(rng, st[5]);
          rng.saveState(st, 0);
          start = st[4] + 1;
        }
        rng.loadState(st, 0);
        return r < 0 ? r : cand[r];
      };
      return probeCase(action, rng);
    }
    case "zone-aggregate": {
      const inp = fieldInput(rowPop);
      const sl = new Float32Array(ZONES), ht = new Float32Array(ZONES);
      const call = () => rs.zoneAggregate(inp.field, NODES, inp.offsets, ZONES, NOW, DEGRADE_AGE, DEGRADE_HEAT, sl, ht);
      call();
      const checksum = hashArray(hashArray(0, f32u(sl)), f32u(ht));
      return { name: kernel, opsPerCall: ZONES, checksum, run: () => void call() };
    }
  }
}
