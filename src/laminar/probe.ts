// A DA's probe action through the core (probeCandidates): candidate sampling,
// score noise and the choice in one call, drawing from the Zone's stream
// exactly as the TypeScript path (sampleDistinct, then zigguratNormal per
// candidate) would; the draws off the ziggurat's fast path, which the core
// leaves to its host (E_DEFER), are finished here. The buffers live in core
// memory, allocated once.
import type { Core } from "../core/wasm.js";
import type { Views } from "../core/views.js";
import type { CoreExports } from "../core/exports.js";
import { Status } from "../core/status.js";
import { BLOCK_ALIGN, CHOICE, PROBE, writeProbe } from "../core/blocks.js";
import type { Rng } from "../sim/rng.js";
import { writeZigguratTables, ZIG_BYTES, zigguratFinish } from "../sim/ziggurat.js";

export class Prober {
  /** Pointers: the stream's words, the ziggurat tables, sampling scratch, candidates (i32[k]), noise (f32[k]). */
  readonly rng: number;
  readonly zig: number;
  readonly seen: number;
  readonly cand: number;
  readonly noise: number;
  /** The probe block (src/core/blocks.ts); its first 48 bytes are a choice block over cand and noise. */
  readonly block: number;
  private sigma = 0;
  private readonly k: CoreExports;

  /**
   * Buffers for up to `maxCandidates` candidates from Zones of up to
   * `maxZone` nodes. `views` are read as they are (reading the memory's
   * buffer on every call costs more than the rest of it): whoever grows the
   * core's memory syncs them, as the model does after each allocation.
   */
  constructor(core: Core, private readonly views: Views, maxCandidates: number, maxZone: number) {
    const a = core.arena, seenBytes = 4 * Math.ceil(maxZone / 32);
    this.k = core.exports;
    this.rng = a.alloc(24, 16);
    this.zig = a.alloc(ZIG_BYTES, 16);
    this.seen = a.alloc(seenBytes, 16);
    this.cand = a.alloc(4 * maxCandidates, 16);
    this.noise = a.alloc(4 * maxCandidates, 16);
    this.block = a.alloc(PROBE.BYTES, BLOCK_ALIGN);
    writeZigguratTables(a.u8.buffer as ArrayBuffer, this.zig);
    a.u8.fill(0, this.seen, this.seen + seenBytes);
    views.sync();
    writeProbe(views, this.block, {
      field: 0, nodeCount: 0, table: 0, atoms: 0, k: 0, now: 0, m: 0, contiguous: 0, gamma: 0, degradeAge: 0,
      sigma: 0, rng: this.rng, zig: this.zig, seen: this.seen, cand: this.cand, noise: this.noise, start: 0,
    });
  }

  /** The fields constant for a run: row width, the utility's gamma (lambda), degradeAge and the noise's sigma. */
  configure(atoms: number, lambda: number, degradeAge: number, sigma: number): void {
    const b = this.block, v = this.views;
    v.i32[(b + CHOICE.ATOMS) >> 2] = atoms;
    v.f32[(b + CHOICE.GAMMA) >> 2] = lambda;
    v.f32[(b + CHOICE.DEGRADE_AGE) >> 2] = degradeAge;
    v.f64[(b + PROBE.SIGMA) >> 3] = sigma;
    this.sigma = sigma;
  }

  /** The per-call fields of the block (its choice part: scoreCandidates over cand and noise reads the same). */
  setCall(field: number, nz: number, table: number, k: number, nowMs: number, m: number, contiguous: number): void {
    const i32 = this.views.i32, b = this.block >> 2;
    i32[b] = field;
    i32[b + 1] = nz;
    i32[b + 2] = table;
    i32[b + 5] = k;
    this.views.f32[b + 6] = nowMs;
    i32[b + 7] = m;
    i32[b + 8] = contiguous;
  }

  /**
   * Sample k candidates of the Zone's nz nodes with `rng`, draw their noise
   * (the configured sigma), and return the chosen one's index in the Zone, or
   * -1 when none is placable (probeCandidates' fields otherwise; `rng` moves
   * on as the TypeScript path would move it).
   */
  choose(field: number, nz: number, table: number, k: number, nowMs: number, m: number, contiguous: number, rng: Rng): number {
    const v = this.views, i32 = v.i32, rp = this.rng >> 2, sp = (this.block + PROBE.START) >> 2;
    this.setCall(field, nz, table, k, nowMs, m, contiguous);
    rng.saveState(i32, rp);
    i32[sp] = 0;
    let r: number;
    for (;;) {
      r = this.k.probeCandidates(this.block);
      if (r !== Status.E_DEFER) break;
      rng.loadState(i32, rp);
      const i = i32[rp + 4];
      v.f32[(this.noise >> 2) + i] = this.sigma * zigguratFinish(rng, i32[rp + 5]);
      rng.saveState(i32, rp);
      i32[sp] = i + 1;
    }
    rng.loadState(i32, rp);
    if (r === Status.E_NOFIT) return -1;
    if (r < 0) throw new Error(`addressing: probeCandidates failed with status ${r}`);
    return i32[(this.cand >> 2) + r];
  }
}
