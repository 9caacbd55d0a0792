// Z-HAF, the Zone state field (paper §Z-HAF, §Implementation "Z-HAF").
//
// Per Zone, a master table T_zone: one row per node with S (free atoms), H
// (queued DAs), smoothed dS/dt and dH/dt (per ms), the time the row's values
// were measured, and the node's atom bitmap. Rows are refreshed by node
// reports; the table is published as numbered snapshots; every node of the
// Zone holds a replica, i.e. the number of the last snapshot it received.
//
//   node report  --hop + syncDelay, lossy-->  Z-HAF master row (applied at the next snapshot)
//   snapshot every broadcastMs  --hop, each node's copy lossy-->  node replicas
//                               --hop, lossy-->  TEG (Zone aggregates)
//
// The injected synchronisation delay (zhaf.syncDelayMs, Exp3) lengthens the
// report path, so it really delays everything nodes and the gateway see.
//
// Missing data, short-project / long-degrade:
// * projection: a replica row is projected over its age (now - measured time)
//   with its smoothed derivatives (zhaf.projection; off publishes zero
//   derivatives, so rows read as last seen);
// * long silence of a node (no report arrived for degradeFactor report
//   periods) marks its row missing in the snapshot: it reads S = 0,
//   H + degradeHeat and is never placable (the core's degrade rule);
// * a replica that missed broadcasts (older than degradeFactor broadcast
//   periods plus one hop) is stale as a whole: the node places nothing from it.
// Delay is not silence: a row delayed by syncDelay is projected, not degraded.
//
// Node reports are generated lazily (the model calls report() for a node's
// due report times just before the node's state changes, and at each
// snapshot), so they are not in arrival order across nodes: a snapshot
// applies every pending report that has arrived, node by node in time order,
// and keeps the rest.
//
// Snapshots live in a ring of RING versions per Zone; a node whose replica
// fell out of the ring (it missed RING - 1 broadcasts in a row) reads the
// oldest version kept, which is stale anyway under the missingness guard.
// The ring keeps every version's time and aggregates, but the tables of only
// the versions a node can read: with the guard, those younger than the
// stale age (a few); without it, all RING.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CoreExports } from "../core/exports.js";
import type { Views } from "../core/views.js";
import type { Rng } from "../sim/rng.js";
import type { Cluster } from "../cluster/cluster.js";
import { NS_PER_MS } from "../sim/time.js";
import { growRing } from "../sim/slot-store.js";
import { timingsOf } from "./timings.js";
import { BLOCK_ALIGN, writeZone, ZONE } from "../core/blocks.js";
import { fdLog, fdLog1p } from "../sim/fdlibm.js";

/** Stamp of a missing row: its age exceeds any degrade age, so the core degrades it. */
export const MISSING_STAMP = -1e30;
/** Degrade age passed to the core: only MISSING_STAMP rows exceed it. */
export const DEGRADE_AGE = 1e20;

/**
 * Reports in flight for one Zone, in the order they were generated (per
 * node, in time order). One record per report, 64 bytes for rows up to 320
 * atoms, so writing or applying one touches one or two cache lines instead
 * of a line in each of six columns: measure time (f64, ns),
 * node, S and H (integers), then the bitmap's words; it arrives at the
 * measure time plus the Zone field's report delay.
 */
class ReportRing {
  cap: number;
  head = 0;
  size = 0;
  /** Record size in 32-bit words, and the offsets of its fields in them. */
  readonly rec: number;
  static readonly NODE = 2;
  static readonly S = 3;
  static readonly H = 4;
  static readonly BITS = 6;
  f64: Float64Array;
  i32: Int32Array;
  u32: Uint32Array;
  constructor(cap: number, readonly words: number) {
    this.cap = cap;
    this.rec = Math.ceil((4 * (ReportRing.BITS + words)) / 64) * 16;
    const b = new ArrayBuffer(cap * this.rec * 4);
    this.f64 = new Float64Array(b);
    this.i32 = new Int32Array(b);
    this.u32 = new Uint32Array(b);
  }
  /** Double the ring (it is full: sendReport grows it only then), its records from the head on. */
  grow(): void {
    const u32 = growRing(this.u32, this.head * this.rec), b = u32.buffer;
    Object.assign(this, { cap: this.cap * 2, head: 0, f64: new Float64Array(b), i32: new Int32Array(b), u32 });
  }
}

