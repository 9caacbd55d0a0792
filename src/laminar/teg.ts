// TEG, the Thermo-Economic Gateway (paper §TEG, §Implementation "TEG").
//
// Holds only the Zone aggregate table T_global: per Zone the mean projected
// Slack, the total projected Heat and the time they were measured, refreshed
// by Z-HAF uploads. Arrivals wait for the next micro-batch; each batch turns
// T_global into Zone weights once (U_z = log2(1+S_z) - gamma*log2(1+H_z),
// P(z) ~ 2^(U_z / tau), the core's tegWeights) and samples a Zone for every
// DA of the batch in one call (tegSample).
//
// Missing Zone state is never an advantage: a Zone whose aggregate is older
// than degradeFactor broadcast periods plus one hop reads Slack 0 and Heat +
// missingZoneHeat (with the missingness guard on).
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import type { Views } from "../core/views.js";
import type { Rng } from "../sim/rng.js";
import { timingsOf } from "./timings.js";

/** Largest batch sampled in one core call; bigger batches are split. */
const CHUNK = 4096;

export class Gateway {
  readonly zones: number;
  readonly slack: Float64Array;
  readonly heat: Float64Array;
  readonly stamp: Float64Array;
  private readonly k: CoreExports;
  private readonly v: Views;
  private readonly slackPtr: number;
  private readonly heatPtr: number;
  private readonly cumPtr: number;
  private readonly uPtr: number;
  private readonly outPtr: number;
  private readonly staleNs: number;
  private readonly guard: boolean;
  private readonly missingHeat: number;
  private readonly gamma: number;
  private readonly tau: number;
  /** Zones read as missing, summed over batches. */
  missingZoneReads = 0;

  constructor(core: Core, views: Views, zones: number, c: Config) {
    this.k = core.exports;
    this.v = views;
    const arena = core.arena;
    this.zones = zones;
    this.slack = new Float64Array(zones);
    this.heat = new Float64Array(zones);
    this.stamp = new Float64Array(zones);
    this.slackPtr = arena.alloc(4 * zones, 16);
    this.heatPtr = arena.alloc(4 * zones, 16);
    this.cumPtr = arena.alloc(8 * zones, 16);
    this.uPtr = arena.alloc(8 * CHUNK, 16);
    this.outPtr = arena.alloc(4 * CHUNK, 16);
    this.staleNs = timingsOf(c).staleNs;
    this.guard = c.zhaf.missingnessGuard;
    this.missingHeat = c.teg.missingZoneHeat;
    this.gamma = c.teg.gamma;
    this.tau = c.teg.tau;
  }

  /** A Z-HAF upload arrives. */
  receive(z: number, s: number, h: number, stampNs: number): void {
    this.slack[z] = s;
    this.heat[z] = h;
    this.stamp[z] = stampNs;
  }

  /** Sample a Zone for each of `n` DAs into out[0..n): one weight table per batch, one core call per chunk. */
  dispatch(n: number, nowNs: number, rng: Rng, out: Int32Array): void {
    this.weigh(nowNs);
    for (let done = 0; done < n; ) {
      const m = Math.min(CHUNK, n - done);
      const f64 = this.v.f64, up = this.uPtr >> 3;
      for (let i = 0; i < m; i++) f64[up + i] = rng.float();
      const r = this.k.tegSample(this.cumPtr, this.zones, this.uPtr, m, this.outPtr);
      if (r !== m) throw new Error(`teg: tegSample failed with status ${r}`);
      const i32 = this.v.i32, op = this.outPtr >> 2;
      for (let i = 0; i < m; i++) out[done + i] = i32[op + i];
      done += m;
    }
  }

  /**
   * The batch's weight table from T_global as read at `nowNs` (a stale
   * Zone as missing), into core memory at `cum` (tegWeights): what
   * dispatch samples from, or the Zone engine's gateway batch.
   */
  weigh(nowNs: number): void {
    const f32 = this.v.f32;
    const sp = this.slackPtr >> 2, hp = this.heatPtr >> 2;
    for (let z = 0; z < this.zones; z++) {
      if (this.guard && nowNs - this.stamp[z] > this.staleNs) {
        f32[sp + z] = 0;
        f32[hp + z] = this.heat[z] + this.missingHeat;
        this.missingZoneReads++;
      } else {
        f32[sp + z] = this.slack[z];
        f32[hp + z] = this.heat[z];
      }
    }
    const rc = this.k.tegWeights(this.slackPtr, this.heatPtr, this.zones, this.gamma, this.tau, this.cumPtr);
    if (rc < 0) throw new Error(`teg: tegWeights failed with status ${rc}`);
  }

  /** Where weigh() leaves the weight table: f64[zones], cumulative. */
  get cum(): number {
    return this.cumPtr;
  }
}
