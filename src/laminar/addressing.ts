// DA phase I, addressing (paper §DA, §Implementation): a DA at a node checks
// its lifetime and patience, pays, samples a bounded set of candidate nodes
// of its Zone, scores them on the node's Z-HAF replica (through the core:
// probe.ts, or scoreCandidates with the artifact's wider acceptance) and
// moves to the chosen node's queue (queue.ts); with nothing placable it
// bounces to a random node of the Zone and addresses again.
import type { Config } from "../config/params.js";
import type { Rng } from "../sim/rng.js";
import { NS_PER_MS } from "../sim/time.js";
import { zigguratNormal } from "../sim/ziggurat.js";
import { Status } from "../core/status.js";
import { CLASS_F } from "../workload/bimodal.js";
import {
  CAUSE_DEADLINE, CAUSE_FASTFAIL, CAUSE_LOST, CAUSE_SILENCE, END_DEADLINE, END_FASTFAIL, END_LATE, END_LOST, END_SILENCE,
} from "../metrics/run-metrics.js";
import { D_MOVING } from "./store.js";
import { sampleDistinct } from "./decisions.js";
import { Prober } from "./probe.js";
import { DEGRADE_AGE } from "./zhaf.js";
import type { NodeQueues } from "./queue.js";
import { FLAG_SECONDARY, K_ADDRESS, type LaminarState } from "./state.js";

/** DA addressing at a node, and the bounce. */
export class Addressing {
  /** The probe action through the core (probe.ts). */
  readonly prober: Prober;
  // candidate sampling on the TypeScript path: the sample, and a generation-stamped seen set over the Zone
  private readonly candLocal: Int32Array;
  private readonly seen: Int32Array;
  private seenGen = 0;
  /** The DA's parameters (da.*, network.*), read once. */
  private readonly da: Config["da"];
  private readonly loss: number;
  private readonly osJitterMs: number;

  constructor(private readonly s: LaminarState, private readonly queues: NodeQueues) {
    this.da = s.c.da;
    this.loss = s.c.network.loss;
    this.osJitterMs = s.c.network.osJitterMs;
    const kmax = s.c.da.candidates, offsets = s.cluster.offsets;
    let maxZone = 1;
    for (let z = 0; z < s.cluster.zones; z++) maxZone = Math.max(maxZone, offsets[z + 1] - offsets[z]);
    this.candLocal = new Int32Array(kmax);
    this.seen = new Int32Array(maxZone);
    this.prober = new Prober(s.core, s.views, kmax, maxZone);
    this.prober.configure(s.cluster.atoms, this.da.lambda, DEGRADE_AGE, this.da.noiseSigma);
  }

  /** The DA is at node D.node[d]: check lifetime and patience, pay, sample, score, and move. */
  address(d: number): void {
    const D = this.s.das, T = this.s.tasks, cl = this.s.cluster, now = this.s.engine.now;
    const t = D.task[d], n = D.node[d], z = cl.zoneOf[n];
    if (now - D.emitted[d] > this.s.silenceNs) return this.s.daEnd(d, END_SILENCE, CAUSE_SILENCE);
    if (this.overdue(d, t, now)) return this.s.daEnd(d, D.flags[d] & FLAG_SECONDARY ? END_LATE : END_DEADLINE, CAUSE_DEADLINE);
    if (D.patience[d] < this.da.patienceFloor) return this.s.daEnd(d, END_FASTFAIL, CAUSE_FASTFAIL);
    D.patience[d] -= this.da.actionCost;
    this.s.metrics.probeActions++;
    this.s.metrics.scoreOps++;
    const rng = this.s.rZone[z];
    const off = cl.offsets[z], nz = cl.offsets[z + 1] - off;
    const best = this.chooseTarget(n, z, off, nz, T.m[t], T.cls[t] !== CLASS_F, rng);
    if (best < 0) return this.bounce(d, z, rng, 0);
    const target = off + best;
    if (target === n) return this.queues.enqueue(d, n, now);
    if (this.loss > 0 && this.s.rNet[z].float() < this.loss) {
      this.s.metrics.packetsLost++;
      return this.s.daEnd(d, END_LOST, CAUSE_LOST);
    }
    // the single-hop redirection to j* is a bounce in the paper's cost model (§Implementation, DA)
    D.patience[d] -= this.da.redirectCost;
    const jitter = this.osJitterMs > 0 ? Math.round(rng.exp(this.osJitterMs) * NS_PER_MS) : 0;
    this.queues.enqueue(d, target, now + this.s.hopNs + jitter);
  }