export class ZoneField {
  /** Snapshot versions kept per Zone. */
  readonly ring: number;
  /** Bytes of one Zone table (field + bitmap rows) per Zone. */
  private readonly ztBytes: Int32Array;
  /** Byte offset of the field inside a Zone table is 0; of the rows, rowsAt[z]. */
  private readonly rowsAt: Int32Array;
  /** Table copies kept per Zone (<= ring): version v's table is at master + (1 + v % copies) * ztBytes. */
  private readonly copies: number;
  /** Pointer of Zone z's master table. */
  private readonly master: Float64Array;
  /** Per Zone: snapshots taken (the newest is version taken - 1), broadcasts delivered, uploads delivered. */
  readonly taken: Int32Array;
  private readonly delivered: Int32Array;
  private readonly uploaded: Int32Array;
  /** Per Zone and ring slot: snapshot time (ns), aggregate slack and heat. */
  readonly snapTime: Float64Array;
  readonly aggS: Float64Array;
  readonly aggH: Float64Array;
  /** Per node: replica version (-1 none), arrival time of its last report (ns), measure time of the last applied report (ms). */
  readonly replica: Int32Array;
  private readonly lastHeard: Float64Array;
  private readonly lastMeasMs: Float64Array;
  private readonly rings: ReportRing[];
  private readonly k: CoreExports;
  private readonly v: Views;
  private readonly offsetsPtr: number;
  private readonly aggOut: number;
  private readonly aggBlock: number;
  /** Counters for metrics. */
  reportsSent = 0;
  reportsLost = 0;
  replicaCopiesLost = 0;
  uploadsLost = 0;
  staleReplicaReads = 0;

  private readonly words: number;
  private readonly silenceNs: number;
  private readonly staleNs: number;
  private readonly reportDelayNs: number;
  private readonly alpha: number;
  private readonly guard: boolean;
  private readonly projection: boolean;
  private readonly degradeHeat: number;
  private readonly loss: number;

  constructor(core: Core, views: Views, private readonly cl: Cluster, c: Config) {
    this.k = core.exports;
    this.v = views;
    const arena = core.arena;
    const Z = cl.zones;
    const tm = timingsOf(c), hopNs = tm.hopNs;
    this.ring = Math.max(16, Math.ceil(c.network.hopMs / c.zhaf.broadcastMs) + 4);
    this.words = cl.rowBytes / 4;
    this.silenceNs = c.zhaf.degradeFactor * c.zhaf.reportIntervalMs * NS_PER_MS;
    this.staleNs = tm.staleNs;
    this.reportDelayNs = hopNs + Math.round(c.zhaf.syncDelayMs * NS_PER_MS);
    this.alpha = c.zhaf.smoothing;
    this.guard = c.zhaf.missingnessGuard;
    this.projection = c.zhaf.projection;
    this.degradeHeat = c.zhaf.degradeHeat;
    this.loss = c.network.loss;
    // snapshots are taken every period, so at most floor(stale / period) + 1 versions are younger
    // than the stale age at any time (one more kept as a margin)
    const periodNs = tm.broadcastNs; // as the model schedules snapshots
    this.copies = this.guard ? Math.min(this.ring, Math.floor(this.staleNs / periodNs) + 2) : this.ring;
    this.ztBytes = new Int32Array(Z);
    this.rowsAt = new Int32Array(Z);
    this.master = new Float64Array(Z);
    for (let z = 0; z < Z; z++) {
      const nz = cl.offsets[z + 1] - cl.offsets[z];
      const fieldBytes = Math.ceil((20 * nz) / 16) * 16;
      this.rowsAt[z] = fieldBytes;
      this.ztBytes[z] = fieldBytes + Math.ceil((nz * cl.rowBytes) / 16) * 16;
      this.master[z] = arena.alloc((1 + this.copies) * this.ztBytes[z], 16);
    }
    this.offsetsPtr = arena.alloc(8, 8);
    this.aggOut = arena.alloc(8, 8);
    // zoneAggregate's block: one Zone (offsets [0, nz]) into aggOut; field, nz and now are set per snapshot
    this.aggBlock = arena.alloc(ZONE.BYTES, BLOCK_ALIGN);
    views.sync();
    writeZone(views, this.aggBlock, {
      field: 0, nodeCount: 0, offsets: this.offsetsPtr, zones: 1, now: 0, degradeAge: DEGRADE_AGE,
      degradeHeat: this.degradeHeat, outSlack: this.aggOut, outHeat: this.aggOut + 4,
    });
    this.taken = new Int32Array(Z);
    this.delivered = new Int32Array(Z);
    this.uploaded = new Int32Array(Z);
    this.snapTime = new Float64Array(Z * this.ring);
    this.aggS = new Float64Array(Z * this.ring);
    this.aggH = new Float64Array(Z * this.ring);
    this.replica = new Int32Array(cl.nodes).fill(-1);
    // the state published at time 0 counts as heard when a report sent then would arrive:
    // silence is measured from there, so a synchronisation delay alone never reads as missing
    this.lastHeard = new Float64Array(cl.nodes).fill(this.reportDelayNs);
    this.lastMeasMs = new Float64Array(cl.nodes);
    this.rings = [];
    for (let z = 0; z < Z; z++) this.rings.push(new ReportRing(4 * (cl.offsets[z + 1] - cl.offsets[z]) + 16, this.words));
  }

