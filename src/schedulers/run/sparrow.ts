// The Sparrow-like baseline's run module (its entry: ../sparrow.ts).
import type { CommonResult } from "../../metrics/result.js";
import { SparrowModel, sparrowResult, type SparrowResult } from "../../baselines/sparrow.js";
import type { SchedulerImpl } from "../../run/impl.js";
import { runBaseline } from "../../run/baselines.js";
import { netRows } from "./net-rows.js";

const impl: SchedulerImpl = {
  run: (config, opts = {}) => runBaseline("sparrow", config, opts, (core) => new SparrowModel(core, config), sparrowResult),
  rows: (r: CommonResult) => {
    const s = r as SparrowResult;
    return [
      ["jobs / reservations sent", `${s.jobsSent} / ${s.reservationsSent}`],
      ["task requests / cancels (late binding)", `${s.requests} / ${s.cancels}`],
      ["longest reservation queue at a node", String(s.maxNodeQueue)],
      ...netRows(s),
    ];
  },
};
export default impl;
