// `laminar reproduce` the way a user runs it: an experiment at the quick
// scale writes results.json and results.csv and prints its table beside the
// paper's figures; a rerun resumes from the directory instead of rerunning;
// bad arguments get one line and exit code 2.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
const laminar = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("laminar reproduce", () => {
  it("runs exp4a at the quick scale, writes its results, and resumes", () => {
    const out = mkdtempSync(join(tmpdir(), "laminar-reproduce-"));
    try {
      const first = laminar("reproduce", "exp4a", "--out", out, "--no-progress");
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/Exp4a/);
      expect(first.out).toMatch(/94\.95%/); // the paper's figure beside ours
      const records = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Array<Record<string, unknown>>;
      expect(records).toHaveLength(4);
      for (const r of records) {
        expect(r.experiment).toBe("exp4a");
        expect(r.scheduler).toBe("laminar");
        expect(r.varied).toBe("reservation.enabled");
        expect(r.arrived).toBe((r.started as number) + (r.failed as number) + (r.inFlightAtEnd as number));
      }
      // two-phase reservation holds squatters off (the paper's Exp4a finding)
      const on = records.filter((r) => r.value === true), off = records.filter((r) => r.value === false);
      for (let i = 0; i < 2; i++) expect(on[i].startSuccessRatio as number).toBeGreaterThan(off[i].startSuccessRatio as number);
      const csv = readFileSync(join(out, "results.csv"), "utf8").trim().split("\n");
      expect(csv).toHaveLength(5);
      expect(csv[0].startsWith("experiment,scheduler,rho,nodes,varied,value,seed")).toBe(true);
      expect(readdirSync(join(out, "points"))).toHaveLength(4);
      const svg = readFileSync(join(out, "exp4a-success.svg"), "utf8");
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg).toMatch(/two-phase on/);
      const html = readFileSync(join(out, "report.html"), "utf8");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toMatch(/<svg/);
      expect(html).not.toMatch(/<script|(src|href)="https?:/); // self-contained: nothing fetched
      const again = laminar("reproduce", "exp4a", "--out", out, "--no-progress");
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/4 runs \(4 from earlier runs/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("refuses bad arguments in one line", () => {
    for (const args of [["exp9"], ["--scale", "huge"], ["--seeds", "0"], ["--workers", "x"]]) {
      const r = laminar("reproduce", ...args);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(/^laminar: /);
    }
  });
});
