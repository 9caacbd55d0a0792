// The baselines' runs: each model on one thread through runModel, its result
// record shaped by the model's own module.
import type { Config } from "../config/params.js";
import { RayModel, rayResult, type RayResult } from "../baselines/ray.js";
import { FluxModel, fluxResult, type FluxResult } from "../baselines/flux.js";
import { SlurmModel, slurmResult, type SlurmResult } from "../baselines/slurm.js";
import type { RunOptions } from "./options.js";
import { runModel } from "./single.js";

/** One Slurm-like run (see runLaminar for the shape of a run). */
export function runSlurm(config: Config, opts: RunOptions = {}): SlurmResult {
  const { model, common } = runModel("slurm", config, opts, (core) => new SlurmModel(core, config));
  return slurmResult(model, common);
}

/** One Ray-like run. */
export function runRay(config: Config, opts: RunOptions = {}): RayResult {
  const { model, common } = runModel("ray", config, opts, (core) => new RayModel(core, config));
  return rayResult(model, common);
}

/** One Flux-like run. */
export function runFlux(config: Config, opts: RunOptions = {}): FluxResult {
  const { model, common } = runModel("flux", config, opts, (core) => new FluxModel(core, config));
  return fluxResult(model, common);
}
