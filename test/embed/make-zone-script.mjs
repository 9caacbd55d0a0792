#!/usr/bin/env node
// Writes test/embed/zone-script.txt: the fixed script of DA emissions that
// the embedding harnesses (zone-script.mjs, wasmtime_test.py, wasm2c_main.c)
// drive one Zone engine through, with the engine's parameters as the
// simulator lays them out for the default configuration (a model of 256
// nodes on the core's engine, read back from its block after start()) and
// the Zone's three stream states. Deterministic: the same dist/ gives the
// same file. Run after `npm run build`:
//
//   node test/embed/make-zone-script.mjs            # writes zone-script.txt
//   node test/embed/make-zone-script.mjs --memory   # writes zone-script-mem.txt: the memory model, the kernel's OOM rule
//   node test/embed/make-zone-script.mjs --airlock  # writes zone-script-airlock.txt: the memory model and Airlock
//   node test/embed/make-zone-script.mjs --out F    # writes F instead (test/embed/zone-script.test.ts)
//   node test/embed/zone-script.mjs build/laminar-scalar.wasm > test/embed/zone-script.expected
//   node test/embed/zone-script.mjs build/laminar-scalar.wasm test/embed/zone-script-mem.txt > test/embed/zone-script-mem.expected
//   node test/embed/zone-script.mjs build/laminar-scalar.wasm test/embed/zone-script-airlock.txt > test/embed/zone-script-airlock.expected
//
// The file's own header (below, HEADER) specifies the format and the driver.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const dist = (p) => import(join(ROOT, "dist", "src", p));
const { applySets, defaultConfig } = await dist("config/params-config.js");
const { LaminarModel } = await dist("laminar/model.js");
const { loadCore } = await dist("core/wasm.js");
const { streamRng } = await dist("sim/rng.js");
const { EF, MX } = await dist("core/engine-layout.js");
const { timingsOf } = await dist("laminar/timings.js");

/** The run's seed: the Zone's streams are the model's for this seed ("zone", "zone-net", "zone-report", index 0). */
const SEED = 1;
const NODES = 256;
/** Emissions are drawn over [0, SCRIPT_NS); the run ends at END_NS (a drain after the last one). */
const SCRIPT_NS = 50_000_000;
const END_NS = 250_000_000;
/** Arrivals per ms, and the shares of the special tasks. */
const RATE_PER_MS = 60;
const DUP_SHARE = 0.12; // a second DA of the task (a regenerated instance) 0 to 3 ms later
const OLD_SHARE = 0.03; // a task that arrived before the script began: its start deadline falls 0.5 to 4 ms after its emission
const POOR_SHARE = 0.03; // a task with a patience budget of 8 (one bounce and it fast-fails)
/** Initial DA and event capacities: the minimum, so every host grows its tables early. */
const CAP = 16;

/** The memory model (Exp5's process) with the kernel's OOM rule and no Airlock, or with Airlock: the engine's memory extension block. */
const AIRLOCK = process.argv.includes("--airlock");
const MEMORY = AIRLOCK || process.argv.includes("--memory");
const c = applySets(defaultConfig(), [`cluster.nodes=${NODES}`, `cluster.zoneSize=${NODES}`, `sim.seed=${SEED}`, "sim.engine=core",
  ...(MEMORY ? ["memory.enabled=true", `airlock.enabled=${AIRLOCK}`] : [])]);
const NAME = AIRLOCK ? "zone-script-airlock" : MEMORY ? "zone-script-mem" : "zone-script";
const core = loadCore("auto");
const model = new LaminarModel(core, c);
if (model.cluster.zones !== 1) throw new Error(`expected one Zone of ${NODES} nodes, got ${model.cluster.zones} Zones`);
model.start();
const ze = model.zoneEngine;
if (ze === null) throw new Error("the model does not run on the core's Zone engine");
const tm = timingsOf(c);

