// The baselines' runs: each model on one thread through runModel, its result
// record shaped by the model's own module. With sim.checkInvariants, the
// baselines' invariant checker (src/baselines/invariants.ts) runs after every
// slice and at the end, and the result records how many checks passed.
import type { Config } from "../config/params.js";
import type { Core } from "../core/wasm.js";
import type { CommonResult } from "../metrics/result.js";
import { RayModel, rayResult, type RayResult } from "../baselines/ray.js";
import { FluxModel, fluxResult, type FluxResult } from "../baselines/flux.js";
import { SlurmModel, slurmResult, type SlurmResult } from "../baselines/slurm.js";
import { BaselineInvariants, type CheckedModel } from "../baselines/invariants.js";
import type { RunOptions } from "./options.js";
import { runModel, type RunnableModel } from "./single.js";

/**
 * One run of a baseline model: `make` builds it on the run's core, `result`
 * shapes its record. With sim.checkInvariants every slice ends with a check
 * (a violation stops the run with an InvariantError), and the record gains
 * invariantChecks.
 */
export function runBaseline<M extends RunnableModel & CheckedModel, R extends CommonResult>(
  scheduler: string, config: Config, opts: RunOptions, make: (core: Core) => M, result: (model: M, common: CommonResult) => R,
): R & { invariantChecks?: number } {
  if (!config.sim.checkInvariants) {
    const { model, common } = runModel(scheduler, config, opts, make);
    return result(model, common);
  }
  let checker: BaselineInvariants | null = null, built: M | null = null;
  const checked: RunOptions = {
    ...opts,
    onProgress: (now, end) => {
      checker!.check(built!, built!.engine.now);
      opts.onProgress?.(now, end);
    },
  };
  const { model, common } = runModel(scheduler, config, checked, (core) => {
    built = make(core);
    checker = new BaselineInvariants(core, built.cluster);
    return built;
  }, (m) => checker!.check(m, m.engine.now));
  return { ...result(model, common), invariantChecks: checker!.checks };
}

/** One Slurm-like run (see runLaminar for the shape of a run). */
export function runSlurm(config: Config, opts: RunOptions = {}): SlurmResult {
  return runBaseline("slurm", config, opts, (core) => new SlurmModel(core, config), slurmResult);
}

/** One Ray-like run. */
export function runRay(config: Config, opts: RunOptions = {}): RayResult {
  return runBaseline("ray", config, opts, (core) => new RayModel(core, config), rayResult);
}

/** One Flux-like run. */
export function runFlux(config: Config, opts: RunOptions = {}): FluxResult {
  return runBaseline("flux", config, opts, (core) => new FluxModel(core, config), fluxResult);
}
