// What a Laminar run observed: counters, streaming latency histograms and a
// per-interval time series. The scheduler calls these hooks; nothing here
// feeds back into a decision.
//
// Latency is arrival-to-start. Two distributions, named apart:
// * started: over started tasks only (p50StartedMs, p99StartedMs);
// * all arrivals: every resolved task, a failed one counted at the deadline,
//   as the authors' artifact does (p99StartMs).
import { LatencyHistogram, type HistogramJSON } from "./histogram.js";
import { NS_PER_MS } from "../sim/time.js";

/** Why a task failed to start. */
export const FAIL_CAUSES = ["deadline", "fastFail", "lost", "silenceTtl", "squatter", "reservationExpired", "retriesExhausted", "spillbacksExhausted", "probeDrop", "queueFull", "crashed"] as const;
export type FailCause = (typeof FAIL_CAUSES)[number];
export const CAUSE_DEADLINE = 0, CAUSE_FASTFAIL = 1, CAUSE_LOST = 2, CAUSE_SILENCE = 3, CAUSE_SQUATTER = 4, CAUSE_EXPIRED = 5, CAUSE_RETRIES = 6, CAUSE_SPILLBACKS = 7, CAUSE_PROBE_DROP = 8, CAUSE_QUEUE_FULL = 9, CAUSE_CRASHED = 10;

/** Why a DA instance ended before its task started (or without starting it). */
export const DA_ENDS = ["fastFail", "lost", "silenceTtl", "deadline", "duplicateWinner", "lateWinner", "reservationExpired", "probeDrop"] as const;
export const END_FASTFAIL = 0, END_LOST = 1, END_SILENCE = 2, END_DEADLINE = 3, END_DUPLICATE = 4, END_LATE = 5, END_EXPIRED = 6, END_PROBE_DROP = 7;

export interface SeriesPoint {
  tMs: number;
  arrived: number;
  started: number;
  completed: number;
  failed: number;
  inFlight: number;
  running: number;
  bounces: number;
  fastFails: number;
  regenerations: number;
  p99StartedMs: number | null;
  // runtime survival, only when the memory model is on: per interval, and
  // executionSurvival = completed / (completed + killed + reclaimed) so far
  oomKillsL?: number;
  oomKillsF?: number;
  probeDrops?: number;
  suspensions?: number;
  resumedInPlace?: number;
  secondaryReactivations?: number;
  secondaryLandings?: number;
  reclaimed?: number;
  executionSurvival?: number | null;
}

/** Runtime-survival counters (Airlock and the kernel OOM rule). */
export class SurvivalCounters {
  oomKillsL = 0;
  oomKillsF = 0;
  suspensions = 0;
  resumedInPlace = 0;
  secondaryReactivations = 0;
  secondaryLandings = 0;
  reclaimed = 0;
  probeDrops = 0;
  /** Ledger entries resumed at T_susp or T_surv by suspending lower-priority runners (also counted in resumedInPlace). */
  preemptions = 0;
  /** Task executions ended other than by completion: killed by the kernel, or reclaimed. */
  get ended(): number {
    return this.oomKillsL + this.oomKillsF + this.reclaimed;
  }
}

/** RunMetrics' plain counters (what merging adds up). */
const COUNTERS = [
  "arrived", "arrivedF", "arrivedL", "squatters", "started", "completed", "failed", "probeActions", "bounces", "arbitrationLosses",
  "falseOptimism", "regenerations", "reservations", "reservationsExpired", "depositsForfeited", "packetsLost", "arbitrations",
  "controlWorkNs", "scoreOps", "bitmapOps", "aggOps",
] as const;
/** The start-latency histograms' names in RunMetricsJSON, by class (F-tasks, L-tasks, squatters). */
const HISTOGRAMS = ["startedF", "startedL", "startedS"] as const;
const SURVIVAL = ["oomKillsL", "oomKillsF", "suspensions", "resumedInPlace", "secondaryReactivations", "secondaryLandings", "reclaimed", "probeDrops", "preemptions"] as const;
/** Series fields that are counts per interval (or, inFlight and running, levels that partitions hold shares of). */
const SERIES_SUMS = [
  "arrived", "started", "completed", "failed", "inFlight", "running", "bounces", "fastFails", "regenerations",
  "oomKillsL", "oomKillsF", "probeDrops", "suspensions", "resumedInPlace", "secondaryReactivations", "secondaryLandings", "reclaimed",
] as const;

/** A RunMetrics as plain data (to cross a thread boundary). */
export interface RunMetricsJSON {
  counters: Record<string, number>;
  failedBy: number[];
  daEnds: number[];
  histograms: Record<string, HistogramJSON>;
  survival: Record<string, number> | null;
  series: SeriesPoint[];
}

