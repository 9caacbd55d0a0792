// The Flux-like baseline's run module (its entry: ../flux.ts).
import type { CommonResult } from "../../metrics/result.js";
import type { FluxResult } from "../../baselines/flux.js";
import type { SchedulerImpl } from "../../run/impl.js";
import { runFlux } from "../../run/baselines.js";
import { netRows } from "./net-rows.js";

const impl: SchedulerImpl = {
  run: runFlux,
  rows: (r: CommonResult) => {
    const x = r as FluxResult;
    return [
      ["brokers / decisions / rollbacks", `${x.brokers} / ${x.decisions} / ${x.rollbacks}`],
      ["longest root queue", String(x.maxRootQueue)],
      ...netRows(x),
    ];
  },
};
export default impl;
