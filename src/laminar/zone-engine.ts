// Laminar's Zone side on the core's Zone admission engine (assembly/engine/;
// docs/engine.md): the DAs' addressing and bounces, the nodes' queues,
// windows, arbitration and reservations, pulls, starts and completions, and
// Z-HAF's reports, snapshots, broadcasts and uploads run in WebAssembly,
// on one event queue in core memory that the gateway side (TypeScript:
// arrivals, TEG, the task table, timers, metrics) posts its own events to.
// The engine runs its events and hands back each of the host's in turn, so
// every event runs in the same (time, sequence) order as on the TypeScript
// engine, and the result is the same, number for number (the twin is the
// rest of src/laminar; test/laminar/zone-engine.test.ts compares them).
//
// This file writes the engine's parameters (the model's configuration,
// timings, cluster rows and Zone streams) and has the core lay the engine
// out and start it (engineInit) in place of the model's own start of the
// Zone side, grows a table when the engine asks for room, and carries
// emissions, verdicts, outgoing messages and counters across.
import type { Config } from "../config/params.js";
import { engineUnsupported } from "../config/params-rules.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import { Status } from "../core/status.js";
import {
  DA_BYTES, EF, EM, EM_DECLARED, EMIT_BYTES, EMIT_MEM_BYTES, END_SLOTS, ENGINE_BLOCK_BYTES, EV_BYTES, GT, HOST_EVENT, HOST_MESSAGE, MX,
  MX_BYTES, RAN_TO, STREAM_BYTES,
} from "../core/engine-layout.js";
import type { EventQueue } from "../sim/event-queue.js";
import type { Fingerprint } from "../sim/fingerprint.js";
import type { Rng } from "../sim/rng.js";
import { RING_BLOCK_BYTES, type TimerSweep } from "../sim/timer-sweep.js";
import type { SlotStore } from "../sim/slot-store.js";
import type { Timings } from "./timings.js";
import type { Mailbox } from "./mailbox.js";
import type { GatewayLog } from "./gateway-log.js";

/** An enginePostBatch record: f64 absolute time, i32 kind, i32 subject. */
const POST_BYTES = 16;
import type { RunMetrics, SurvivalCounters } from "../metrics/run-metrics.js";
import type { ZoneField } from "./zhaf.js";

/** DA record offsets the host reads and writes (assembly/engine/layout.ts). */
const DA_TASK = 52, DA_VERDICT = 58;
/**
 * Bytes of records copied into core memory at a time for the engine to pick
 * from (stageOwn, stagePulls): 16 KiB, half the first-level cache, so that
 * the engine reads them back from there. A batch of the gateway's log at
 * 32,000 nodes is some 300 KiB: copied whole, it was read back from memory
 * (the two threads' first-level misses a task 7% and 4% up).
 */
const CHUNK_BYTES = 16384;

/** Bytes of a message record (mailbox.ts's REC doubles). */
const REC_BYTES = 80;

/** Whether a run with this configuration uses the engine (sim.engine; core with an unsupported setting is an error). */
export function usesEngine(c: Config): boolean {
  if (c.sim.engine === "ts") return false;
  const why = engineUnsupported(c);
  if (why === null) return true;
  if (c.sim.engine === "core") throw new RangeError(`sim.engine=core: the core's Zone engine does not run ${why}; use sim.engine=auto or ts`);
  return false;
}


/** What the engine is built from (the model's configuration, cluster and streams, before its start()). */
export interface ZoneSide {
  c: Config;
  nodes: number;
  zones: number;
  atoms: number;
  rowBytes: number;
  z0: number;
  z1: number;
  timings: Timings;
  offsets: Int32Array;
  /** The nodes' bitmap rows in core memory (as the cluster laid them out, rigid jobs taken). */
  bitmaps: number;
  /** The Z-HAF ring and table copies, the report delay and row silence (zhaf.ts). */
  zhaf: { ring: number; copies: number; reportDelayNs: number; rowSilenceNs: number };
  rZone: Rng[];
  rNet: Rng[];
  rReport: Rng[];
  /** The memory model's process and streams (memory.enabled), else null. */
  memory: EngineMemory | null;
}

/** What the engine's memory model is built from (the model's timings, MemoryField's process, the Zones' memory streams). */
export interface EngineMemory {
  seed: number;
  rMem: Rng[];
  /** The host's task table capacity (the engine's task table starts there and grows with it). */
  taskCap: number;
}

/** The DA table's and the event queue's least first capacity. */
const DEFAULT_CAPACITY = 1 << 14;

/**
 * The first capacity of a table that holds about `perNode` entries a node
 * for an engine of `nodes` nodes: a power of two, at least
 * DEFAULT_CAPACITY. At rho 0.8 a run holds up to about 3.2 DAs and 6.4
 * pending events a node (32,000 nodes, 2026-12-02), so with 4 and 8 the DA
 * table and the event queue seldom grow: a growth copies the table in the
 * middle of the run (at 32,000 nodes on two threads, 26 ms for the DA
 * table and 18 ms for the queue, while the other thread waited). Room not
 * yet used is address space only: its pages are not touched until used.
 */
export function firstCapacity(nodes: number, perNode: number): number {
  let c = DEFAULT_CAPACITY;
  while (c < perNode * nodes) c *= 2;
  return c;
}

/** Entries a node the DA table and the event queue start with room for (firstCapacity). */
const DAS_PER_NODE = 4, EVENTS_PER_NODE = 8;

