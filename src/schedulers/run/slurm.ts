// The Slurm-like baseline's run module (its entry: ../slurm.ts).
import type { CommonResult } from "../../metrics/result.js";
import type { SlurmResult } from "../../baselines/slurm.js";
import { fmt, type SchedulerImpl } from "../../run/impl.js";
import { runSlurm } from "../../run/baselines.js";
import { netRows } from "./net-rows.js";

const impl: SchedulerImpl = {
  run: runSlurm,
  rows: (r: CommonResult) => {
    const s = r as SlurmResult;
    return [
      ["decisions", `${s.decisions}, mean ${fmt(s.meanDecisionUs)} us each`],
      ["longest global FIFO", String(s.maxQueue)],
      ...netRows(s),
    ];
  },
};
export default impl;
