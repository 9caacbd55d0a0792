// The shared state of one Laminar model instance (a run, or one Zone
// partition of it): the stores, the core's views, the derived timings
// computed once from the configuration, the random streams, the per-node
// arrays several mechanisms read (queue lists, held atoms, resident lists and
// Airlock ledgers, pressure flags), the live counts, and the outbox every
// message leaves through. The bottom of src/laminar's layering: it imports
// no mechanism; the mechanisms (one file each) work on it, and model.ts on
// top routes events and messages to them (docs/architecture.md lists which
// file holds which mechanism of the paper).
//
// Event kinds, message kinds and the flag bits of the stores are defined here
// too, so every mechanism names them the same way.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import { Engine } from "../sim/engine.js";
import { followGrowth, TimerSweep } from "../sim/timer-sweep.js";
import { arrivalRates } from "../workload/bimodal.js";
import { Views } from "../core/views.js";
import { Streams, type Rng } from "../sim/rng.js";
import { timingsOf, type Timings } from "./timings.js";
import { makeArrivals } from "../workload/sources.js";
import { CoreArrivals } from "./core-arrivals.js";
import type { ArrivalSource } from "../workload/source.js";
import { RunMetrics, type SurvivalCounters } from "../metrics/run-metrics.js";
import { Cluster } from "../cluster/cluster.js";
import { zoneOffsets } from "../cluster/topology.js";
import { ZoneField } from "./zhaf.js";
import { Gateway } from "./teg.js";
import { DaStore, TaskStore } from "./store.js";
import { MemoryField } from "./memory.js";
import { Mailbox, TO_GATEWAY } from "./mailbox.js";
import type { TransitionChecks } from "./checks.js";
import { usesEngine, ZoneEngine } from "./zone-engine.js";
import type { GatewayLog, LogReader } from "./gateway-log.js";

// Event kinds (1, 2 and 5 are retired: arrivals and landings have no events).
export const K_TEG = 3, K_ADDRESS = 4, K_ARBITRATE = 6, K_PULL = 7, K_COMPLETE = 8, K_REGEN_SWEEP = 9,
  K_DEADLINE_SWEEP = 10, K_REGEN = 11, K_DEADLINE = 12, K_SNAPSHOT = 13, K_BCAST = 14, K_UPLOAD = 15,
  K_WHEEL = 16, K_SERIES = 17, K_MEM = 18, K_AIRLOCK = 19, K_MSG = 20;
// Messages (mailbox.ts): to the gateway side (a DA ended, a DA retired, a pull
// request at the proxy, a reactivation, a ledger entry closed, a Zone upload),
// and between Zones (a secondary probe's state-pull request and its answer).
export const M_DA_END = 1, M_RETIRE = 2, M_PULL = 3, M_REACTIVATE = 4, M_CLOSED = 5, M_UPLOAD = 6, M_LAND_REQ = 7, M_LAND_RESP = 8;
/** M_RETIRE bits: the task was killed (OOM or reclaimed); its ledger entry closed (no landing possible any more). */
export const R_KILLED = 1, R_CLOSED = 2;
/** The proxy's answer to a pull request: none asked (the reservation expires first), start, duplicate, late. */
export const V_NONE = 0, V_START = 1, V_DUP = 2, V_LATE = 3;
/** Period of the timer sweeps, ns. */
export const SWEEP_NS = 1_000_000;
/** The most timers a ring is sized for at the start (2^22: 64 MiB of core memory); a ring that needs more grows. */
const RING_MAX = 1 << 22;

export const FLAG_PULL = 1;
/** A secondary probe: the reactivated DA of a suspended task (Airlock). */
export const FLAG_SECONDARY = 2;
/** A ledger entry whose DA has been reactivated (T_susp passed; T_surv runs). */
export const FLAG_REACTIVATED = 4;
// Task timer bits: an exact deadline / regeneration event is pending (the slot
// must stay allocated for it); a regeneration check is still to come.
export const EXACT_DEADLINE = 1, EXACT_REGEN = 2, REGEN_ARMED = 4;
export const US = 1000;