/** The engine of one model instance (a run, or one Zone partition of it). */
export class ZoneEngine {
  /**
   * Initial capacity of the DA table and the event queue (they grow on
   * demand; tests set it small to exercise growth); null: firstCapacity's,
   * from the engine's share of the nodes.
   */
  static initialCapacity: number | null = null;
  /** Set by init(): the engine's tables exist. */
  private ready = false;
  /** Lag mode (lagMode): the host posts only between runs that ended at their `until`, where the history records them. */
  private lag = false;
  private stoppedAtEvent = false;
  readonly block: number;
  readonly queue: CoreQueue;
  private readonly k: CoreExports;
  /** Emissions of the current gateway batch, written to core memory and handed over in one call. */
  private emitAt = 0;
  private emitCap = 0;
  private emitN = 0;
  /** Events posted and answers given since the last run call, handed over in one call each before it (in order). */
  private postAt = 0;
  private postCap = 0;
  private postN = 0;
  /** Message records copied in from a shared region (stagePulls), CHUNK_BYTES of them at a time: their region in core memory. */
  private msgAt = 0;
  /** dispatch's buffers: the lost DAs' tasks, and the gateway's stream while the engine draws from it. */
  private lostAt = 0;
  private lostCap = 0;
  private rngAt = 0;
  /** Where engineArrive and engineSweep record their posts for the gateway's log (loggedPostsRoom), and room for how many. */
  private loggedPostsAt = 0;
  private loggedPostsCap = 0;
  /** Counters as last carried to the model (they are carried as differences). */
  private readonly last = new Float64Array(ENGINE_BLOCK_BYTES / 8);
  private readonly lastMem = new Float64Array(MX_BYTES / 8);
  /** The memory extension block (0: the memory model is off) and the emission record's size. */
  private memx = 0;
  /** 16 bytes the trace's state is read through (traceInto). */
  private traceOut = 0;
  private emitBytes = EMIT_BYTES;
  /** The gateway's tasks block, engineArrive's and engineDrain's (tasksSetup; 0: none). */
  private gt = 0;
  /** The outbox's records counted by outboxGrowth so far. */
  private outCounted = 0;

  /** Views of core memory: rebuilt after this class's allocations, and whenever another's growth detached them. */
  private f64!: Float64Array;
  private i32!: Int32Array;
  private u8!: Uint8Array;

  constructor(private readonly core: Core, private readonly onGrow: () => void) {
    this.k = core.exports;
    if (this.k.engineBlockBytes() !== ENGINE_BLOCK_BYTES || this.k.engineDaBytes() !== DA_BYTES
      || this.k.engineEmitBytes() !== EMIT_BYTES || this.k.engineEventBytes() !== EV_BYTES) {
      throw new Error("zone engine: the core's record sizes differ from src/core/engine-layout.ts (a stale build?)");
    }
    this.block = core.arena.alloc(ENGINE_BLOCK_BYTES, 16);
    core.arena.u8.fill(0, this.block, this.block + ENGINE_BLOCK_BYTES);
    this.f64 = core.arena.f64;
    this.i32 = core.arena.i32;
    this.u8 = core.arena.u8;
    this.queue = new CoreQueue(this);
  }

  /** Rebuild the views when memory has grown (a grown memory detaches the old buffer: its views read as empty). */
  private views(): void {
    if (this.f64.length === 0) {
      this.f64 = this.core.arena.f64;
      this.i32 = this.core.arena.i32;
      this.u8 = this.core.arena.u8;
    }
  }

  // block access
  getf(i: number): number { this.views(); return this.f64[(this.block >> 3) + i]; }
  setf(i: number, v: number): void { this.views(); this.f64[(this.block >> 3) + i] = v; }
  geti(i: number): number { this.views(); return this.i32[(this.block >> 2) + 2 * i]; }
  seti(i: number, v: number): void { this.views(); this.i32[(this.block >> 2) + 2 * i] = v; }

  private check(r: number, what: string): void {
    if (r < 0) throw new Error(`zone engine: ${what} failed with status ${r}`);
  }

  private alloc(bytes: number, align = 16): number {
    const p = this.core.arena.alloc(Math.max(bytes, align), align);
    this.f64 = this.core.arena.f64;
    this.i32 = this.core.arena.i32;
    this.u8 = this.core.arena.u8;
    this.onGrow();
    return p;
  }

  private put(a: Int32Array | Float64Array): number {
    const p = this.alloc(a.byteLength, 8);
    if (a instanceof Int32Array) this.i32.set(a, p >> 2);
    else this.f64.set(a, p >> 3);
    return p;
  }