  /** Fill every master row with the node's true state at time 0 and publish version 0 to every node and to `teg`. */
  init(teg: { receive(z: number, s: number, h: number, stampNs: number): void }): void {
    const Z = this.cl.zones;
    this.v.sync();
    const f32 = this.v.f32, u8 = this.v.u8;
    for (let z = 0; z < Z; z++) {
      const off = this.cl.offsets[z], nz = this.cl.offsets[z + 1] - off, m = this.master[z];
      for (let r = 0; r < nz; r++) {
        const b = (m >> 2) + r;
        f32[b] = this.cl.free[off + r];
        f32[b + nz] = 0; f32[b + 2 * nz] = 0; f32[b + 3 * nz] = 0; f32[b + 4 * nz] = 0;
      }
      u8.copyWithin(m + this.rowsAt[z], this.cl.row(off), this.cl.row(off) + nz * this.cl.rowBytes);
      this.snapshot(z, 0);
      this.delivered[z] = 1;
      this.uploaded[z] = 1;
      this.replica.fill(0, off, off + nz);
      teg.receive(z, this.aggS[z * this.ring], this.aggH[z * this.ring], 0);
    }
  }

  /** Node `node` measured S (its free count now), H = heat and its bitmap at measNs and sent them to Z-HAF (lossy); arrival after hop + syncDelay. */
  /** Node `node`'s report measured at measNs; a node under memory pressure (Airlock) reports no free atoms. */
  report(node: number, heat: number, measNs: number, net: Rng, pressured = false): void {
    this.reportsSent++;
    if (this.loss > 0 && net.float() < this.loss) {
      this.reportsLost++;
      return;
    }
    const q = this.rings[this.cl.zoneOf[node]];
    if (q.size === q.cap) q.grow();
    const j = (q.head + q.size) % q.cap;
    q.size++;
    const r = j * q.rec, i32 = q.i32;
    q.f64[r >> 1] = measNs;
    i32[r + ReportRing.NODE] = node;
    i32[r + ReportRing.S] = pressured ? 0 : this.cl.free[node];
    i32[r + ReportRing.H] = heat;
    const w = this.words, dst = r + ReportRing.BITS;
    if (pressured) q.u32.fill(0, dst, dst + w);
    else {
      const u32 = this.v.u32, src = this.cl.row(node) >> 2, bits = q.u32;
      for (let i = 0; i < w; i++) bits[dst + i] = u32[src + i];
    }
  }

