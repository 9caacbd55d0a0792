// Registry groups of the runtime-survival path (Exp5): the memory model that
// creates pressure, and the Airlock protocol that answers it. The artifact has
// neither, so everything the paper's Exp5 paragraph does not fix is ours
// (docs/airlock.md).
//
// The memory process these parameters drive (the paper names only the knobs;
// the form is ours, computed by the core's memTick, docs/abi.md): a task
// declares d = atoms * declaredPerAtomGiB. With probability overclaimProb its
// true footprint is T = d*(1+o), o ~ U(0, overclaimMax), else T = d. Its
// drifting footprint x starts at d; every tick x += kappa*(T - x), plus
// burstScale*d with probability burstRate (the drift then pulls it back);
// its resident use that tick is r = max(0, x + sigma*d*z), z ~ N(0,1) fresh
// each tick. A node's use is the sum of r over its running tasks plus the
// compressed images of its suspended ones.
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
    description: "per-tick pull of the drifting footprint towards the true one (x += kappa*(T - x); form ours)",
  }),
  noiseSigma: num({
    min: 0, max: 10, default: 0.1, unit: "fraction",
    source: paper("Exp5"),
    description: "sigma of the Gaussian noise on each tick's resident use, as a fraction of declared memory (r = x + sigma*d*z; form ours)",
  }),
  burstRate: num({
    min: 0, max: 1, default: 0.02, unit: "probability",
    source: paper("Exp5"),
    description: "probability per running task and tick of a memory burst (per-tick reading ours)",
  }),
  burstScale: num({
    min: 0, max: 10, default: 0.25, unit: "fraction",
    source: paper("Exp5"),
    description: "burst size as a fraction of declared memory, added to the drifting footprint; the drift then pulls it back",
  }),
  tickMs: num({
    min: 0.001, max: 1000, default: 1, unit: "ms",
    source: paper("Exp5"),
    description: "runtime tick: memory evolves and each node samples its watermark at this period",
  }),
  oomRule: enm({
    values: ["largest", "random"], default: "largest", unit: "choice",
    source: ours("Linux's OOM killer picks the largest resident task, which is how L-tasks die"),
    description: "whom the kernel kills when a node's memory use exceeds its capacity: without Airlock, or among what airlock.suspensionScope leaves running",
  }),
} satisfies ParamGroup;

export const airlock = {
  enabled: bool({
    default: true, unit: "flag",
    source: paper("The Airlock Protocol"),
    description: "suspend residents in ascending E_v,init above the high watermark (with memory.enabled); off leaves pressure to memory.oomRule (Exp5 toggles it)",
  }),
  suspensionScope: enm({
    values: ["lower", "all"], default: "lower", unit: "choice",
    source: paper("Absolute Priority Guarantee: 'as long as lower-priority reclaimable state still exists'"),
    description: "lower: suspend only tasks below the node's highest running E_v,init, so the top ones stay exposed to memory.oomRule; all: suspend down to the top",
  }),
  highWatermark: num({
    gt: 0, max: 1, default: 0.9, unit: "fraction",
    source: paper("Exp5"),
    description: "memory use / capacity above which the node drops every probe, reports no free atoms, and starts reverse-recursive suspension at the next tick",
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
    description: "T_surv: shared survival TTL of a suspended task and its reactivated DA, from reactivation; expiry reclaims both",
  }),
  compressionRatio: num({
    min: 1, max: 100, default: 3, unit: "ratio",
    source: ours("typical zRAM compression, lzo or zstd 2-4x"),
    description: "suspended image = resident use at suspension / ratio (zRAM-like glass state); it stays on the source node",
  }),
  admitCheck: enm({
    values: ["projected", "current"], default: "projected", unit: "choice",
    source: ours("the paper samples the watermark before admission; projected also counts the candidate's declared memory, so a node does not admit itself over the line"),
    description: "pre-admission physical check: use + the task's declared memory (projected) or use alone (current) must be at or below the high watermark",
  }),
  statePullMs: num({
    min: 0, max: 100000, default: 10, unit: "ms",
    source: ours("one Z-HAF period; the paper gives no figure"),
    description: "time to pull a suspended image after a secondary landing wins, on top of one hop; must end within T_surv",
  }),
} satisfies ParamGroup;