  /**
   * Lay the engine out and start it (engineInit): the Zone side as the model
   * has it after its start(), every node's state published as snapshot 0,
   * each own node's first report drawn and each own Zone's first snapshot
   * scheduled. The streams are the model's, not yet drawn from.
   */
  init(s: ZoneSide): void {
    const c = s.c, t = s.timings, z = s.zhaf, Z = s.zones;
    const f = (i: number, v: number) => this.setf(i, v), n = (i: number, v: number) => this.seti(i, v);
    f(EF.HOP, t.hopNs); f(EF.DELTA, t.deltaNs); f(EF.WINDOW, t.windowNs); f(EF.SILENCE, t.silenceNs); f(EF.DEADLINE, t.deadlineNs);
    f(EF.REPORT, t.reportNs); f(EF.MIN_GAP, t.minReportGapNs); f(EF.BROADCAST, t.broadcastNs); f(EF.STALE, t.staleNs); f(EF.TTL, t.ttlNs);
    f(EF.REPORT_DELAY, z.reportDelayNs); f(EF.ROW_SILENCE, z.rowSilenceNs);
    f(EF.LOSS, c.network.loss); f(EF.OS_JITTER_MS, c.network.osJitterMs); f(EF.PATIENCE_FLOOR, c.da.patienceFloor);
    f(EF.ACTION_COST, c.da.actionCost); f(EF.REDIRECT_COST, c.da.redirectCost); f(EF.BOUNCE_COST, c.da.bounceCost);
    f(EF.RESERVE, c.reservation.enabled ? 1 : 0); f(EF.DEPOSIT, c.reservation.deposit); f(EF.BITMAP_NS, c.costs.bitmapNs);
    f(EF.CANDIDATES, c.da.candidates); f(EF.REPORT_JITTER, c.zhaf.reportJitter); f(EF.ALPHA, c.zhaf.smoothing);
    f(EF.GAMMA, c.da.lambda); f(EF.SIGMA, c.da.noiseSigma); f(EF.DEGRADE_HEAT, c.zhaf.degradeHeat);
    n(EF.GUARD, c.zhaf.missingnessGuard ? 1 : 0); n(EF.PROJECTION, c.zhaf.projection ? 1 : 0);
    n(EF.ACCEPT_PROJECTED, c.da.acceptProjected ? 1 : 0);
    n(EF.RING, z.ring); n(EF.COPIES, z.copies); n(EF.ATOMS, s.atoms); n(EF.ROW_BYTES, s.rowBytes); n(EF.NODES, s.nodes); n(EF.ZONES, Z);
    const own = s.offsets[s.z1] - s.offsets[s.z0];
    n(EF.Z0, s.z0); n(EF.Z1, s.z1); n(EF.DA_CAP, ZoneEngine.initialCapacity ?? firstCapacity(own, DAS_PER_NODE));
    n(EF.OFFSETS, this.put(s.offsets));
    n(EF.BITMAPS, s.bitmaps);
    for (const [field, rs] of [[EF.R_ZONE, s.rZone], [EF.R_NET, s.rNet], [EF.R_REPORT, s.rReport]] as const) {
      const p = this.alloc(Z * STREAM_BYTES, 16);
      for (let i = 0; i < Z; i++) rs[i].saveState(this.i32, (p + i * STREAM_BYTES) >> 2);
      n(field, p);
    }
    n(EF.HEAP_CAP, ZoneEngine.initialCapacity ?? firstCapacity(own, EVENTS_PER_NODE));
    if (s.memory !== null) this.initMemory(c, t, s.memory, Z);
    const bytes = this.k.engineBytes(this.block);
    this.check(bytes, "engineBytes");
    const base = this.alloc(bytes, 16);
    this.check(this.k.engineInit(this.block, base, bytes), "engineInit");
    this.emitCap = 4096;
    this.emitAt = this.alloc(this.emitCap * this.emitBytes, 8);
    this.postCap = 4096;
    this.postAt = this.alloc(this.postCap * POST_BYTES, 8);
    this.ready = true;
  }

  /** The memory extension block: the process, watermarks, Airlock's timers and choices, the Zones' memory streams. */
  private initMemory(c: Config, t: Timings, m: EngineMemory, Z: number): void {
    const x = this.alloc(MX_BYTES, 16);
    this.core.arena.u8.fill(0, x, x + MX_BYTES);
    this.memx = x;
    this.emitBytes = EMIT_MEM_BYTES;
    const f = (i: number, v: number) => { this.f64[(x >> 3) + i] = v; }, n = (i: number, v: number) => { this.i32[(x >> 2) + 2 * i] = v; };
    const mc = c.memory, a = c.airlock;
    f(MX.TICK, t.tickNs); f(MX.SEED, m.seed); f(MX.KAPPA, mc.driftKappa); f(MX.SIGMA, mc.noiseSigma); f(MX.BURST_RATE, mc.burstRate);
    f(MX.BURST_SCALE, mc.burstScale); f(MX.CAP, t.capKiB); f(MX.HIGH, t.highKiB); f(MX.SAFE, t.safeKiB);
    f(MX.COMPRESSION, a.compressionRatio); f(MX.SUSPEND, t.suspendNs); f(MX.SURVIVAL, t.survivalNs); f(MX.STATE_PULL, t.statePullNs);
    f(MX.OVERCLAIM_PROB, mc.overclaimProb); f(MX.OVERCLAIM_MAX, mc.overclaimMax);
    n(MX.AIRLOCK, a.enabled ? 1 : 0); n(MX.SCOPE_ALL, a.suspensionScope === "all" ? 1 : 0);
    n(MX.ADMIT_PROJECTED, a.admitCheck === "projected" ? 1 : 0); n(MX.OOM_LARGEST, mc.oomRule === "largest" ? 1 : 0);
    n(MX.TASK_CAP, Math.max(16, Math.min(m.taskCap, ZoneEngine.initialCapacity ?? DEFAULT_CAPACITY)));
    const p = this.alloc(Z * STREAM_BYTES, 16);
    for (let i = 0; i < Z; i++) m.rMem[i].saveState(this.i32, (p + i * STREAM_BYTES) >> 2);
    this.i32[(x >> 2) + 2 * MX.R_MEM] = p;
    this.seti(EF.MEMX, x);
  }

  /** The aggregates of Zone z's snapshot 0 (for the gateway's table at the start). */
  initialAggregate(z: number): [number, number] {
    const i = z * this.geti(EF.RING);
    return [this.f64[(this.geti(EF.AGG_S) >> 3) + i], this.f64[(this.geti(EF.AGG_H) >> 3) + i]];
  }

  /** Make a call that changes nothing when it returns E_FULL, growing what it asks room for until it succeeds; its result (>= 0). */
  private withRoom(what: string, call: () => number): number {
    for (;;) {
      const r = call();
      if (r >= 0) return r;
      if (r !== Status.E_FULL) throw new Error(`zone engine: ${what} failed with status ${r}`);
      this.makeRoom();
    }
  }

  /** Grow what the engine asked room for (E_FULL): a new region for the table, which the core moves there. */
  private makeRoom(): void {
    const bytes = this.k.engineRoomBytes(this.block);
    this.check(bytes, "engineRoomBytes");
    const p = this.alloc(bytes, 16);
    this.check(this.k.engineGrow(this.block, p, bytes), "engineGrow");
  }

