// The workload's arrival sequence as a lazy iterator: the two Poisson streams
// (F and L) merged in time order, with each task's service time drawn in
// arrival order from its own stream. Two iterators built from the same seed
// walk the same sequence, so a model can count arrivals with one and serve
// them with the other without storing the tasks in between.
//
// With `withEntry`, each task also gets its entry node (the node it is
// submitted at), drawn in arrival order from the workload's stream "entry":
// with probability workload.hotspotShare one of the hot nodes (the first
// hotNodeShare of node ids, at least one), else any node, uniformly. The
// baselines with an entry point use it; Laminar's entry is its gateway.
import type { Config } from "../config/params.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { NS_PER_MS } from "../sim/time.js";
import { arrivalRates, CLASS_F, CLASS_L } from "./bimodal.js";

export class Arrivals {
  /** The current task (after next()): arrival time (ns), class, service time (ns), demand (atoms). */
  time = 0;
  cls = 0;
  service = 0;
  atoms = 0;
  /** The current task's token density: its class's (workload.priceF, priceL). */
  price = 0;
  /** Declared memory: none of its own (the memory model's per-atom figure applies). */
  readonly memGiB = NaN;
  /** The current task's entry node (withEntry only). */
  entry = 0;
  /** Tasks taken so far. */
  count = 0;
  private nextF: number;
  private nextL: number;
  /** The next task's time (what peek() returns) and whether it is the F stream's: set by settle() after every draw. */
  private head = Infinity;
  private headF = true;
  private readonly gapF: number;
  private readonly gapL: number;
  private readonly rF: Rng;
  private readonly rL: Rng;
  private readonly rService: Rng | null;
  private readonly entries: EntryNodes | null;

  /** `withService`: draw service times (stream "service"); a counting-only copy passes false. `withEntry`: draw entry nodes (stream "entry"). */
  constructor(private readonly c: Config, private readonly endNs: number, withService: boolean, withEntry = false) {
    ({ gapF: this.gapF, gapL: this.gapL, rF: this.rF, rL: this.rL, nextF: this.nextF, nextL: this.nextL } = bimodalStart(c));
    this.rService = withService ? streamRng(c.sim.seed, "service") : null;
    this.entries = withEntry ? new EntryNodes(c) : null;
    this.settle();
  }

  /** The next task of the two streams: F before L on a tie. */
  private settle(): void {
    const f = this.nextF < this.endNs ? Math.round(this.nextF) : Infinity;
    const l = this.nextL < this.endNs ? Math.round(this.nextL) : Infinity;
    this.headF = f <= l;
    this.head = f <= l ? f : l;
  }

  /** Time of the next task (integer ns), Infinity when the arrival window is over. */
  peek(): number {
    return this.head;
  }

  /** Take the next task into the fields (call only when peek() is finite). F before L on a tie. */
  next(): void {
    const w = this.c.workload;
    this.time = this.head;
    if (this.headF) {
      this.cls = CLASS_F;
      this.atoms = w.fAtoms;
      this.price = w.priceF;
      this.nextF += this.rF.exp(this.gapF);
      if (this.rService) this.service = Math.max(1, Math.round(this.rService.exp(w.fMeanMs) * NS_PER_MS));
    } else {
      this.cls = CLASS_L;
      this.atoms = w.lAtoms;
      this.price = w.priceL;
      this.nextL += this.rL.exp(this.gapL);
      if (this.rService) this.service = Math.max(1, Math.round(this.rService.lognormal(w.lMu, w.lSigma) * NS_PER_MS));
    }
    if (this.entries) this.entry = this.entries.next();
    this.count++;
    this.settle();
  }
}

/**
 * Where the two Poisson streams start: each one's mean gap (ns; Infinity
 * when its class has no arrivals), its stream and its first arrival
 * (unrounded). Arrivals starts so, and so does the core's draw of the same
 * sequence (src/laminar/core-arrivals.ts).
 */
export function bimodalStart(c: Config): { gapF: number; gapL: number; rF: Rng; rL: Rng; nextF: number; nextL: number } {
  const rates = arrivalRates(c);
  const gapF = rates.lambdaF > 0 ? 1e9 / rates.lambdaF : Infinity, gapL = rates.lambdaL > 0 ? 1e9 / rates.lambdaL : Infinity;
  const rF = streamRng(c.sim.seed, "arrivals", 0), rL = streamRng(c.sim.seed, "arrivals", 1);
  const nextF = gapF < Infinity ? rF.exp(gapF) : Infinity;
  const nextL = gapL < Infinity ? rL.exp(gapL) : Infinity;
  return { gapF, gapL, rF, rL, nextF, nextL };
}

/** The hot nodes of the submission hotspot: the first workload.hotNodeShare of node ids, at least one. */
export function hotNodeCount(c: Config): number {
  return Math.max(1, Math.min(c.cluster.nodes, Math.floor(c.cluster.nodes * c.workload.hotNodeShare)));
}

/**
 * Tasks' entry nodes, one per task in arrival order, from the workload's
 * stream "entry": with probability workload.hotspotShare one of the hot
 * nodes, else any node, uniformly. Every workload kind draws them so.
 */
export class EntryNodes {
  private readonly r: Rng;
  private readonly hot: number;
  private readonly hotNodes: number;
  private readonly nodes: number;

  constructor(c: Config) {
    this.r = streamRng(c.sim.seed, "entry");
    this.hot = c.workload.hotspotShare;
    this.hotNodes = hotNodeCount(c);
    this.nodes = c.cluster.nodes;
  }

  /** The next task's entry node. */
  next(): number {
    const r = this.r;
    return this.hot > 0 && r.float() < this.hot ? r.int(this.hotNodes) : r.int(this.nodes);
  }
}
