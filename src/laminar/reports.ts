// Z-HAF node reports and Zone snapshots (paper §Z-HAF; docs/laminar-model.md):
// a node's reports are generated lazily, just before anything changes its
// state (touch) and at each Zone snapshot, with the state they had when they
// were due; a snapshot is broadcast to the Zone's replicas a hop later and
// its aggregates uploaded to the gateway.
import { zigguratNormal } from "../sim/ziggurat.js";
import { TO_GATEWAY } from "./mailbox.js";
import { K_BCAST, K_SNAPSHOT, K_UPLOAD, M_UPLOAD, type LaminarState } from "./state.js";

/** The Z-HAF reporting of this instance's nodes and Zones. */
export class ZoneReports {
  /** Time of each node's next report (generated lazily, see the header). */
  readonly nextReport: Float64Array;
  /** zhaf.reportJitter: the relative spread of a node's report interval. */
  private readonly reportJitter: number;

  constructor(private readonly s: LaminarState) {
    this.nextReport = new Float64Array(s.cluster.nodes);
    this.reportJitter = s.c.zhaf.reportJitter;
  }

  /** Draw each own node's first report time, and schedule each own Zone's first snapshot. */
  start(): void {
    const s = this.s;
    for (let n = s.n0; n < s.n1; n++) {
      const z = s.cluster.zoneOf[n];
      this.nextReport[n] = Math.round(s.rReport[z].float() * s.reportNs);
    }
    for (let z = s.z0; z < s.z1; z++) s.engine.post(s.broadcastNs, K_SNAPSHOT, z);
  }

  /** Generate node n's reports due before now (its state has not changed since they were due). */
  touch(n: number): void {
    const now = this.s.engine.now;
    while (this.nextReport[n] < now) this.report(n, this.nextReport[n]);
  }

  /** Node n's report at time r: S, H and bitmap as they were at r; the next one after the base interval plus jitter. */
  report(n: number, r: number): void {
    const z = this.s.cluster.zoneOf[n];
    this.s.zhaf.report(n, this.s.heatAt(n, r), r, this.s.rNet[z], this.s.airlockOn && this.s.pressured[n] === 1);
    const jitter = this.reportJitter;
    const gap = this.s.reportNs * (1 + (jitter > 0 ? jitter * zigguratNormal(this.s.rReport[z]) : 0));
    this.nextReport[n] = r + Math.max(this.s.minReportGapNs, Math.round(gap));
  }

  snapshot(z: number): void {
    const now = this.s.engine.now, cl = this.s.cluster;
    for (let n = cl.offsets[z], end = cl.offsets[z + 1]; n < end; n++) {
      while (this.nextReport[n] <= now) this.report(n, this.nextReport[n]);
    }
    this.s.zhaf.snapshot(z, now);
    this.s.engine.post(this.s.hopNs, K_BCAST, z);
    this.s.engine.post(this.s.hopNs - this.s.deltaNs, K_UPLOAD, z);
    this.s.engine.post(this.s.broadcastNs, K_SNAPSHOT, z);
  }

  /** Zone z's aggregates leave for the gateway (lossy), where they arrive one hop after the snapshot. */
  upload(z: number): void {
    const i = this.s.zhaf.sendUpload(z, this.s.rNet[z]);
    if (i >= 0) this.s.send(z, M_UPLOAD, TO_GATEWAY, 0, 0, 0, this.s.zhaf.aggS[i], this.s.zhaf.aggH[i], this.s.zhaf.snapTime[i]);
  }
}
