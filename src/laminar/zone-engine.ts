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
// This file lays out the engine's tables in core memory, takes over the
// Zone side's state after the model's start(), grows a table when the
// engine asks for room, and carries emissions, verdicts, outgoing messages
// and counters across.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import { Status } from "../core/status.js";
import {
  DA_BYTES, EF, EM, EMIT_BYTES, END_SLOTS, ENGINE_BLOCK_BYTES, EV_BYTES, HOST_EVENT, HOST_MESSAGE, RAN_TO, RING_DESC,
  ROOM_DAS, ROOM_HEAP, ROOM_OUTBOX, ROOM_RING, RR_BITS, STREAM_BYTES,
} from "../core/engine-layout.js";
import type { EventQueue } from "../sim/event-queue.js";
import type { Rng } from "../sim/rng.js";
import { REC, type Mailbox } from "./mailbox.js";
import type { RunMetrics } from "../metrics/run-metrics.js";
import type { ZoneField } from "./zhaf.js";

/** Why the engine cannot run this configuration, or null when it can. */
export function engineUnsupported(c: Config): string | null {
  if (c.memory.enabled) return "memory.enabled (the runtime memory model and Airlock run on the TypeScript model only)";
  if (c.da.acceptProjected) return "da.acceptProjected (the artifact's wider acceptance runs on the TypeScript model only)";
  if (c.sim.checkInvariants) return "sim.checkInvariants (the invariant checker watches the TypeScript model)";
  return null;
}

/** Whether a run with this configuration uses the engine (sim.engine; core with an unsupported setting is an error). */
export function usesEngine(c: Config): boolean {
  if (c.sim.engine === "ts") return false;
  const why = engineUnsupported(c);
  if (why === null) return true;
  if (c.sim.engine === "core") throw new RangeError(`sim.engine=core: the core's Zone engine does not run ${why}; use sim.engine=auto or ts`);
  return false;
}


/** What the engine takes over from the model at attach(). */
export interface ZoneSide {
  c: Config;
  nodes: number;
  zones: number;
  atoms: number;
  rowBytes: number;
  n0: number; n1: number; z0: number; z1: number;
  timings: { hopNs: number; deltaNs: number; windowNs: number; silenceNs: number; deadlineNs: number; reportNs: number;
    minReportGapNs: number; broadcastNs: number; staleNs: number; ttlNs: number };
  zoneOf: Int32Array;
  offsets: Int32Array;
  bitmaps: number;
  free: Int32Array;
  nextReport: Float64Array;
  zhaf: ReturnType<ZoneField["engineState"]>;
  wheels: { wheels: number; wheelBytes: number };
  probeBlock: number;
  zig: number;
  runOutPtr: number;
  rZone: Rng[];
  rNet: Rng[];
  rReport: Rng[];
}

/** The engine of one model instance (a run, or one Zone partition of it). */
export class ZoneEngine {
  readonly block: number;
  readonly queue: CoreQueue;
  private readonly k: CoreExports;
  /** Emissions of the current gateway batch, written to core memory and handed over in one call. */
  private emitAt = 0;
  private emitCap = 0;
  private emitN = 0;
  /** Counters as last carried to the model (they are carried as differences). */
  private readonly last = new Float64Array(ENGINE_BLOCK_BYTES / 8);
  /** Report-ring record size in 32-bit words. */
  private ringRec = 0;

  /** Views of core memory, rebuilt after every allocation (the only thing that grows it once the model is built). */
  private f64!: Float64Array;
  private i32!: Int32Array;

  constructor(private readonly core: Core, private readonly onGrow: () => void) {
    this.k = core.exports;
    if (this.k.engineBlockBytes() !== ENGINE_BLOCK_BYTES || this.k.engineDaBytes() !== DA_BYTES
      || this.k.engineEmitBytes() !== EMIT_BYTES || this.k.engineEventBytes() !== EV_BYTES) {
      throw new Error("zone engine: the core's record sizes differ from src/core/engine-layout.ts (a stale build?)");
    }
    this.block = core.arena.alloc(ENGINE_BLOCK_BYTES, 16);
    core.arena.u8.fill(0, this.block, this.block + ENGINE_BLOCK_BYTES);
    const cap = 1 << 14, q = this.alloc(this.k.engineQueueBytes(cap), 16);
    this.check(this.k.engineQueueInit(this.block, q, cap), "engineQueueInit");
    this.queue = new CoreQueue(this);
  }