  /**
   * Post (kind, subject) delay ns from now on the engine's queue (the host's
   * events and the Zones' alike). Posts wait in order in a buffer that goes
   * over in one call before anything else reaches the queue (emissions, a
   * run), so their sequence numbers are those single posts would get.
   */
  post(delay: number, kind: number, subject: number): void {
    this.mayPost();
    if (this.postN === this.postCap) this.postAt = this.grown(this.postAt, (this.postCap *= 2), POST_BYTES, this.postN);
    this.views();
    const b = this.postAt + this.postN++ * POST_BYTES;
    this.f64[b >> 3] = this.f64[this.block >> 3] + delay; // the clock is the block's field 0
    this.i32[(b + 8) >> 2] = kind;
    this.i32[(b + 12) >> 2] = subject;
  }

  /** The host may post now (post, stagePulls): the engine is laid out, and in lag mode a run has ended, not stopped at an event. */
  private mayPost(): void {
    if (!this.ready) throw new Error("zone engine: an event posted before the engine was laid out (the model's start())");
    if (this.lag && this.stoppedAtEvent) throw new Error("zone engine: in lag mode the host posts only at the end of a run (its history places them before the events at that time)");
  }

  /** A copy of a buffer's first n records in a new region of ncap records; returns it. */
  private grown(at: number, ncap: number, rec: number, n: number): number {
    const p = this.alloc(ncap * rec, 8);
    this.core.arena.u8.copyWithin(p, at, at + n * rec);
    return p;
  }

  private flushPosts(): void {
    if (this.postN === 0) return;
    this.withRoom("enginePostBatch (the posted events)", () => this.k.enginePostBatch(this.block, this.postAt, this.postN));
    this.postN = 0;
  }

  /** Room for n more staged emissions (the region doubles as often as needed). */
  private stageRoom(n: number): void {
    while (this.emitN + n > this.emitCap) this.emitAt = this.grown(this.emitAt, (this.emitCap *= 2), this.emitBytes, this.emitN);
  }

  /** The gateway's log carries emission records without the memory model's field (gatewayOnceOk rules the model out). */
  private logsEmissions(): void {
    if (this.emitBytes !== EMIT_BYTES) throw new Error("zone engine: the gateway's log carries emissions without the memory model's field");
  }

  /** A DA of task t emitted at `emitted` goes to launchpad `node` (-1: drawn by dispatch), staged with the batch's others (dispatch, emitSeq). */
  emit(t: number, node: number, cls: number, m: number, emitted: number, arrival: number, ev: number, budget: number, service: number, key: number, flags: number, declaredGiB: number): void {
    this.stageRoom(1);
    this.views();
    const b = this.emitAt + this.emitN++ * this.emitBytes, i32 = this.i32, f64 = this.f64;
    if (this.memx !== 0) f64[(b + EM_DECLARED) >> 3] = declaredGiB;
    i32[(b + EM.TASK) >> 2] = t; i32[(b + EM.NODE) >> 2] = node; i32[(b + EM.CLS) >> 2] = cls; i32[(b + EM.M) >> 2] = m;
    f64[(b + EM.EMITTED) >> 3] = emitted; f64[(b + EM.ARRIVAL) >> 3] = arrival; f64[(b + EM.EV) >> 3] = ev;
    f64[(b + EM.BUDGET) >> 3] = budget; f64[(b + EM.SERVICE) >> 3] = service;
    i32[(b + EM.KEY) >> 2] = key | 0; i32[(b + EM.FLAGS) >> 2] = flags;
  }

  /**
   * The gateway's micro-batch on the emissions staged (emit, node unset):
   * the engine draws each DA's Zone from TEG's weights at `cum` (the
   * Gateway's weigh()) and its launchpad from `rng` (the gateway's stream,
   * carried over and back), loses some on the hop, and takes the rest that
   * fall in its Zones (engineDispatch). With `log` (the gateway run once for
   * Zone partitions elsewhere: engineDispatchAll), every DA that crosses the
   * hop keeps its launchpad (a lost one's reads -1) and none is taken here:
   * the batch goes whole into the log, whose replay hands each Zone
   * partition its own (stageOwn). Returns how many were lost; their tasks
   * are lostTask(0..).
   */
  dispatch(cum: number, rng: Rng, log: GatewayLog | null = null): number {
    if (this.emitN === 0) return 0;
    if (log !== null) this.logsEmissions();
    this.flushPosts(); // the events posted before these emissions keep their place
    if (this.lostCap < this.emitN) {
      this.lostCap = Math.max(this.emitCap, 2 * this.lostCap);
      this.lostAt = this.alloc(this.lostCap * 4, 8);
    }
    if (this.rngAt === 0) this.rngAt = this.alloc(16, 16);
    this.views();
    rng.saveState(this.i32, this.rngAt >> 2);
    const lost = log === null
      ? this.withRoom("engineDispatch", () => this.k.engineDispatch(this.block, this.emitAt, this.emitN, cum, this.rngAt, this.lostAt))
      : this.withRoom("engineDispatchAll", () => this.k.engineDispatchAll(this.block, this.emitAt, this.emitN, cum, this.rngAt, this.lostAt));
    this.views();
    rng.loadState(this.i32, this.rngAt >> 2);
    if (log !== null) log.batch(this.f64, this.emitAt >> 3, this.emitN);
    this.emitN = 0;
    return lost;
  }

  /**
   * A batch of the gateway's log (n emission records at word `at` of ops,
   * their launchpads drawn): those whose launchpad is one of this engine's
   * nodes join the staged emissions, in order (emitSeq hands them over).
   * Returns how many.
   */
  stageOwn(ops: Float64Array<ArrayBufferLike>, at: number, n: number): number {
    const w = EMIT_BYTES >> 3, chunk = Math.floor(CHUNK_BYTES / EMIT_BYTES);
    this.logsEmissions();
    this.stageRoom(n);
    this.views();
    // the batch a chunk at a time after the staged records (copies between buffers, bit for bit), each chunk's
    // records of this engine's nodes then moved up over the others' in core memory (engineStageOwn)
    let own = 0;
    for (let i = 0; i < n; i += chunk) {
      const m = Math.min(chunk, n - i), p = this.emitAt + (this.emitN + own) * EMIT_BYTES;
      this.f64.set(ops.subarray(at + w * i, at + w * (i + m)), p >> 3);
      const k = this.k.engineStageOwn(this.block, p, m);
      if (k === Status.E_ID) {
        const nodes = this.geti(EF.NODES);
        let v = 0;
        for (let j = 0; j < m && v >= -1 && v < nodes; j++) v = this.i32[((p + j * EMIT_BYTES) >> 2) + (EM.NODE >> 2)];
        throw new Error(`gateway log: a DA handed over to node ${v}, outside the cluster's ${nodes}`);
      }
      this.check(k, "engineStageOwn");
      own += k;
    }
    this.emitN += own;
    return own;
  }

