// `laminar sweep` run here, the way a user runs it: a 2-parameter grid with
// seeds writes its points, results, table, figures and report; a point is
// byte for byte `laminar sim --json` with the same settings (apart from the
// run-cost fields and sim's manifest); a rerun resumes and a grown grid runs
// only its new points; the number of worker threads changes nothing; a
// sweep file gives the same sweep as the command line; --dry-run runs
// nothing; bad input is one line and exit 2.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../src/core/paths.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
const laminar = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const TINY = ["--set", "cluster.nodes=200", "--set", "sim.durationS=0.2", "--no-progress"];
const GRID = ["--grid", "workload.rho=0.4,0.8", "--grid", "da.candidates=8,16", "--seeds", "2", ...TINY];

const noCost = (r: Record<string, unknown>) => {
  const o = { ...r };
  for (const k of TIMING_FIELDS) delete o[k];
  delete o.manifest;
  return JSON.stringify(o);
};
const runs = (dir: string) => (JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { runs: Array<Record<string, unknown>> }).runs;
const pointResult = (dir: string, name: string) => (JSON.parse(readFileSync(join(dir, "points", name), "utf8")) as { result: Record<string, unknown> }).result;

describe("laminar sweep", () => {
  const tmp = mkdtempSync(join(tmpdir(), "laminar-sweep-"));

  it("runs a 2-parameter grid with seeds: points, results with a column per axis, table, figures, report; and resumes", () => {
    const out = join(tmp, "grid");
    const r = laminar("sweep", ...GRID, "--out", out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/workload\.rho\s+da\.candidates\s+seeds\s+startSuccessRatio/);
    expect(r.out).toMatch(/8 runs \(0 from earlier runs/);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as { manifest: Record<string, unknown>; runs: Array<Record<string, unknown>> };
    expect(results.manifest.tool).toBe("laminar sweep");
    expect(results.manifest.seeds).toEqual([1, 2]);
    expect(results.runs).toHaveLength(8);
    // grid order, the first axis slowest, then the seed
    expect(results.runs.map((x) => `${x["workload.rho"]} ${x["da.candidates"]} ${x.seed}`)).toEqual(
      ["0.4 8 1", "0.4 8 2", "0.4 16 1", "0.4 16 2", "0.8 8 1", "0.8 8 2", "0.8 16 1", "0.8 16 2"]);
    for (const x of results.runs) expect(x.experiment).toBe("sweep");
    const csv = readFileSync(join(out, "results.csv"), "utf8").trim().split("\n");
    expect(csv).toHaveLength(9);
    expect(csv[0].split(",")).toEqual(expect.arrayContaining(["workload.rho", "da.candidates", "seed", "startSuccessRatio", "failedBy.deadline"]));
    const svgs = readdirSync(out).filter((f) => f.endsWith(".svg"));
    expect(svgs).toEqual(expect.arrayContaining(["sweep-startSuccessRatio.svg", "sweep-p99StartMs.svg", "sweep-controlWorkPerSuccessUs.svg"]));
    const svg = readFileSync(join(out, "sweep-p99StartMs.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/candidates=8/); // one line per other grid value
    expect(svg).toMatch(/candidates=16/);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toMatch(/<svg/);
    expect(html).toMatch(/Where these results came from/);
    expect(html).not.toMatch(/<script|(src|href)="https?:/);
    expect(readdirSync(join(out, "points")).filter((f) => f.endsWith(".json"))).toHaveLength(8);

    // a rerun resumes; a grown grid runs only its new points
    const again = laminar("sweep", ...GRID, "--out", out);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/8 runs \(8 from earlier runs/);
    const grown = laminar("sweep", ...GRID, "--grid", "workload.rho=0.4,0.6,0.8", "--out", out);
    expect(grown.code, grown.err).toBe(0);
    expect(grown.out).toMatch(/12 runs \(8 from earlier runs/);
    expect(runs(out).map((x) => x["workload.rho"])).toEqual(["0.4", "0.4", "0.4", "0.4", "0.6", "0.6", "0.6", "0.6", "0.8", "0.8", "0.8", "0.8"]);

    // the number of threads changes no result
    const one = join(tmp, "one-thread");
    const w1 = laminar("sweep", ...GRID, "--out", one, "--workers", "1");
    expect(w1.code, w1.err).toBe(0);
    const byKey = (dir: string) => runs(dir).map(noCost);
    expect(byKey(one)).toEqual(byKey(out).filter((x) => !x.includes('"workload.rho":"0.6"')));
  }, 240_000);

  it("gives each point the result laminar sim prints with the same settings, byte for byte apart from the run-cost fields", () => {
    const out = join(tmp, "sim-equal");
    const r = laminar("sweep", "--grid", "workload.rho=0.8", "--scheduler", "laminar,ray", "--profile", "artifact", "--seeds", "2", ...TINY, "--out", out);
    expect(r.code, r.err).toBe(0);
    const files = readdirSync(join(out, "points")).filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(4);
    for (const scheduler of ["laminar", "ray"]) {
      const name = files.find((f) => f.includes(`sim.scheduler=${scheduler}`) && f.endsWith("seed=2.json"))!;
      const sim = laminar("sim", "--json", "--profile", "artifact", "--scheduler", scheduler, "--rho", "0.8", "--seed", "2", ...TINY);
      expect(sim.code, sim.err).toBe(0);
      const fromSim = JSON.parse(sim.out) as Record<string, unknown>;
      const fromSweep = pointResult(out, name);
      expect(fromSweep.series).toBeDefined();
      expect(noCost(fromSweep)).toBe(noCost(fromSim));
    }
    // without --profile the result says profile null, as sim without --profile
    const plain = join(tmp, "sim-equal-plain");
    expect(laminar("sweep", "--grid", "workload.rho=0.4", ...TINY, "--out", plain).code).toBe(0);
    const sim = JSON.parse(laminar("sim", "--json", "--rho", "0.4", "--seed", "1", ...TINY).out) as Record<string, unknown>;
    expect(noCost(pointResult(plain, readdirSync(join(plain, "points")).find((f) => f.endsWith(".json"))!))).toBe(noCost(sim));
  }, 120_000);

  it("reads a sweep file, the command line laid over it; --dry-run lists points and cost and runs nothing", () => {
    const file = join(tmp, "sweep.json");
    writeFileSync(file, JSON.stringify({ grid: { "workload.rho": [0.4, 0.8], "da.candidates": [8, 16] }, set: { "cluster.nodes": 200, "sim.durationS": 0.2 }, seeds: 2 }));
    const out = join(tmp, "dry");
    const dry = laminar("sweep", "--file", file, "--dry-run", "--out", out);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/4 point\(s\) x 2 seed\(s\) = 8 runs, about [\d,]+ tasks/);
    expect(dry.out).toMatch(/tasks per seed/);
    expect(existsSync(out)).toBe(false);
    const over = laminar("sweep", "--file", file, "--grid", "da.candidates=8", "--seeds", "3", "--dry-run");
    expect(over.out).toMatch(/2 point\(s\) x 3 seed\(s\) = 6 runs/);
  });

  it("refuses bad input in one line, exit 2, before anything runs", () => {
    const out = join(tmp, "bad");
    const file = join(tmp, "bad.json");
    writeFileSync(file, JSON.stringify({ grid: { "workload.rho": [0.4] }, sets: {} }));
    const cases: Array<[string[], RegExp]> = [
      [["--grid", "workload.nope=1,2"], /workload\.nope/],
      [["--grid", "workload.rho=0.4,-1"], /point workload\.rho=-1: .*workload\.rho/],
      [["--grid", "workload.rho"], /--grid "workload\.rho": expected name=v1,v2/],
      [["--grid", "workload.rho=0.4,,0.8"], /an empty value/],
      [["--grid", "workload.rho=0.4,0.40"], /are the same run/],
      [["--grid", "sim.seed=1,2"], /--seeds/],
      [["--grid", "workload.rho=0.4", "--set", "workload.rho=0.5"], /both swept .* and set/],
      [["--scheduler", "laminar,nope"], /sim\.scheduler/],
      [["--profile", "nope"], /unknown profile "nope"/],
      [["--seeds", "0"], /--seeds must be an integer from 1 to 100/],
      [["--workers", "0", "--grid", "workload.rho=0.4"], /--workers must be an integer/],
      [["--collect"], /--collect gathers from a queue: give --queue too/],
      [["--queue", "http://x:1"], /expected a redis:\/\/ or rediss:\/\/ URL/],
      [["--file", file], /sweep file .*: unknown key "sets"/],
      [["--file", join(tmp, "absent.json")], /sweep file .*: cannot read/],
      [["--grid", "memory.enabled=true", "--scheduler", "ray"], /memory\.enabled/],
    ];
    for (const [args, want] of cases) {
      const r = laminar("sweep", ...TINY, "--out", out, ...args);
      expect(r.code, `${args.join(" ")}: ${r.err}`).toBe(2);
      expect(r.out).toBe("");
      expect(r.err.trim().split("\n"), r.err).toHaveLength(1);
      expect(r.err).toMatch(/^laminar: /);
      expect(r.err, args.join(" ")).toMatch(want);
    }
    expect(existsSync(join(out, "points"))).toBe(false);
    rmSync(tmp, { recursive: true, force: true });
  }, 120_000);
});