/** Which share of the Zones a model instance simulates: partition `index` of `count` (contiguous Zone ranges). */
export interface Partition {
  index: number;
  count: number;
  /**
   * Absent: the Zones of (index, count) and a replica of the gateway side.
   * "gateway": no Zone; the gateway side, once for all partitions, its
   * effects on the Zones recorded (gateway-log.ts). "zones": the Zones of
   * (index, count), the gateway's effects replayed from its record.
   */
  role?: "gateway" | "zones";
  /** Share of the nodes for partition 0 (default 1 / count): less where its thread also runs the gateway side. */
  firstShare?: number;
}

/** Zone range [from, to) of partition `index` of `count`: contiguous, balanced by node count (partition 0 holding `firstShare` of the nodes, when given). */
export function zoneRange(offsets: Int32Array | number[], count: number, index: number, firstShare?: number): [number, number] {
  const Z = offsets.length - 1, N = offsets[Z];
  const cut = (i: number): number => {
    if (i <= 0) return 0;
    if (i >= count) return Z;
    const target = firstShare === undefined ? (N * i) / count : N * (firstShare + ((i - 1) * (1 - firstShare)) / (count - 1));
    let z = 0;
    while (z < Z && offsets[z] < target) z++;
    // a thread that also runs the gateway: the nearest boundary, so that a few large Zones do not give it more than its share
    if (firstShare !== undefined && z > 0 && target - offsets[z - 1] <= offsets[z] - target) z--;
    return z;
  };
  return [cut(index), cut(index + 1)];
}

/** The derived durations and memory lines (timings.ts) are fields of the state, set once by its constructor. */
export interface LaminarState extends Timings {}

/** The state every mechanism of the model works on (see the file header). */
export class LaminarState {
  /** The event engine: TypeScript's, or the core's queue when the Zone side runs on the core's engine. */
  readonly engine: Engine;
  /** The core's Zone admission engine (sim.engine; zone-engine.ts), null when the Zone side runs here in TypeScript. */
  readonly zoneEngine: ZoneEngine | null;
  /** What this partition's Zones observed (and, in partition 0, the gateway side too). */
  readonly metrics: RunMetrics;
  /** Where the gateway side counts: `metrics` where it reports the gateway (reportsGateway); elsewhere a copy nobody reads. */
  readonly gatewayMetrics: RunMetrics;
  /** Whether this instance reports the gateway side's counters: partition 0 of replicas, or the one running the gateway for all. */
  readonly reportsGateway: boolean;
  /** Role "gateway": where it records its effects on the Zones; role "zones": where it reads them (set by the partitions' runner). */
  gatewayLog: GatewayLog | null = null;
  logReader: LogReader | null = null;
  readonly partition: Partition;
  /** The Zones [z0, z1) this instance simulates; the nodes [n0, n1). */
  readonly z0: number;
  readonly z1: number;
  readonly n0: number;
  readonly n1: number;
  /** Messages sent in the current window. */
  readonly outbox = new Mailbox();
  /** Messages sent or accepted and not yet handled. */
  msgsPending = 0;
  /** Deposits forfeited, per Zone (summed in Zone order at the end: the same sum for any partitioning). */
  readonly forfeit: Float64Array;
  readonly cluster: Cluster;
  readonly zhaf: ZoneField;
  readonly teg: Gateway;
  readonly tasks: TaskStore;
  readonly das = new DaStore();
  /** The invariant checker (sim.checkInvariants; invariants.ts), set by the model; null when off. */
  invariants: TransitionChecks | null = null;
  readonly k: CoreExports;
  readonly core: Core;
  readonly c: Config;


  // random streams
  readonly arrivals: ArrivalSource;
  readonly rSquat: Rng;
  readonly rGate: Rng;
  readonly rZone: Rng[] = [];
  readonly rNet: Rng[] = [];
  readonly rReport: Rng[] = [];

  // nodes
  /** Each node's queue list (through das.next): head and tail, -1 when empty. */
  readonly qHead: Int32Array;
  readonly qTail: Int32Array;
  /** Atoms held by reservations and running tasks, per node (rigid jobs excluded). */
  readonly held: Int32Array;

  // DA masks (one bitmap row per DA slot) in core memory
  maskBase = 0;
  readonly rowBytes: number;

  /** Scratch in core memory for a bitmap query's answer. */
  readonly runOutPtr: number;

  /** The deadline and regeneration timer sweeps (task-table.ts). */
  readonly deadlines: TimerSweep;
  readonly regens: TimerSweep | null;
  readonly views: Views;

