// The cluster's physical state: one resource-atom bitmap row per node in the
// core's WebAssembly memory (1 = free), a free-atom count per node kept beside
// it in JS, and the Zone layout. Atoms are only ever taken or released
// through the core's kernels (bmTakeAny / bmTakeRun / bmTake / bmRelease),
// which refuse a double take or a double release.
//
// Pre-occupancy (the paper's "post-landing ecology", off by default): a
// fraction of each node's atoms is held by rigid-topology jobs for the whole
// run, in `blocks` contiguous blocks at seeded random offsets.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import { Status } from "../core/status.js";
import type { Rng } from "../sim/rng.js";
import { zoneIndex } from "./topology.js";

export class Cluster {
  readonly nodes: number;
  readonly atoms: number;
  /** Bytes per bitmap row (atoms / 8). */
  readonly rowBytes: number;
  /** Pointer of node 0's row; node n's row is at bitmaps + n * rowBytes. */
  readonly bitmaps: number;
  /** Free atoms per node (mirrors the popcount of its row). */
  readonly free: Int32Array;
  /** Atoms per node held by rigid jobs (pre-occupancy), constant. */
  readonly rigid: Int32Array;
  readonly zones: number;
  readonly offsets: Int32Array;
  readonly zoneOf: Int32Array;
  /** A spare row for masks (scratch). */
  readonly scratchMask: number;
  private readonly k: CoreExports;

  constructor(core: Core, c: Config, offsets: Int32Array) {
    this.k = core.exports;
    this.nodes = c.cluster.nodes;
    this.atoms = c.cluster.atomsPerNode;
    this.rowBytes = this.atoms / 8;
    this.offsets = offsets;
    this.zones = offsets.length - 1;
    this.zoneOf = zoneIndex(offsets);
    this.bitmaps = core.arena.alloc(this.nodes * this.rowBytes, 16);
    this.scratchMask = core.arena.alloc(this.rowBytes, 16);
    core.arena.u8.fill(0xff, this.bitmaps, this.bitmaps + this.nodes * this.rowBytes);
    this.free = new Int32Array(this.nodes).fill(this.atoms);
    this.rigid = new Int32Array(this.nodes);
  }

  row(node: number): number {
    return this.bitmaps + node * this.rowBytes;
  }

  /** Take m atoms on `node` (a contiguous run when `contiguous`), mask written to maskPtr; false when they do not fit. */
  take(node: number, m: number, contiguous: boolean, maskPtr: number): boolean {
    if (this.free[node] < m) return false;
    const r = contiguous
      ? this.k.bmTakeRun(this.row(node), this.atoms, m, maskPtr)
      : this.k.bmTakeAny(this.row(node), this.atoms, m, maskPtr);
    if (r === Status.E_NOFIT) return false;
    if (r < 0) throw new Error(`cluster: take on node ${node} failed with status ${r}`);
    this.free[node] -= m;
    return true;
  }

  /** Release the atoms of the mask at maskPtr (m of them) on `node`. */
  release(node: number, m: number, maskPtr: number): void {
    const r = this.k.bmRelease(this.row(node), this.atoms, maskPtr);
    if (r < 0) throw new Error(`cluster: release of ${m} atoms on node ${node} failed with status ${r} (an atom already free?)`);
    this.free[node] += r; // the bitmap changed: keep the count with it even when m was wrong
    if (r !== m) throw new Error(`cluster: release on node ${node} freed ${r} atoms, the caller expected ${m}`);
  }

  /** Whether `node` has a run of m contiguous free atoms (m free atoms when not contiguous), on its real bitmap. */
  fits(node: number, m: number, contiguous: boolean, outI32: number): boolean {
    if (this.free[node] < m) return false;
    if (!contiguous) return true;
    const r = this.k.bmFirstRun(this.row(node), 1, this.atoms, m, outI32);
    if (r < 0) throw new Error(`cluster: bmFirstRun failed with status ${r}`);
    return r === 1;
  }

  /** Pre-occupy every node with rigid jobs (cluster.preoccupancy), before the run starts. */
  preoccupy(fraction: number, blocks: number, rng: Rng): void {
    const total = Math.round(fraction * this.atoms);
    if (total === 0) return;
    const nb = Math.min(blocks, total);
    for (let n = 0; n < this.nodes; n++) {
      let left = total;
      for (let b = 0; b < nb; b++) {
        const size = b === nb - 1 ? left : Math.floor(total / nb);
        left -= size;
        const off = rng.int(this.atoms - size + 1);
        this.k.bmRunMask(this.atoms, off, size, this.scratchMask);
        let r = this.k.bmTake(this.row(n), this.atoms, this.scratchMask);
        if (r === Status.E_CONFLICT) r = this.k.bmTakeRun(this.row(n), this.atoms, size, this.scratchMask);
        if (r === Status.E_NOFIT) r = this.k.bmTakeAny(this.row(n), this.atoms, size, this.scratchMask);
        if (r < 0) throw new Error(`cluster: pre-occupancy of node ${n} failed with status ${r}`);
        this.free[n] -= size;
        this.rigid[n] += size;
      }
    }
  }
}
