#!/usr/bin/env node
// Computes the checksums of the native bench's kernels (bench/native/README.md)
// with a wasm build of the core, from the same deterministic inputs, and (with
// --native) compares them with `bench/native/bin/bench-native* --check`.
//
//   node test/embed/bench_checksums.mjs [simd|scalar|both] [--native]
//
// It is also the executable reference of the input definitions for the JS bench.
// Needs build/ and, for probe-candidates' stream and normal draws and the parameter
// blocks' writers (src/core/blocks.ts), dist/ (npm run build).
// Prints one JSON object {flavor: {kernel: checksum}}; exits 1 on a mismatch.
import { readFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const which = args.find((a) => !a.startsWith("--")) ?? "both";
const flavors = which === "both" ? ["simd", "scalar"] : [which];

// splitmix64, seed 42 (README.md)
function splitmix(seed) {
  let s = BigInt.asUintN(64, BigInt(seed));
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}
const hash31 = (h, v) => (Math.imul(h, 31) + (v >>> 0)) >>> 0;
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const bits = (x) => { f32[0] = x; return u32[0]; };

const NODES = 4096, ATOMS = 256, WORDS = 4, K = 64;
function genBitmaps(next, rows /* BigUint64Array view */) {
  rows.fill(0n);
  for (let i = 0; i < NODES; i++) {
    let free = Number(next() & 1n);
    let a = 0;
    while (a < ATOMS) {
      const len = 1 + Number(next() % 128n);
      const end = Math.min(a + len, ATOMS);
      if (free) for (let b = a; b < end; b++) rows[i * WORDS + (b >> 6)] |= 1n << BigInt(b & 63);
      a += len;
      free ^= 1;
    }
  }
}

// probe-candidates: the stream (src/sim/rng.ts) and the ziggurat's tables and deferred draws
// (src/sim/ziggurat.ts) are the simulator's own, from the build in dist/
let sim;
try {
  sim = {
    ...(await import("../../dist/src/sim/rng.js")), ...(await import("../../dist/src/sim/ziggurat.js")),
    ...(await import("../../dist/src/core/blocks.js")),
  };
} catch {
  console.error("bench_checksums: dist/ is missing; run npm run build (npm ci does it)");
  process.exit(2);
}
/** Typed views over the memory, as the block writers take them. */
const views = (b) => ({ i32: new Int32Array(b), f32: new Float32Array(b), f64: new Float64Array(b) });

function probeChecksum(x, alloc, buf, field, table) {
  const SETS = 1024, N = 16, SIGMA = 0.5, E_DEFER = -13;
  const rng = alloc(24), zig = alloc(sim.ZIG_BYTES), seen = alloc(512), cand = alloc(N * 4), noise = alloc(N * 4);
  const block = alloc(sim.PROBE.BYTES);
  sim.writeZigguratTables(buf(), zig);
  new Uint32Array(buf(), seen, 128).fill(0);
  const next = splitmix(42), st = new Int32Array(buf(), rng, 6);
  for (let i = 0; i < 2; i++) { const w = next(); st[2 * i] = Number(w & 0xffffffffn); st[2 * i + 1] = Number(w >> 32n); }
  let c = 0;
  for (let s = 0; s < SETS; s++) {
    let start = 0, r;
    for (;;) {
      sim.writeProbe(views(buf()), block, {
        field, nodeCount: NODES, table, atoms: ATOMS, k: N, now: 1000, m: K, contiguous: s & 1, gamma: 0.5,
        degradeAge: 500, sigma: SIGMA, rng, zig, seen, cand, noise, start,
      });
      r = x.probeCandidates(block);
      if (r !== E_DEFER) break;
      // the host's share, as src/laminar/probe.ts does it: finish draw s4[4] from its word s4[5], in the stream
      const s4 = new Int32Array(buf(), rng, 6), i = s4[4], stream = new sim.Rng(s4.subarray(0, 4));
      new Float32Array(buf(), noise, N)[i] = SIGMA * sim.zigguratFinish(stream, s4[5]);
      stream.saveState(s4, 0);
      start = i + 1;
    }
    c = hash31(c, r < 0 ? r : new Int32Array(buf(), cand, N)[r]);
  }
  for (let i = 0; i < 4; i++) c = hash31(c, new Int32Array(buf(), rng, 4)[i]);
  return c;
}

function checksums(flavor) {
  const mod = new WebAssembly.Module(readFileSync(join(root, "build", `laminar-${flavor}.wasm`)));
  const x = new WebAssembly.Instance(mod, {}).exports;
  x.memory.grow(96); // 6 MiB more than the initial memory
  let top = (x.heapBase() + 63) & ~63;
  const alloc = (bytes) => { const p = top; top = (top + bytes + 63) & ~63; return p; };
  const buf = () => x.memory.buffer;
  const out = {};

  { // mask-update
    const base = alloc(16384 * 64), w = new BigUint64Array(buf(), base, 16384 * 8), next = splitmix(42);
    for (let k = 0; k < w.length; k++) w[k] = next();
    out["mask-update"] = x.microMaskUpdate(base, 1000000, 0, 42) >>> 0;
  }
  { // fastlog-score
    const t = alloc(262144 * 4), w = new Uint32Array(buf(), t, 262144), next = splitmix(42);
    for (let k = 0; k < w.length; k++) w[k] = Number(next() >> 32n);
    out["fastlog-score"] = x.microFastlogScore(t, 1000000, 0, 0.5);
  }
  { // zone-update
    const o = alloc(1024), h = alloc(1024), s = alloc(1024), next = splitmix(42);
    const O = new Float32Array(buf(), o, 256), H = new Float32Array(buf(), h, 256), S = new Float32Array(buf(), s, 256);
    O.fill(0);
    for (let j = 0; j < 256; j++) { H[j] = Number(next() >> 40n) / 16777216; S[j] = Number(next() >> 40n) / 16777216; }
    if (x.microZoneUpdate(o, h, s, 1000, 0.25, 0.5, 1 / 1048576) !== 0) throw new Error("microZoneUpdate failed");
    let c = 0;
    for (let j = 0; j < 256; j++) c = hash31(c, bits(O[j]));
    for (let j = 0; j < 256; j++) c = hash31(c, bits(H[j]));
    out["zone-update"] = c;
  }
  // bitmaps
  const table = alloc(NODES * WORDS * 8), out8 = alloc(NODES), out32 = alloc(NODES * 4);
  {
    const next = splitmix(42);
    genBitmaps(next, new BigUint64Array(buf(), table, NODES * WORDS));
    let n = x.bmCountAtLeast(table, NODES, ATOMS, K, out8);
    let c = hash31(0, n);
    const o8 = new Uint8Array(buf(), out8, NODES);
    for (let i = 0; i < NODES; i++) c = hash31(c, o8[i]);
    out["feasible-count"] = c;
    n = x.bmFirstRun(table, NODES, ATOMS, K, out32);
    c = hash31(0, n);
    const o32 = new Int32Array(buf(), out32, NODES);
    for (let i = 0; i < NODES; i++) c = hash31(c, o32[i]);
    out["contiguous-run"] = c;
  }
  { // utility field: same stream, continued after the bitmaps
    const next = splitmix(42);
    genBitmaps(next, new BigUint64Array(buf(), table, NODES * WORDS));
    const field = alloc(NODES * 5 * 4), F = new Float32Array(buf(), field, NODES * 5);
    const free = new Int32Array(buf(), out32, NODES);
    x.bmFreeCount(table, NODES, ATOMS, out32);
    for (let j = 0; j < NODES; j++) {
      F[j] = free[j];
      F[NODES + j] = Number(next() % 32n);
      F[2 * NODES + j] = (Number(next() % 2001n) - 1000) / 16384;
      F[3 * NODES + j] = (Number(next() % 2001n) - 1000) / 16384;
      F[4 * NODES + j] = 1000 - Number(next() % 600n);
    }
    const SETS = 1024, N = 16;
    const cand = alloc(SETS * N * 4), noise = alloc(SETS * N * 4);
    const C = new Int32Array(buf(), cand, SETS * N), Z = new Float32Array(buf(), noise, SETS * N);
    for (let s = 0; s < SETS; s++) {
      for (let i = 0; i < N; i++) C[s * N + i] = Number(next() % 4096n);
      for (let i = 0; i < N; i++) Z[s * N + i] = (Number(next() % 65536n) - 32768) / 16777216;
    }
    let c = 0;
    const block = alloc(sim.CHOICE.BYTES);
    for (let s = 0; s < SETS; s++) {
      sim.writeChoice(views(buf()), block, {
        field, nodeCount: NODES, table, atoms: ATOMS, cand: cand + s * N * 4, n: N, now: 1000, m: K, contiguous: s & 1,
        gamma: 0.5, degradeAge: 500, noise: noise + s * N * 4,
      });
      const r = x.scoreCandidates(block);
      c = hash31(c, r);
    }
    out["score-candidates"] = c;
    out["probe-candidates"] = probeChecksum(x, alloc, buf, field, table);
    const ZONES = 16, offsets = alloc((ZONES + 1) * 4), slack = alloc(ZONES * 4), heat = alloc(ZONES * 4);
    const OF = new Int32Array(buf(), offsets, ZONES + 1);
    for (let z = 0; z <= ZONES; z++) OF[z] = z * 256;
    const zb = alloc(sim.ZONE.BYTES);
    sim.writeZone(views(buf()), zb, {
      field, nodeCount: NODES, offsets, zones: ZONES, now: 1000, degradeAge: 500, degradeHeat: 8, outSlack: slack, outHeat: heat,
    });
    if (x.zoneAggregate(zb) !== ZONES) throw new Error("zoneAggregate failed");
    const SL = new Float32Array(buf(), slack, ZONES), HE = new Float32Array(buf(), heat, ZONES);
    c = 0;
    for (let z = 0; z < ZONES; z++) c = hash31(c, bits(SL[z]));
    for (let z = 0; z < ZONES; z++) c = hash31(c, bits(HE[z]));
    out["zone-aggregate"] = c;
  }
  if (typeof x.wheelInit === "function") { // wheel-schedule-advance
    const TIMERS = 65536, HORIZON = 100000, STEP = 1000, next = splitmix(42);
    const w = alloc(x.wheelBytes(TIMERS)), outp = alloc(4 * TIMERS);
    const dl = Array.from({ length: TIMERS }, () => 1 + Number(next() % BigInt(HORIZON)));
    x.wheelInit(w, TIMERS, 0);
    for (let id = 0; id < TIMERS; id++) x.wheelSchedule(w, id, dl[id]);
    let c = 0;
    for (let t = STEP; t <= HORIZON + STEP; t += STEP) {
      const n = x.wheelAdvance(w, t, outp, TIMERS);
      const o = new Int32Array(buf(), outp, n);
      for (let i = 0; i < n; i++) c = hash31(c, o[i]);
    }
    out["wheel-schedule-advance"] = c;
  }
  return out;
}

const result = {};
for (const f of flavors) result[f] = checksums(f);
let bad = 0;
if (flavors.length === 2) {
  for (const k of Object.keys(result.simd)) {
    if (result.simd[k] !== result.scalar[k]) { console.error(`MISMATCH ${k}: simd ${result.simd[k]} scalar ${result.scalar[k]}`); bad++; }
  }
}
if (args.includes("--native")) {
  for (const exe of ["bench-native", "bench-native-128"]) {
    const path = join(root, "bench", "native", "bin", exe);
    if (!existsSync(path)) { console.error(`(${exe} not built; run node bench/native/build.mjs)`); continue; }
    const r = spawnSync(path, [exe, "--check"], { encoding: "utf8" });
    const j = JSON.parse(r.stdout);
    result[exe] = Object.fromEntries(j.kernels.map((k) => [k.name, k.checksum]));
    const ref = result[flavors[0]];
    for (const [k, v] of Object.entries(result[exe])) {
      if (k in ref && ref[k] !== v) { console.error(`MISMATCH ${k}: ${exe} ${v} wasm-${flavors[0]} ${ref[k]}`); bad++; }
    }
  }
}
console.log(JSON.stringify(result, null, 1));
process.exit(bad ? 1 : 0);
