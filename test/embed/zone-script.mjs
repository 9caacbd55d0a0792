#!/usr/bin/env node
// Drives one Zone engine of the core through a fixed script of DA emissions
// (test/embed/zone-script.txt; zone-script-mem.txt with the memory model,
// zone-script-airlock.txt with Airlock too, whose host is also Airlock's
// gateway side)
// and prints the transcript: every outbox record, in order, then the
// counters (with the memory model its kill counters) and the event trace. The script's header specifies
// the layout, the driver and the transcript's format; the Python
// (wasmtime_test.py) and C (wasm2c_main.c) harnesses run the same driver and
// must print test/embed/zone-script.expected (zone-script-mem.expected),
// line for line, as this one does. Needs only Node (no project code), so it is the reference a host in
// another language is checked against.
//
//   node test/embed/zone-script.mjs build/laminar-scalar.wasm [zone-script.txt] > transcript
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const SCRIPT = join(HERE, "zone-script.txt");
export const EXPECTED = join(HERE, "zone-script.expected");

// block fields (docs/abi.md, "Zone engine"; src/core/engine-layout.ts)
const NOW = 0, HOST_KIND = 5, HOST_SUBJECT = 6, HOP = 9, DELTA = 10, DEADLINE = 13, ATOMS = 37, NODES = 39, ZONES = 40;
const OFFSETS = 46, BITMAPS = 47, OUTBOX = 83, OUT_N = 84;
const COUNTERS = [100, 103, 110, 111, 118, 120, 121, 122, 123, 124, 125, 126, 127]; // PROBE_ACTIONS BOUNCES COMPLETED RUNNING PROCESSED DA_ENDS[0..7]
const E_FULL = -8, REC = 10, EMIT_BYTES = 64, EMIT_MEM_BYTES = 80, STREAM_BYTES = 32;
// the memory model (docs/abi.md, "The memory model and Airlock in the engine"): block field MEMX, the extension block, the tick
const MEMX = 95, MX_BYTES = 512, MX_TICK = 0, MX_OOM_L = 48, MX_OOM_F = 49, K_MEM = 18;
// Airlock (the same section): its switch, its counters (suspensions ... suspended now), the host's message deliveries
const MX_AIRLOCK = 16, MX_COUNTERS = [50, 51, 52, 53, 54, 55, 56, 57], K_MSG = 20, DAS = 71, DA_BYTES = 64, DA_TASK = 52;
const M_RETIRE = 2, M_REACTIVATE = 4, M_CLOSED = 5, M_LAND_REQ = 7, M_LAND_RESP = 8, R_CLOSED = 2, FLAG_SECONDARY = 2;
const K_BATCH = 3, K_PULL = 7, M_PULL = 3;
const V_START = 1, V_DUP = 2, V_LATE = 3;

/** The script: parameters [field, type, value], streams [field, words], the memory model's (none without it), the end, and the batches of emissions. */
export function parseScript(text) {
  const params = [], streams = [], mparams = [], mstreams = [], batches = [];
  let end = NaN;
  for (const raw of text.split("\n")) {
    const t = raw.trim().split(/\s+/);
    if (t[0] === "" || t[0].startsWith("#")) continue;
    if (t[0] === "param") params.push([Number(t[1]), t[2], Number(t[3])]);
    else if (t[0] === "stream") streams.push([Number(t[1]), t.slice(2, 6).map(Number)]);
    else if (t[0] === "mparam") mparams.push([Number(t[1]), t[2], Number(t[3])]);
    else if (t[0] === "mstream") mstreams.push([Number(t[1]), t.slice(2, 6).map(Number)]);
    else if (t[0] === "end") end = Number(t[1]);
    else if (t[0] === "emit") {
      const e = t.slice(1, 12).map(Number);
      if (batches.length === 0 || batches[batches.length - 1].time !== e[0]) batches.push({ time: e[0], emits: [] });
      batches[batches.length - 1].emits.push(e);
    } else throw new Error(`zone script: unknown line ${JSON.stringify(raw)}`);
  }
  return { params, streams, mparams, mstreams, end, batches };
}

/** A number as the transcript prints it: an integer up to 2^53 in decimal, anything else as its f64 bits. */
export function fmt(v) {
  if (Number.isInteger(v) && Math.abs(v) <= 2 ** 53) return String(v === 0 ? 0 : v);
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v, true);
  return "0x" + dv.getBigUint64(0, true).toString(16).padStart(16, "0");
}

/** The first line where two transcripts differ (undefined when equal), for a readable failure. */
export function firstDifference(got, want) {
  const g = got.split("\n"), w = want.split("\n");
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) return `line ${i + 1}: got ${JSON.stringify(g[i])}, want ${JSON.stringify(w[i])}`;
  }
  return undefined;
}

