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
import type { Rng } from "../sim/rng.js";
import { writeZigguratTables, ZIG_BYTES, zigguratFinish } from "../sim/ziggurat.js";

export class Prober {
  /** Pointers: the stream's words, the ziggurat tables, sampling scratch, candidates (i32[k]), noise (f32[k]). */
  readonly rng: number;
  readonly zig: number;
  readonly seen: number;
  readonly cand: number;
  readonly noise: number;
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
    writeZigguratTables(a.u8.buffer as ArrayBuffer, this.zig);
    a.u8.fill(0, this.seen, this.seen + seenBytes);
    views.sync();
  }

  /**
   * Sample k candidates of the Zone's nz nodes with `rng`, draw their noise
   * (sigma), and return the chosen one's index in the Zone, or -1 when none
   * is placable (probeCandidates' arguments otherwise; `rng` moves on as the
   * TypeScript path would move it).
   */
  choose(field: number, nz: number, table: number, atoms: number, k: number, nowMs: number, m: number,
    contiguous: number, lambda: number, degradeAge: number, sigma: number, rng: Rng): number {
    const v = this.views, i32 = v.i32, rp = this.rng >> 2;
    rng.saveState(i32, rp);
    let start = 0, r: number;
    for (;;) {
      r = this.k.probeCandidates(field, nz, table, atoms, k, nowMs, m, contiguous, lambda, degradeAge, sigma,
        this.rng, this.zig, this.seen, this.cand, this.noise, start);
      if (r !== Status.E_DEFER) break;
      rng.loadState(i32, rp);
      const i = i32[rp + 4];
      v.f32[(this.noise >> 2) + i] = sigma * zigguratFinish(rng, i32[rp + 5]);
      rng.saveState(i32, rp);
      start = i + 1;
    }
    rng.loadState(i32, rp);
    if (r === Status.E_NOFIT) return -1;
    if (r < 0) throw new Error(`addressing: probeCandidates failed with status ${r}`);
    return i32[(this.cand >> 2) + r];
  }
}
