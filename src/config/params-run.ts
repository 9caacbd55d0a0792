// Registry groups shared by every scheduler: the run itself, the cluster, the
// workload and the network. Sources follow docs/model-notes: the paper's text
// wins for a default; where the artifact (the authors' Laminar-Sim) differs,
// the description says so and the other value stays reachable.
import { SCHEDULER_NAMES } from "../schedulers/catalogue.js";
import { WORKLOAD_NAMES, workloadGroups, type WorkloadGroups } from "../workload/params/kinds.js";
import { artifact, bool, enm, int, num, ours, paper, type ParamGroup } from "./params-spec.js";

export const sim = {
  scheduler: enm({
    values: SCHEDULER_NAMES, default: "laminar", unit: "choice",
    source: ours("Laminar is the system under test"),
    description: "scheduler to simulate: Laminar or a baseline (paper §Baseline modeling); the choices are the schedulers registered in src/schedulers/catalogue.ts",
  }),
  seed: int({
    min: 0, max: 4294967295, default: 1, unit: "seed",
    source: ours("any fixed value; runs are reproducible per seed"),
    description: "root seed; every random stream (arrivals, gateway, network, each Zone) is derived from it",
  }),
  durationS: num({
    gt: 0, max: 3600, default: 30, unit: "s",
    source: paper("Exp1"),
    description: "simulated arrival window; seconds because runs are quoted in seconds (the artifact ran Exp1 for 5 s)",
  }),
  drainS: num({
    min: 0, max: 600, default: 5, unit: "s",
    source: ours("= the baselines' 5 s deadline, so every bounded task resolves"),
    description: "simulated time after arrivals stop in which in-flight tasks may still start or fail; unresolved tasks count as not started",
  }),
  checkInvariants: bool({
    default: false, unit: "flag",
    source: ours("slow; meant for tests and debugging"),
    description: "check the model's invariants and stop at the first violation: Laminar's bitmap, reservation, queue and accounting invariants on every transition (docs/laminar-model.md); the baselines' atoms and accounting after every 10 ms slice (docs/baselines.md)",
  }),
  engine: enm({
    values: ["ts", "core", "auto"], default: "auto", unit: "choice",
    source: ours("the TypeScript model is the reference twin of the core's Zone engine"),
    description: "where Laminar's Zone side runs: the TypeScript model (ts), the core's Zone admission engine (core; an error with sim.checkInvariants, whose checker watches the model), or the engine unless the checker is on (auto); both give the same result (docs/engine.md)",
  }),
  seriesIntervalMs: num({
    min: 1, max: 60000, default: 1000, unit: "ms",
    source: ours("one point per second, like the paper's Exp5 time series"),
    description: "sampling period of the time-series metrics",
  }),
} satisfies ParamGroup;

export const cluster = {
  nodes: int({
    min: 1, max: 1000000, default: 5000, unit: "nodes",
    source: paper("Exp1"),
    description: "worker nodes (Exp2 sweeps 5,000-32,000)",
  }),
  atomsPerNode: int({
    min: 64, max: 1024, multipleOf: 64, default: 256, unit: "atoms",
    source: artifact(),
    description: "length of each node's resource-atom bitmap (the paper only says 'a fixed-length binary bitmap')",
  }),
  zoneSize: int({
    min: 1, max: 1000000, default: 256, unit: "nodes",
    source: paper("Exp1"),
    description: "target Zone size; Zone count = round(nodes / zoneSize), at least 1",
  }),
  zoneJitter: num({
    min: 0, lt: 1, default: 0.2, unit: "fraction",
    source: paper("Exp1"),
    description: "Zone sizes are uniform in zoneSize*[1-j, 1+j] (205-307 at defaults), then fixed up to sum to nodes; 0 gives equal Zones",
  }),
  preoccupancy: {
    enabled: bool({
      default: false, unit: "flag",
      source: ours("the artifact starts every node empty; off reproduces the paper's figures"),
      description: "pre-occupy nodes with rigid-topology jobs (the paper's post-landing ecology), constant for the whole run",
    }),
    fraction: num({
      min: 0, lt: 1, default: 0.25, unit: "fraction",
      source: ours("the paper gives no figure; a quarter of each node"),
      description: "share of each node's atoms held by rigid jobs when pre-occupancy is enabled",
    }),
    blocks: int({
      min: 1, max: 64, default: 2, unit: "count",
      source: ours("rigid jobs hold a few contiguous runs"),
      description: "contiguous blocks the rigid share is split into, at seeded random offsets per node",
    }),
  },
} satisfies ParamGroup;

const kind = enm({
  values: WORKLOAD_NAMES, default: "bimodal", unit: "choice",
  source: paper("Experimental Setup"),
  description: "where tasks come from: the paper's bimodal open-loop generator (the parameters below), or a trace file (workload.trace.*); the choices are the kinds in src/workload/params/kinds.ts",
});

