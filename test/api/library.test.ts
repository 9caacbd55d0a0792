// The public API (src/api, the package's "." entry): configs built in the
// documented order, one simulation of any scheduler, an experiment run and
// resumed, and the registry as data.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "../../src/api/index.js";
import { ConfigError, listExperiments, listParameters, listProfiles, parseConfig, runSimulation } from "../../src/api/index.js";
import { packageRoot } from "../../src/core/paths.js";
import { PARAMS } from "../../src/config/params.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { runScheduler } from "../../src/run/schedulers.js";

// the runner's worker file is resolved next to it, so experiments run from the built API (npm test builds first)
const built = async () => (await import(pathToFileURL(join(packageRoot(), "dist", "src", "api", "index.js")).href)) as typeof api;
const SMALL = { "cluster.nodes": 64, "sim.durationS": 0.2 };
const untimed = (r: object) => Object.fromEntries(Object.entries(r).filter(([k]) => !(TIMING_FIELDS as readonly string[]).includes(k)));

describe("the public API", () => {
  it("exports the documented entry points and nothing else at run time", () => {
    expect(Object.keys(api).sort()).toEqual([
      "ConfigError", "instantiateCore", "listExperiments", "listParameters", "listProfiles", "parseConfig", "runExperiment", "runSimulation",
    ]);
  });

  it("parseConfig: defaults, then the profile, then the object, then the sets", () => {
    const plain = parseConfig({});
    expect(plain.network.hopMs).not.toBe(0.1);
    const artifact = parseConfig({}, { profile: "artifact" });
    expect(artifact.network.hopMs).toBe(0.1);
    const over = parseConfig({ network: { hopMs: 0.3 } }, { profile: "artifact", sets: ["network.hopMs=0.7", "workload.rho=0.6"] });
    expect([over.network.hopMs, over.workload.rho, over.sim.durationS]).toEqual([0.7, 0.6, 5]);
    expect(parseConfig({ "network.hopMs": 0.3 }, { profile: "artifact" }).network.hopMs).toBe(0.3);
    expect(Object.isFrozen(over.network)).toBe(true);
  });

  it("parseConfig: one-line ConfigErrors that name the parameter", () => {
    expect(() => parseConfig({ "workload.rho": 7 })).toThrow(ConfigError);
    expect(() => parseConfig({ "workload.rho": 7 })).toThrow(/^workload\.rho/);
    expect(() => parseConfig({}, { sets: ["cluster.nodes=abc"] })).toThrow(/cluster\.nodes/);
    expect(() => parseConfig({}, { profile: "fast" as "paper" })).toThrow(/profile must be one of paper, artifact/);
  });

  it("runSimulation: the run layer's result, from a Config or a plain object, for Laminar and a baseline", async () => {
    const config = parseConfig(SMALL);
    const mine = await runSimulation(config);
    expect(mine.scheduler).toBe("laminar");
    expect(untimed(mine)).toEqual(untimed(await runScheduler(config)));
    const slurm = await runSimulation({ ...SMALL, "sim.scheduler": "slurm" });
    expect(slurm.scheduler).toBe("slurm");
    expect(slurm.arrived).toBeGreaterThan(0);
    await expect(runSimulation({ "cluster.nodes": -1 })).rejects.toThrow(ConfigError);
    await expect(runSimulation(config, { threads: 0 })).rejects.toThrow(/threads must be a positive integer/);
  });

  it("runExperiment: the experiment's points and table; resumes from a folder given; refuses what it does not know", async () => {
    const { runExperiment, ConfigError: BuiltConfigError } = await built();
    const out = mkdtempSync(join(tmpdir(), "laminar-api-experiment-"));
    try {
      const o = { sets: ["sim.durationS=0.05", "cluster.nodes=500"], workers: 2, out };
      const first = await runExperiment("exp4a", o);
      expect(first.id).toBe("exp4a");
      expect(first.points).toHaveLength(4);
      expect(first.points.every((p) => !p.resumed && p.point.sets.includes("sim.durationS=0.05"))).toBe(true);
      expect(first.table).toMatch(/reservation\.enabled/);
      expect(readdirSync(join(out, "points"))).toHaveLength(4);
      const again = await runExperiment("exp4a", o);
      expect(again.points.every((p) => p.resumed)).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    await expect(runExperiment("exp9")).rejects.toThrow(/no experiment "exp9"/);
    await expect(runExperiment("exp4a", { sets: ["workload.rho=high"] })).rejects.toThrow(BuiltConfigError);
    await expect(runExperiment("exp4a", { seeds: 0 })).rejects.toThrow(/seeds must be/);
  }, 120_000);

  it("lists the parameters, profiles and experiments as data", () => {
    const params = listParameters();
    expect(params.map((p) => p.name)).toEqual(PARAMS.map((p) => p.name));
    expect(params.find((p) => p.name === "workload.rho")).toMatchObject({ type: "number", group: "workload" });
    expect(listProfiles().map((p) => p.name)).toEqual(["paper", "artifact"]);
    expect(listExperiments().map((e) => e.id)).toContain("exp4a");
  });
});
