// A result record's digest for pinning and determinism checks: the fields
// that measure the run itself and the configuration (an input, and one that
// grows as parameters are added) left out.
import { createHash } from "node:crypto";
import type { CommonResult } from "../../src/metrics/result.js";

/** sha256 (16 hex digits) of the result without timing fields and config. */
export function outcomeDigest(r: CommonResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, coreBuild, config, ...rest } = r as CommonResult & Record<string, unknown>;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB; void coreBuild; void config;
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex").slice(0, 16);
}