  /** Apply the reports that have arrived, then publish the master table as the next version; returns it. */
  snapshot(z: number, nowNs: number): number {
    const off = this.cl.offsets[z], nz = this.cl.offsets[z + 1] - off, m = this.master[z];
    const f32 = this.v.f32, u32 = this.v.u32;
    const q = this.rings[z], w = this.words, a = this.alpha, rec = q.rec, delay = this.reportDelayNs;
    const qf = q.f64, qi = q.i32, qu = q.u32;
    let keep = 0;
    for (let i = 0; i < q.size; i++) {
      const j = (q.head + i) % q.cap, rj = j * rec;
      const measNs = qf[rj >> 1], arrive = measNs + delay;
      if (arrive > nowNs) {
        // not arrived yet: keep it, compacted towards the head, order unchanged
        const k = (q.head + keep++) % q.cap;
        if (k !== j) qu.copyWithin(k * rec, rj, rj + rec);
        continue;
      }
      const n = qi[rj + ReportRing.NODE], sj = qi[rj + ReportRing.S], hj = qi[rj + ReportRing.H];
      const r = n - off, b = (m >> 2) + r;
      const measMs = measNs / NS_PER_MS;
      const dt = measMs - this.lastMeasMs[n];
      if (dt > 0) {
        f32[b + 2 * nz] = a * ((sj - f32[b]) / dt) + (1 - a) * f32[b + 2 * nz];
        f32[b + 3 * nz] = a * ((hj - f32[b + nz]) / dt) + (1 - a) * f32[b + 3 * nz];
      }
      f32[b] = sj;
      f32[b + nz] = hj;
      f32[b + 4 * nz] = measMs;
      this.lastMeasMs[n] = measMs;
      this.lastHeard[n] = arrive;
      const dst = ((m + this.rowsAt[z]) >> 2) + r * w, src = rj + ReportRing.BITS;
      for (let x = 0; x < w; x++) u32[dst + x] = qu[src + x];
    }
    q.size = keep;
    const v = this.taken[z]++;
    const slot = v % this.ring, dst = m + (1 + (v % this.copies)) * this.ztBytes[z];
    this.v.u8.copyWithin(dst, m, m + this.ztBytes[z]);
    const d = dst >> 2;
    if (this.guard) {
      for (let r = 0; r < nz; r++) {
        if (nowNs - this.lastHeard[off + r] > this.silenceNs) f32[d + 4 * nz + r] = MISSING_STAMP;
      }
    }
    if (!this.projection) f32.fill(0, d + 2 * nz, d + 4 * nz);
    const i32 = this.v.i32;
    i32[this.offsetsPtr >> 2] = 0;
    i32[(this.offsetsPtr >> 2) + 1] = nz;
    const ab = this.aggBlock >> 2;
    i32[ab] = dst;
    i32[ab + 1] = nz;
    f32[ab + 4] = nowNs / NS_PER_MS;
    const rc = this.k.zoneAggregate(this.aggBlock);
    if (rc < 0) throw new Error(`zhaf: zoneAggregate failed with status ${rc}`);
    const f = this.v.f32;
    this.snapTime[z * this.ring + slot] = nowNs;
    this.aggS[z * this.ring + slot] = f[this.aggOut >> 2];
    this.aggH[z * this.ring + slot] = f[(this.aggOut >> 2) + 1];
    return v;
  }

  /** The next broadcast of Zone z reaches its nodes; each node's copy is lost with network.loss. */
  deliverBroadcast(z: number, net: Rng): void {
    const v = this.delivered[z]++;
    const off = this.cl.offsets[z], end = this.cl.offsets[z + 1];
    const rep = this.replica;
    if (this.loss <= 0) {
      rep.fill(v, off, end);
      return;
    }
    // Geometric gaps between lost copies: the same law as one Bernoulli draw per node.
    const lq = fdLog1p(-this.loss);
    let i = off;
    for (;;) {
      const gap = Math.floor(fdLog(1 - net.float()) / lq);
      const stop = Math.min(end, i + gap);
      rep.fill(v, i, stop);
      i = stop;
      if (i >= end) break;
      this.replicaCopiesLost++;
      i++;
    }
  }

  /**
   * Zone z's next upload leaves for the gateway: lost (with network.loss) or
   * not; when not, the index into aggS / aggH / snapTime of what it carries,
   * else -1.
   */
  sendUpload(z: number, net: Rng): number {
    const v = this.uploaded[z]++;
    if (this.loss > 0 && net.float() < this.loss) {
      this.uploadsLost++;
      return -1;
    }
    return z * this.ring + (v % this.ring);
  }

  /**
   * The replica a DA reads at `node`: the pointer of its Zone table (field at
   * the pointer, bitmap rows at pointer + rowsOffset(z)), or -1 when the
   * replica is stale under the missingness guard.
   */
  replicaAt(node: number, z: number, nowNs: number): number {
    let v = this.replica[node];
    const oldest = this.taken[z] - this.ring;
    if (v < oldest) v = oldest;
    const slot = v % this.ring;
    if (this.guard && nowNs - this.snapTime[z * this.ring + slot] > this.staleNs) {
      this.staleReplicaReads++;
      return -1;
    }
    if (v < this.taken[z] - this.copies) throw new Error(`zhaf: Zone ${z}'s version ${v} read after its table copy was reused`);
    return this.master[z] + (1 + (v % this.copies)) * this.ztBytes[z];
  }

  /** The sizes and delays the core's Zone engine lays its own Z-HAF tables out with (zone-engine.ts). */
  engineState(): { ring: number; copies: number; reportDelayNs: number; rowSilenceNs: number } {
    return { ring: this.ring, copies: this.copies, reportDelayNs: this.reportDelayNs, rowSilenceNs: this.silenceNs };
  }

  rowsOffset(z: number): number {
    return this.rowsAt[z];
  }

  /** Reports in flight (sent, not yet applied), all Zones. */
  get reportsInFlight(): number {
    let n = 0;
    for (const q of this.rings) n += q.size;
    return n;
  }
}
