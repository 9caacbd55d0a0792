// The bimodal workload's rates (src/workload/bimodal.ts, arrivalRates): at the
// defaults E[m*s] is about 1,452 atom-ms and mu about 881,500 tasks/s at
// 5,000 nodes; lambda = rho * mu, split fShare / (1 - fShare) between the
// F and L streams; mu scales with nodes and atomsPerNode.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { arrivalRates } from "../../src/workload/bimodal.js";

const at5000 = () => applySets(defaultConfig(), ["cluster.nodes=5000"]);

describe("arrivalRates", () => {
  it("defaults: E[m*s] ~ 1,452 atom-ms, mu ~ 881,500 tasks/s at 5,000 nodes", () => {
    const r = arrivalRates(at5000());
    expect(Math.abs(r.meanAtomMs - 1452)).toBeLessThanOrEqual(1);
    // the closed form: 0.8 * 4 * 5 + 0.2 * 64 * e^(4 + 1.2^2 / 2)
    expect(r.meanAtomMs).toBeCloseTo(0.8 * 4 * 5 + 0.2 * 64 * Math.exp(4 + 0.72), 9);
    expect(Math.abs(r.mu - 881_500) / 881_500).toBeLessThan(1e-3);
    expect(r.mu).toBeCloseTo((5000 * 256 * 1000) / r.meanAtomMs, 6);
  });

  it("lambda = rho * mu, split by fShare between the F and L streams", () => {
    for (const sets of [[], ["workload.rho=0.4"], ["workload.rho=1.7", "workload.fShare=0.3"], ["workload.fShare=1"], ["workload.fShare=0"]]) {
      const c = applySets(at5000(), sets);
      const r = arrivalRates(c);
      expect(r.lambda).toBeCloseTo(c.workload.rho * r.mu, 6);
      expect(r.lambdaF + r.lambdaL).toBeCloseTo(r.lambda, 6);
      expect(r.lambdaF).toBeCloseTo(r.lambda * c.workload.fShare, 6);
      expect(r.lambdaL).toBeCloseTo(r.lambda * (1 - c.workload.fShare), 6);
    }
    const dflt = arrivalRates(at5000());
    expect(dflt.lambda).toBeCloseTo(0.8 * dflt.mu, 6);
    expect(dflt.lambdaF / dflt.lambda).toBeCloseTo(0.8, 12);
  });

  it("all F (fShare = 1): E[m*s] = fAtoms * fMeanMs and no L stream", () => {
    const r = arrivalRates(applySets(at5000(), ["workload.fShare=1"]));
    expect(r.meanAtomMs).toBeCloseTo(4 * 5, 12);
    expect(r.lambdaL).toBe(0);
    expect(r.lambdaF).toBe(r.lambda);
  });

  it("mu scales linearly with nodes and atomsPerNode, and inversely with service work", () => {
    const base = arrivalRates(at5000());
    const twice = arrivalRates(applySets(defaultConfig(), ["cluster.nodes=10000"]));
    expect(twice.mu / base.mu).toBeCloseTo(2, 12);
    expect(twice.meanAtomMs).toBe(base.meanAtomMs);
    const wide = arrivalRates(applySets(at5000(), ["cluster.atomsPerNode=512"]));
    expect(wide.mu / base.mu).toBeCloseTo(2, 12);
    const slowF = arrivalRates(applySets(at5000(), ["workload.fShare=1", "workload.fMeanMs=10"]));
    const fastF = arrivalRates(applySets(at5000(), ["workload.fShare=1", "workload.fMeanMs=5"]));
    expect(fastF.mu / slowF.mu).toBeCloseTo(2, 12);
  });

  it("rho does not change mu", () => {
    const a = arrivalRates(applySets(at5000(), ["workload.rho=0.2"]));
    const b = arrivalRates(applySets(at5000(), ["workload.rho=2"]));
    expect(a.mu).toBe(b.mu);
    expect(b.lambda / a.lambda).toBeCloseTo(10, 12);
  });
});