export class RunMetrics {
  arrived = 0;
  arrivedF = 0;
  arrivedL = 0;
  squatters = 0;
  started = 0;
  completed = 0;
  failed = 0;
  readonly failedBy = new Float64Array(FAIL_CAUSES.length);
  readonly daEnds = new Float64Array(DA_ENDS.length);
  probeActions = 0;
  bounces = 0;
  arbitrationLosses = 0;
  falseOptimism = 0;
  regenerations = 0;
  reservations = 0;
  reservationsExpired = 0;
  depositsForfeited = 0;
  packetsLost = 0;
  arbitrations = 0;
  /** Modelled control work, ns (paper: per-operation AVX2 costs). */
  controlWorkNs = 0;
  /** Laminar counts its costed operations and prices them once at the end (settleMetrics): scoring, bitmap checks, Zone aggregation. */
  scoreOps = 0;
  bitmapOps = 0;
  aggOps = 0;
  /**
   * Start latencies by class (F-tasks, L-tasks, squatters): up to the last
   * series sample in `byClass`, since then in `recent` (a start is recorded
   * once, there; sample() folds `recent` in). The histograms a result reads
   * (startedHist, startedHistF, startedHistL, allHist) add them up when asked.
   */
  private readonly byClass = [new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()];
  private readonly recent = [new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()];
  /** What adds the start latencies counted elsewhere (foldStarts). */
  private fold: (() => void) | null = null;
  /** sample()'s scratch: the interval's starts of every class. */
  private readonly windowHist = new LatencyHistogram();
  readonly series: SeriesPoint[] = [];
  private last = { arrived: 0, started: 0, completed: 0, failed: 0, bounces: 0, fastFails: 0, regenerations: 0 };
  /** Runtime survival, when the memory model is on. */
  readonly survival: SurvivalCounters | null;
  private readonly lastSurvival = new SurvivalCounters();

  constructor(private readonly deadlineNs: number, memory = false) {
    this.survival = memory ? new SurvivalCounters() : null;
  }

  onArrive(cls: number): void {
    this.arrived++;
    if (cls === 0) this.arrivedF++;
    else if (cls === 1) this.arrivedL++;
    else this.squatters++;
  }

  /** Arrivals counted at once: f F-tasks, l L-tasks and q squatters. */
  onArrivals(f: number, l: number, q: number): void {
    this.arrived += f + l + q;
    this.arrivedF += f;
    this.arrivedL += l;
    this.squatters += q;
  }

  /**
   * Starts whose latencies a histogram elsewhere holds (the Zone engine's,
   * src/laminar/start-hist.ts): `fold` adds them in (addStarts) before any
   * start latency is read here.
   */
  foldStarts(fold: () => void): void {
    this.fold = fold;
  }

  /** Class c's start latencies counted elsewhere (LatencyHistogram.addCounts); returns the buckets read. */
  addStarts(c: number, counts: Float64Array, at: number, count: number, sumHi: number, sumLo: number, min: number, max: number): [number, number] {
    return this.recent[c].addCounts(counts, at, count, sumHi, sumLo, min, max);
  }

  onStart(latencyNs: number, cls: number): void {
    this.started++;
    this.recent[cls === 0 ? 0 : cls === 1 ? 1 : 2].record(latencyNs);
  }

  /** Class c's start latencies so far (a new histogram). */
  private classHist(c: number): LatencyHistogram {
    this.fold?.();
    const h = new LatencyHistogram();
    h.merge(this.byClass[c]);
    h.merge(this.recent[c]);
    return h;
  }

  /** The F-tasks' start latencies (a new histogram). */
  get startedHistF(): LatencyHistogram {
    return this.classHist(0);
  }

  /** The L-tasks' start latencies (a new histogram). */
  get startedHistL(): LatencyHistogram {
    return this.classHist(1);
  }

  /** Every started task's start latency (a new histogram: the classes' added up). */
  get startedHist(): LatencyHistogram {
    const h = this.classHist(0);
    h.merge(this.classHist(1));
    h.merge(this.classHist(2));
    return h;
  }

  /** Every task's admission: a started task at its start latency, a failed one at the deadline (a new histogram). */
  get allHist(): LatencyHistogram {
    const h = this.startedHist;
    h.recordN(this.deadlineNs, this.failed);
    return h;
  }

  onFail(cause: number): void {
    this.failed++;
    this.failedBy[cause]++;
  }

  onDaEnd(end: number): void {
    this.daEnds[end]++;
  }

  get fastFails(): number {
    return this.daEnds[END_FASTFAIL];
  }