  /** Tasks arrived and not yet resolved; DAs running (resident) now. */
  inFlight = 0;
  running = 0;
  squatting = 0;
  /** Tasks in an Airlock ledger now. */
  suspended = 0;

  // runtime survival (memory.enabled): node memory, the kernel OOM rule, Airlock
  readonly mem: MemoryField | null;
  /**
   * Without the memory model the proxy hands a starting DA over and nothing
   * reads its retirement (task-table.ts): a retirement then frees the DA
   * and sends no message.
   */
  readonly handsOver: boolean;
  /** The memory process's seed (its draws depend on it, each task's key and the tick only). */
  readonly memSeed: number;
  readonly airlockOn: boolean;
  /** airlock.suspensionScope=all: Airlock may suspend down to a node's highest-priority task. */
  readonly scopeAll: boolean;
  readonly survival: SurvivalCounters | null;
  readonly rMem: Rng[] = [];
  /** Per node: head of its list of running residents, and of its Airlock ledger (both through das.resNext/resPrev). */
  readonly resHead: Int32Array;
  readonly ledgers: Int32Array;
  /** Per node: 1 while its use is above the high watermark (it reports pressure and drops probes). */
  readonly pressured: Uint8Array;
  /** Scratch for choosing among a node's residents or ledger entries (ids, two sort keys, arrival key). */
  readonly pickIds: Int32Array;
  readonly pickA: Float64Array;
  readonly pickB: Float64Array;
  readonly pickK: Float64Array;

  constructor(core: Core, c: Config, partition: Partition = { index: 0, count: 1 }) {
    this.core = core;
    this.tasks = new TaskStore(core.arena);
    this.zoneEngine = usesEngine(c) ? new ZoneEngine(core, () => this.views?.sync()) : null;
    this.engine = new Engine(this.zoneEngine !== null ? { queue: this.zoneEngine.queue } : {});
    this.partition = partition;
    this.k = core.exports;
    this.c = c;
    const streams = new Streams(c.sim.seed);
    Object.assign(this, timingsOf(c)); // hopNs, deltaNs, windowNs, ... (the Timings interface)
    this.metrics = new RunMetrics(this.deadlineNs, c.memory.enabled);
    this.reportsGateway = partition.role === "gateway" || (partition.role === undefined && partition.index === 0);
    this.gatewayMetrics = this.reportsGateway ? this.metrics : new RunMetrics(this.deadlineNs, c.memory.enabled);

    // the bimodal sequence drawn by the core in batches (the same tasks as makeArrivals' Arrivals, bit for bit)
    // (a Zone partition behind the gateway's log takes no arrivals: the lazy TypeScript source, never read, costs nothing)
    this.arrivals = c.workload.kind === "bimodal" && partition.role !== "zones"
      ? new CoreArrivals(core, c, this.endArrivalsNs) : makeArrivals(c, this.endArrivalsNs, true);
    this.rSquat = streams.get("squatters");
    this.rGate = streams.get("gateway");

    const offsets = zoneOffsets(c.cluster.nodes, c.cluster.zoneSize, c.cluster.zoneJitter, streams.get("topology"));
    this.cluster = new Cluster(core, c, offsets);
    if (c.cluster.preoccupancy.enabled) {
      this.cluster.preoccupy(c.cluster.preoccupancy.fraction, c.cluster.preoccupancy.blocks, streams.get("preoccupancy"));
    }
    const Z = this.cluster.zones, N = this.cluster.nodes;
    [this.z0, this.z1] = partition.role === "gateway" ? [0, 0] : zoneRange(offsets, partition.count, partition.index, partition.firstShare);
    this.n0 = offsets[this.z0];
    this.n1 = offsets[this.z1];
    this.forfeit = new Float64Array(Z);
    for (let z = 0; z < Z; z++) {
      this.rZone.push(streams.get("zone", z));
      this.rNet.push(streams.get("zone-net", z));
      this.rReport.push(streams.get("zone-report", z));
    }
    this.views = new Views(core.exports.memory);
    // the task table's columns and the timer rings in core memory grow during the run: the views follow any growth
    followGrowth(core.arena, this.views);
    this.zhaf = new ZoneField(core, this.views, this.cluster, c);
    this.teg = new Gateway(core, this.views, Z, c);

    this.qHead = new Int32Array(N).fill(-1);
    this.qTail = new Int32Array(N).fill(-1);
    this.held = new Int32Array(N);
    this.rowBytes = this.cluster.rowBytes;
    this.growMasks(0, this.das.slots.capacity);
    this.das.onGrow = (n) => this.growMasks(n / 2, n);

    this.runOutPtr = core.arena.alloc(16, 16);

    // their records in core memory, where the Zone engine's arrivals push to them too (ingress.ts)
    this.deadlines = new TimerSweep(this.engine, SWEEP_NS, K_DEADLINE_SWEEP, 0, core.arena);
    this.regens = c.regeneration.enabled ? new TimerSweep(this.engine, SWEEP_NS, K_REGEN_SWEEP, 0, core.arena) : null;
    // sized for what they hold once the run is under way (every arrival's timer for as long as it waits), so that
    // they do not grow, each time into new core memory, while the run fills them (a Zone partition behind the
    // gateway's log arms none)
    if (partition.role !== "zones") {
      const lambda = arrivalRates(c).lambda, ringFor = (ns: number) => Math.min(RING_MAX, Math.ceil((lambda * ns * 1.25) / 1e9));
      this.deadlines.reserve(ringFor(this.deadlineNs));
      this.regens?.reserve(ringFor(this.quietNs));
    }
    // runtime survival
    this.survival = this.metrics.survival;
    this.airlockOn = c.memory.enabled && c.airlock.enabled;
    this.scopeAll = c.airlock.suspensionScope === "all";
    const memN = c.memory.enabled ? N : 0, A = this.cluster.atoms;
    this.resHead = new Int32Array(memN).fill(-1);
    this.ledgers = new Int32Array(memN).fill(-1);
    this.pressured = new Uint8Array(memN);
    this.pickIds = new Int32Array(A);
    this.pickA = new Float64Array(A);
    this.pickB = new Float64Array(A);
    this.pickK = new Float64Array(A);
    if (c.memory.enabled) {
      const m = c.memory;
      this.memSeed = streams.get("memory").nextU32();
      this.mem = new MemoryField(core, this.views, N, {
        seed: this.memSeed, kappa: m.driftKappa, sigma: m.noiseSigma, burstRate: m.burstRate, burstScale: m.burstScale,
      });
      this.mem.growOwners(this.das.slots.capacity);
      for (let z = 0; z < Z; z++) this.rMem.push(streams.get("zone-memory", z));
      this.das.onGrow = (n) => { this.growMasks(n / 2, n); this.mem!.growOwners(n); };
    } else {
      this.mem = null;
      this.memSeed = 0;
    }
    this.handsOver = this.mem === null;
    this.views.sync();
  }