  /**
   * A first-admission DA is overdue at its task's start deadline; a secondary
   * probe once its suspended task is gone (landed by another probe, or
   * reclaimed when T_surv expired).
   */
  overdue(d: number, t: number, now: number): boolean {
    if (this.s.das.flags[d] & FLAG_SECONDARY) return this.s.tasks.awaiting[t] === 0;
    return now >= this.s.tasks.arrival[t] + this.s.deadlineNs;
  }

  /** Bounded candidate sampling and scoring on node n's replica; the chosen node's index in the Zone, or -1. */
  chooseTarget(n: number, z: number, off: number, nz: number, m: number, contiguous: boolean, rng: Rng): number {
    const zt = this.s.zhaf.replicaAt(n, z, this.s.engine.now);
    if (zt < 0) return -1;
    const k = Math.min(this.da.candidates, nz);
    const nowMs = this.s.engine.now / NS_PER_MS;
    const table = zt + this.s.zhaf.rowsOffset(z);
    if (!this.da.acceptProjected && nz <= 65536) {
      // sampling, noise and scoring in one core call, drawing from rng as the path below does
      return this.prober.choose(zt, nz, table, k, nowMs, m, contiguous ? 1 : 0, rng);
    }
    const cand = this.candLocal;
    this.seenGen = sampleDistinct(rng, nz, k, cand, this.seen, this.seenGen);
    const i32 = this.s.views.i32, f32 = this.s.views.f32;
    // the TypeScript path writes the core's candidate and noise buffers too (the prober's)
    const cp = this.prober.cand >> 2, np = this.prober.noise >> 2, sigma = this.da.noiseSigma;
    for (let i = 0; i < k; i++) {
      i32[cp + i] = cand[i];
      f32[np + i] = sigma > 0 ? sigma * zigguratNormal(rng) : 0;
    }
    if (this.da.acceptProjected) return this.scoreProjected(zt, nz, table, k, nowMs, m, contiguous);
    this.prober.setCall(zt, nz, table, k, nowMs, m, contiguous ? 1 : 0);
    const r = this.s.k.scoreCandidates(this.prober.block);
    if (r === Status.E_NOFIT) return -1;
    if (r < 0) throw new Error(`addressing: scoreCandidates failed with status ${r}`);
    return cand[r];
  }

  /** Scoring with the artifact's wider placability (bitmap fits, or projected Slack >= m); same utility as the core. */
  scoreProjected(zt: number, nz: number, table: number, k: number, nowMs: number, m: number, contiguous: boolean): number {
    const f32 = this.s.views.f32, f = zt >> 2, kx = this.s.k, cand = this.candLocal;
    let best = -Infinity, bi = -1;
    for (let i = 0; i < k; i++) {
      const j = cand[i];
      const age = Math.max(0, nowMs - f32[f + 4 * nz + j]);
      if (age > DEGRADE_AGE) continue;
      const sp = Math.max(0, f32[f + j] + age * f32[f + 2 * nz + j]);
      const hp = Math.max(0, f32[f + nz + j] + age * f32[f + 3 * nz + j]);
      let ok = sp >= m;
      if (!ok) {
        const row = table + j * this.s.rowBytes;
        const r = contiguous ? kx.bmFirstRun(row, 1, this.s.cluster.atoms, m, this.s.runOutPtr) : kx.bmCountAtLeast(row, 1, this.s.cluster.atoms, m, this.s.runOutPtr);
        ok = r === 1;
      }
      if (!ok) continue;
      const u = kx.utility(sp, hp, this.da.lambda) + f32[(this.prober.noise >> 2) + i];
      if (bi < 0 || u > best) { best = u; bi = i; }
    }
    return bi < 0 ? -1 : cand[bi];
  }

  /** Bounce: pay, and go to a uniformly random node of the same Zone (one lossy hop), to address again. */
  bounce(d: number, z: number, rng: Rng, extraNs: number): void {
    const D = this.s.das, cl = this.s.cluster;
    this.s.metrics.bounces++;
    D.patience[d] -= this.da.bounceCost;
    D.state[d] = D_MOVING;
    const off = cl.offsets[z];
    const node = off + rng.int(cl.offsets[z + 1] - off);
    if (this.loss > 0 && this.s.rNet[z].float() < this.loss) {
      this.s.metrics.packetsLost++;
      return this.s.daEnd(d, END_LOST, CAUSE_LOST);
    }
    D.node[d] = node;
    this.s.engine.post(this.s.hopNs + extraNs, K_ADDRESS, d);
  }
}
