// The registry itself: every entry is complete, well-formed and valid at its default.
import { describe, expect, it } from "vitest";
import { defaultConfig, flattenConfig } from "../../src/config/params-config.js";
import { GROUP_NAMES, GROUP_TITLES, PARAMS, findParam, paramRecord } from "../../src/config/params.js";
import { SOURCE_PATTERN } from "../../src/config/params-spec.js";

describe("parameter registry", () => {
  it("has unique dotted names", () => {
    const names = PARAMS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/);
  });

  it.each(PARAMS.map((p) => [p.name, p.spec] as const))("%s has a unit, a source and a one-line description", (_name, spec) => {
    expect(spec.unit.trim()).not.toBe("");
    expect(spec.source).toMatch(SOURCE_PATTERN);
    expect(spec.description.length).toBeGreaterThan(20);
    expect(spec.description).not.toMatch(/\n/);
    expect(spec.description).not.toMatch(/\.$/);
  });

  it("numeric entries have consistent bounds; enums list their default", () => {
    for (const { name, spec } of PARAMS) {
      if (spec.type === "enum") expect(spec.values, name).toContain(spec.default);
      if (spec.type !== "number" && spec.type !== "integer") continue;
      expect(spec.min !== undefined && spec.gt !== undefined, `${name}: both min and gt`).toBe(false);
      expect(spec.max !== undefined && spec.lt !== undefined, `${name}: both max and lt`).toBe(false);
      expect(spec.min ?? spec.gt, `${name}: no lower bound`).toBeDefined();
      expect(spec.max ?? spec.lt, `${name}: no upper bound`).toBeDefined();
      if (spec.type === "integer") expect(Number.isInteger(spec.default), name).toBe(true);
    }
  });

  it("every group has a title", () => {
    for (const g of GROUP_NAMES) expect(GROUP_TITLES[g], g).toBeTruthy();
    expect(Object.keys(GROUP_TITLES).sort()).toEqual([...GROUP_NAMES].sort());
  });

  it("the defaults form a valid configuration that holds every parameter", () => {
    const flat = flattenConfig(defaultConfig());
    expect(Object.keys(flat)).toEqual(PARAMS.map((p) => p.name));
    for (const { name, spec } of PARAMS) expect(flat[name], name).toBe(spec.default);
  });

  it("carries the figures the paper and the artifact fix", () => {
    const d = (n: string) => findParam(n)?.default;
    expect(d("cluster.atomsPerNode")).toBe(256);
    expect(d("workload.fMeanMs")).toBe(5);
    expect(d("workload.lAtoms")).toBe(64);
    expect(d("network.hopMs")).toBe(0.5); // paper; artifact's Laminar value 0.1 noted
    expect(findParam("network.hopMs")?.description).toMatch(/0\.1 ms/);
    expect(d("reservation.deposit")).toBe(50); // paper; artifact 20 noted
    expect(findParam("reservation.deposit")?.description).toMatch(/artifact: 20/);
    expect(d("da.candidates")).toBe(16);
    expect(d("costs.bitmapNs")).toBe(4.02);
    expect(d("airlock.highWatermark")).toBe(0.9);
    expect(d("baselines.deadlineMs")).toBe(5000);
    expect(d("baselines.flux.dispatchUs")).toBe(1); // paper; artifact 2 µs noted
  });

  it("records are plain JSON with the range spelled out", () => {
    const r = paramRecord(PARAMS.find((p) => p.name === "cluster.atomsPerNode")!);
    expect(r).toMatchObject({ type: "integer", unit: "atoms", default: 256, min: 64, max: 1024, multipleOf: 64, source: "artifact" });
    expect(r.range).toBe("[64, 1024], multiple of 64");
    expect(paramRecord(PARAMS.find((p) => p.name === "workload.rho")!).range).toBe("(0, 2]");
    expect(paramRecord(PARAMS.find((p) => p.name === "sim.scheduler")!).values).toEqual(["laminar", "slurm", "ray", "flux", "sparrow"]);
  });
});