  /** (Re)allocate the DA mask region for `capacity` slots, keeping the first `keep` rows. */
  growMasks(keep: number, capacity: number): void {
    const fresh = this.core.arena.alloc(capacity * this.rowBytes, 16);
    this.views.sync();
    if (keep > 0) this.views.u8.copyWithin(fresh, this.maskBase, this.maskBase + keep * this.rowBytes);
    this.maskBase = fresh;
  }

  /** Pointer of DA slot d's mask row. */
  mask(d: number): number {
    return this.maskBase + d * this.rowBytes;
  }


  /** Whether this instance simulates Zone z. */
  ownsZone(z: number): boolean {
    return z >= this.z0 && z < this.z1;
  }

  /** The window's outbox has been handed to every partition (accept): it empties. */
  outboxDelivered(): void {
    this.msgsPending -= this.outbox.n;
    this.outbox.clear();
  }

  /** Messages handed to the mailbox or scheduled here and not yet handled. */
  get pendingMessages(): number {
    return this.msgsPending;
  }

  /** Send a message from Zone z, delivered deltaNs from now (exactly: so every partition's messages arrive in time order) to `dest` (a Zone, or TO_GATEWAY). */
  send(z: number, kind: number, dest: number, a: number, b = 0, c = 0, x = 0, y = 0, w = 0): void {
    this.outbox.push(this.engine.now + this.deltaNs, z, kind, dest, a, b, c, x, y, w);
    this.msgsPending++;
  }

  /** Per-Zone deposit totals (for merging partitions). */
  get forfeitByZone(): Float64Array {
    return this.forfeit;
  }

