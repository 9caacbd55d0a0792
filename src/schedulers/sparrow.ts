// The Sparrow-like baseline's registration (the model: src/baselines/
// sparrow.ts; docs/baselines.md). Its parameters follow Sparrow's paper
// (Ousterhout, Wendell, Zaharia, Stoica, SOSP 2013) where it fixes them; how
// single tasks form jobs is ours, as the paper schedules jobs and our
// workload has none.
import { defineScheduler } from "./entry.js";
import { cited, int, num, ours, type ParamGroup } from "../config/params-spec.js";

const SPARROW = "Sparrow (Ousterhout et al., SOSP 2013)";

const params = {
  probeRatio: num({
    min: 1, max: 100, default: 2, unit: "ratio",
    source: cited(SPARROW, "batch sampling probes d*m workers for a job of m tasks, with d = 2"),
    description: "d: a job of m tasks sends reservations to ceil(d*m) distinct nodes drawn uniformly (all nodes when that is more)",
  }),
  jobSize: int({
    min: 1, max: 100000, default: 10, unit: "tasks",
    source: ours("the workload's tasks are single and Sparrow schedules jobs; ten consecutive tasks make batch sampling differ from sampling per task"),
    description: "a job is this many consecutive tasks of one class and demand (1: every task is its own job, power-of-d sampling with late binding)",
  }),
  jobWindowMs: num({
    min: 0, max: 10000, default: 1, unit: "ms",
    source: ours("two 0.5 ms hops: a thin stream never holds a task back longer; a job fills in tens of microseconds at Exp1's rates"),
    description: "a job not yet full is sent this long after its first task (0: every task is sent at once, alone); with a large jobSize, jobs are the arrivals of one window, like a gateway batch",
  }),
} satisfies ParamGroup;

export const sparrow = defineScheduler({
  name: "sparrow",
  label: "Sparrow-like",
  color: "#e45756",
  summary: "batch sampling with late binding: reservations queued at d*m sampled nodes, a task bound when a node asks (Sparrow, SOSP 2013)",
  params,
  paramsTitle: "Sparrow-like baseline (Ousterhout et al., SOSP 2013)",
  // its schedulers are stateless and the Sparrow paper gives no per-decision figure: none modelled
  controlWork: null,
  deadlineParam: "baselines.deadlineMs",
  deadlineOwner: "baselines'",
  supports: { memoryModel: false, invariants: true, threads: false },
  // as the Ray- and Flux-like models: the full sim.drainS (their 5 s deadline) resolves every task
  drainS: { quick: null, paper: null },
  impl: new URL("./run/sparrow.js", import.meta.url),
});
