// runPoints (the built runner, as reproduce uses it) reports work done while a
// point runs, not only when it ends, and ends at the total; refuses a bad
// thread count; and a point read back is never run again.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/core/paths.js";
import { pointKey, type Point } from "../../src/experiments/specs.js";

type Runner = typeof import("../../src/experiments/runner.js");

// the worker file is resolved next to the runner, so use the built one (npm test builds first)
const runner = async () => (await import(pathToFileURL(join(packageRoot(), "dist", "src", "experiments", "runner.js")).href)) as Runner;
const point: Point = {
  experiment: "t", scheduler: "laminar", profile: "paper", rho: 0.8, nodes: 2000,
  sets: ["cluster.nodes=2000", "workload.rho=0.8", "sim.durationS=1", "sim.drainS=1"],
  varied: { name: "cluster.nodes", value: 2000 },
};

describe("runPoints", () => {
  it("refuses a thread count that is not a positive integer", async () => {
    const { runPoints } = await runner();
    const out = mkdtempSync(join(tmpdir(), "laminar-workers-"));
    try {
      for (const workers of [0, -1, 1.5, Number.NaN, Infinity]) {
        await expect(runPoints([point], { out, seeds: 1, workers, build: "test" })).rejects.toThrow(/workers must be a positive integer/);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("reads a finished point back once, even when the caller's callback throws on it", async () => {
    const { runPoints } = await runner();
    const out = mkdtempSync(join(tmpdir(), "laminar-resume-"));
    try {
      mkdirSync(join(out, "points"), { recursive: true });
      writeFileSync(join(out, "points", `${pointKey(point, 1)}.json`), JSON.stringify({ build: "test", result: { arrived: 1 } }));
      let calls = 0;
      const onDone = () => {
        calls++;
        throw new Error("callback failed");
      };
      await expect(runPoints([point], { out, seeds: 1, workers: 1, build: "test", onDone })).rejects.toThrow(/callback failed/);
      expect(calls).toBe(1); // not taken for a damaged file and run again
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("reports progress that moves while a point runs and ends at the sum of the points' costs", async () => {
    const { pointCost, runPoints } = await runner();
    const out = mkdtempSync(join(tmpdir(), "laminar-progress-"));
    try {
      const seen: Array<[number, number]> = [];
      const r = await runPoints([point], { out, seeds: 1, workers: 1, build: "test", progressEveryMs: 50, onProgress: (d, t) => seen.push([d, t]) });
      expect(r).toHaveLength(1);
      const total = pointCost(point);
      expect(seen.every(([, t]) => t === total)).toBe(true);
      for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThanOrEqual(seen[i - 1][0]);
      expect(seen.at(-1)![0]).toBe(total);
      expect(seen.some(([d]) => d > 0 && d < total)).toBe(true); // reported from inside the running point
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
