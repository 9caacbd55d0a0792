// Laminar's admission path as one discrete-event model (paper §Design,
// §Implementation; the mechanism-by-mechanism account is docs/laminar-model.md).
//
//   arrival -> TEG micro-batch -> (hop, lossy) launchpad -> DA addressing on the
//   node's Z-HAF replica -> (hop, lossy) chosen node's queue -> windowed
//   arbitration on the real bitmap -> win: atoms taken [+ deposit, TTL on the
//   node's timing wheel] -> payload pull (one hop, first pull only) -> start
//   -> resident DA -> completion
//   lose / nothing placable: bounce to a random node of the Zone (hop, lossy)
//   no start 150 ms after the last emission: regenerate (<= 5 instances)
//   500 ms after arrival without a start: the task fails
//
// Everything runs on one Engine; events are (kind, subject) with the subject a
// task, DA, node or Zone slot. This file is the top of src/laminar: it builds
// the mechanisms, one file each, on the shared state (state.ts), and routes
// each event and each message to the mechanism it belongs to; it also
// carries messages (mailbox.ts) between the gateway side and the Zones. Which
// file holds which mechanism: docs/architecture.md.
//
// Four things happen without an event of their own, computed exactly where
// they are needed instead:
// * arrivals: both Poisson streams are merged and materialised at their exact
//   times by the gateway batch (or a series sample) that needs them (ingress.ts);
// * a DA's arrival at its chosen node: it joins the node's queue list with
//   its arrival time; the node's window opens at the first arrival, and Heat
//   at time r counts the queued DAs that have arrived by r (queue.ts);
// * node reports: a node's due reports are generated just before anything
//   changes its state, and at each Z-HAF snapshot (reports.ts);
// * deadline and regeneration timers: swept in 1 ms passes (TimerSweep); only
//   timers of tasks still pending get an exact event (task-table.ts).
// All per-task and per-DA state is in typed-array stores (store.ts); bitmaps,
// Z-HAF tables, masks and timing wheels are in the core's WebAssembly memory
// and handled by its kernels.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import { NS_PER_MS } from "../sim/time.js";
import { RunMetrics } from "../metrics/run-metrics.js";
import { Invariants } from "./invariants.js";
import { ZoneReports } from "./reports.js";
import { TaskTable } from "./task-table.js";
import { Ingress } from "./ingress.js";
import { NodeQueues } from "./queue.js";
import { Addressing } from "./addressing.js";
import { Reservations } from "./reservations.js";
import { Arbitration } from "./arbitration.js";
import { NodeRuntime } from "./runtime.js";
import { AirlockLedger } from "./airlock-ledger.js";
import { SecondaryLanding } from "./landing.js";
import { PullAndStart } from "./pull.js";
import { GT, HOST_MESSAGE, RAN_TO } from "../core/engine-layout.js";
import { T_STARTED } from "./store.js";
import { CoreArrivals } from "./core-arrivals.js";
import { CoreStartHist } from "./start-hist.js";
import type { ZoneEngine } from "./zone-engine.js";
import { LAG_STEP, LogReplay } from "./log-replay.js";
import { F_A, F_B, F_C, F_DEST, F_KIND, F_W, F_X, F_Y, F_ZONE, Mailbox, mergeInto, mergeRuns, REC, runWindows, TO_GATEWAY } from "./mailbox.js";
import {
  K_TEG, K_ADDRESS, K_ARBITRATE, K_PULL, K_COMPLETE, K_REGEN_SWEEP, K_DEADLINE_SWEEP, K_REGEN, K_DEADLINE, K_SNAPSHOT, K_BCAST, K_UPLOAD, K_WHEEL, K_SERIES, K_MEM, K_AIRLOCK, K_MSG, M_DA_END, M_RETIRE, M_PULL, M_REACTIVATE, M_CLOSED, M_UPLOAD, M_LAND_REQ, M_LAND_RESP, LaminarState, type Partition, zoneRange,
} from "./state.js";

export { type Partition, zoneRange };

export class LaminarModel extends LaminarState {
  /** The invariant checker (sim.checkInvariants), null when off. */
  declare invariants: Invariants | null;
  /** Gateway-side messages received and not yet applied (from inHead on), in delivery order (with, in a buffer exchangeAlone took whole, the records that became events, which drain passes over). */
  private readonly inbox = new Mailbox();
  private inHead = 0;
  /** Delivery time of the first queued gateway-side message (Infinity: none): the one check every event pays. */
  private nextMsgAt = Infinity;
  private pool = new Float64Array(256 * REC);
  private poolFree = Int32Array.from({ length: 256 }, (_, i) => i);
  private poolTop = 256;

