// No import circles in src/, bench/ or assembly/: every relative import
// (static, type-only, re-export or dynamic) is an edge, and the graph must
// have no strongly connected component of more than one file and no file
// importing itself. A circle makes load order matter and hides which layer a
// file belongs to (docs/architecture.md: imports point downward).
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, files, importGraph, ROOT } from "./import-graph.js";

describe("import graph", () => {
  it("finds a circle when there is one", () => {
    const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]], ["e", ["e"]]]);
    const found = circles(g).map((c) => c.map((f) => f.split("/").pop()).join(","));
    expect(found.sort()).toEqual(["a,b,c", "e"]);
  });

  it("reads every kind of relative import", () => {
    const g = importGraph([join(ROOT, "src", "schedulers", "run", "laminar.ts"), join(ROOT, "src", "report", "figures.ts")]);
    const names = (f: string) => g.get(join(ROOT, f))!.map((t) => relative(ROOT, t));
    expect(names("src/schedulers/run/laminar.ts")).toContain("src/run/threads.ts"); // dynamic import()
    expect(names("src/report/figures.ts")).toContain("src/report/figure-spec.ts"); // type-only and re-export
  });

  it("has no circle in src/, bench/ or assembly/", () => {
    const all = ["src", "bench", "assembly"].flatMap((d) => files(join(ROOT, d)));
    expect(all.length).toBeGreaterThan(100);
    expect(circles(importGraph(all))).toEqual([]);
  });
});
