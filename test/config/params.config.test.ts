// Building a Config: object forms, defaults, freezing, --set coercion, files.
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig, flattenConfig, loadConfigFile, parseConfig, resolveConfig } from "../../src/config/params-config.js";
import { PARAMS } from "../../src/config/params.js";
import type { ParamSpec } from "../../src/config/params-spec.js";

const dir = mkdtempSync(join(tmpdir(), "laminar-params-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe("parseConfig", () => {
  it("fills every default and is deeply frozen", () => {
    const c = parseConfig({});
    expect(c.workload.rho).toBe(0.8);
    expect(c.cluster.preoccupancy.enabled).toBe(false);
    expect(c.baselines.ray.shards).toBe(32);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.cluster.preoccupancy)).toBe(true);
    expect(() => {
      (c.workload as { rho: number }).rho = 2;
    }).toThrow(TypeError);
  });

  it("is typed by the registry", () => {
    const c = parseConfig({ sim: { scheduler: "ray" } });
    const scheduler: "laminar" | "slurm" | "ray" | "flux" | "sparrow" = c.sim.scheduler;
    const nodes: number = c.cluster.nodes;
    const on: boolean = c.reservation.enabled;
    // @ts-expect-error: not a parameter
    void c.workload.rhoo;
    expect([scheduler, nodes, on]).toEqual(["ray", 5000, false]);
  });

  it("accepts nested, dotted and mixed keys alike", () => {
    const nested = parseConfig({ workload: { rho: 0.9 }, cluster: { preoccupancy: { enabled: true } } });
    const dotted = parseConfig({ "workload.rho": 0.9, "cluster.preoccupancy.enabled": true });
    const mixed = parseConfig({ workload: { rho: 0.9 }, cluster: { "preoccupancy.enabled": true } });
    const split = parseConfig({ "cluster.preoccupancy": { enabled: true }, "workload.rho": 0.9 });
    expect(dotted).toEqual(nested);
    expect(mixed).toEqual(nested);
    expect(split).toEqual(nested);
    expect(nested.workload.rho).toBe(0.9);
    expect(nested.workload.fShare).toBe(0.8);
    expect(nested.cluster.preoccupancy.enabled).toBe(true);
  });

  it("merges a group given both nested and dotted when the names differ", () => {
    const c = parseConfig({ workload: { rho: 0.5 }, "workload.fShare": 0.7 });
    expect([c.workload.rho, c.workload.fShare]).toEqual([0.5, 0.7]);
  });

  it("keeps registry order in the output", () => {
    expect(Object.keys(flattenConfig(parseConfig({ "baselines.ray.shards": 4, sim: { seed: 3 } })))).toEqual(PARAMS.map((p) => p.name));
  });
});

describe("applySets", () => {
  const base = defaultConfig();

  it("coerces numbers, integers, booleans and enums by the parameter's type", () => {
    const c = applySets(base, [
      "workload.rho=0.95", "cluster.nodes=32_000", "cluster.atomsPerNode=1024", "network.loss=1e-2",
      "reservation.enabled=true", "regeneration.enabled=off", "zhaf.projection=0", "airlock.enabled=YES",
      "sim.scheduler=flux", "memory.oomRule=random", " da.candidates = 8 ",
    ]);
    expect(c.workload.rho).toBe(0.95);
    expect(c.cluster.nodes).toBe(32000);
    expect(c.cluster.atomsPerNode).toBe(1024);
    expect(c.network.loss).toBe(0.01);
    expect(c.reservation.enabled).toBe(true);
    expect(c.regeneration.enabled).toBe(false);
    expect(c.zhaf.projection).toBe(false);
    expect(c.airlock.enabled).toBe(true);
    expect(c.sim.scheduler).toBe("flux");
    expect(c.memory.oomRule).toBe("random");
    expect(c.da.candidates).toBe(8);
    expect(Object.isFrozen(c.workload)).toBe(true);
  });

  it("a later setting wins, and the input config is untouched", () => {
    const c = applySets(base, ["workload.rho=0.4", "workload.rho=0.6"]);
    expect(c.workload.rho).toBe(0.6);
    expect(base.workload.rho).toBe(0.8);
    expect(applySets(base, [])).toBe(base);
  });

  it("re-checks cross-parameter rules with the final values", () => {
    expect(applySets(base, ["cluster.atomsPerNode=64", "workload.lAtoms=64"]).workload.lAtoms).toBe(64);
    expect(() => applySets(base, ["cluster.atomsPerNode=64", "workload.squatterAtoms=128"])).toThrow(/workload.squatterAtoms/);
  });

  /** A value inside the parameter's range, drawn per type. */
  function arbValue(spec: ParamSpec): fc.Arbitrary<number | boolean | string> {
    switch (spec.type) {
      case "boolean":
        return fc.boolean();
      case "enum":
        return fc.constantFrom(...spec.values);
      case "text":
        return fc.stringMatching(/^[A-Za-z0-9_./-]{0,40}$/);
      case "integer": {
        const step = spec.multipleOf ?? 1;
        const lo = Math.ceil((spec.min ?? spec.gt! + 1) / step);
        const hi = Math.floor((spec.max ?? spec.lt! - 1) / step);
        return fc.integer({ min: lo, max: hi }).map((k) => k * step);
      }
      case "number": {
        const lo = spec.min ?? spec.gt!;
        const hi = spec.max ?? spec.lt!;
        // -0 is written "0" (String(-0)) and read back as 0: the same value of a parameter, so draw 0 for it
        return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })
          .map((x) => (x === 0 ? 0 : x))
          .filter((x) => (spec.gt === undefined || x > spec.gt) && (spec.lt === undefined || x < spec.lt));
      }
    }
  }

  it("round-trips any in-range value of any parameter through its text form", () => {
    // atoms parameters are tied to atomsPerNode; give them room to vary over their whole range
    // and a trace file named, so workload.kind=trace is valid on its own
    const roomy = applySets(base, ["cluster.atomsPerNode=1024", "workload.trace.file=trace.csv"]);
    const free = PARAMS.filter((p) => p.name !== "airlock.safeWatermark" && p.name !== "airlock.highWatermark" && p.name !== "cluster.atomsPerNode");
    fc.assert(
      fc.property(fc.constantFrom(...free).chain((p) => fc.tuple(fc.constant(p), arbValue(p.spec))), ([p, v]) => {
        const c = applySets(roomy, [`${p.name}=${String(v)}`]);
        expect(flattenConfig(c)[p.name]).toBe(v);
      }),
      { numRuns: 500 },
    );
  });
});

describe("config files", () => {
  it("loads a JSON file, with a UTF-8 byte-order mark or without", () => {
    const p = file("ok.json", '{ "workload": { "rho": 0.7 }, "sim.scheduler": "ray" }');
    expect(loadConfigFile(p).workload.rho).toBe(0.7);
    expect(loadConfigFile(p).sim.scheduler).toBe("ray");
    expect(loadConfigFile(file("bom.json", '\uFEFF{"cluster.nodes": 10}')).cluster.nodes).toBe(10);
  });

  it("resolveConfig applies defaults, then the file, then the sets", () => {
    const p = file("base.json", '{ "workload.rho": 0.7, "cluster.nodes": 100 }');
    const c = resolveConfig(p, ["workload.rho=0.9"]);
    expect([c.workload.rho, c.cluster.nodes, c.workload.fShare]).toEqual([0.9, 100, 0.8]);
    expect(resolveConfig(undefined, [])).toEqual(defaultConfig());
  });
});