// the parameters ZoneEngine.init writes (src/laminar/zone-engine.ts), as it wrote them
const F64 = ["HOP", "DELTA", "WINDOW", "SILENCE", "DEADLINE", "REPORT", "MIN_GAP", "BROADCAST", "STALE", "TTL", "REPORT_DELAY",
  "ROW_SILENCE", "LOSS", "OS_JITTER_MS", "PATIENCE_FLOOR", "ACTION_COST", "REDIRECT_COST", "BOUNCE_COST", "RESERVE", "DEPOSIT",
  "BITMAP_NS", "CANDIDATES", "REPORT_JITTER", "ALPHA", "SIGMA", "GAMMA", "DEGRADE_HEAT"];
const I32 = ["GUARD", "PROJECTION", "RING", "COPIES", "ATOMS", "ROW_BYTES", "NODES", "ZONES", "Z0", "Z1"];
const params = [];
for (const name of F64) params.push([EF[name], "f", ze.getf(EF[name]), name]);
for (const name of I32) params.push([EF[name], "i", ze.geti(EF[name]), name]);
params.push([EF.DA_CAP, "i", CAP, "DA_CAP"], [EF.HEAP_CAP, "i", CAP, "HEAP_CAP"]);
params.sort((a, b) => a[0] - b[0]);
const num = (v) => {
  const s = String(v);
  if (Number(s) !== v || /[^0-9.e+-]/.test(s)) throw new Error(`${v} does not print as a plain number`);
  return s;
};

const streams = [["zone", EF.R_ZONE], ["zone-net", EF.R_NET], ["zone-report", EF.R_REPORT]].map(([name, field]) => {
  const st = new Int32Array(4);
  streamRng(SEED, name, 0).saveState(st, 0);
  return [field, name, Array.from(st, (w) => w >>> 0)];
});

// the memory extension block's parameters as ZoneEngine.initMemory wrote them, and the Zone's memory stream
const mparams = [], mstreams = [];
if (MEMORY) {
  const x = ze.geti(EF.MEMX), f64 = core.arena.f64, i32 = core.arena.i32;
  const MF = ["TICK", "SEED", "KAPPA", "SIGMA", "BURST_RATE", "BURST_SCALE", "CAP", "HIGH", "SAFE", "COMPRESSION", "SUSPEND", "SURVIVAL",
    "STATE_PULL", "OVERCLAIM_PROB", "OVERCLAIM_MAX"];
  const MI = ["AIRLOCK", "SCOPE_ALL", "ADMIT_PROJECTED", "OOM_LARGEST"];
  for (const name of MF) mparams.push([MX[name], "f", f64[(x >> 3) + MX[name]], name]);
  for (const name of MI) mparams.push([MX[name], "i", i32[(x >> 2) + 2 * MX[name]], name]);
  mparams.push([MX.TASK_CAP, "i", CAP, "TASK_CAP"]);
  const p = i32[(x >> 2) + 2 * MX.R_MEM];
  mstreams.push([MX.R_MEM, "zone-memory", Array.from(i32.subarray(p >> 2, (p >> 2) + 4), (w) => w >>> 0)]);
}

// ---- the emissions
const w = c.workload, r = streamRng(SEED, "zone-script");
const batchNs = tm.batchNs, deadlineNs = tm.deadlineNs;
const emits = []; // [time, task, node, class, atoms, arrival, ev, budget, service, key]
let task = 0;
for (let t = r.exp(1e6 / RATE_PER_MS); t < SCRIPT_NS; t += r.exp(1e6 / RATE_PER_MS)) {
  // the gateway's micro-batch that sends the task's first DA
  const arrival = Math.round(t), batch = Math.ceil(arrival / batchNs) * batchNs;
  const f = r.float() < w.fShare;
  const atoms = f ? w.fAtoms : w.lAtoms;
  const service = Math.max(1, Math.round((f ? r.exp(w.fMeanMs) : r.lognormal(w.lMu, w.lSigma)) * 1e6));
  const ev = (f ? w.priceF : w.priceL) * atoms;
  const special = r.float();
  let arr = arrival, budget = ev;
  if (special < OLD_SHARE) arr = batch - deadlineNs + Math.round(r.uniform(0.5, 4) * 1e6);
  else if (special < OLD_SHARE + POOR_SHARE) budget = 8;
  const id = task++;
  // with the memory model, the declared GiB (proportional to the atoms, as the simulator's workload declares it)
  const mem = MEMORY ? [atoms * c.memory.declaredPerAtomGiB] : [];
  if (MEMORY && !Number.isInteger(mem[0])) throw new Error(`declared memory ${mem[0]} GiB is not an integer: the script's numbers must be`);
  emits.push([batch, id, r.int(NODES), f ? 0 : 1, atoms, arr, ev, budget, service, id, ...mem]);
  if (r.float() < DUP_SHARE) emits.push([batch + r.int(4) * batchNs, id, r.int(NODES), f ? 0 : 1, atoms, arr, ev, budget, service, id, ...mem]);
}
// stable: each batch keeps the order the emissions were made in
emits.sort((a, b) => a[0] - b[0]);
const batches = new Set(emits.map((e) => e[0])).size;

