// collectPoints: every point in DIR/points, whichever command wrote it, in
// the experiments' order; an older point file (no point recorded) matched by
// its name; files that name no point left out and counted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectPoints } from "../../src/experiments/collect-points.js";
import { EXPERIMENTS, pointKey } from "../../src/experiments/specs.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "laminar-collect-"));
  mkdirSync(join(dir, "points"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (name: string, body: unknown) => writeFileSync(join(dir, "points", name), JSON.stringify(body));

describe("collectPoints", () => {
  it("gathers two experiments' points in the specs' order, old files included, and counts the ones that name no point", () => {
    const exp4a = EXPERIMENTS.find((e) => e.id === "exp4a")!.points("quick");
    const exp2 = EXPERIMENTS.find((e) => e.id === "exp2")!.points("quick");
    // written later by `reproduce exp4a`, with the point recorded
    put(`${pointKey(exp4a[1], 1)}.json`, { build: "b", point: exp4a[1], seed: 1, result: { arrived: 41 } });
    // an older file: build and result only, matched by its name
    put(`${pointKey(exp2[1], 2)}.json`, { build: "a", result: { arrived: 22 } });
    put(`${pointKey(exp2[0], 2)}.json`, { build: "a", result: { arrived: 21 } });
    put("no-such-point__seed=1.json", { build: "a", result: { arrived: 1 } });
    writeFileSync(join(dir, "points", "damaged.json"), "{\"build\": ");
    const { results, skipped } = collectPoints(dir);
    expect(results.map((r) => [r.point.experiment, r.result.arrived, r.seed])).toEqual([["exp2", 21, 2], ["exp2", 22, 2], ["exp4a", 41, 1]]);
    expect(results[0].point).toEqual(exp2[0]);
    expect(skipped.sort()).toEqual(["damaged.json", "no-such-point__seed=1.json"]);
  });

  it("takes this command's own results over the files of the same key", () => {
    const p = EXPERIMENTS.find((e) => e.id === "exp4a")!.points("quick")[0];
    const key = pointKey(p, 1);
    put(`${key}.json`, { build: "old", point: p, seed: 1, result: { arrived: 1 } });
    const { results } = collectPoints(dir, [{ point: p, seed: 1, key, result: { arrived: 2 }, resumed: false }]);
    expect(results.map((r) => r.result.arrived)).toEqual([2]);
  });
});
