// `laminar params` as a user runs it: the built CLI in dist/ (npm run build:ts), a real process.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import { PARAMS } from "../../src/config/params.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");

function laminar(...args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build:ts"`);
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("laminar params", () => {
  it("--json lists every parameter with its unit, default, range and source", () => {
    const r = laminar("params", "--json");
    expect(r.code).toBe(0);
    const records = JSON.parse(r.out) as Array<Record<string, unknown>>;
    expect(records.map((x) => x.name)).toEqual(PARAMS.map((p) => p.name));
    const rho = records.find((x) => x.name === "workload.rho");
    expect(rho).toMatchObject({ type: "number", unit: "ratio", default: 0.8, gt: 0, max: 2, range: "(0, 2]" });
    for (const x of records) {
      for (const k of ["unit", "range", "source", "description"]) expect(typeof x[k], `${x.name}.${k}`).toBe("string");
    }
  });

  it("prints a table, filtered by group", () => {
    const r = laminar("params", "--group", "baselines.ray");
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines[0]).toMatch(/^name\s+default\s+unit\s+range\s+source\s+description$/);
    expect(lines.slice(2).every((l) => l.startsWith("baselines.ray."))).toBe(true);
    expect(r.out).toMatch(/baselines\.ray\.shards\s+32\s+count/);
  });

  it("shows the values a config file and --set produce", () => {
    const dir = mkdtempSync(join(tmpdir(), "laminar-params-cli-"));
    const file = join(dir, "c.json");
    writeFileSync(file, '{ "workload": { "rho": 0.6 }, "cluster.nodes": 1000 }');
    const r = laminar("params", "--json", "--group", "workload", "--config", file, "--set", "workload.rho=0.9", "--set", "workload.fShare=0.5");
    expect(r.code).toBe(0);
    const byName = Object.fromEntries((JSON.parse(r.out) as Array<{ name: string; value: unknown }>).map((x) => [x.name, x.value]));
    expect(byName["workload.rho"]).toBe(0.9);
    expect(byName["workload.fShare"]).toBe(0.5);
    expect(byName["workload.lAtoms"]).toBe(64);
  });

  it("has --help", () => {
    const r = laminar("params", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: laminar params/);
    expect(r.out).toMatch(/--group <prefix>/);
  });

  it("--markdown prints the parameter reference", () => {
    const r = laminar("params", "--markdown");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# Parameter reference/);
  });

  it("bad input: exit 2, one line, no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "laminar-params-cli-bad-"));
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ nope");
    const cases: Array<[string[], RegExp]> = [
      [["params", "--group", "nope"], /^laminar: unknown parameter group "nope" \(groups: sim, cluster, /],
      [["params", "--set", "workload.rho=-1"], /^laminar: workload\.rho: must be > 0 and <= 2 \(got -1\)$/],
      [["params", "--set", "workload.rhoo=1"], /^laminar: unknown parameter "workload\.rhoo" \(did you mean workload\.rho\?\)$/],
      [["params", "--set", "cluster.atomsPerNode=100"], /^laminar: cluster\.atomsPerNode: must be an integer multiple of 64, >= 64 and <= 1024 \(got 100\)$/],
      [["params", "--config", broken], /^laminar: config file .*broken\.json: not valid JSON \(.+\)$/],
      [["params", "--config", join(dir, "missing.json")], /^laminar: config file .*missing\.json: cannot read \(ENOENT/],
    ];
    for (const [args, msg] of cases) {
      const r = laminar(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe("");
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err.trim()).toMatch(msg);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});