  /** Rebuild the views when memory has grown (a grown memory detaches the old buffer: its views read as empty). */
  private views(): void {
    if (this.f64.length === 0) {
      this.f64 = this.core.arena.f64;
      this.i32 = this.core.arena.i32;
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
    this.onGrow();
    return p;
  }

  private put(a: Int32Array | Float64Array): number {
    const p = this.alloc(a.byteLength, 8);
    if (a instanceof Int32Array) this.i32.set(a, p >> 2);
    else this.f64.set(a, p >> 3);
    return p;
  }

  /** Take over the Zone side from the model, as it is after its start(). */
  attach(s: ZoneSide): void {
    const c = s.c, t = s.timings, z = s.zhaf, A = s.atoms, Z = s.zones;
    if (z.reportsQueued !== 0) throw new Error("zone engine: attach after reports were sent");
    const f = (i: number, v: number) => this.setf(i, v), n = (i: number, v: number) => this.seti(i, v);
    f(EF.HOP, t.hopNs); f(EF.DELTA, t.deltaNs); f(EF.WINDOW, t.windowNs); f(EF.SILENCE, t.silenceNs); f(EF.DEADLINE, t.deadlineNs);
    f(EF.REPORT, t.reportNs); f(EF.MIN_GAP, t.minReportGapNs); f(EF.BROADCAST, t.broadcastNs); f(EF.STALE, t.staleNs); f(EF.TTL, t.ttlNs);
    n(EF.TOUCH_BOUND, Math.floor(t.broadcastNs / t.minReportGapNs) + 2);
    f(EF.REPORT_DELAY, z.reportDelayNs); f(EF.ROW_SILENCE, z.rowSilenceNs);
    f(EF.LOSS, c.network.loss); f(EF.OS_JITTER_MS, c.network.osJitterMs); f(EF.PATIENCE_FLOOR, c.da.patienceFloor);
    f(EF.ACTION_COST, c.da.actionCost); f(EF.REDIRECT_COST, c.da.redirectCost); f(EF.BOUNCE_COST, c.da.bounceCost);
    f(EF.RESERVE, c.reservation.enabled ? 1 : 0); f(EF.DEPOSIT, c.reservation.deposit); f(EF.BITMAP_NS, c.costs.bitmapNs);
    f(EF.CANDIDATES, c.da.candidates); f(EF.REPORT_JITTER, c.zhaf.reportJitter); f(EF.ALPHA, z.alpha);
    n(EF.GUARD, z.guard ? 1 : 0); n(EF.PROJECTION, z.projection ? 1 : 0);
    n(EF.RING, z.ring); n(EF.COPIES, z.copies); n(EF.ATOMS, A); n(EF.ROW_BYTES, s.rowBytes); n(EF.NODES, s.nodes); n(EF.ZONES, Z);
    n(EF.N0, s.n0); n(EF.N1, s.n1); n(EF.Z0, s.z0); n(EF.Z1, s.z1);
    // per node
    n(EF.ZONE_OF, this.put(s.zoneOf));
    n(EF.OFFSETS, this.put(s.offsets));
    n(EF.BITMAPS, s.bitmaps);
    n(EF.FREE, this.put(s.free));
    n(EF.Q_HEAD, this.put(new Int32Array(s.nodes).fill(-1)));
    n(EF.Q_TAIL, this.put(new Int32Array(s.nodes).fill(-1)));
    n(EF.WINDOW_AT, this.put(new Float64Array(s.nodes).fill(Infinity)));
    n(EF.NEXT_REPORT, this.put(s.nextReport));
    n(EF.REPLICA, this.put(z.replica));
    n(EF.LAST_HEARD, this.put(z.lastHeard));
    n(EF.LAST_MEAS, this.put(z.lastMeasMs));
    // per Zone
    n(EF.TAKEN, this.put(z.taken)); n(EF.DELIVERED, this.put(z.delivered)); n(EF.UPLOADED, this.put(z.uploaded));
    n(EF.SNAP_TIME, this.put(z.snapTime)); n(EF.AGG_S, this.put(z.aggS)); n(EF.AGG_H, this.put(z.aggH));
    n(EF.MASTER, this.put(Int32Array.from(z.master))); n(EF.ZT_BYTES, this.put(z.ztBytes)); n(EF.ROWS_AT, this.put(z.rowsAt));
    n(EF.FORFEIT, this.put(new Float64Array(Z)));
    for (const [field, rs] of [[EF.R_ZONE, s.rZone], [EF.R_NET, s.rNet], [EF.R_REPORT, s.rReport]] as const) {
      const p = this.alloc(Z * STREAM_BYTES, 16);
      for (let i = 0; i < Z; i++) rs[i].saveState(this.i32, (p + i * STREAM_BYTES) >> 2);
      n(field, p);
    }
    // report rings, one per Zone (records as zhaf.ts's: measure time, node, S, H, then the bitmap)
    this.ringRec = Math.ceil((4 * (RR_BITS + s.rowBytes / 4)) / 64) * 16;
    n(EF.RING_REC, this.ringRec);
    const rings = this.alloc(Z * RING_DESC, 16);
    n(EF.RINGS, rings);
    for (let i = 0; i < Z; i++) {
      const cap = 4 * (s.offsets[i + 1] - s.offsets[i]) + 16;
      const r = this.alloc(cap * this.ringRec * 4, 16), d = (rings + i * RING_DESC) >> 2, i32 = this.i32;
      i32[d] = r; i32[d + 1] = cap; i32[d + 2] = 0; i32[d + 3] = 0;
    }
    // DAs
    this.growDas(1 << 14);
    // reservation wheels (the model's, initialised) and their owners
    const own = s.n1 - s.n0;
    n(EF.WHEELS, s.wheels.wheels); n(EF.WHEEL_BYTES, s.wheels.wheelBytes);
    n(EF.WHEEL_OWNER, this.put(new Int32Array(c.reservation.enabled ? own * A : 1).fill(-1)));
    n(EF.WHEEL_CHECK, this.put(new Float64Array(c.reservation.enabled ? own : 1).fill(Infinity)));
    n(EF.WHEEL_OUT, this.alloc(4 * A, 16));
    // outbox
    n(EF.OUTBOX, this.alloc(1024 * REC * 8, 8)); n(EF.OUT_CAP, 1024); n(EF.OUT_N, 0);
    // kernels' blocks and scratch
    n(EF.PROBE, s.probeBlock); n(EF.ZIG, s.zig); n(EF.ROW0, this.alloc(s.rowBytes, 16)); n(EF.RUN_OUT, s.runOutPtr);
    n(EF.AGG_BLOCK, z.aggBlock); n(EF.AGG_OUT, z.aggOut); n(EF.AGG_OFFSETS, z.offsetsPtr);
    this.emitCap = 4096;
    this.emitAt = this.alloc(this.emitCap * EMIT_BYTES, 8);
  }

  /** Room for `cap` DAs: records, free list, masks and the arbitration batch (copied over). */
  private growDas(cap: number): void {
    const old = this.geti(EF.DA_CAP), rb = this.geti(EF.ROW_BYTES);
    const das = this.alloc(cap * DA_BYTES, 16), free = this.alloc(cap * 4, 16), masks = this.alloc(cap * rb, 16), batch = this.alloc(cap * 4, 16);
    const u8 = this.core.arena.u8;
    if (old > 0) {
      u8.copyWithin(das, this.geti(EF.DAS), this.geti(EF.DAS) + old * DA_BYTES);
      u8.copyWithin(free, this.geti(EF.DA_FREE), this.geti(EF.DA_FREE) + old * 4);
      u8.copyWithin(masks, this.geti(EF.MASKS), this.geti(EF.MASKS) + old * rb);
    }
    this.seti(EF.DAS, das); this.seti(EF.DA_FREE, free); this.seti(EF.MASKS, masks); this.seti(EF.BATCH, batch);
    this.seti(EF.DA_CAP, cap);
  }

  /** Grow what the engine asked room for (E_FULL). */
  private makeRoom(): void {
    const what = this.geti(EF.ROOM_WHAT), need = this.geti(EF.ROOM_NEED), u8 = () => this.core.arena.u8;
    const grown = (have: number) => { let c = Math.max(have, 16); while (c < need) c *= 2; return c; };
    if (what === ROOM_DAS) {
      this.growDas(grown(this.geti(EF.DA_CAP)) * 2);
    } else if (what === ROOM_HEAP) {
      const cap = grown(this.geti(EF.HEAP_CAP)) * 2, p = this.alloc(this.k.engineQueueBytes(cap), 16);
      this.check(this.k.engineQueueMove(this.block, p, cap), "engineQueueMove");
    } else if (what === ROOM_OUTBOX) {
      const cap = grown(this.geti(EF.OUT_CAP)) * 2, p = this.alloc(cap * REC * 8, 8), old = this.geti(EF.OUTBOX);
      u8().copyWithin(p, old, old + this.geti(EF.OUT_N) * REC * 8);
      this.seti(EF.OUTBOX, p); this.seti(EF.OUT_CAP, cap);
    } else if (what >= ROOM_RING && (what - ROOM_RING) % 16 === 0) {
      // a Zone's report ring: its records in order, from the head, into a larger region
      const z = (what - ROOM_RING) / 16, d = (this.geti(EF.RINGS) + z * RING_DESC) >> 2;
      let i32 = this.i32;
      const recs = i32[d], cap = i32[d + 1], head = i32[d + 2], size = i32[d + 3], bytes = this.ringRec * 4;
      const ncap = grown(cap + need) * 2, p = this.alloc(ncap * bytes, 16);
      for (let i = 0; i < size; i++) {
        const j = (head + i) % cap;
        u8().copyWithin(p + i * bytes, recs + j * bytes, recs + (j + 1) * bytes);
      }
      i32 = this.i32;
      i32[d] = p; i32[d + 1] = ncap; i32[d + 2] = 0;
    } else {
      throw new Error(`zone engine: asked for room of unknown kind ${what}`);
    }
  }

  /** Post (kind, subject) delay ns from now on the engine's queue (the host's events and the Zones' alike). */
  post(delay: number, kind: number, subject: number): void {
    for (;;) {
      const r = this.k.enginePost(this.block, delay, kind, subject);
      if (r === 0) return;
      if (r !== Status.E_FULL) throw new RangeError(`zone engine: post of kind ${kind} after ${delay} ns refused (status ${r})`);
      this.makeRoom();
    }
  }

  /** A DA of task t emitted at `emitted` goes to launchpad `node` (handed over with the batch's others by flushEmits). */
  emit(t: number, node: number, cls: number, m: number, emitted: number, arrival: number, ev: number, budget: number, service: number, key: number, flags: number): void {
    if (this.emitN === this.emitCap) {
      const cap = this.emitCap * 2, p = this.alloc(cap * EMIT_BYTES, 8);
      this.core.arena.u8.copyWithin(p, this.emitAt, this.emitAt + this.emitN * EMIT_BYTES);
      this.emitAt = p;
      this.emitCap = cap;
    }
    this.views();
    const b = this.emitAt + this.emitN++ * EMIT_BYTES, i32 = this.i32, f64 = this.f64;
    i32[(b + EM.TASK) >> 2] = t; i32[(b + EM.NODE) >> 2] = node; i32[(b + EM.CLS) >> 2] = cls; i32[(b + EM.M) >> 2] = m;
    f64[(b + EM.EMITTED) >> 3] = emitted; f64[(b + EM.ARRIVAL) >> 3] = arrival; f64[(b + EM.EV) >> 3] = ev;
    f64[(b + EM.BUDGET) >> 3] = budget; f64[(b + EM.SERVICE) >> 3] = service;
    i32[(b + EM.KEY) >> 2] = key | 0; i32[(b + EM.FLAGS) >> 2] = flags;
  }

  /** Hand the batch's emissions to the engine: each DA addresses its launchpad a hop from now, in order. */
  flushEmits(): void {
    if (this.emitN === 0) return;
    for (;;) {
      const r = this.k.engineEmit(this.block, this.emitAt, this.emitN);
      if (r === 0) break;
      if (r !== Status.E_FULL) throw new Error(`zone engine: engineEmit failed with status ${r}`);
      this.makeRoom();
    }
    this.emitN = 0;
  }

  setVerdict(d: number, v: number): void {
    const r = this.k.engineSetVerdict(this.block, d, v);
    if (r !== 0) throw new Error(`zone engine: verdict for DA ${d} refused (status ${r})`);
  }

  /** Run until the next host event (HOST_EVENT), host message time (HOST_MESSAGE) or `until` (RAN_TO). */
  run(until: number, msgAt: number): number {
    for (;;) {
      const r = this.k.engineRun(this.block, until, msgAt);
      if (r === RAN_TO || r === HOST_EVENT || r === HOST_MESSAGE) return r;
      if (r === Status.E_FULL) { this.makeRoom(); continue; }
      throw new Error(`zone engine: an internal inconsistency stopped the run at ${this.getf(EF.NOW)} ns (code ${r}); the TypeScript model (sim.engine=ts) runs the same configuration`);
    }
  }

  get hostKind(): number { return this.geti(EF.HOST_KIND); }
  get hostSubject(): number { return this.geti(EF.HOST_SUBJECT); }
  get now(): number { return this.getf(EF.NOW); }
  get live(): number { return this.geti(EF.DA_LIVE); }
  get squatting(): number { return this.getf(EF.SQUATTING); }
  get running(): number { return this.getf(EF.RUNNING); }

  /** Move the messages the engine's Zones sent since the last call, in order, to `box`; returns how many. */
  takeOutbox(box: Mailbox): number {
    const n = this.geti(EF.OUT_N);
    if (n > 0) box.append(this.f64, this.geti(EF.OUTBOX) >> 3, n);
    this.seti(EF.OUT_N, 0);
    return n;
  }

  /**
   * Add the counters' growth since the last call to the metrics and the
   * Zone field's counters; set the deposits forfeited per Zone; returns the
   * events the engine ran since the last call.
   */
  carryCounters(met: RunMetrics, zhaf: ZoneField, forfeit: Float64Array): number {
    this.views();
    const f = this.f64, b = this.block >> 3, last = this.last;
    if (f[b + EF.PROCESSED] === last[EF.PROCESSED]) return 0; // nothing ran
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
    return step(EF.PROCESSED);
  }
}

/**
 * The TypeScript engine's view of the core's queue (src/sim/engine.ts takes
 * it as its EventQueue): the clock and post() for the gateway side's
 * handlers. The model drives the run itself (ZoneEngine.run); cancellable
 * events belong to the memory model, which the engine does not run.
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
  postInto(): void { throw new Error("zone engine: cancellable events are the memory model's, which runs on sim.engine=ts"); }
  cancel(): boolean { throw new Error("zone engine: cancellable events are the memory model's, which runs on sim.engine=ts"); }
  cancelIn(): boolean { throw new Error("zone engine: cancellable events are the memory model's, which runs on sim.engine=ts"); }
  isPending(): boolean { return false; }
  peekTime(): number { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  popBefore(): boolean { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  pop(): boolean { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  advance(): void { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
  clear(): void { throw new Error("zone engine: the model drives the core's queue (ZoneEngine.run)"); }
}
