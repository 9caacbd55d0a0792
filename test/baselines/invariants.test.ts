// The baselines' invariant checker (src/baselines/invariants.ts): a checked
// run of every baseline passes and gives the unchecked run's result, and a
// fault injected behind each rule stops the run with an InvariantError that
// names it.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { Config } from "../../src/config/params.js";
import type { Core } from "../../src/core/wasm.js";
import type { CommonResult } from "../../src/metrics/result.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { RayModel, rayResult } from "../../src/baselines/ray.js";
import { FluxModel, fluxResult } from "../../src/baselines/flux.js";
import { SlurmModel, slurmResult } from "../../src/baselines/slurm.js";
import { SparrowModel, sparrowResult } from "../../src/baselines/sparrow.js";
import { runBaseline } from "../../src/run/baselines.js";
import { InvariantError } from "../../src/sim/invariant-error.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyModel = any;
const MODELS: Record<string, { make: (core: Core, c: Config) => AnyModel; result: (m: AnyModel, c: CommonResult) => CommonResult }> = {
  slurm: { make: (core, c) => new SlurmModel(core, c), result: slurmResult },
  ray: { make: (core, c) => new RayModel(core, c), result: rayResult },
  flux: { make: (core, c) => new FluxModel(core, c), result: fluxResult },
  sparrow: { make: (core, c) => new SparrowModel(core, c), result: sparrowResult },
};

function config(scheduler: string, check: boolean, ...sets: string[]): Config {
  return applySets(defaultConfig(), [
    `sim.scheduler=${scheduler}`, "cluster.nodes=300", "workload.rho=0.85", "sim.durationS=0.3", "sim.drainS=0.5",
    "network.loss=0.01", "cluster.preoccupancy.enabled=true", `sim.checkInvariants=${check}`, ...sets,
  ]);
}

/** A run of `scheduler`; `fault` (called after each slice's check, with the model) may break its state. */
function run(scheduler: string, check: boolean, fault?: (m: AnyModel, slice: number) => void, ...sets: string[]): CommonResult & { invariantChecks?: number } {
  const c = config(scheduler, check, ...sets), { make, result } = MODELS[scheduler];
  let model: AnyModel = null, slice = 0;
  return runBaseline(scheduler, c, { onProgress: () => fault?.(model, ++slice) }, (core) => (model = make(core, c)), result);
}

const strip = (r: Record<string, unknown>) => {
  const o: Record<string, unknown> = { ...r };
  for (const k of [...TIMING_FIELDS, "invariantChecks", "config"]) delete o[k];
  return o;
};

describe("baseline invariants", () => {
  for (const s of Object.keys(MODELS)) {
    it(`${s}-like: a checked run passes every check and gives the unchecked run's result`, () => {
      const checked = run(s, true), plain = run(s, false);
      expect(checked.invariantChecks).toBeGreaterThan(30);
      expect(plain.invariantChecks).toBeUndefined();
      expect(checked.started).toBeGreaterThan(1000);
      expect(strip(checked as unknown as Record<string, unknown>)).toEqual(strip(plain as unknown as Record<string, unknown>));
    });
  }

  // each fault breaks one rule at slice 5; the check after slice 6 must name it
  const faults: Array<[string, (m: AnyModel) => void, RegExp]> = [
    ["a free count off its bitmap", (m) => { m.cluster.free[7] -= 1; }, /node 7: free count \d+, but its bitmap row has \d+ free atoms/],
    ["atoms taken with no task to hold them", (m) => {
      const cl = m.cluster, n = cl.free.findIndex((f: number) => f > 0);
      expect(cl.take(n, 1, false, cl.scratchMask)).toBe(true);
    }, /node \d+: \d+ atoms in use, but rigid jobs and tasks hold \d+/],
    ["a running count off the running tasks", (m) => { m.running += 1; }, /tasks counted running, but \d+ hold atoms as running tasks/],
    ["an arrival neither started, failed nor in flight", (m) => { m.metrics.arrived += 1; }, /arrivals, but \d+ started \+ \d+ failed \+ \d+ in flight/],
  ];
  for (const s of Object.keys(MODELS)) {
    for (const [what, breakIt, message] of faults) {
      it(`${s}-like: ${what} stops the run`, () => {
        let err: unknown = null;
        try {
          run(s, true, (m, slice) => { if (slice === 5) breakIt(m); });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(InvariantError);
        expect((err as Error).message).toMatch(message);
        expect((err as Error).message).toMatch(/at 6\d\.\d{3} ms$/);
      });
    }
  }
});
