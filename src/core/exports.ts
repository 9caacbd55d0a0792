// The typed export surface of build/laminar-*.wasm (docs/abi.md).
// Pointers are byte offsets; every function returns a status code < 0 on bad input.
export interface CoreExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  memoryBytes(): number;
  simdEnabled(): number;
  abiVersion(): number;

  // micro-kernels (assembly/micro.ts)
  microMaskBytes(): number;
  microScoreBytes(): number;
  microMaskUpdate(base: number, iters: number, start: number, seed: number): number;
  microFastlogScore(table: number, iters: number, start: number, gamma: number): number;
  microZoneUpdate(o: number, h: number, s: number, iters: number, gamma: number, beta: number, eps: number): number;

  // bitmaps (assembly/bitmap.ts): table/row/mask are u64-aligned row pointers
  bmFreeCount(table: number, count: number, atoms: number, out: number): number;
  bmCountAtLeast(table: number, count: number, atoms: number, k: number, out: number): number;
  bmFirstRun(table: number, count: number, atoms: number, k: number, out: number): number;
  bmFitsAt(table: number, count: number, atoms: number, demand: number, out: number): number;
  bmTakeAny(row: number, atoms: number, k: number, outMask: number): number;
  bmTakeRun(row: number, atoms: number, k: number, outMask: number): number;
  bmTake(row: number, atoms: number, mask: number): number;
  bmRelease(row: number, atoms: number, mask: number): number;
  bmRunMask(atoms: number, offset: number, k: number, outMask: number): number;

  // utility field (assembly/score.ts)
  utility(s: number, h: number, gamma: number): number;
  // block: a parameter block in core memory (src/core/blocks.ts, docs/abi.md "Parameter blocks")
  scoreCandidates(block: number): number;
  // probe action (assembly/probe.ts): sampling, noise and choice in one call; E_DEFER: see docs/abi.md
  probeCandidates(block: number): number;
  zoneAggregate(block: number): number;
  tegWeights(slack: number, heat: number, zones: number, gamma: number, tau: number, outCum: number): number;
  tegSample(cum: number, zones: number, u: number, n: number, out: number): number;

  // --- timing wheel (assembly/wheel.ts, docs/abi.md, "Timing wheel") ---
  // w: 8-byte-aligned region of wheelBytes(capacity); ticks are f64 integers in [0, 2^53).
  wheelBytes(capacity: number): number;
  wheelInit(w: number, capacity: number, now: number): number;
  wheelSchedule(w: number, id: number, deadline: number): number;
  wheelReschedule(w: number, id: number, deadline: number): number;
  wheelCancel(w: number, id: number): number;
  wheelAdvance(w: number, now: number, out: number, outCap: number): number;
  wheelNextDeadline(w: number): number;
  wheelDeadlineOf(w: number, id: number): number;
  wheelPending(w: number): number;
  wheelNow(w: number): number;
  // --- end timing wheel ---

  // runtime memory (assembly/memory.ts): block = memory block; recs = 48-byte records (6 f64), base/usage = f64[nodes] in KiB
  memRecordBytes(): number;
  memTick(block: number): number;

  // random streams (assembly/streamdraw.ts, docs/abi.md "Random streams"): state = u32[4] (Rng.saveState's
  // layout), zig = ziggurat tables (ZIG_BYTES, 8-aligned), out = f64[n]; kinds 0..5 draw, 6..8 map out in place
  streamDraw(kind: number, state: number, zig: number, out: number, n: number, arg: number): number;
  arrivalsBlockBytes(): number;
  arrivalsDraw(block: number, out: number, n: number): number;
  // two sorted runs of records merged (assembly/merge.ts, docs/abi.md "Merging records"): f64 records of `words`
  mergeRecords(dst: number, a: number, na: number, b: number, nb: number, words: number): number;

  // --- Zone admission engine (assembly/engine/, docs/abi.md "Zone engine"; block: src/core/engine-layout.ts) ---
  engineBlockBytes(): number;
  engineDaBytes(): number;
  engineEmitBytes(): number;
  engineEventBytes(): number;
  engineBytes(block: number): number;
  engineInit(block: number, base: number, bytes: number): number;
  engineRoomBytes(block: number): number;
  engineGrow(block: number, base: number, bytes: number): number;
  engineRun(block: number, until: number, msgAt: number): number;
  enginePost(block: number, delay: number, kind: number, subject: number): number;
  enginePostBatch(block: number, src: number, n: number): number;
  engineEmit(block: number, src: number, n: number): number;
  engineDispatch(block: number, src: number, n: number, cum: number, rng: number, lost: number): number;
  engineDispatchAll(block: number, src: number, n: number, cum: number, rng: number, lost: number): number;
  engineEmitAt(block: number, src: number, n: number, time: number, seq0: number): number;
  engineStageOwn(block: number, src: number, n: number): number;
  engineStagePulls(block: number, src: number, n: number, dst: number): number;
  enginePostAt(block: number, time: number, seq: number, kind: number, subject: number): number;
  engineTrace(block: number, on: number): number;
  engineTraceState(block: number, out: number): number;
  engineLagMode(block: number, step: number): number;
  engineSeqAt(block: number, time: number, seq: number): number;
  engineHistoryTrim(block: number, time: number): number;
  engineHistoryRecords(block: number): number;
  engineSeqRebase(block: number, offset: number): number;
  engineExchange(block: number): number;
  engineDrain(block: number, gt: number, now: number): number;
  engineArrive(block: number, gt: number, src: number, n: number, ids: number): number;
  engineSweep(block: number, gt: number, which: number): number;
  engineTasksBlockBytes(): number;
  engineSetVerdict(block: number, d: number, v: number): number;
  engineSetVerdicts(block: number, src: number, n: number): number;
  engineTaskState(block: number, t: number, home: number, awaiting: number): number;
  engineLandRequest(block: number, home: number, t: number, pd: number, pz: number, computeNs: number): number;
  engineLandAnswer(block: number, d: number, ok: number, computeNs: number, remaining: number, target: number, drift: number, started: number): number;
  // --- end Zone admission engine ---
}