  /**
   * A Zone partition's own messages of a half, back at a window's end
   * (src/run/thread-once.ts, the gateway run elsewhere): n records at word
   * `at` of f, all for the gateway side; each pull request from one of its
   * Zones posts its completion, as the model's accept does one by one
   * (engineStagePulls, in core memory, into the posts the next run takes).
   */
  stagePulls(f: Float64Array<ArrayBufferLike>, at: number, n: number): void {
    if (n === 0) return;
    this.mayPost();
    const w = REC_BYTES >> 3, chunk = Math.floor(CHUNK_BYTES / REC_BYTES);
    if (this.msgAt === 0) this.msgAt = this.alloc(chunk * REC_BYTES, 8);
    while (this.postN + n > this.postCap) this.postAt = this.grown(this.postAt, (this.postCap *= 2), POST_BYTES, this.postN);
    this.views();
    // a chunk at a time into core memory, each chunk's pull requests staged as posts after the others
    for (let i = 0; i < n; i += chunk) {
      const m = Math.min(chunk, n - i);
      this.f64.set(f.subarray(at + w * i, at + w * (i + m)), this.msgAt >> 3);
      const k = this.k.engineStagePulls(this.block, this.msgAt, m, this.postAt + this.postN * POST_BYTES);
      this.check(k, "engineStagePulls");
      this.postN += k;
    }
  }

  /** The task of the i-th DA the last dispatch lost. */
  lostTask(i: number): number {
    return this.i32[(this.lostAt >> 2) + i];
  }

  /**
   * Lag mode (a Zone partition that replays the gateway's log after running
   * past it; assembly/engine/history.ts): the engine's own sequence numbers
   * in steps of `step`, and a history of its counter, so that what the
   * gateway posted can take its place afterwards (seqAt, postSeq, emitSeq).
   */
  lagMode(step: number): void {
    this.flushPosts();
    this.check(this.k.engineLagMode(this.block, step), "engineLagMode");
    this.lag = true;
  }

  /**
   * Fold every event the engine runs from now on, the host's included, into
   * `fp` (assembly/engine/trace.ts; the same hash as src/sim/fingerprint.ts),
   * as the TypeScript engine does with its fingerprint. fp takes the
   * engine's trace at each traceInto call.
   */
  startTrace(): void {
    this.flushPosts();
    this.check(this.k.engineTrace(this.block, 1), "engineTrace");
  }

  /** The engine's trace so far into fp (its lanes and count replaced). */
  traceInto(fp: Fingerprint): void {
    if (this.traceOut === 0) this.traceOut = this.alloc(16, 8);
    const out = this.traceOut;
    this.check(this.k.engineTraceState(this.block, out), "engineTraceState");
    this.views();
    fp.restore(this.i32[out >> 2], this.i32[(out >> 2) + 1], this.f64[(out >> 3) + 1]);
  }

  /** Lag mode: the engine's sequence counter just before the point (time, seq) of the run. */
  seqAt(time: number, seq: number): number {
    this.flushPosts(); // the host's posts so far are part of the history
    const v = this.k.engineSeqAt(this.block, time, seq);
    if (v < 0) throw new Error(`zone engine: no history at ${time} ns (status ${v}): the gateway's log replayed behind what the engine kept`);
    return v;
  }

  /** Lag mode: every sequence number the engine holds less `offset` (a multiple of the step), their order unchanged. */
  rebase(offset: number): void {
    this.flushPosts();
    this.check(this.k.engineSeqRebase(this.block, offset), "engineSeqRebase");
  }

  /** Lag mode: the history before `time` is no longer asked for. */
  trimHistory(time: number): void {
    this.check(this.k.engineHistoryTrim(this.block, time), "engineHistoryTrim");
  }

  /** Lag mode: post (kind, subject) at absolute `time` with sequence number `seq`. */
  postSeq(time: number, seq: number, kind: number, subject: number): void {
    this.flushPosts();
    this.withRoom("enginePostAt", () => this.k.enginePostAt(this.block, time, seq, kind, subject));
  }

  /** Lag mode: hand over the staged emissions, each addressing its launchpad at `time`, with sequence numbers seq0, seq0 + 1, ... */
  emitSeq(time: number, seq0: number): void {
    if (this.emitN === 0) return;
    this.flushPosts();
    this.withRoom("engineEmitAt", () => this.k.engineEmitAt(this.block, this.emitAt, this.emitN, time, seq0));
    this.emitN = 0;
  }

  /**
   * The proxy's answer v to DA d's pull request, written into the DA's
   * record (what engineSetVerdict writes: the engine reads it when the pull
   * completes; between run calls nothing else reads it).
   */
  setVerdict(d: number, v: number): void {
    this.views();
    this.u8[this.i32[(this.block >> 2) + 2 * EF.DAS] + d * DA_BYTES + DA_VERDICT] = v;
  }

  /** Run until the next host event (HOST_EVENT), the host's message time `msgAt` (HOST_MESSAGE) or `until` (RAN_TO). */
  run(until: number, msgAt: number): number {
    this.flushPosts();
    for (;;) {
      const r = this.k.engineRun(this.block, until, msgAt);
      this.stoppedAtEvent = r === HOST_EVENT || r === HOST_MESSAGE;
      if (r === RAN_TO || r === HOST_EVENT || r === HOST_MESSAGE) return r;
      if (r === Status.E_FULL) { this.makeRoom(); continue; }
      throw new Error(`zone engine: an internal inconsistency stopped the run at ${this.getf(EF.NOW)} ns (code ${r}); the TypeScript model (sim.engine=ts) runs the same configuration`);
    }
  }

