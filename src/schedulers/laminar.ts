// Laminar's registration: the system under test. Its parameters are the
// registry's own groups (teg, zhaf, da, arbiter, reservation, regeneration,
// task, costs, memory, airlock: src/config/params-laminar.ts and
// params-airlock.ts), not a group of its own under baselines.
import { defineScheduler } from "./entry.js";

export const laminar = defineScheduler({
  name: "laminar",
  label: "Laminar",
  color: "#4c78a8",
  summary: "probe-first, execute-later scheduling with the Airlock runtime-survival layer (the paper's system)",
  params: null,
  paramsTitle: "Laminar: the groups teg, zhaf, da, arbiter, reservation, regeneration, task, costs, memory, airlock",
  controlWork: "probe scoring, bitmap feasibility checks and Zone aggregation at their per-operation costs",
  deadlineParam: "task.deadlineMs",
  deadlineOwner: "Laminar's",
  supports: { memoryModel: true, invariants: true, threads: true },
  // its deadline is 0.5 s: 1 s of drain resolves every task at the quick scale
  drainS: { quick: 1, paper: null },
  impl: new URL("./run/laminar.js", import.meta.url),
});
