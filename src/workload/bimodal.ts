// The paper's bimodal open-loop workload (§Experimental Setup, "Workload"):
// two independent Poisson streams, F-tasks (exponential service, a few
// dispersed atoms) and L-tasks (lognormal service, one contiguous run).
//
// The offered load rho is lambda / mu, with mu the cluster's ideal throughput:
//   mu = nodes * atomsPerNode / E[m * s]
//   E[m * s] = fShare * fAtoms * fMeanMs + (1 - fShare) * lAtoms * e^(lMu + lSigma^2 / 2)
// (about 1,452 atom-ms at the defaults, so mu ~ 881,500 tasks/s at 5,000 nodes).
// Squatters (Exp4) are a share of all arrivals, whichever stream they come from.
import type { Config } from "../config/params.js";
import { fdExp } from "../sim/fdlibm.js";

export const CLASS_F = 0;
export const CLASS_L = 1;
export const CLASS_SQUATTER = 2;

export interface Rates {
  /** Mean atom-milliseconds per task, E[m * s]. */
  meanAtomMs: number;
  /** Ideal throughput mu, tasks per second. */
  mu: number;
  /** Offered arrival rate lambda = rho * mu, tasks per second. */
  lambda: number;
  /** Per-stream rates, tasks per second. */
  lambdaF: number;
  lambdaL: number;
}

export function arrivalRates(c: Config): Rates {
  const w = c.workload;
  const meanL = fdExp(w.lMu + (w.lSigma * w.lSigma) / 2);
  const meanAtomMs = w.fShare * w.fAtoms * w.fMeanMs + (1 - w.fShare) * w.lAtoms * meanL;
  const mu = (c.cluster.nodes * c.cluster.atomsPerNode * 1000) / meanAtomMs;
  const lambda = w.rho * mu;
  return { meanAtomMs, mu, lambda, lambdaF: lambda * w.fShare, lambdaL: lambda * (1 - w.fShare) };
}