  /**
   * The gateway side's state of task t that the Zones read (memory model):
   * the Zone of its suspended image and whether its secondary probes may
   * still land.
   */
  taskState(t: number, home: number, awaiting: number): void {
    this.withRoom("engineTaskState", () => this.k.engineTaskState(this.block, t, home, awaiting));
  }

  /** M_LAND_REQ delivered to Zone `home` here (at the clock: a host event's time). */
  landRequest(home: number, t: number, pd: number, pz: number, computeNs: number): void {
    this.flushPosts();
    this.withRoom("engineLandRequest", () => this.k.engineLandRequest(this.block, home, t, pd, pz, computeNs));
  }

  /** M_LAND_RESP delivered to secondary probe d here; `started(t)`: whether the probe's task has started (the gateway side's word). */
  landAnswer(d: number, ok: number, computeNs: number, remaining: number, target: number, drift: number, started: (t: number) => boolean): void {
    this.flushPosts();
    this.views();
    const t = this.i32[(this.geti(EF.DAS) + d * DA_BYTES + DA_TASK) >> 2];
    const st = started(t) ? 1 : 0;
    this.withRoom("engineLandAnswer", () => this.k.engineLandAnswer(this.block, d, ok, computeNs, remaining, target, drift, st));
  }

  get hostKind(): number { return this.geti(EF.HOST_KIND); }
  get hostSubject(): number { return this.geti(EF.HOST_SUBJECT); }
  get now(): number { return this.getf(EF.NOW); }
  get live(): number { return this.geti(EF.DA_LIVE); }
  get squatting(): number { return this.getf(EF.SQUATTING); }
  get running(): number { return this.getf(EF.RUNNING); }
  /** Ledger entries now (memory model). */
  get suspended(): number { this.views(); return this.memx === 0 ? 0 : this.f64[(this.memx >> 3) + MX.SUSPENDED]; }

  /** Move the messages the engine's Zones sent since the last call, in order, to `box`; returns how many it moved. */
  takeOutbox(box: Mailbox): number {
    const n = this.geti(EF.OUT_N);
    if (n > 0) box.append(this.f64, this.geti(EF.OUTBOX) >> 3, n);
    this.seti(EF.OUT_N, 0);
    return n;
  }

  /** Messages the engine's Zones sent since the last call (they stay in its outbox until exchange). */
  outboxGrowth(): number {
    const n = this.geti(EF.OUT_N), d = n - this.outCounted;
    this.outCounted = n;
    return d;
  }

  /**
   * The end of a window of an engine that holds every Zone, without the
   * memory model (engineExchange): the outbox moves into the inbox in
   * canonical order, and each pull request's completion is scheduled, as
   * the model's exchange does. Returns the records moved; the host applies
   * them in order where they lie (inboxAt, inboxCount) and empties the
   * inbox (inboxClear) once it has applied them all.
   */
  exchange(): number {
    this.flushPosts(); // what the host posted before keeps its place
    const n = this.withRoom("engineExchange", () => this.k.engineExchange(this.block));
    this.outCounted = 0;
    return n;
  }

  /** The inbox's first record, as an index into f64view() (after the outbox's OUT_CAP records). */
  inboxAt(): number {
    return (this.geti(EF.OUTBOX) + this.geti(EF.OUT_CAP) * REC_BYTES) >> 3;
  }

  get inboxCount(): number { return this.geti(EF.IN_N); }

  inboxClear(): void { this.seti(EF.IN_N, 0); }

  /**
   * Lay out the gateway's tasks block (engineDrain's and engineArrive's;
   * GT) and its out region, for `outCap` messages a drain call, with the
   * gateway's parameters (once, before the run: it allocates core memory).
   * `maxInstances` 0: regeneration off. Returns the block's byte offset.
   */
  tasksSetup(p: {
    outCap: number; deadlineNs: number; quietNs: number; maxInstances: number; squatterRatio: number; squatterAtoms: number; sweepNs: number;
  }): number {
    if (this.k.engineTasksBlockBytes() !== GT.BYTES) throw new Error("zone engine: the core's tasks block size differs from src/core/engine-layout.ts (a stale build?)");
    this.gt = this.alloc(GT.BYTES, 8);
    const out = this.alloc(p.outCap * GT.OUT_BYTES, 8), rng = this.alloc(16, 16), g = this.gt >> 2, f = this.gt >> 3;
    const rings = this.alloc(2 * RING_BLOCK_BYTES, 8);
    this.u8.fill(0, this.gt, this.gt + GT.BYTES);
    this.i32[g + 2 * GT.RING_DEADLINE] = rings;
    this.i32[g + 2 * GT.RING_REGEN] = p.maxInstances > 0 ? rings + RING_BLOCK_BYTES : 0;
    this.f64[f + GT.SWEEP] = p.sweepNs;
    this.i32[g + 2 * GT.OUT] = out;
    this.i32[g + 2 * GT.OUT_CAP] = p.outCap;
    this.i32[g + 2 * GT.RNG] = rng;
    this.i32[g + 2 * GT.MAX_INSTANCES] = p.maxInstances;
    this.i32[g + 2 * GT.SQUAT_ATOMS] = p.squatterAtoms;
    this.f64[f + GT.DEADLINE] = p.deadlineNs;
    this.f64[f + GT.QUIET] = p.quietNs;
    this.f64[f + GT.SQUAT_RATIO] = p.squatterRatio;
    return this.gt;
  }

