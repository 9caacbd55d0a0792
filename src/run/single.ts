// One model on one thread, from config to the common result: the baselines'
// runs (and any scheduler whose model is a single engine) go through here.
import { performance } from "node:perf_hooks";
import type { Config } from "../config/params.js";
import { loadCore, type Core } from "../core/wasm.js";
import type { Engine } from "../sim/engine.js";
import type { RunMetrics } from "../metrics/run-metrics.js";
import { commonResult, type CommonResult } from "../metrics/result.js";
import { workloadRates } from "../workload/sources.js";
import type { RunOptions } from "./options.js";
import { runSlices, type SlicedModel } from "./slices.js";

/** What runModel drives: a model that starts, runs in slices, finishes, and is observed by a RunMetrics. */
export interface RunnableModel extends SlicedModel {
  readonly engine: Engine;
  readonly metrics: RunMetrics;
  readonly inFlight: number;
  readonly running: number;
  start(): void;
  finish(): void;
}

/**
 * One run from config to common result: a core (the caller's or a fresh
 * one), the model `make` builds on it, start, the slices of runSlices,
 * finish (and `after`, e.g. the end-of-run invariants), timed by wall clock.
 */
export function runModel<M extends RunnableModel>(
  scheduler: string, config: Config, opts: RunOptions, make: (core: Core) => M, after?: (model: M) => void,
): { model: M; common: CommonResult } {
  const wall0 = performance.now();
  const core = opts.core ?? loadCore("auto");
  const model = make(core);
  model.start();
  runSlices(model, config.sim.drainS, opts);
  model.finish();
  after?.(model);
  const rates = workloadRates(config);
  const common = commonResult({
    scheduler, config, lambdaPerS: rates.lambda, muPerS: rates.mu, metrics: model.metrics, inFlight: model.inFlight, running: model.running,
    simulatedNs: model.engine.now, events: model.engine.processed, coreBuild: core.flavor,
    wallSeconds: (performance.now() - wall0) / 1000,
  });
  return { model, common };
}