/** Run the script on a core build (its bytes); returns the transcript's lines. */
export function runZoneScript(wasm, text = readFileSync(SCRIPT, "utf8")) {
  const s = parseScript(text);
  const { exports: k } = new WebAssembly.Instance(new WebAssembly.Module(wasm), {});
  const mem = k.memory;
  let dv = new DataView(mem.buffer);
  let top = k.heapBase();
  const alloc = (bytes, align) => {
    const p = Math.ceil(top / align) * align;
    top = p + bytes;
    if (top > mem.buffer.byteLength) {
      mem.grow(Math.ceil((top - mem.buffer.byteLength) / 65536));
      dv = new DataView(mem.buffer);
    }
    new Uint8Array(mem.buffer, p, bytes).fill(0);
    return p;
  };
  const block = alloc(k.engineBlockBytes(), 16);
  const getf = (i) => dv.getFloat64(block + 8 * i, true), setf = (i, v) => dv.setFloat64(block + 8 * i, v, true);
  const geti = (i) => dv.getInt32(block + 8 * i, true), seti = (i, v) => dv.setInt32(block + 8 * i, v, true);
  const check = (r, what) => { if (r < 0) throw new Error(`zone script: ${what} returned ${r}`); return r; };

  // layout: parameters, offsets, bitmaps, streams, the engine's region
  for (const [field, type, value] of s.params) (type === "i" ? seti : setf)(field, value);
  const nodes = geti(NODES), rowBytes = geti(ATOMS) / 8;
  if (geti(ZONES) !== 1) throw new Error("zone script: one Zone expected");
  const offsets = alloc(8, 8);
  dv.setInt32(offsets, 0, true);
  dv.setInt32(offsets + 4, nodes, true);
  seti(OFFSETS, offsets);
  const bitmaps = alloc(nodes * rowBytes, 16);
  new Uint8Array(mem.buffer, bitmaps, nodes * rowBytes).fill(0xff);
  seti(BITMAPS, bitmaps);
  for (const [field, words] of s.streams) {
    const p = alloc(STREAM_BYTES, 16);
    words.forEach((w, j) => dv.setUint32(p + 4 * j, w, true));
    seti(field, p);
  }
  // the memory model: the extension block (its parameters and its stream), at block field MEMX
  const memory = s.mparams.length > 0;
  let memx = 0;
  const mx = (i) => dv.getFloat64(memx + 8 * i, true);
  if (memory) {
    memx = alloc(MX_BYTES, 16);
    for (const [field, type, value] of s.mparams) {
      if (type === "i") dv.setInt32(memx + 8 * field, value, true);
      else dv.setFloat64(memx + 8 * field, value, true);
    }
    for (const [field, words] of s.mstreams) {
      const p = alloc(STREAM_BYTES, 16);
      words.forEach((w, j) => dv.setUint32(p + 4 * j, w, true));
      dv.setInt32(memx + 8 * field, p, true);
    }
    seti(MEMX, memx);
  }
  const bytes = check(k.engineBytes(block), "engineBytes");
  check(k.engineInit(block, alloc(bytes, 16), bytes), "engineInit");
  check(k.engineTrace(block, 1), "engineTrace");
  const stride = memory ? EMIT_MEM_BYTES : EMIT_BYTES;
  const maxBatch = Math.max(0, ...s.batches.map((b) => b.emits.length));
  const emitAt = alloc(maxBatch * stride, 8);

  const grow = () => {
    const need = check(k.engineRoomBytes(block), "engineRoomBytes");
    check(k.engineGrow(block, alloc(need, 16), need), "engineGrow");
  };
  /** A call that may ask for room (E_FULL): grow, then call again. */
  const withRoom = (what, call) => {
    for (;;) {
      const r = call();
      if (r === 0) return;
      if (r !== E_FULL) throw new Error(`zone script: ${what} returned ${r}`);
      grow();
    }
  };
  const post = (delay, kind, subject) => withRoom(`enginePost(${delay}, ${kind}, ${subject})`, () => k.enginePost(block, delay, kind, subject));
  /** Emission records for script lines `es` (emission time, node and flags as given, else the line's) at emitAt, then engineEmit. */
  const emit = (es, what, time, node, flags = 0) => {
    es.forEach((e, i) => {
      const p = emitAt + i * stride;
      dv.setInt32(p, e[1], true); dv.setInt32(p + 4, node ?? e[2], true); dv.setInt32(p + 8, e[3], true); dv.setInt32(p + 12, e[4], true);
      dv.setFloat64(p + 16, time ?? e[0], true); dv.setFloat64(p + 24, e[5], true); dv.setFloat64(p + 32, e[6], true);
      dv.setFloat64(p + 40, e[7], true); dv.setFloat64(p + 48, e[8], true);
      dv.setUint32(p + 56, e[9], true); dv.setInt32(p + 60, flags, true);
      if (memory) dv.setFloat64(p + 64, e[10], true);
    });
    withRoom(`engineEmit of ${what}`, () => k.engineEmit(block, emitAt, es.length));
  };
  const emitBatch = (b) => emit(s.batches[b].emits, `batch ${b}`);

  // the proxy's table: each task's arrival, and whether it started
  const arrival = new Map(), started = new Set();
  for (const b of s.batches) for (const e of b.emits) arrival.set(e[1], e[5]);
  // Airlock's gateway side: each task's first emission line, its image's Zone and whether its secondary probes may
  // land; the records posted for delivery (by their index among all records read), and the list L of the
  // probes' end of hope (delivery time, task), applied when the engine stops at MSGAT
  const airlock = memory && dv.getInt32(memx + 8 * MX_AIRLOCK, true) !== 0;
  const first = new Map(), home = new Map(), posted = new Map(), L = [];
  for (const b of s.batches) for (const e of b.emits) if (!first.has(e[1])) first.set(e[1], e);
  let records = 0, secondaries = 0;
  const taskState = (t, h, awaiting) => withRoom("engineTaskState", () => k.engineTaskState(block, t, h, awaiting));
  const deliver = (i) => {
    const f = posted.get(i);
    posted.delete(i);
    const now = getf(NOW);
    if (f[2] === M_REACTIVATE) {
      const t = f[4];
      home.set(t, f[1]);
      taskState(t, f[1], 1);
      emit([first.get(t)], `the secondary probe of task ${t}`, now, (t * 7 + secondaries++) % nodes, FLAG_SECONDARY);
    } else if (f[2] === M_LAND_REQ) {
      withRoom("engineLandRequest", () => k.engineLandRequest(block, f[3], f[4], f[5], f[6], f[7]));
    } else {
      const t = dv.getInt32(geti(DAS) + f[4] * DA_BYTES + DA_TASK, true);
      withRoom("engineLandAnswer", () => k.engineLandAnswer(block, f[4], f[5], f[6], f[7], f[8], f[9], started.has(t) ? 1 : 0));
    }
  };
  const hop = getf(HOP), delta = getf(DELTA), deadline = getf(DEADLINE);
  const out = [];
  if (memory) post(mx(MX_TICK), K_MEM, 0); // the first runtime tick; the engine posts the next ones
  let next = 0;
  for (let w = 0; w < s.end; w += delta) {
    const wEnd = w + delta;
    for (; next < s.batches.length && s.batches[next].time < wEnd; next++) post(s.batches[next].time - getf(NOW), K_BATCH, next);
    for (;;) {
      const r = k.engineRun(block, wEnd, L.length > 0 ? L[0][0] : Infinity);
      if (r === 0) break;
      if (r === 1 && geti(HOST_KIND) === K_BATCH) emitBatch(geti(HOST_SUBJECT));
      else if (r === 1 && airlock && geti(HOST_KIND) === K_MSG) deliver(geti(HOST_SUBJECT));
      else if (r === 1) throw new Error(`zone script: host event of kind ${geti(HOST_KIND)}`);
      else if (r === 2) {
        // the probes' end of hope delivered by now, in order
        while (L.length > 0 && L[0][0] <= getf(NOW)) {
          const [, t] = L.shift();
          taskState(t, home.get(t) ?? 0, 0);
        }
      } else if (r === E_FULL) grow();
      else throw new Error(`zone script: engineRun returned ${r} at ${getf(NOW)} ns`);
    }
    const n = geti(OUT_N), box = geti(OUTBOX);
    for (let i = 0; i < n; i++) {
      const f = Array.from({ length: REC }, (_, j) => dv.getFloat64(box + 8 * (i * REC + j), true));
      out.push(f.map(fmt).join(" "));
      const index = records++;
      if (airlock && (f[2] === M_REACTIVATE || f[2] === M_LAND_REQ || f[2] === M_LAND_RESP)) {
        posted.set(index, f);
        post(f[0] - wEnd, K_MSG, index);
      } else if (airlock && ((f[2] === M_RETIRE && (f[5] & R_CLOSED) !== 0) || f[2] === M_CLOSED)) L.push([f[0], f[4]]);
      if (f[2] !== M_PULL) continue;
      const task = f[4], d = f[5], at = f[0] + hop - delta + f[7];
      let v;
      if (started.has(task)) v = V_DUP;
      else if (at < arrival.get(task) + deadline) { v = V_START; started.add(task); }
      else v = V_LATE;
      check(k.engineSetVerdict(block, d, v), "engineSetVerdict");
      post(at - wEnd, K_PULL, d);
    }
    seti(OUT_N, 0);
  }
  out.push(["counters", ...COUNTERS.map((i) => fmt(getf(i)))].join(" "));
  if (memory) out.push(["memory", fmt(mx(MX_OOM_L)), fmt(mx(MX_OOM_F))].join(" "));
  if (airlock) out.push(["airlock", ...MX_COUNTERS.map((i) => fmt(mx(i)))].join(" "));
  const tr = alloc(16, 8);
  check(k.engineTraceState(block, tr), "engineTraceState");
  dv = new DataView(mem.buffer);
  out.push(["trace", fmt(dv.getInt32(tr, true)), fmt(dv.getInt32(tr + 4, true)), fmt(dv.getFloat64(tr + 8, true))].join(" "));
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const wasm = process.argv[2];
  if (!wasm) {
    console.error("usage: node test/embed/zone-script.mjs build/laminar-scalar.wasm [zone-script.txt]");
    process.exit(2);
  }
  const lines = runZoneScript(readFileSync(wasm), readFileSync(process.argv[3] ?? SCRIPT, "utf8"));
  process.stdout.write(lines.join("\n") + "\n");
}