  /**
   * engineArrive (assembly/engine/arrive.ts): n arrivals (arrivalsDraw's
   * records at src) into the task table's slots at ids (i32 pairs: slot,
   * generation; 0: the engine takes them as the cyclic store `slots` would,
   * its generations at genAt, and the store's state comes back), with the
   * table's columns at columnsAt for cap tasks, the
   * next key, the squatters' stream `rng` and the timer rings (carried over
   * and back); each task's first DA joins the emissions staged for the
   * gateway's next batch, its timers join the rings or the queue. Returns
   * the next key; the block's ARRIVED counts the arrivals by class.
   */
  arrive(columnsAt: number, cap: number, src: number, n: number, ids: number, key: number, rng: Rng | null, deadlines: TimerSweep, regens: TimerSweep | null,
    log: GatewayLog | null = null, slots: SlotStore | null = null, genAt = 0): number {
    this.flushPosts(); // the host's posts before these arrivals' keep their place
    this.stageRoom(n);
    if (log !== null) this.loggedPostsRoom(2 * n + 2);
    deadlines.reserve(n);
    regens?.reserve(n);
    this.views();
    const g = this.gt >> 2, f = this.gt >> 3, i32 = this.i32, f64 = this.f64;
    const dl = i32[g + 2 * GT.RING_DEADLINE], rg = i32[g + 2 * GT.RING_REGEN];
    deadlines.toBlock(f64, i32, dl);
    if (regens !== null) regens.toBlock(f64, i32, rg);
    i32[g + 2 * GT.BASE] = columnsAt;
    i32[g + 2 * GT.CAP] = cap;
    i32[g + 2 * GT.EMIT] = this.emitAt;
    i32[g + 2 * GT.EMIT_N] = this.emitN;
    i32[g + 2 * GT.EMIT_CAP] = this.emitCap;
    this.f64[f + GT.NEXT_KEY] = key;
    i32[g + 2 * GT.POSTS] = log !== null ? this.loggedPostsAt : 0;
    if (ids === 0) {
      // the engine takes the slots itself, where their generations lie, as the store would
      const st = slots!.cyclicState();
      i32[g + 2 * GT.GEN] = genAt;
      i32[g + 2 * GT.SLOT_CURSOR] = st.cursor;
      i32[g + 2 * GT.SLOT_FRESH] = st.fresh;
      i32[g + 2 * GT.SLOT_LIVE] = st.live;
    }
    const r = i32[g + 2 * GT.RNG];
    if (rng !== null) rng.saveState(i32, r >> 2);
    this.withRoom("engineArrive", () => this.k.engineArrive(this.block, this.gt, src, n, ids));
    this.views();
    const v32 = this.i32, v64 = this.f64;
    if (rng !== null) rng.loadState(v32, r >> 2);
    deadlines.fromBlock(v64, v32, dl);
    if (regens !== null) regens.fromBlock(v64, v32, rg);
    this.emitN = v32[g + 2 * GT.EMIT_N];
    if (ids === 0) slots!.resumeCyclic(v32[g + 2 * GT.SLOT_CURSOR], v32[g + 2 * GT.SLOT_FRESH], v32[g + 2 * GT.SLOT_LIVE]);
    if (log !== null) this.logPosts(log);
    return v64[f + GT.NEXT_KEY];
  }

  /** Room for n posts recorded for the gateway's log (the region grows by doubling). */
  private loggedPostsRoom(n: number): void {
    if (this.loggedPostsCap >= n) return;
    this.loggedPostsCap = Math.max(n, 2 * this.loggedPostsCap);
    this.loggedPostsAt = this.alloc(this.loggedPostsCap * GT.POST_BYTES, 8);
  }

  /** The gateway's log records the engine's posts (the block's POSTS_N at loggedPostsAt) as the engine's onPost records the host's. */
  private logPosts(log: GatewayLog): void {
    this.views();
    const p = this.loggedPostsAt >> 3, v64 = this.f64;
    for (let i = 0, k = this.i32[(this.gt >> 2) + 2 * GT.POSTS_N]; i < k; i++) log.post(v64[p + 3 * i], v64[p + 3 * i + 1], v64[p + 3 * i + 2]);
  }

  /**
   * engineSweep (assembly/engine/sweep.ts): ring `which` (0 the deadlines,
   * 1 the regeneration checks) swept at the clock, each due timer handed to
   * the task table's timerDue there (the columns at columnsAt for cap
   * tasks, the slots' generations at genAt), the ring's next sweep armed
   * (carried over and back). Returns the timers handed over.
   */
  sweep(which: 0 | 1, ring: TimerSweep, columnsAt: number, cap: number, genAt: number, log: GatewayLog | null): number {
    this.flushPosts(); // the host's posts before these keep their place
    // a post per due timer and the next sweep's
    if (log !== null) this.loggedPostsRoom(ring.dueBefore(this.getf(EF.NOW) + ring.period) + 1);
    this.views();
    const g = this.gt >> 2, i32 = this.i32, at = i32[g + 2 * (which === 0 ? GT.RING_DEADLINE : GT.RING_REGEN)];
    ring.toBlock(this.f64, i32, at);
    i32[g + 2 * GT.BASE] = columnsAt;
    i32[g + 2 * GT.CAP] = cap;
    i32[g + 2 * GT.GEN] = genAt;
    i32[g + 2 * GT.POSTS] = log !== null ? this.loggedPostsAt : 0;
    const n = this.withRoom("engineSweep", () => this.k.engineSweep(this.block, this.gt, which));
    this.views();
    ring.fromBlock(this.f64, this.i32, at);
    if (log !== null) this.logPosts(log);
    return n;
  }

  /** The last engineArrive's arrivals of class c (0 F, 1 L, 2 squatters). */
  arrived(c: number): number {
    return this.i32[(this.gt >> 2) + 2 * (GT.ARRIVED + c)];
  }

