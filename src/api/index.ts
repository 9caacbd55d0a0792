// The package's public API: what `import ... from "laminar"` gives
// (docs/library.md). Only what is exported here and from src/core/index.ts
// (`laminar/core`) is public and follows semver; every other module is
// internal and may change in any release.
export { parseConfig, type ConfigOptions } from "./config.js";
export { runSimulation, type SimulationOptions, type SimulationResult } from "./simulate.js";
export { listExperiments, runExperiment, type ExperimentInfo, type ExperimentOptions, type ExperimentRun } from "./experiment.js";
export { listParameters, listProfiles } from "./parameters.js";
export { instantiateCore, type CoreSource, type InstantiateOptions, type LoadedCore } from "../core/index.js";
export { ConfigError } from "../config/params-error.js";

export type { Config } from "../config/params.js";
export type { ParamRecord } from "../config/params.js";
export type { ParamType, ParamValue } from "../config/params-spec.js";
export type { Profile, ProfileName, ProfileValue } from "../config/profiles.js";
export type { CommonResult } from "../metrics/result.js";
export type { SeriesPoint } from "../metrics/run-metrics.js";
export type { SimResult } from "../laminar/result.js";
export type { SlurmResult } from "../baselines/slurm.js";
export type { RayResult } from "../baselines/ray.js";
export type { FluxResult } from "../baselines/flux.js";
export type { SparrowResult } from "../baselines/sparrow.js";
export type { NetCounters } from "../baselines/network.js";
export type { Point, Scale } from "../experiments/specs.js";
export type { PointResult } from "../experiments/runner.js";
export type { PaperFigures } from "../report/data.js";
