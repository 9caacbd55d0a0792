// Registry groups of the runtime-survival path (Exp5): the memory model that
// creates pressure, and the Airlock protocol that answers it. The artifact has
// neither, so everything the paper's Exp5 paragraph does not fix is ours.
//
// The memory process these parameters drive (ours, the paper names only the
// knobs): a task declares d = atoms * declaredPerAtomGiB. With probability
// overclaimProb its true footprint is T = d*(1+o), o ~ U(0, overclaimMax),
// else T = d. Every tick, resident memory r moves r += kappa*(T - r) +
// sigma*d*N(0,1), and with probability burstRate jumps by burstScale*d (the
// drift then pulls it back). Node use is the sum of r over running tasks.
import { bool, enm, num, ours, paper, type ParamGroup } from "./params-spec.js";

export const memory = {
  enabled: bool({
    default: false, unit: "flag",
    source: paper("Exp5"),
    description: "dynamic memory perturbation of running tasks; only Exp5 turns it on",
  }),
  nodeCapacityGiB: num({
    gt: 0, max: 1e6, default: 256, unit: "GiB",
    source: ours("1 GiB per atom at 256 atoms; only the ratio to declared memory matters"),
    description: "physical memory per node; the watermarks are fractions of it",
  }),
  declaredPerAtomGiB: num({
    gt: 0, max: 1e6, default: 1, unit: "GiB/atom",
    source: ours("proportional to atoms; a fully booked node declares exactly its capacity"),
    description: "memory a task declares per atom of its demand",
  }),
  overclaimProb: num({
    min: 0, max: 1, default: 0.3, unit: "probability",
    source: paper("Exp5"),
    description: "probability that a task's true footprint exceeds its declaration",
  }),
  overclaimMax: num({
    min: 0, max: 10, default: 0.5, unit: "fraction",
    source: paper("Exp5"),
    description: "maximum overclaim: true footprint = declared*(1+o), o uniform in [0, overclaimMax]",
  }),
  driftKappa: num({
    min: 0, max: 1, default: 0.1, unit: "per tick",
    source: paper("Exp5"),
    description: "per-tick pull of resident memory towards the true footprint (Ornstein-Uhlenbeck-style drift, form ours)",
  }),
  noiseSigma: num({
    min: 0, max: 10, default: 0.1, unit: "fraction",
    source: paper("Exp5"),
    description: "sigma of the per-tick Gaussian memory noise, as a fraction of declared memory (scaling ours)",
  }),
  burstRate: num({
    min: 0, max: 1, default: 0.02, unit: "probability",
    source: paper("Exp5"),
    description: "probability per running task and tick of a memory burst (per-tick reading ours)",
  }),
  burstScale: num({
    min: 0, max: 10, default: 0.25, unit: "fraction",
    source: paper("Exp5"),
    description: "burst size as a fraction of declared memory; the drift then pulls it back",
  }),
  tickMs: num({
    gt: 0, max: 1000, default: 1, unit: "ms",
    source: paper("Exp5"),
    description: "runtime tick: memory evolves and each node samples its watermark at this period",
  }),
  oomRule: enm({
    values: ["largest", "random"], default: "largest", unit: "choice",
    source: ours("Linux's OOM killer picks the largest resident task, which is how L-tasks die"),
    description: "whom the kernel kills when a node's memory use exceeds its capacity and Airlock does not act",
  }),
} satisfies ParamGroup;

export const airlock = {
  enabled: bool({
    default: true, unit: "flag",
    source: paper("The Airlock Protocol"),
    description: "suspend residents in ascending E_v,init above the high watermark; off leaves pressure to memory.oomRule (Exp5 toggles it)",
  }),
  highWatermark: num({
    gt: 0, max: 1, default: 0.9, unit: "fraction",
    source: paper("Exp5"),
    description: "memory use / capacity above which the node halts admission and starts reverse-recursive suspension",
  }),
  safeWatermark: num({
    gt: 0, max: 1, default: 0.8, unit: "fraction",
    source: paper("Exp5"),
    description: "suspension stops once use falls to this; in-situ resume only while resuming keeps use at or below it",
  }),
  suspendMs: num({
    min: 0, max: 100000, default: 20, unit: "ms",
    source: ours("outlasts a short burst at 1 ms ticks and drift 0.1 per tick, yet is well under an L-task's service time"),
    description: "T_susp: how long a suspended task waits for in-situ recovery before its DA is reactivated",
  }),
  survivalMs: num({
    gt: 0, max: 100000, default: 150, unit: "ms",
    source: ours("the lifetime a fresh DA gets: da.silenceTtlMs"),
    description: "T_surv: shared survival TTL of a suspended task and its reactivated DA, from reactivation; expiry kills both",
  }),
  compressionRatio: num({
    min: 1, max: 100, default: 3, unit: "ratio",
    source: ours("typical zRAM compression, lzo or zstd 2-4x"),
    description: "suspended footprint = resident memory / ratio (zRAM-like glass state)",
  }),
  statePullMs: num({
    min: 0, max: 100000, default: 10, unit: "ms",
    source: ours("one Z-HAF period; the paper gives no figure"),
    description: "time to pull a suspended image after a secondary landing wins, on top of one hop; must end within T_surv",
  }),
} satisfies ParamGroup;
