// runPoints resumes a sweep from the points its build wrote, refuses this
// sweep's points from another build (or from a version that recorded none),
// and with `fresh` deletes and reruns only this sweep's points: other points
// in the folder (another experiment's, say) stay.
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/core/paths.js";
import { pointKey, type Point } from "../../src/experiments/specs.js";

type Runner = typeof import("../../src/experiments/runner.js");

// the worker file is resolved next to the runner, so use the built one (npm test builds first)
const runner = async () => (await import(pathToFileURL(join(packageRoot(), "dist", "src", "experiments", "runner.js")).href)) as Runner;
const tiny = (nodes: number): Point => ({
  experiment: "t", scheduler: "laminar", profile: "paper", rho: 0.5, nodes,
  sets: [`cluster.nodes=${nodes}`, "workload.rho=0.5", "sim.durationS=0.05", "sim.drainS=0.5"],
  varied: { name: "cluster.nodes", value: nodes },
});
const a = tiny(256), b = tiny(512);

function withDir(f: (dir: string, points: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "laminar-resume-"));
    try {
      mkdirSync(join(dir, "points"));
      await f(dir, join(dir, "points"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const file = (points: string, p: Point) => join(points, `${pointKey(p, 1)}.json`);
const put = (path: string, body: unknown) => writeFileSync(path, JSON.stringify(body));
const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { build: string; result: Record<string, unknown> };

describe("runPoints resume", () => {
  it("reads back the points this build wrote, running nothing", withDir(async (out, points) => {
    const { runPoints } = await runner();
    put(file(points, a), { build: "b1", result: { arrived: 7 } });
    put(file(points, b), { build: "b1", result: { arrived: 9 } });
    const r = await runPoints([a, b], { out, seeds: 1, workers: 1, build: "b1" });
    expect(r.map((x) => [x.resumed, x.result.arrived])).toEqual([[true, 7], [true, 9]]);
  }));

  it("refuses this sweep's points from another build, or from one that recorded none, in one line, and touches nothing", withDir(async (out, points) => {
    const { OtherBuildError, runPoints } = await runner();
    put(file(points, a), { build: "b0", result: { arrived: 7 } });
    put(file(points, b), { arrived: 9 }); // a bare result: written before points recorded their build
    const err = await runPoints([a, b], { out, seeds: 1, workers: 1, build: "b1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OtherBuildError);
    expect((err as Error).message).toMatch(/holds 2 of this sweep's 2 point\(s\) from another build of laminar \(2 builds; this is b1\): pass --fresh/);
    expect((err as Error).message).not.toMatch(/\n/);
    expect(read(file(points, a)).build).toBe("b0");
    // only this sweep's points count: a sweep of `a` alone names its one build
    const one = await runPoints([a], { out, seeds: 1, workers: 1, build: "b1" }).catch((e: unknown) => e);
    expect((one as Error).message).toMatch(/holds 1 of this sweep's 1 point\(s\) from another build of laminar \(b0; this is b1\)/);
  }));

  it("with fresh, reruns this sweep's points and keeps every other point in the folder", withDir(async (out, points) => {
    const { runPoints } = await runner();
    put(file(points, a), { build: "b0", result: { arrived: 7 } });
    writeFileSync(`${file(points, a)}.tmp`, "{\"half");
    put(file(points, b), { build: "b0", result: { arrived: 9 } }); // another experiment's point, from another build
    const r = await runPoints([a], { out, seeds: 1, workers: 1, build: "b1", fresh: true });
    expect(r).toHaveLength(1);
    expect(r[0].resumed).toBe(false);
    expect(r[0].result.arrived as number).toBeGreaterThan(1000);
    // the file names its point and seed too, so reproduce can rebuild results from every point in the folder
    expect(read(file(points, a))).toEqual({ build: "b1", point: a, seed: 1, result: r[0].result });
    expect(existsSync(`${file(points, a)}.tmp`)).toBe(false);
    expect(read(file(points, b))).toEqual({ build: "b0", result: { arrived: 9 } });
  }), 60_000);

  it("runs a point again when its file is damaged (an interrupted write, or a build with no result)", withDir(async (out, points) => {
    const { runPoints } = await runner();
    writeFileSync(file(points, a), "{\"build\": \"b1\", \"res");
    put(file(points, b), { build: "b0", result: null });
    const r = await runPoints([a, b], { out, seeds: 1, workers: 1, build: "b1" });
    expect(r.map((x) => x.resumed)).toEqual([false, false]);
    expect(read(file(points, a)).build).toBe("b1");
    expect(read(file(points, b)).build).toBe("b1");
  }), 60_000);
});
