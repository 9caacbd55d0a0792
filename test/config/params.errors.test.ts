// Every class of bad input gives a ConfigError: one line naming the parameter,
// the bad value and what is allowed.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig, loadConfigFile, parseConfig } from "../../src/config/params-config.js";
import { ConfigError, suggest } from "../../src/config/params-error.js";

const dir = mkdtempSync(join(tmpdir(), "laminar-params-bad-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** Run fn, expect a one-line ConfigError, return it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const err = e as ConfigError;
    expect(err.message).not.toMatch(/\n/);
    return err;
  }
  throw new Error("expected a ConfigError, got none");
}

const base = defaultConfig();

describe("bad input -> one-line ConfigError", () => {
  it.each<[string, () => unknown, string]>([
    // unknown parameters, with a suggestion when one is close
    ["unknown dotted key", () => parseConfig({ "workload.rhoo": 1 }), 'unknown parameter "workload.rhoo" (did you mean workload.rho?)'],
    ["unknown nested key", () => parseConfig({ workload: { rhoo: 1 } }), 'unknown parameter "workload.rhoo" (did you mean workload.rho?)'],
    ["unknown group", () => parseConfig({ workloads: { rho: 1 } }), 'unknown parameter "workloads" (did you mean workload?)'],
    ["unknown --set key", () => applySets(base, ["workload.rhoo=1"]), 'unknown parameter "workload.rhoo" (did you mean workload.rho?)'],
    ["bare leaf name", () => applySets(base, ["rho=0.9"]), 'unknown parameter "rho" (did you mean workload.rho?)'],
    ["nothing close", () => parseConfig({ frobnicate: 1 }), 'unknown parameter "frobnicate" (run `laminar params` for the list)'],
    ["__proto__ key", () => parseConfig(JSON.parse('{"__proto__": {"rho": 1}}')), 'unknown parameter "__proto__" (run `laminar params` for the list)'],
    // wrong types
    ["string for a number", () => parseConfig({ workload: { rho: "0.9" } }), 'workload.rho: must be a number > 0 and <= 2 (got "0.9")'],
    ["null for a boolean", () => parseConfig({ "reservation.enabled": null }), "reservation.enabled: must be true or false (got null)"],
    ["fraction for an integer", () => parseConfig({ cluster: { nodes: 2.5 } }), "cluster.nodes: must be an integer >= 1 and <= 1000000 (got 2.5)"],
    ["unknown enum value", () => parseConfig({ sim: { scheduler: "yarn" } }), 'sim.scheduler: must be one of laminar, slurm, ray, flux, sparrow (got "yarn")'],
    ["--set text for a number", () => applySets(base, ["workload.rho=fast"]), 'workload.rho: must be a number > 0 and <= 2 (got "fast")'],
    ["--set empty number", () => applySets(base, ["workload.rho="]), 'workload.rho: must be a number > 0 and <= 2 (got "")'],
    ["--set text for a boolean", () => applySets(base, ["reservation.enabled=maybe"]), 'reservation.enabled: must be true or false (got "maybe")'],
    ["scalar for a group", () => parseConfig({ workload: 3 }), "workload: is a group of parameters; give an object or dotted keys such as workload.rho (got 3)"],
    ["--set on a group", () => applySets(base, ["workload=3"]), "workload: is a group of parameters; set one of them, e.g. workload.rho=..."],
    ["not an object", () => parseConfig([1, 2]), "a configuration must be a JSON object of parameters (got [1,2])"],
    ["--set without =", () => applySets(base, ["workload.rho"]), '--set "workload.rho": expected key=value, e.g. workload.rho=0.9'],
    // out of range: the named cases
    ["rho = 0", () => parseConfig({ workload: { rho: 0 } }), "workload.rho: must be > 0 and <= 2 (got 0)"],
    ["rho < 0", () => applySets(base, ["workload.rho=-1"]), "workload.rho: must be > 0 and <= 2 (got -1)"],
    ["nodes < 1", () => parseConfig({ "cluster.nodes": 0 }), "cluster.nodes: must be an integer >= 1 and <= 1000000 (got 0)"],
    ["atoms not a multiple of 64", () => applySets(base, ["cluster.atomsPerNode=100"]), "cluster.atomsPerNode: must be an integer multiple of 64, >= 64 and <= 1024 (got 100)"],
    ["atoms above 1024", () => parseConfig({ "cluster.atomsPerNode": 1088 }), "cluster.atomsPerNode: must be an integer multiple of 64, >= 64 and <= 1024 (got 1088)"],
    ["negative delay", () => parseConfig({ zhaf: { syncDelayMs: -5 } }), "zhaf.syncDelayMs: must be >= 0 and <= 10000 (got -5)"],
    ["zero hop delay", () => applySets(base, ["network.hopMs=0"]), "network.hopMs: must be >= 0.001 and <= 1000 (got 0)"],
    ["loss of 1", () => applySets(base, ["network.loss=1"]), "network.loss: must be >= 0 and < 1 (got 1)"],
    // periods below 1 us: runs that could only spin or exhaust memory
    ["sub-us report period", () => applySets(base, ["zhaf.reportIntervalMs=1e-6"]), "zhaf.reportIntervalMs: must be >= 0.001 and <= 10000 (got 0.000001)"],
    ["sub-us broadcast period", () => applySets(base, ["zhaf.broadcastMs=0.0005"]), "zhaf.broadcastMs: must be >= 0.001 and <= 10000 (got 0.0005)"],
    ["sub-us memory tick", () => applySets(base, ["memory.tickMs=0"]), "memory.tickMs: must be >= 0.001 and <= 1000 (got 0)"],
    ["sub-us quiet interval", () => applySets(base, ["regeneration.quietMs=1e-9"]), "regeneration.quietMs: must be >= 0.001 and <= 100000 (got 1e-9)"],
    ["sub-us heartbeat", () => applySets(base, ["baselines.heartbeatMs=0.0001"]), "baselines.heartbeatMs: must be >= 0.001 and <= 100000 (got 0.0001)"],
    // "Infinity" is not decimal notation: refused as text, before the range check
    ["infinite value", () => applySets(base, ["sim.durationS=Infinity"]), 'sim.durationS: must be a number > 0 and <= 3600 (got "Infinity")'],
    ["hex value", () => applySets(base, ["cluster.nodes=0x100"]), 'cluster.nodes: must be an integer >= 1 and <= 1000000 (got "0x100")'],
    // cross-parameter rules
    ["demand larger than a node", () => parseConfig({ cluster: { atomsPerNode: 64 }, workload: { lAtoms: 128 } }), "workload.lAtoms: must be <= cluster.atomsPerNode (64) (got 128)"],
    ["safe watermark above high", () => applySets(base, ["airlock.safeWatermark=0.95"]), "airlock.safeWatermark: must be < airlock.highWatermark (0.9) (got 0.95)"],
    // the same name twice
    ["nested and dotted twice", () => parseConfig({ "workload.rho": 0.5, workload: { rho: 0.6 } }), "workload.rho: given more than once (as a nested and a dotted key)"],
    ["empty segment", () => parseConfig({ "workload..rho": 0.5 }), '"workload..rho" is not a parameter name (empty segment)'],
  ])("%s", (_what, fn, message) => {
    expect(configError(fn).message).toBe(message);
  });

  it("names the parameter in the error's param field", () => {
    expect(configError(() => applySets(base, ["workload.rho=-1"])).param).toBe("workload.rho");
    expect(configError(() => parseConfig({ "workload.rhoo": 1 })).param).toBe("workload.rhoo");
  });

  it("malformed JSON file", () => {
    const p = file("bad.json", '{ "workload": { "rho": 0.9, } }');
    expect(configError(() => loadConfigFile(p)).message).toMatch(new RegExp(`^config file ${p}: not valid JSON \\(.+\\)$`));
  });

  it("unreadable file: missing, or a directory", () => {
    const missing = join(dir, "nope.json");
    expect(configError(() => loadConfigFile(missing)).message).toMatch(new RegExp(`^config file ${missing}: cannot read \\(ENOENT.*\\)$`));
    expect(configError(() => loadConfigFile(dir)).message).toMatch(/^config file .*: not a regular file/);
  });

  it("a bad value in a file names the file and the parameter", () => {
    const p = file("range.json", '{ "cluster": { "atomsPerNode": 100 } }');
    const err = configError(() => loadConfigFile(p));
    expect(err.message).toBe(`config file ${p}: cluster.atomsPerNode: must be an integer multiple of 64, >= 64 and <= 1024 (got 100)`);
    expect(err.param).toBe("cluster.atomsPerNode");
  });

  it("a long value is cut short", () => {
    const err = configError(() => parseConfig({ "workload.rho": "x".repeat(200) }));
    expect(err.message.length).toBeLessThan(120);
  });
});

describe("suggestions", () => {
  const known = ["workload.rho", "workload.fShare", "cluster.nodes", "network.loss", "workload"];
  it("finds typos, transpositions, wrong case and a bare leaf", () => {
    expect(suggest("workload.rh", known)).toBe("workload.rho");
    expect(suggest("workload.hro", known)).toBe("workload.rho");
    expect(suggest("Workload.FShare", known)).toBe("workload.fShare");
    expect(suggest("nodes", known)).toBe("cluster.nodes");
    expect(suggest("workloads", known)).toBe("workload");
  });
  it("stays quiet when nothing is close", () => {
    expect(suggest("zzzzzzzz", known)).toBeUndefined();
  });
});
