// The Ray-like baseline's run module (its entry: ../ray.ts).
import type { CommonResult } from "../../metrics/result.js";
import type { RayResult } from "../../baselines/ray.js";
import { fmt, type SchedulerImpl } from "../../run/impl.js";
import { runRay } from "../../run/baselines.js";
import { netRows } from "./net-rows.js";

const impl: SchedulerImpl = {
  run: runRay,
  rows: (r: CommonResult) => {
    const y = r as RayResult;
    return [
      ["local starts (entry raylet, no spillback) / redirects", `${y.localStarts} / ${y.redirects}`],
      ["raylet decisions / longest raylet queue", `${y.rayletDecisions} / ${y.maxRayletQueue}`],
      ["GCS decisions / longest shard queue", `${y.gcsDecisions} / ${y.maxShardQueue}`],
      ["control work per start (raylet and GCS decisions)", `${fmt(y.controlWorkPerSuccessUs, 4)} us`],
      ...netRows(y),
    ];
  },
};
export default impl;