const HEADER = `# Laminar Zone engine script (test/embed/make-zone-script.mjs writes it; do not edit).
# One Zone of ${NODES} nodes, ${model.cluster.atoms} atoms each, every atom free; the engine's parameters as the
# simulator lays them out for the default configuration${AIRLOCK ? " with the memory model and Airlock\n# (memory.enabled)" : MEMORY ? " with the memory model and the kernel's OOM rule\n# (memory.enabled, airlock.enabled=false)" : ""} (seed ${SEED}); ${emits.length} DA emissions of ${task} tasks
# in ${batches} gateway batches over ${SCRIPT_NS / 1e6} ms; the run ends at ${END_NS / 1e6} ms.
# Drivers: test/embed/zone-script.mjs (Node), wasmtime_test.py (Python), wasm2c_main.c (C);
# the transcript they must all print is test/embed/${NAME}.expected. docs/abi.md,
# "Walkthrough: a gateway on the engine", explains the driver.
#
# Lines (whitespace-separated; '#' starts a comment line):
#   param FIELD TYPE VALUE NAME   block field FIELD (byte 8 * FIELD): TYPE f = f64, i = i32 in the
#                                 field's first 4 bytes. Every other field is 0.
#   stream FIELD W0 W1 W2 W3 NAME the Zone's xoshiro128** state (u32 words) for pointer field FIELD
#                                 (R_ZONE, R_NET, R_REPORT): a 32-byte, 16-aligned region, words at 0..15,
#                                 bytes 16..31 zero.
#   mparam FIELD TYPE VALUE NAME  the memory model (scripts with it only): field FIELD of the memory extension
#                                 block (MEMX, block field 95: 512 bytes, 16-aligned, zeroed), as param.
#   mstream FIELD W0 W1 W2 W3 NAME the Zone's memory stream for pointer field FIELD (R_MEM) of that block.
#   end NS                        the run's end (a multiple of DELTA).
#   emit TIME TASK NODE CLASS ATOMS ARRIVAL EV BUDGET SERVICE KEY [DECLARED]
#                                 one DA emission (all integers): the emission record's fields
#                                 (emission time = TIME, flags 0; with the memory model the record is 80 bytes
#                                 and DECLARED, the task's declared GiB, is its f64 at 64), sorted by TIME;
#                                 emissions with the same TIME form batch b (b = 0, 1, ... in time order).
# Layout: the block (engineBlockBytes, 16-aligned), OFFSETS = i32[0, NODES], BITMAPS = NODES rows of
# ATOMS / 8 bytes all 0xff, the three stream regions, with the memory model the extension block and its
# stream region, then engineBytes(block) bytes 16-aligned for engineInit. Memory is handed out upwards
# from heapBase() (aligned), growing it when needed.
#
# Driver (every number an f64 as in the block; W runs 0, DELTA, 2 DELTA, ... while W < end), after
# engineInit and engineTrace(block, 1) (the event trace on), and with the memory model
# enginePost(block, TICK, 18, 0) (the first runtime tick; the engine posts the next ones):
#   1. For each batch b whose TIME is in [W, W + DELTA), in order: enginePost(block, TIME - W, 3, b).
#   2. r = engineRun(block, W + DELTA, Infinity) until r = 0:
#        r = 1: HOST_KIND is 3; write batch HOST_SUBJECT's emission records and engineEmit them
#               (on E_FULL grow and emit again);
#        r = E_FULL: bytes = engineRoomBytes(block), base = a new 16-aligned region of that size,
#               engineGrow(block, base, bytes) (enginePost's E_FULL likewise, then post again);
#        anything else: the run failed.
#   3. Read the OUT_N outbox records (10 f64 each at OUTBOX) in order; print each, and for a
#      pull request (kind 3: a = task, b = DA, x = compute ns) answer as the proxy:
#        at = time + HOP - DELTA + x;
#        v = 2 (duplicate) if the task already got a start, else 1 (start; the task has now started)
#            if at < ARRIVAL + DEADLINE, else 3 (late);
#        engineSetVerdict(block, b, v); enginePost(block, at - (W + DELTA), 7, b).
#      Then set OUT_N to 0.
#   4. After the last window print the counters (with the memory model its kill counters, with Airlock its
#      counters), then the event trace (engineTraceState).
# With Airlock (mparam AIRLOCK 1) the host is also the gateway side of Airlock. It keeps per task: started
# (above), HOME (0) and AWAITING (0), and each task's first emission line. In step 2, engineRun's third
# argument is MSGAT, the first pending delivery time of list L (below; Infinity when L is empty), and
#        r = 2: apply, in order, every entry of L with delivery time <= NOW and remove it: AWAITING(task) = 0,
#               engineTaskState(block, task, HOME(task), 0);
#        r = 1 with HOST_KIND 20: deliver message HOST_SUBJECT (the index of its record among the records
#               read in step 3 so far, counted from 0 over the whole run), by its kind:
#          4 (reactivate task a; its image is in the record's source Zone, field 1): HOME = that Zone, AWAITING = 1,
#               engineTaskState(block, a, HOME, 1), then engineEmit one record: the task's first emission
#               with TIME = NOW, NODE = (a * 7 + n) mod NODES (n: the secondary emissions made so far, from 0),
#               flags 2 (a secondary probe);
#          7 (a landing request for Zone dest): engineLandRequest(block, dest, a, b, c, x);
#          8 (the answer to probe a): engineLandAnswer(block, a, b, c, x, y, w, S) with S = 1 if the probe's
#               task (the i32 at byte 52 of its record, DAS + a * 64, DAS the pointer in block field 71)
#               has started, else 0.
#   In step 3, besides the pull requests (a record's first field is its delivery time): a record of kind
#   4, 7 or 8 is posted for its delivery, enginePost(block, time - (W + DELTA), 20, its index); one of
#   kind 2 with bit 2 of b (how) set, or of kind 5, appends (time, task a) to L.
# Transcript: one line per outbox record, its 10 fields; then
#   counters PROBE_ACTIONS BOUNCES COMPLETED RUNNING PROCESSED DA_ENDS[0] ... DA_ENDS[7]
#   memory OOM_L OOM_F            with the memory model: the extension block's kill counters (48, 49)
#   airlock S R A L C D P N       with Airlock: its counters (50 to 57: suspensions, resumed in place,
#                                 reactivations, landings, reclaimed, probe drops, preemptions, suspended now)
#   trace LANE0 LANE1 EVENTS      the trace's two i32 lanes and the events folded in
# A number prints as a decimal integer when it is an integer of magnitude at most 2^53 (-0 as 0),
# else as 0x and the 16 lowercase hex digits of its f64 bits. Fields are separated by one space.
`;

const lines = [HEADER.trimEnd()];
for (const [field, type, value, name] of params) lines.push(`param ${field} ${type} ${num(value)} ${name}`);
for (const [field, name, st] of streams) lines.push(`stream ${field} ${st.join(" ")} ${name}`);
for (const [field, type, value, name] of mparams) lines.push(`mparam ${field} ${type} ${num(value)} ${name}`);
for (const [field, name, st] of mstreams) lines.push(`mstream ${field} ${st.join(" ")} ${name}`);
lines.push(`end ${END_NS}`);
for (const e of emits) lines.push(`emit ${e.map(num).join(" ")}`);
const at = process.argv.indexOf("--out");
const out = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : join(HERE, `${NAME}.txt`);
writeFileSync(out, lines.join("\n") + "\n");
console.log(`${out}: ${emits.length} emissions of ${task} tasks in ${batches} batches`);