  // the mechanisms, each on the shared state and on those below it
  readonly reports = new ZoneReports(this);
  readonly taskTable = new TaskTable(this);
  readonly ingress = new Ingress(this, this.taskTable);
  readonly queues = new NodeQueues(this, this.reports);
  readonly addressing = new Addressing(this, this.queues);
  readonly reservations = new Reservations(this, this.reports, this.queues);
  readonly runtime = new NodeRuntime(this, this.reports, this.taskTable, this.queues);
  readonly airlock = new AirlockLedger(this, this.queues, this.runtime);
  readonly landing = new SecondaryLanding(this, this.queues, this.reservations, this.runtime, this.airlock);
  readonly pull = new PullAndStart(this, this.queues, this.reservations, this.runtime, this.landing);
  readonly arbitration = new Arbitration(this, this.reports, this.queues, this.addressing, this.reservations);

  /** Role "zones": the replay of the gateway's log (start). */
  private replayer: LogReplay | null = null;
  /**
   * The Zones' messages stay in the core's Zone engine, which orders them
   * and schedules the pulls' completions at each window's end; the drain
   * applies them where they lie (one partition on the engine, without the
   * memory model: every message is then for the gateway side's queue).
   */
  private coreInbox = false;
  /**
   * With coreInbox, the engine also applies the proxy's answers and the DA
   * ends to the task table's columns in core memory (engineDrain): its
   * tasks block. (The invariant checker, which watches each start, never
   * runs on the engine: config rule.)
   */
  private drainAt = 0;
  /**
   * The gateway run once (role "gateway") keeps its queue of messages in
   * core memory (ginCap records at ginAt, ginN held, from inHead on): the
   * Zone partitions' sorted runs are merged into it (acceptRuns), and the
   * engine drains them where they lie, the answers it logs at drainVerdicts
   * (drainLogged). ginAt 0: another role.
   */
  private ginAt = 0;
  private ginCap = 0;
  private ginN = 0;
  /** Two runs' records copied into core memory for mergeRecords (mergeCap records each, at mergeAt). */
  private mergeAt = 0;
  private mergeCap = 0;
  private drainVerdicts = 0;
  /** With drainAt, the start latencies engineDrain counts (its tasks block's HIST). */
  private startHist: CoreStartHist | null = null;

  constructor(core: Core, c: Config, partition: Partition = { index: 0, count: 1 }) {
    super(core, c, partition);
    this.invariants = c.sim.checkInvariants ? new Invariants(this, c) : null;
    // the mechanisms allocated core memory too
    this.views.sync();
  }

  /**
   * Place a running task directly on node n (no admission path), as if it had
   * just started: for tests and embedders that build a node's state by hand
   * (runtime.ts). Returns the resident DA's slot, or -1 when the atoms do not fit.
   */
  inject(n: number, cls: number, atoms: number, serviceNs: number, targetGiB: number): number {
    if (this.zoneEngine !== null) throw new Error("inject: the node state is the core's Zone engine's here; build the model with sim.engine=ts");
    return this.runtime.inject(n, cls, atoms, serviceNs, targetGiB);
  }