/** The bimodal generator's parameters (workload.kind=bimodal); squatters, hotspot entry apply to a trace too. */
const bimodal = {
  rho: num({
    gt: 0, max: 2, default: 0.8, unit: "ratio",
    source: paper("Exp2, Exp3, Exp5"),
    description: "offered load rho = lambda/mu, mu = nodes*atomsPerNode/E[m*s] (Exp1 sweeps 0.4-0.9, Exp4a uses 0.5)",
  }),
  fShare: num({
    min: 0, max: 1, default: 0.8, unit: "fraction",
    source: paper("Experimental Setup"),
    description: "share of arrivals that are F-tasks; the rest are L-tasks (two independent Poisson streams)",
  }),
  fMeanMs: num({
    gt: 0, max: 60000, default: 5, unit: "ms",
    source: artifact(),
    description: "F-task mean service time, exponential (paper: 'a mean in the low-millisecond range')",
  }),
  fAtoms: int({
    min: 1, max: 1024, default: 4, unit: "atoms",
    source: artifact(),
    description: "F-task demand, dispersed: any free atoms of one node (paper: 'a small number of resource atoms')",
  }),
  lMu: num({
    min: -10, max: 20, default: 4, unit: "ln(ms)",
    source: artifact(),
    description: "L-task service time is lognormal(mu, sigma) in ms; mean e^(mu+sigma^2/2) = 112 ms at defaults",
  }),
  lSigma: num({
    min: 0, max: 5, default: 1.2, unit: "ln(ms)",
    source: artifact(),
    description: "sigma of the L-task lognormal service time (paper: 'a heavier tail')",
  }),
  lAtoms: int({
    min: 1, max: 1024, default: 64, unit: "atoms",
    source: artifact(),
    description: "L-task demand: one strictly contiguous run of atoms in one node",
  }),
  priceF: num({
    gt: 0, max: 1e6, default: 18, unit: "units/atom",
    source: artifact(),
    description: "F-task token density p: E_v,init = E_patience(0) = p*m (72 units at defaults)",
  }),
  priceL: num({
    gt: 0, max: 1e6, default: 18, unit: "units/atom",
    source: artifact(),
    description: "L-task token density p (1,152 units at defaults); equal p makes survival order follow m",
  }),
  hotspotShare: num({
    min: 0, max: 1, default: 0, unit: "fraction",
    source: artifact(),
    description: "share of tasks that enter at a hot node (the paper's 'hotspot skew'; the artifact's Exp1 sweep: 0.2, Exp3: 0.35); the rest enter at a uniformly drawn node. Baselines with an entry point use it; Laminar enters at its gateway",
  }),
  hotNodeShare: num({
    gt: 0, max: 1, default: 0.05, unit: "fraction",
    source: artifact(),
    description: "hot nodes: the first hotNodeShare of node ids (at least one node)",
  }),
  squatterRatio: num({
    min: 0, lt: 1, default: 0, unit: "fraction",
    source: paper("Exp4"),
    description: "share of arrivals that win a reservation and never pull, with unlimited priority and patience (Exp4a: 0.05, 0.10)",
  }),
  squatterAtoms: int({
    min: 1, max: 1024, default: 64, unit: "atoms",
    source: artifact(),
    description: "squatter demand, one contiguous run of atoms in one node",
  }),
} satisfies ParamGroup;

// kind after the generator's own: a message that names the group's first member keeps naming workload.rho
export const workload: typeof bimodal & { kind: typeof kind } & WorkloadGroups = { ...bimodal, kind, ...workloadGroups() } satisfies ParamGroup;

export const network = {
  hopMs: num({
    // at least 1 us: the partition windows are half a hop of whole ns, and a secondary landing's pull waits a hop less two windows
    min: 0.001, max: 1000, default: 0.5, unit: "ms",
    source: paper("Experimental Setup"),
    description: "delay of every control message and of a payload pull (paper: 0.5 ms RTT and hop; artifact: 0.1 ms for Laminar, 0.5 ms for baselines)",
  }),
  loss: num({
    min: 0, lt: 1, default: 0.01, unit: "probability",
    source: paper("Experimental Setup"),
    description: "loss probability of each lossy control packet (Exp4b: 0.1-0.3; Exp5 and the artifact's Exp1 sweep: 0)",
  }),
  osJitterMs: num({
    min: 0, max: 100, default: 0.01, unit: "ms",
    source: ours("the artifact adds 'a small OS jitter' whose size the notes do not record"),
    description: "mean of the exponential extra delay on a DA's hop to its chosen node",
  }),
} satisfies ParamGroup;
