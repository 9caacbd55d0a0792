// results.csv is flat: nested result fields become dotted columns, one value
// per cell; results.json keeps the records whole beside the manifest.
import { describe, expect, it } from "vitest";
import { flatRecord, resultsCsv, resultsJson } from "../../src/experiments/report.js";
import type { PointResult } from "../../src/experiments/runner.js";
import type { Point } from "../../src/experiments/specs.js";

const point: Point = { experiment: "exp1", scheduler: "laminar", profile: "paper", rho: 0.8, nodes: 300, sets: ["cluster.nodes=300", "workload.rho=0.8"], varied: { name: "workload.rho", value: 0.8 } };
const run = (failedBy: Record<string, number>, extra: Record<string, unknown> = {}): PointResult => ({
  point, seed: 1, key: "k", resumed: false,
  result: { config: { sim: {} }, arrived: 10, failedBy, zhaf: { staleness: { p99: 1.5 } }, daEnds: [3, 4], note: 'a "quoted", text', series: [{ tMs: 1 }], ...extra },
});

describe("results.csv", () => {
  it("puts nested fields in dotted columns, one value per cell, and leaves the series and config out", () => {
    const rows = resultsCsv([run({ deadline: 2, noNode: 0 }), run({ deadline: 1, lost: 5 })]).trim().split("\n");
    const head = rows[0].split(",");
    for (const c of ["failedBy.deadline", "failedBy.noNode", "failedBy.lost", "zhaf.staleness.p99", "daEnds.0", "daEnds.1"]) expect(head).toContain(c);
    expect(head.some((c) => c.startsWith("series") || c.startsWith("config"))).toBe(false);
    expect(rows.join("\n")).not.toMatch(/[{}]/);
    const second = flatRecord({ a: { b: 1 } });
    expect(second).toEqual({ "a.b": 1 });
    // a quoted cell keeps its commas; every row has the header's cells
    expect(rows[1]).toContain('"a ""quoted"", text"');
    const col = head.indexOf("failedBy.lost");
    expect(rows[1].replace(/"[^"]*(""[^"]*)*"/g, "q").split(",")[col]).toBe("");
    expect(rows[2].replace(/"[^"]*(""[^"]*)*"/g, "q").split(",")[col]).toBe("5");
  });

  it("results.json holds the manifest and one whole record per run", () => {
    const j = JSON.parse(resultsJson([run({ deadline: 2 })], { tool: "laminar reproduce" }));
    expect(j.manifest.tool).toBe("laminar reproduce");
    expect(j.runs[0].failedBy).toEqual({ deadline: 2 });
    expect(j.runs[0].series).toEqual([{ tMs: 1 }]);
  });
});