  /** Schedule the first events; call once before run(). */
  start(): void {
    const e = this.engine, ze = this.zoneEngine;
    if (ze === null) {
      this.zhaf.init(this.teg);
      this.reports.start();
    } else {
      // the core's Zone engine publishes snapshot 0, draws the first reports and schedules the snapshots itself
      ze.init({
        c: this.c, nodes: this.cluster.nodes, zones: this.cluster.zones, atoms: this.cluster.atoms, rowBytes: this.rowBytes,
        z0: this.z0, z1: this.z1, timings: this, offsets: this.cluster.offsets, bitmaps: this.cluster.row(0),
        zhaf: this.zhaf.engineState(), rZone: this.rZone, rNet: this.rNet, rReport: this.rReport,
        memory: this.mem !== null ? { seed: this.memSeed, rMem: this.rMem, taskCap: this.tasks.slots.capacity } : null,
      });
      for (let z = 0; z < this.cluster.zones; z++) this.teg.receive(z, ...ze.initialAggregate(z), 0);
      this.coreInbox = this.mem === null && this.partition.count === 1 && this.gatewayLog === null && this.logReader === null;
      // the gateway run once (its log; never with the memory model) materialises its arrivals in the engine too
      if (this.coreInbox || this.gatewayLog !== null) {
        const c = this.c;
        this.drainAt = ze.tasksSetup({
          outCap: DRAIN_OUT, deadlineNs: this.deadlineNs, quietNs: this.quietNs, maxInstances: this.regens !== null ? c.regeneration.maxInstances : 0,
          squatterRatio: c.workload.squatterRatio, squatterAtoms: c.workload.squatterAtoms, sweepNs: this.deadlines.period,
        });
        // the starts' latencies counted in the engine, taken into the metrics when they are read
        const hist = new CoreStartHist(this.core.arena), met = this.gatewayMetrics;
        this.views.sync();
        this.views.i32[(this.drainAt >> 2) + 2 * GT.HIST] = hist.at;
        met.foldStarts(() => hist.foldInto(met));
        this.startHist = hist;
        if (this.arrivals instanceof CoreArrivals) this.ingress.arriveInCore(this.arrivals);
        if (this.gatewayLog !== null) {
          this.ginCap = DRAIN_OUT;
          this.ginAt = this.core.arena.alloc(this.ginCap * REC * 8, 16);
          this.drainVerdicts = this.core.arena.alloc(DRAIN_OUT * GT.VERDICT_BYTES, 16);
        }
      }
    }
    if (this.logReader !== null) {
      // the gateway runs elsewhere: its log is replayed behind this partition's run (replayLog), its first posts too
      this.zoneEngine!.lagMode(LAG_STEP);
      this.replayer = new LogReplay(this, K_SERIES);
      return;
    }
    this.ingress.requestBatchFor(this.nextArrival());
    e.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
    // the runtime tick runs from the start whatever runs where, so its place among simultaneous events is the same in every partition
    if (this.mem !== null) e.post(this.tickNs, K_MEM, 0);
  }

  /**
   * Run until simulated time `until` (ns, exclusive) on its own: windows of
   * deltaNs, the messages of each delivered at its end (this instance must
   * simulate every Zone; partitioned runs are driven by src/run/partitions.ts).
   */
  runUntil(until: number): void {
    if (this.partition.count !== 1) throw new Error("runUntil: a partition of a run is driven by its PartitionSet or the threaded runner");
    runWindows(this.engine.now, until, this.deltaNs, (t) => this.runTo(t), () => exchange([this]));
  }

  /**
   * Run this instance's events before `until` (one window, or part of one),
   * then apply the gateway-side messages delivered before it that no event
   * has needed yet: the state at a window's end is the same in every
   * partition, whatever events it happened to have.
   */
  runTo(until: number): void {
    const ze = this.zoneEngine;
    if (ze === null) this.engine.run(until, this.dispatch);
    else {
      // The core runs the Zones' events and hands back the gateway side's, in the one (time, sequence) order.
      // Without Airlock it need not stop for the gateway side's messages: what they change is read only by
      // the gateway's own events (which apply them first, in dispatch) and by a pull's completion, which
      // comes at least a delay after its request is delivered, so after the end-of-window drain that applied
      // the proxy's answer (delivery + hop - delta + compute >= the end of the delivery's window). With
      // Airlock, a secondary probe reads whether its task still awaits it (M_CLOSED, M_RETIRE) at any
      // event: the engine stops at the first event at or after each message, which is applied first, as
      // dispatch does on the model.
      for (;;) {
        const r = ze.run(until, this.airlockOn ? this.nextMsgAt : Infinity);
        if (r === RAN_TO) break;
        if (r === HOST_MESSAGE) {
          this.drain(ze.now);
          continue;
        }
        // a host event: the clock is at its time
        this.engine.processed++;
        this.dispatch(ze.hostKind, ze.hostSubject);
      }
    }
    this.drain(until - 1);
    if (ze !== null) this.carryFromEngine(ze);
    if (this.gatewayLog !== null) this.ingress.materialiseQuietly(until - 1);
  }

