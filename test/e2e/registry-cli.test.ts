// The scheduler and workload registries as a user meets them: the built CLI
// in dist/, real processes. `sim --scheduler sparrow` and `sim` over a trace
// file (each format, written here) run and are deterministic; the Sparrow-
// like model and the trace parameters appear in `params`; bad trace input
// exits 2 with one "laminar:" line and no stack trace.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");

function laminar(...args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" (npm ci does it)`);
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const tmp = mkdtempSync(join(tmpdir(), "laminar-registry-e2e-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

const SMALL = ["--nodes", "200", "--duration", "0.2", "--no-progress"];
const WALL = ["wallSeconds", "tasksPerWallSecond", "peakRssMiB", "manifest"];
const outcome = (json: string) => Object.fromEntries(Object.entries(JSON.parse(json) as Record<string, unknown>).filter(([k]) => !WALL.includes(k)));

describe("laminar sim --scheduler sparrow", () => {
  it("runs, prints its own rows, and gives the same result for the same seed", () => {
    const table = laminar("sim", "--scheduler", "sparrow", ...SMALL);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(/jobs \/ reservations sent\s+\d+ \/ \d+/);
    expect(table.out).toMatch(/task requests \/ cancels \(late binding\)/);
    const a = laminar("sim", "--scheduler", "sparrow", ...SMALL, "--seed", "9", "--json");
    const b = laminar("sim", "--scheduler", "sparrow", ...SMALL, "--seed", "9", "--json");
    expect(a.code, a.err).toBe(0);
    expect(outcome(a.out)).toEqual(outcome(b.out));
    const r = JSON.parse(a.out) as Record<string, number>;
    expect(r.scheduler).toBe("sparrow");
    expect(r.started + r.failed + r.inFlightAtEnd).toBe(r.arrived);
    expect(r.reservationsSent).toBeGreaterThanOrEqual(r.arrived);
  });

  it("is listed, with every registered scheduler and workload, in sim --help", () => {
    const r = laminar("sim", "--help");
    expect(r.code).toBe(0);
    for (const name of ["laminar", "slurm", "ray", "flux", "sparrow", "bimodal", "trace"]) expect(r.out).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
  });

  it("refuses what it does not support in one line", () => {
    for (const args of [["--workers", "2"], ["--set", "memory.enabled=true"]]) {
      const r = laminar("sim", "--scheduler", "sparrow", ...SMALL, ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(/^laminar: /);
    }
  });

  it("appears in params with its group, units and cited sources", () => {
    const r = laminar("params", "--json");
    expect(r.code).toBe(0);
    const ps = JSON.parse(r.out) as Array<{ name: string; unit: string; source: string; values?: string[] }>;
    expect(ps.find((p) => p.name === "sim.scheduler")!.values).toContain("sparrow");
    const d = ps.find((p) => p.name === "baselines.sparrow.probeRatio")!;
    expect(d.source).toMatch(/^cited Sparrow \(Ousterhout et al., SOSP 2013\): /);
    for (const n of ["baselines.sparrow.jobSize", "baselines.sparrow.jobWindowMs", "workload.kind", "workload.trace.file", "workload.trace.format"]) expect(ps.some((p) => p.name === n), n).toBe(true);
  });
});

describe("laminar sim --set workload.kind=trace", () => {
  const csv = write("t.csv", "arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n0.2,30,64,true\n0.7,2,8,false\n");
  const jsonl = write("t.jsonl", '{"arrivalMs":0,"durationMs":5,"atoms":4,"contiguous":false}\n{"arrivalMs":0.2,"durationMs":30,"atoms":64,"contiguous":true}\n');
  const openb = write("openb.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\np0,4000,1024,0,0,,BE,Running,100,100.5,100\np1,8000,1024,1,1000,,LS,Running,100.001,100.01,100.001\n");
  const trace = (file: string, ...more: string[]) => ["--set", "workload.kind=trace", "--set", `workload.trace.file=${file}`, "--set", "workload.trace.periodS=0.001", "--set", "workload.trace.copies=20", ...more];

  it("runs each format under each scheduler, reports the rows read, deterministically", () => {
    for (const [file, format] of [[csv, "csv"], [jsonl, "jsonl"], [openb, "openb"]]) {
      for (const s of ["laminar", "sparrow", "ray"]) {
        const args = ["sim", "--scheduler", s, ...SMALL, ...trace(file, "--set", `workload.trace.format=${format}`), "--json"];
        const a = laminar(...args), b = laminar(...args);
        expect(a.code, `${format} ${s}: ${a.err}`).toBe(0);
        expect(outcome(a.out)).toEqual(outcome(b.out));
        const r = JSON.parse(a.out) as { arrived: number; started: number; trace: { rows: number; skipped: number } };
        expect(r.trace.skipped).toBe(0);
        expect(r.arrived).toBe(r.trace.rows * 20);
        expect(r.started).toBeGreaterThan(0);
      }
    }
    const table = laminar("sim", ...SMALL, ...trace(csv).slice(2), "--workload", "trace");
    expect(table.out).toMatch(/trace\s+.*t\.csv: 600 rows read, 0 bad rows skipped/);
  });

  it("bad trace input: exit 2, one line naming the file and line, no stack trace", () => {
    const bad = write("bad.csv", "arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n0.1,five,4,false\n");
    const cases: Array<[string[], RegExp]> = [
      [["--set", "workload.kind=trace"], /workload.trace.file: must be the path of a trace file/],
      [trace(join(tmp, "missing.csv")), /missing\.csv: cannot read \(no such file\)/],
      [trace(bad), /bad\.csv line 3: durationMs is not a number/],
      [trace(csv, "--set", "workload.trace.format=openb"), /line 1: the openb header lacks the columns/],
      [trace(csv, "--set", "workload.trace.copies=0"), /workload.trace.copies: must be an integer >= 1/],
    ];
    for (const [args, re] of cases) {
      const r = laminar("sim", ...SMALL, ...args);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split("\n"), r.err).toHaveLength(1);
      expect(r.err).toMatch(/^laminar: /);
      expect(r.err).toMatch(re);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
    const skipped = laminar("sim", ...SMALL, ...trace(bad, "--set", "workload.trace.badRows=skip"), "--json");
    expect(skipped.code, skipped.err).toBe(0);
    expect((JSON.parse(skipped.out) as { trace: { skipped: number } }).trace.skipped).toBe(200);
  });
});