  /**
   * True when nothing can change the outcome any more: arrivals over, no task
   * unresolved, nothing running, and no DA left but squatters (a late winner's
   * pull may still be in flight after its task resolved).
   */
  quiescent(): boolean {
    return this.gatewayIdle() && this.zonesIdle() && this.msgsPending === 0;
  }

  /** The gateway side: arrivals over and no task unresolved. */
  gatewayIdle(): boolean {
    return this.nextArrival() === Infinity && this.inFlight === 0;
  }

  /** This partition's Zones: nothing running or suspended, and no DA left but squatters. */
  zonesIdle(): boolean {
    const ze = this.zoneEngine;
    if (ze !== null) return ze.running === 0 && ze.live === ze.squatting;
    return this.running === 0 && this.suspended === 0 && this.das.slots.live === this.squatting;
  }

  /** Time of the next arrival not yet materialised (integer ns), or Infinity when arrivals are over. */
  nextArrival(): number {
    return this.arrivals.peek();
  }

  queueHead(n: number): number {
    return this.qHead[n];
  }

  queueTail(n: number): number {
    return this.qTail[n];
  }

  /** Heat of node n at time r: DAs in its queue that have arrived by r. */
  heatAt(n: number, r: number): number {
    const D = this.das;
    let h = 0;
    for (let d = this.qHead[n]; d >= 0; d = D.next[d]) if (D.arrive[d] <= r) h++;
    return h;
  }

  /** First running resident of node n (then das.resNext), -1 when none; for the invariant checker. */
  residentHead(n: number): number {
    return this.resHead[n];
  }

  /** First ledger entry of node n (then das.resNext), -1 when none; for the invariant checker. */
  ledgerHead(n: number): number {
    return this.ledgers[n];
  }

  /** Whether ledger entry d's DA has been reactivated (T_susp passed, T_surv running). */
  reactivated(d: number): boolean {
    return (this.das.flags[d] & FLAG_REACTIVATED) !== 0;
  }

  /** The memory task t declares: its workload's figure when it gave one (a trace), else proportional to its atoms. */
  declaredGiB(t: number): number {
    const g = this.tasks.memGiB[t];
    return Number.isNaN(g) ? this.tasks.m[t] * this.c.memory.declaredPerAtomGiB : g;
  }

  /**
   * The gateway side changed task t's home (the Zone of its suspended image)
   * or whether its secondary probes may still land: the core's Zone engine,
   * whose DAs read them, gets the change (the model's DAs read the task table).
   */
  taskStateChanged(t: number): void {
    if (this.zoneEngine !== null && this.mem !== null) this.zoneEngine.taskState(t, this.tasks.home[t], this.tasks.awaiting[t]);
  }

  /** Role "gateway": record its effects on the Zones in `log` (every post it makes, and what ingress and the proxy add). */
  recordGateway(log: GatewayLog): void {
    this.gatewayLog = log;
    this.engine.onPost = (t, k, s) => log.post(t, k, s);
  }

  /** The proxy's answer v (V_*) to DA d's pull request (d one of this instance's DAs). */
  setVerdict(d: number, v: number): void {
    if (this.zoneEngine !== null) this.zoneEngine.setVerdict(d, v);
    else this.das.verdict[d] = v;
  }

  /** DA d ends without starting its task; the gateway side learns it half a hop later (taskLost). */
  daEnd(d: number, end: number, cause: number): void {
    this.metrics.onDaEnd(end);
    this.release(d, M_DA_END, cause);
  }

  /** DA d's life ends after its task started (completed, killed, reclaimed, or landed elsewhere); `how`: R_* bits. */
  retire(d: number, how: number): void {
    if (this.handsOver) this.free(d); // nothing reads it (task-table.ts)
    else this.release(d, M_RETIRE, how);
  }

  /** Free DA d's slot and tell the gateway side (message `kind` about its task, with `arg`) from its Zone. */
  release(d: number, kind: number, arg: number): void {
    const D = this.das, t = D.task[d], z = this.cluster.zoneOf[D.node[d]];
    this.free(d);
    this.send(z, kind, TO_GATEWAY, t, arg);
  }

  private free(d: number): void {
    this.das.state[d] = 0;
    this.das.slots.release(d);
  }
}