  /** The engine's messages of this window join the outbox; its counters join the metrics. */
  private carryFromEngine(ze: ZoneEngine): void {
    // without the memory model the engine sends no retirement (nothing reads one: task-table.ts)
    this.msgsPending += this.coreInbox ? ze.outboxGrowth() : ze.takeOutbox(this.outbox);
    this.engine.processed += ze.carryCounters(this.metrics, this.zhaf, this.forfeit);
    this.running = ze.running;
    this.squatting = ze.squatting;
    this.suspended = ze.suspended;
  }

  /**
   * A message of the canonical sequence reaches this partition (at a window's
   * end, before its delivery time). Most messages for the gateway side only
   * change its tables: they are queued and applied, in order, just before the
   * first event at or after their delivery time (drain); the rest, and those
   * for a Zone here, become events at their delivery time. A pull request
   * from a Zone here also schedules the pull's completion, when the proxy's
   * answer will be back.
   */
  accept(f: Float64Array, at: number): void {
    if (forGateway(f, at)) {
      if (this.logReader !== null) {
        // the gateway runs elsewhere: only a pull request from a Zone here matters here, for its completion (the
        // proxy's answer comes in the log). It is not queued: drain would only pass over it, and its pull, which
        // comes after its delivery, keeps the partition from going quiet until then as the queued record would.
        if (f[at + F_KIND] === M_PULL && this.ownsZone(f[at + F_C])) this.pullAnswered(f, at);
        return;
      }
      if (this.ginAt !== 0) {
        this.acceptRuns([f.subarray(at, at + REC)], [1]);
        return;
      }
      const box = this.inbox;
      if (this.inHead > 0 && box.n === box.buf.length / REC) {
        box.buf.copyWithin(0, this.inHead * REC, box.n * REC);
        box.n -= this.inHead;
        this.inHead = 0;
      }
      box.push(f[at], f[at + F_ZONE], f[at + F_KIND], TO_GATEWAY, f[at + F_A], f[at + F_B], f[at + F_C], f[at + F_X], f[at + F_Y], f[at + F_W]);
      if (this.nextMsgAt === Infinity) this.nextMsgAt = f[at];
      this.queued(f, at);
      return;
    }
    this.acceptEvent(f, at);
  }

  /**
   * A Zone partition's own messages of a half, back at a window's end while
   * the gateway side runs elsewhere (src/run/thread-once.ts): n records
   * from offset 0 of f, taken as accept takes them one by one (only the
   * pull requests of its Zones matter here: their completions are posted),
   * in the core's Zone engine (engineStagePulls) where it runs one.
   */
  acceptOwn(f: Float64Array, n: number): void {
    if (this.logReader !== null && this.zoneEngine !== null) this.zoneEngine.stagePulls(f, 0, n);
    else for (let i = 0; i < n; i++) this.accept(f, i * REC);
  }

  /**
   * The gateway run once takes the messages of a half or a window: sorted
   * runs, one from each Zone partition (`lists[k]` holding `counts[k]`
   * records from offset 0), merged in canonical order into its queue in
   * core memory, as accept would take them one by one. It holds no Zone, so
   * none schedules a pull here. Returns false, having taken none, for
   * another role, or where a message is not for the gateway side's queue
   * (then accept takes them, one by one).
   */
  acceptRuns(lists: Float64Array[], counts: ArrayLike<number>): boolean {
    if (this.ginAt === 0) return false;
    let total = 0;
    for (let r = 0; r < lists.length; r++) {
      const f = lists[r], n = counts[r];
      for (let i = 0; i < n; i++) if (!forGateway(f, i * REC)) return false;
      total += n;
    }
    if (total === 0) return true;
    const ze = this.zoneEngine!;
    if (this.ginN + total > this.ginCap) {
      // room: the applied records dropped, and then, if need be, a larger region (the old one stays unused)
      const f = ze.f64view(), g = this.ginAt >> 3;
      f.copyWithin(g, g + this.inHead * REC, g + this.ginN * REC);
      this.ginN -= this.inHead;
      this.inHead = 0;
      if (this.ginN + total > this.ginCap) {
        const cap = Math.max(2 * this.ginCap, this.ginN + total), at = this.core.arena.alloc(cap * REC * 8, 16), v = ze.f64view();
        v.copyWithin(at >> 3, this.ginAt >> 3, (this.ginAt >> 3) + this.ginN * REC);
        this.ginAt = at;
        this.ginCap = cap;
      }
    }
    const o = (this.ginAt >> 3) + this.ginN * REC;
    if (lists.length === 2 && counts[0] > 0 && counts[1] > 0) this.mergeInCore(lists, counts, o);
    else mergeInto(ze.f64view(), o, lists, counts);
    if (this.nextMsgAt === Infinity) this.nextMsgAt = ze.f64view()[o];
    this.ginN += total;
    this.msgsPending += total;
    return true;
  }