  /**
   * engineDrain (assembly/engine/drain.ts): the proxy's answers to the
   * inbox's pull requests and its DA ends, from position `head` on and
   * delivered at or before `now`, applied to the task table's columns in
   * core memory (at columnsAt, for cap tasks), up to the first upload or
   * the out region's capacity. Returns how many were applied; the block's
   * HEAD is the position after them, its STARTS, FAILS and FREED count the
   * out columns' records. With inAt, the messages are the inN records
   * there instead (the gateway run once); with verdictsAt, the answers go
   * there (verdictsOut of them: DA, Zone, verdict) instead of into DAs here.
   * With genAt (the slots' generations, src/laminar/store.ts), the slots to
   * free are freed there and FREED counts them.
   */
  drainTasks(columnsAt: number, cap: number, head: number, now: number, inAt = 0, inN = 0, verdictsAt = 0, genAt = 0): number {
    this.views();
    const g = this.gt >> 2;
    this.i32[g + 2 * GT.GEN] = genAt;
    this.i32[g + 2 * GT.BASE] = columnsAt;
    this.i32[g + 2 * GT.CAP] = cap;
    this.i32[g + 2 * GT.HEAD] = head;
    this.i32[g + 2 * GT.IN] = inAt;
    this.i32[g + 2 * GT.IN_N] = inN;
    this.i32[g + 2 * GT.VERDICTS] = verdictsAt;
    const r = this.k.engineDrain(this.block, this.gt, now);
    this.check(r, "engineDrain");
    return r;
  }

  /** How many answers the last drainTasks wrote at its verdictsAt. */
  verdictsOut(): number {
    return this.i32[(this.gt >> 2) + 2 * GT.VERDICTS_N];
  }

  /** Core memory as f64 (current: a grown memory's old view reads as empty). */
  f64view(): Float64Array {
    this.views();
    return this.f64;
  }

  /**
   * Add the counters' growth since the last call to the metrics and the
   * Zone field's counters; set the deposits forfeited per Zone; returns the
   * events the engine ran since the last call.
   */
  carryCounters(met: RunMetrics, zhaf: ZoneField, forfeit: Float64Array): number {
    this.views();
    const f = this.f64, b = this.block >> 3, last = this.last;
    if (f[b + EF.PROCESSED] === last[EF.PROCESSED] && this.memx === 0) return 0; // nothing ran (with the memory model, a landing's answer may have)
    const step = (i: number): number => { const v = f[b + i], d = v - last[i]; last[i] = v; return d; };
    met.probeActions += step(EF.PROBE_ACTIONS); met.scoreOps += step(EF.SCORE_OPS); met.packetsLost += step(EF.PACKETS_LOST);
    met.bounces += step(EF.BOUNCES); met.arbitrations += step(EF.ARBITRATIONS); met.bitmapOps += step(EF.BITMAP_OPS);
    met.arbitrationLosses += step(EF.ARB_LOSSES); met.falseOptimism += step(EF.FALSE_OPTIMISM);
    met.reservations += step(EF.RESERVATIONS); met.reservationsExpired += step(EF.RES_EXPIRED); met.completed += step(EF.COMPLETED);
    zhaf.reportsSent += step(EF.REPORTS_SENT); zhaf.reportsLost += step(EF.REPORTS_LOST);
    zhaf.replicaCopiesLost += step(EF.COPIES_LOST); zhaf.uploadsLost += step(EF.UPLOADS_LOST); zhaf.staleReplicaReads += step(EF.STALE_READS);
    for (let e = 0; e < met.daEnds.length && e < END_SLOTS; e++) met.daEnds[e] += step(EF.DA_ENDS + e);
    const fz = this.geti(EF.FORFEIT) >> 3;
    for (let z = 0; z < forfeit.length; z++) forfeit[z] = f[fz + z];
    if (this.memx !== 0 && met.survival !== null) this.carrySurvival(met.survival);
    return step(EF.PROCESSED);
  }

  private carrySurvival(sv: SurvivalCounters): void {
    const f = this.f64, x = this.memx >> 3, last = this.lastMem;
    const step = (i: number): number => { const v = f[x + i], d = v - last[i]; last[i] = v; return d; };
    sv.oomKillsL += step(MX.OOM_L); sv.oomKillsF += step(MX.OOM_F); sv.suspensions += step(MX.SUSPENSIONS);
    sv.resumedInPlace += step(MX.RESUMED); sv.secondaryReactivations += step(MX.REACTIVATIONS);
    sv.secondaryLandings += step(MX.LANDINGS); sv.reclaimed += step(MX.RECLAIMED); sv.probeDrops += step(MX.PROBE_DROPS);
    sv.preemptions += step(MX.PREEMPTIONS);
  }
}

/**
 * The TypeScript engine's view of the core's queue (src/sim/engine.ts takes
 * it as its EventQueue): the clock and post() for the gateway side's
 * handlers. The model drives the run itself (ZoneEngine.run); cancellable
 * events belong to the memory model, which runs in the engine.
 */
export class CoreQueue implements EventQueue {
  limit = Infinity;
  constructor(private readonly e: ZoneEngine) {}
  get now(): number { return this.e.now; }
  get size(): number { return this.e.geti(EF.HEAP_SIZE); }
  get pushes(): number { return this.e.getf(EF.SEQ); }
  get kind(): number { return this.e.hostKind; }
  get subject(): number { return this.e.hostSubject; }
  post(delay: number, kind: number, subject: number): void { this.e.post(delay, kind, subject); }
  push(time: number, kind: number, subject: number): number { this.e.post(time - this.e.now, kind, subject); return -1; }
  postInto(): void { throw new Error("zone engine: cancellable events are the Zone side's (the memory model's, in the engine)"); }
  cancel(): boolean { throw new Error("zone engine: cancellable events are the Zone side's (the memory model's, in the engine)"); }
  cancelIn(): boolean { throw new Error("zone engine: cancellable events are the Zone side's (the memory model's, in the engine)"); }
  isPending(): boolean { return false; }
  peekTime(): number { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  popBefore(): boolean { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  pop(): boolean { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  advance(): void { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  clear(): void { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
}
