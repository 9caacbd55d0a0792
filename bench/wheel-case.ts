// The timing-wheel benchmark: schedule 65,536 timers at splitmix64 deadlines in
// [1, 100,000] ticks, then advance in steps of 1,000 ticks until every one has
// fired. One op = one timer scheduled and fired. The checksum hashes the
// firing order, which the ABI fixes (by deadline, then ascending id).
import { TimingWheel } from "../src/core/reference/wheel.js";
import { Core } from "../src/core/wasm.js";
import type { Case, Impl } from "./case.js";
import { hash31, SplitMix64 } from "./inputs.js";

const TIMERS = 65536;
const HORIZON = 100_000;
const STEP = 1000;

function deadlines(): Float64Array {
  const g = new SplitMix64(42);
  return Float64Array.from({ length: TIMERS }, () => 1 + g.mod(HORIZON));
}

export function wheelCases(impl: Impl): Case {
  const dl = deadlines();
  let run: () => number;
  if (impl === "ts") {
    const out = new Int32Array(TIMERS);
    run = () => {
      const w = new TimingWheel(TIMERS, 0);
      for (let id = 0; id < TIMERS; id++) w.schedule(id, dl[id]);
      let h = 0;
      for (let t = STEP; t <= HORIZON + STEP; t += STEP) {
        const n = w.advance(t, out, TIMERS);
        for (let i = 0; i < n; i++) h = hash31(h, out[i]);
      }
      return h;
    };
  } else {
    const core = new Core(impl === "wasm-simd" ? "simd" : "scalar");
    const e = core.exports;
    const w = core.arena.alloc(e.wheelBytes(TIMERS), 8);
    const out = core.arena.alloc(4 * TIMERS);
    run = () => {
      e.wheelInit(w, TIMERS, 0);
      for (let id = 0; id < TIMERS; id++) e.wheelSchedule(w, id, dl[id]);
      let h = 0;
      const mem = core.arena.i32;
      for (let t = STEP; t <= HORIZON + STEP; t += STEP) {
        const n = e.wheelAdvance(w, t, out, TIMERS);
        for (let i = 0; i < n; i++) h = hash31(h, mem[(out >> 2) + i]);
      }
      return h;
    };
  }
  const checksum = run();
  return { name: "wheel-schedule-advance", opsPerCall: TIMERS, checksum, run: () => void run() };
}