  /**
   * acceptRuns for two non-empty runs: copied whole into core memory, then
   * merged there into the queue at word o (the core's mergeRecords, the
   * order mergeInto gives), instead of record by record in TypeScript.
   */
  private mergeInCore(lists: Float64Array[], counts: ArrayLike<number>, o: number): void {
    const na = counts[0], nb = counts[1];
    if (Math.max(na, nb) > this.mergeCap) {
      this.mergeCap = Math.max(2 * this.mergeCap, na, nb, 1024);
      this.mergeAt = this.core.arena.alloc(2 * this.mergeCap * REC * 8, 16);
    }
    const f = this.zoneEngine!.f64view(), a = this.mergeAt, b = a + this.mergeCap * REC * 8;
    f.set(lists[0].subarray(0, na * REC), a >> 3);
    f.set(lists[1].subarray(0, nb * REC), b >> 3);
    const r = this.core.exports.mergeRecords(o * 8, a, na, b, nb, REC);
    if (r !== na + nb) throw new Error(`mergeRecords failed with status ${r}`);
  }

  /** A gateway-side message joins the queue drain applies: counted, and a pull request from a Zone here schedules the pull's completion. */
  private queued(f: Float64Array, at: number): void {
    this.msgsPending++;
    if (f[at + F_KIND] === M_PULL && this.ownsZone(f[at + F_C])) this.pullAnswered(f, at);
  }

  /** Pull request f[at] (from a Zone here): its pull completes when the proxy's answer is back. */
  private pullAnswered(f: Float64Array, at: number): void {
    this.engine.post(f[at] + this.hopNs - this.deltaNs + f[at + F_X] - this.engine.now, K_PULL, f[at + F_B]);
  }

  /** A message that becomes an event at its delivery time (one for a Zone here, or a reactivation). */
  private acceptEvent(f: Float64Array, at: number): void {
    const dest = f[at + F_DEST];
    if (dest !== TO_GATEWAY && !this.ownsZone(dest)) return;
    if (this.poolTop === 0) this.growPool();
    const slot = this.poolFree[--this.poolTop];
    this.pool.set(f.subarray(at, at + REC), slot * REC);
    this.msgsPending++;
    this.engine.post(f[at] - this.engine.now, K_MSG, slot);
  }

  /**
   * The exchange of a run of one partition: its sorted outbox is the whole
   * canonical sequence, so rather than copying each gateway-side message
   * into the (drained) inbox, the outbox's buffer becomes the inbox's, and
   * the inbox's the outbox's; drain passes over the records that became
   * events here.
   */
  exchangeAlone(): void {
    if (this.coreInbox) return this.exchangeInCore(this.zoneEngine!);
    const out = this.outbox, box = this.inbox;
    out.sort();
    const f = out.buf, n = out.n;
    if (this.inHead !== box.n) {
      for (let i = 0; i < n; i++) this.accept(f, i * REC);
    } else {
      let first = n;
      for (let i = 0; i < n; i++) {
        const at = i * REC;
        if (!forGateway(f, at)) this.acceptEvent(f, at);
        else {
          if (first === n) first = i;
          this.queued(f, at);
        }
      }
      out.buf = box.buf;
      box.buf = f;
      box.n = n;
      this.inHead = first;
      this.nextMsgAt = first < n ? f[first * REC] : Infinity;
    }
    this.outboxDelivered();
  }

  /** exchangeAlone with the messages in the engine (coreInbox): it orders them into its inbox and posts the pulls' completions. */
  private exchangeInCore(ze: ZoneEngine): void {
    if (this.outbox.n !== 0 || this.inHead !== 0) throw new Error("laminar: the host's own mailbox is in use in a run whose messages stay in the Zone engine");
    const n = ze.exchange();
    this.nextMsgAt = n > 0 ? ze.f64view()[ze.inboxAt()] : Infinity;
  }

