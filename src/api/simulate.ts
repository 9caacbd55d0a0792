// The public way to run one simulation of any scheduler: the run layer's
// runScheduler (which picks the scheduler by config.sim.scheduler), with the
// result typed by scheduler.
import type { FluxResult } from "../baselines/flux.js";
import type { RayResult } from "../baselines/ray.js";
import type { SlurmResult } from "../baselines/slurm.js";
import type { SparrowResult } from "../baselines/sparrow.js";
import type { Config } from "../config/params.js";
import type { SimResult } from "../laminar/result.js";
import { runScheduler } from "../run/schedulers.js";
import { parseConfig } from "./config.js";

/** One run's result: the fields every scheduler reports (CommonResult) plus its own; `scheduler` tells which. */
export type SimulationResult = SimResult | SlurmResult | RayResult | FluxResult | SparrowResult;

export interface SimulationOptions {
  /** Worker threads for a Laminar run's Zones (default 1); the result is the same for any count. Other schedulers run on one. */
  threads?: number;
  /** Called every slice of simulated time with the simulated ns so far and the run's horizon in ns. */
  onProgress?: (nowNs: number, endNs: number) => void;
}

/**
 * Run one simulation of `config.sim.scheduler` ("laminar", "slurm", "ray" or
 * "flux"). `config` is a Config from parseConfig, or any object parseConfig
 * accepts. Deterministic for a given config: only wallSeconds,
 * tasksPerWallSecond and peakRssMiB differ between runs.
 *
 * @example
 * const r = await runSimulation(parseConfig({ "cluster.nodes": 256, "sim.durationS": 0.5 }));
 * console.log(r.scheduler, r.startSuccessRatio, r.p99StartedMs);
 * if (r.scheduler === "laminar") console.log(r.probeActions);
 */
export async function runSimulation(config: Config | Record<string, unknown>, options: SimulationOptions = {}): Promise<SimulationResult> {
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`runSimulation: threads must be a positive integer, got ${threads}`);
  const checked = parseConfig(config); // a Config passes unchanged; a plain object is validated here
  return (await runScheduler(checked, threads, { onProgress: options.onProgress })) as SimulationResult;
}
