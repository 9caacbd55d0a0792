// The Slurm-like baseline's registration (paper §Baseline modeling; the model:
// src/baselines/slurm.ts). It gets no drain in the experiments at either
// scale: its queue never drains, and serving it after the arrival window
// would add to its success ratio (src/experiments/specs.ts).
import { defineScheduler } from "./entry.js";
import { bool, enm, int, num, ours, paper, type ParamGroup } from "../config/params-spec.js";

const params = {
  baseMatchUs: num({
    min: 0, max: 1e6, default: 0.1, unit: "µs",
    source: paper("Experimental Setup"),
    description: "base match cost of one decision of the global FIFO",
  }),
  scanPerNodeUs: num({
    min: 0, max: 1e6, default: 0.01, unit: "µs",
    source: paper("Experimental Setup"),
    description: "first-fit scan cost per node; each decision scans the whole cluster",
  }),
  lockUs: num({
    min: 0, max: 1e6, default: 0.5, unit: "µs",
    source: paper("Experimental Setup"),
    description: "global mutex cost per decision, times the lock-convoy factor (see convoy)",
  }),
  convoy: enm({
    values: ["threshold", "linear"] as const, default: "threshold", unit: "choice",
    source: paper("Baseline modeling"),
    description: "lock-convoy factor, q the FIFO's length: 1 + min(convoyCap, (max(0, q - convoyQueue)/convoyQueue)^2), non-linear above the threshold (threshold, the paper's 'when concurrent queue depth exceeds 10,000, a non-linear lock-convoy penalty activates'), or the artifact's 1 + q/convoyQueue over the whole backlog (linear)",
  }),
  convoyQueue: int({
    min: 1, max: 1e9, default: 10000, unit: "tasks",
    source: paper("Baseline modeling"),
    description: "queue depth above which the lock convoy activates (threshold), or its scale (linear)",
  }),
  convoyCap: num({
    min: 0, max: 1e9, default: 10, unit: "factor",
    source: ours("the artifact caps its other penalties: USL at 30, root exponent at 10; an uncapped square of an unbounded backlog would make results a function of the run's length"),
    description: "cap on the non-linear term of the threshold convoy",
  }),
  retries: int({
    min: 0, max: 100, default: 3, unit: "count",
    source: paper("Experimental Setup"),
    description: "retries of a task whose placement failed, with backoff",
  }),
  backoffMs: num({
    min: 0, max: 100000, default: 2, unit: "ms",
    source: paper("Experimental Setup"),
    description: "base backoff; retry r waits backoffMs*2^r (doubling: artifact)",
  }),
  unboundedQueue: bool({
    default: true, unit: "flag",
    source: paper("Experimental Setup"),
    description: "no deadline: the global FIFO keeps every task; false applies baselines.deadlineMs",
  }),
} satisfies ParamGroup;

export const slurm = defineScheduler({
  name: "slurm",
  label: "Slurm-like",
  color: "#b279a2",
  summary: "a global FIFO with a first-fit scan of the whole cluster under one lock (paper §Baseline modeling)",
  params,
  paramsTitle: "Slurm-like baseline",
  controlWork: "the controller's decisions (scan, match, lock)",
  deadlineParam: "baselines.deadlineMs",
  deadlineOwner: "baselines'",
  supports: { memoryModel: false, invariants: true, threads: false },
  drainS: { quick: 0, paper: 0 },
  impl: new URL("./run/slurm.js", import.meta.url),
});