  /** drain on the engine's inbox (coreInbox; every message there is for the gateway side's queue). */
  private drainCore(ze: ZoneEngine, now: number): void {
    const n = ze.inboxCount;
    let h = this.inHead;
    if (h === n) return;
    // nothing here allocates core memory, so the view stays current
    const f = ze.f64view(), base = ze.inboxAt(), T = this.tasks;
    while (h < n && f[base + h * REC] <= now) {
      if (f[base + h * REC + F_KIND] === M_UPLOAD) {
        this.msgsPending--;
        this.apply(f, base + h++ * REC);
        continue;
      }
      // the proxy's answers and the DA ends, in the engine, up to the next upload
      const k = ze.drainTasks(T.columnsAt, T.capacity, h, now, 0, 0, 0, T.genAt);
      h += k;
      this.msgsPending -= k;
      this.drained();
    }
    if (h === n) {
      ze.inboxClear();
      this.inHead = 0;
      this.nextMsgAt = Infinity;
    } else {
      this.inHead = h;
      this.nextMsgAt = f[base + h * REC];
    }
  }

  /** A timer ring's sweep event where the engine keeps the task table (drainAt): the due timers handed to timerDue there. */
  private sweepInCore(which: 0 | 1): void {
    const T = this.tasks;
    this.zoneEngine!.sweep(which, which === 0 ? this.deadlines : this.regens!, T.columnsAt, T.capacity, T.genAt, this.gatewayLog);
  }

  /** What an engineDrain call hands back (drainCore), applied: the starts (their latencies), the failures' causes, the slots it freed. */
  private drained(): void {
    const i32 = this.views.i32, f64 = this.views.f64, g = this.drainAt >> 2, T = this.tasks, met = this.gatewayMetrics;
    const out = i32[g + 2 * GT.OUT], cap = i32[g + 2 * GT.OUT_CAP], starts = i32[g + 2 * GT.STARTS], fails = i32[g + 2 * GT.FAILS];
    const freed = i32[g + 2 * GT.FREED], cls = (out >> 2) + 2 * cap, causes = cls + cap;
    for (let i = 0; i < starts; i++) met.onStart(f64[(out >> 3) + i], i32[cls + i]);
    for (let i = 0; i < fails; i++) met.onFail(i32[causes + i]);
    // the starts the engine counted itself (their latencies in its histograms)
    const counted = this.startHist!.take();
    met.started += counted;
    this.inFlight -= starts + counted + fails;
    // the slots freed in the engine, where their generations lie (the tasks block's GEN)
    T.slots.releasedElsewhere(freed);
  }

  /**
   * drain for the gateway run once: its messages (proxy requests, DA ends,
   * uploads: no memory model) applied in order where they lie in core
   * memory (acceptRuns), each run of them up to an upload by the engine
   * (engineDrain), whose answers go into the log for the Zone partitions.
   */
  private drainLogged(ze: ZoneEngine, now: number): void {
    const log = this.gatewayLog!, T = this.tasks, n = this.ginN, g = this.ginAt >> 3;
    // nothing here allocates core memory, so the view stays current
    const f = ze.f64view();
    let h = this.inHead;
    while (h < n && f[g + h * REC] <= now) {
      if (f[g + h * REC + F_KIND] === M_UPLOAD) {
        this.msgsPending--;
        this.apply(f, g + h++ * REC);
        continue;
      }
      // the engine stops at the first upload, the first message after now, or DRAIN_OUT of them
      const k = ze.drainTasks(T.columnsAt, T.capacity, h, now, this.ginAt, n, this.drainVerdicts, T.genAt);
      if (k < 1) throw new Error(`laminar: the engine applied none of the gateway's messages from ${h} of ${n} (a kind not for its queue?)`);
      h += k;
      this.msgsPending -= k;
      this.drained();
      log.verdictsFrom(f, this.drainVerdicts >> 3, ze.verdictsOut());
    }
    if (h === n) {
      this.ginN = 0;
      h = 0;
    }
    this.inHead = h;
    this.nextMsgAt = h < this.ginN ? f[g + h * REC] : Infinity;
  }