  toJSON(): RunMetricsJSON {
    const self = this as unknown as Record<string, number>;
    const v = this.survival as unknown as Record<string, number> | null;
    return {
      counters: Object.fromEntries(COUNTERS.map((k) => [k, self[k]])),
      failedBy: Array.from(this.failedBy),
      daEnds: Array.from(this.daEnds),
      histograms: Object.fromEntries(HISTOGRAMS.map((k, c) => [k, this.classHist(c).toJSON()])),
      survival: v === null ? null : Object.fromEntries(SURVIVAL.map((k) => [k, v[k]])),
      series: this.series,
    };
  }

  /** A RunMetrics holding what toJSON() wrote. */
  static fromJSON(o: RunMetricsJSON, deadlineNs: number): RunMetrics {
    const m = new RunMetrics(deadlineNs, o.survival !== null);
    m.addCounts(o);
    for (const p of o.series) m.series.push({ ...p });
    return m;
  }

  /**
   * Add another partition's observations to these: counters, histograms and
   * series intervals add up (a partition reports only its own Zones, and
   * only partition 0 the gateway side); the series' running survival ratio
   * is recomputed from the sums.
   */
  add(o: RunMetricsJSON): void {
    this.addCounts(o);
    if (o.series.length !== this.series.length) throw new Error(`metrics: merging series of ${o.series.length} and ${this.series.length} points`);
    let completed = 0, ended = 0;
    for (let i = 0; i < this.series.length; i++) {
      const p = this.series[i] as unknown as Record<string, number | null | undefined>, q = o.series[i] as unknown as Record<string, number | null | undefined>;
      for (const k of SERIES_SUMS) if (p[k] !== undefined) p[k] = (p[k] as number) + (q[k] as number);
      if (p.p99StartedMs === null) p.p99StartedMs = q.p99StartedMs ?? null;
      if (p.executionSurvival !== undefined) {
        completed += p.completed as number;
        ended += (p.completed as number) + (p.oomKillsL as number) + (p.oomKillsF as number) + (p.reclaimed as number);
        p.executionSurvival = ended > 0 ? completed / ended : null;
      }
    }
  }

  /** Add another's counters, failure and DA-end counts, histograms and survival counters (not its series). */
  private addCounts(o: RunMetricsJSON): void {
    const self = this as unknown as Record<string, number>;
    for (const k of COUNTERS) self[k] += o.counters[k];
    for (let i = 0; i < this.failedBy.length; i++) this.failedBy[i] += o.failedBy[i];
    for (let i = 0; i < this.daEnds.length; i++) this.daEnds[i] += o.daEnds[i];
    HISTOGRAMS.forEach((k, c) => this.byClass[c].merge(LatencyHistogram.fromJSON(o.histograms[k])));
    if (this.survival !== null && o.survival !== null) {
      const v = this.survival as unknown as Record<string, number>;
      for (const k of SURVIVAL) v[k] += o.survival[k];
    }
  }

  /** Close one series interval ending at tNs. */
  sample(tNs: number, inFlight: number, running: number): void {
    const l = this.last;
    const fastFails = this.fastFails;
    const win = this.windowHist;
    this.fold?.();
    win.reset();
    for (const h of this.recent) win.merge(h);
    this.series.push({
      tMs: tNs / NS_PER_MS,
      arrived: this.arrived - l.arrived,
      started: this.started - l.started,
      completed: this.completed - l.completed,
      failed: this.failed - l.failed,
      inFlight,
      running,
      bounces: this.bounces - l.bounces,
      fastFails: fastFails - l.fastFails,
      regenerations: this.regenerations - l.regenerations,
      p99StartedMs: win.count > 0 ? win.quantile(0.99) / NS_PER_MS : null,
    });
    const v = this.survival;
    if (v !== null) {
      const p = this.series[this.series.length - 1], w = this.lastSurvival, ended = this.completed + v.ended;
      p.oomKillsL = v.oomKillsL - w.oomKillsL;
      p.oomKillsF = v.oomKillsF - w.oomKillsF;
      p.probeDrops = v.probeDrops - w.probeDrops;
      p.suspensions = v.suspensions - w.suspensions;
      p.resumedInPlace = v.resumedInPlace - w.resumedInPlace;
      p.secondaryReactivations = v.secondaryReactivations - w.secondaryReactivations;
      p.secondaryLandings = v.secondaryLandings - w.secondaryLandings;
      p.reclaimed = v.reclaimed - w.reclaimed;
      p.executionSurvival = ended > 0 ? this.completed / ended : null;
      Object.assign(w, v);
    }
    this.last = { arrived: this.arrived, started: this.started, completed: this.completed, failed: this.failed, bounces: this.bounces, fastFails, regenerations: this.regenerations };
    for (let c = 0; c < 3; c++) {
      this.byClass[c].merge(this.recent[c]);
      this.recent[c].reset();
    }
  }
}