  /** Apply the queued gateway-side messages delivered at or before `now`, in order. */
  private drain(now: number): void {
    if (this.coreInbox) return this.drainCore(this.zoneEngine!, now);
    if (this.ginAt !== 0) return this.drainLogged(this.zoneEngine!, now);
    const box = this.inbox, f = box.buf;
    let h = this.inHead;
    const rd = this.logReader;
    while (h < box.n && f[h * REC] <= now) {
      const at = h++ * REC;
      if (!forGateway(f, at)) continue; // an event here (a buffer exchangeAlone took whole)
      this.msgsPending--;
      // the gateway runs elsewhere: only this partition's pull requests came in (accept), answered in its log (replayLog)
      if (rd !== null) continue;
      this.apply(f, at);
    }
    if (h === box.n) {
      box.clear();
      h = 0;
    }
    this.inHead = h;
    this.nextMsgAt = h < box.n ? f[h * REC] : Infinity;
  }

  /** A gateway-side message (the record at `at` of f) applied to the gateway side's tables. */
  private apply(f: Float64Array, at: number): void {
    const a = f[at + F_A], b = f[at + F_B];
    switch (f[at + F_KIND]) {
      case M_DA_END: this.taskTable.taskLost(a, b); break;
      case M_RETIRE: this.taskTable.taskRetired(a, b); break;
      case M_PULL: this.taskTable.proxy(a, b, f[at + F_C], f[at], f[at + F_X]); break;
      case M_CLOSED: this.tasks.awaiting[a] = 0; this.taskStateChanged(a); break;
      case M_UPLOAD: this.teg.receive(f[at + F_ZONE], f[at + F_X], f[at + F_Y], f[at + F_W]); break;
      default: throw new Error(`laminar: message kind ${f[at + F_KIND]} is not for the gateway's queue`);
    }
  }

  private growPool(): void {
    const cap = this.poolFree.length, pool = new Float64Array(cap * 2 * REC);
    pool.set(this.pool);
    this.pool = pool;
    this.poolFree = new Int32Array(cap * 2);
    for (let i = 0; i < cap; i++) this.poolFree[i] = cap + i;
    this.poolTop = cap;
  }

  /** A message is delivered. */
  private message(slot: number): void {
    const f = this.pool, at = slot * REC;
    this.poolFree[this.poolTop++] = slot;
    this.msgsPending--;
    const a = f[at + F_A], b = f[at + F_B];
    switch (f[at + F_KIND]) {
      case M_REACTIVATE: return this.ingress.reactivate(a, f[at + F_ZONE]);
      case M_LAND_REQ:
        if (this.zoneEngine !== null) return this.zoneEngine.landRequest(f[at + F_DEST], a, b, f[at + F_C], f[at + F_X]);
        return this.landing.landRequest(f[at + F_DEST], a, b, f[at + F_C], f[at + F_X]);
      case M_LAND_RESP:
        if (this.zoneEngine !== null) return this.zoneEngine.landAnswer(a, b, f[at + F_C], f[at + F_X], f[at + F_Y], f[at + F_W], this.started);
        return this.landing.landAnswer(a, b, f[at + F_C], f[at + F_X], f[at + F_Y], f[at + F_W]);
      default: throw new Error(`laminar: unknown message kind ${f[at + F_KIND]}`);
    }
  }

  /**
   * End of the run: materialise the arrivals of the last moments, so every
   * task that arrived is counted. The totals are settled once, over all
   * partitions' counts (laminarResult).
   */
  finish(): void {
    this.drain(this.engine.now - 1);
    if (this.logReader === null) this.ingress.flushArrivals(this.engine.now - 1);
  }

  /**
   * Role "zones": replay the gateway's log of its events before `until`
   * (log-replay.ts), after this partition has run past them: what they
   * posted for its Zones takes its place in its queue, its pull requests
   * get their answers.
   */
  replayLog(until: number): void {
    this.replayer!.replay(this.logReader!.log, until);
  }

  /** Whether task t has started (the gateway side's word a refused secondary probe ends by). */
  private readonly started = (t: number): boolean => this.tasks.state[t] === T_STARTED;

  private readonly dispatch = (kind: number, s: number): void => {
    if (this.nextMsgAt <= this.engine.now) this.drain(this.engine.now);
    if (this.gatewayLog !== null) this.gatewayLog.event(this.engine.now, kind, s);
    else if (this.logReader !== null && GATEWAY_KINDS[kind] === 1) {
      // of the gateway's events, only the series samples come up here (posted by the log's replay)
      if (kind !== K_SERIES) throw new Error(`laminar: the gateway's event kind ${kind} in a Zone partition's queue`);
      return this.seriesZones();
    }
    switch (kind) {
      case K_TEG: this.ingress.gatewayBatch(); break;
      case K_ADDRESS: this.addressing.address(s); break;
      case K_ARBITRATE: this.arbitration.arbitrate(s); break;
      case K_PULL: this.pull.pulled(s); break;
      case K_COMPLETE: this.pull.complete(s); break;
      case K_REGEN_SWEEP: this.drainAt !== 0 ? this.sweepInCore(1) : this.regens!.sweep(this.taskTable.regenDue); break;
      case K_DEADLINE_SWEEP: this.drainAt !== 0 ? this.sweepInCore(0) : this.deadlines.sweep(this.taskTable.deadlineDue); break;
      case K_REGEN: this.ingress.regenerate(s); break;
      case K_DEADLINE: this.taskTable.deadline(s); break;
      case K_SNAPSHOT: this.reports.snapshot(s); break;
      case K_BCAST: this.zhaf.deliverBroadcast(s, this.rNet[s]); break;
      case K_UPLOAD: this.reports.upload(s); break;
      case K_WHEEL: this.reservations.wheelFire(s); break;
      case K_SERIES: this.seriesTick(); break;
      case K_MEM: this.airlock.memTick(); break;
      case K_AIRLOCK: this.airlock.airlockTimer(s); break;
      case K_MSG: this.message(s); break;
      default: throw new Error(`laminar: unknown event kind ${kind}`);
    }
  };

  private seriesTick(): void {
    this.ingress.flushArrivals(this.engine.now - 1);
    if (this.zoneEngine !== null) this.carryFromEngine(this.zoneEngine);
    // the gateway's in-flight count is partition 0's to report (every partition holds the same)
    this.metrics.sample(this.engine.now, this.reportsGateway ? this.inFlight : 0, this.running);
    this.invariants?.all();
    this.engine.post(Math.max(1, Math.round(this.c.sim.seriesIntervalMs * NS_PER_MS)), K_SERIES, 0);
  }

  /** Role "zones": a series sample's Zone side (the gateway's run samples its own; the next sample's post is replayed). */
  private seriesZones(): void {
    if (this.zoneEngine !== null) this.carryFromEngine(this.zoneEngine);
    this.metrics.sample(this.engine.now, 0, this.running);
  }
}

/** Exchange one window's messages between partitions (all of a run's, on this thread): canonical order, every partition sees all. */
export function exchange(models: LaminarModel[]): void {
  if (models.length === 1) return models[0].exchangeAlone();
  for (const m of models) m.outbox.sort();
  const lists = models.map((m) => m.outbox.buf), counts = models.map((m) => m.outbox.n);
  // the gateway run once (models[0]) takes them whole; the others, each message that concerns them
  const rest = models[0].acceptRuns(lists, counts) ? models.slice(1) : models;
  mergeRuns(lists, counts, (f, at) => {
    for (const m of rest) m.accept(f, at);
  });
  for (const m of models) m.outboxDelivered();
}

/** Out records of one engineDrain call at most (the drain stops there, and is called again). */
const DRAIN_OUT = 512;

/** The gateway side's event kinds (1): a partition of role "zones" has only the series samples among them (log-replay.ts). */
const GATEWAY_KINDS = new Uint8Array(32);
for (const k of [K_TEG, K_REGEN_SWEEP, K_DEADLINE_SWEEP, K_REGEN, K_DEADLINE, K_SERIES]) GATEWAY_KINDS[k] = 1;

/** Whether the record at `at` is a message for the gateway side's queue (drain); a reactivation is an event. */
function forGateway(f: Float64Array, at: number): boolean {
  return f[at + F_DEST] === TO_GATEWAY && f[at + F_KIND] !== M_REACTIVATE;
}

/**
 * A run's totals that are kept as exact counts during the run and turned
 * into floating point once, at the end, so that they do not depend on how
 * the run was partitioned: modelled control work from operation counts, and
 * forfeited deposits summed in Zone order.
 */
export function settleMetrics(met: RunMetrics, c: Config, forfeitByZone: Float64Array): void {
  met.controlWorkNs = met.scoreOps * c.costs.scoreNs + met.bitmapOps * c.costs.bitmapNs + met.aggOps * c.costs.zoneAggNs;
  let f = 0;
  for (let z = 0; z < forfeitByZone.length; z++) f += forfeitByZone[z];
  met.depositsForfeited = f;
}
