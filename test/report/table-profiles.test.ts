// The text tables keep run profiles apart: a point run under two profiles is
// two rows, each named with its profile; with one profile, no prefix.
import { describe, expect, it } from "vitest";
import { experimentTable } from "../../src/experiments/report.js";
import { EXPERIMENTS } from "../../src/experiments/specs.js";
import { syntheticResults } from "./fixtures.js";

const exp1 = EXPERIMENTS.find((e) => e.id === "exp1")!;

describe("experiment tables by run profile", () => {
  it("gives each profile its own rows", () => {
    const lines = experimentTable(exp1, syntheticResults({ seeds: 2, experiments: ["exp1"], artifact: true })).split("\n");
    expect(lines).toHaveLength(3 + 48); // title, header, rule, 2 x 24 points
    expect(lines.filter((l) => /^laminar +paper: workload\.rho=0\.4 /.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^laminar +artifact: workload\.rho=0\.4 \(workload\.hotShare=0\.2\)/.test(l))).toHaveLength(1);
  });

  it("names no profile when there is one", () => {
    const text = experimentTable(exp1, syntheticResults({ experiments: ["exp1"] }));
    expect(text.split("\n")).toHaveLength(3 + 24);
    expect(text).not.toMatch(/paper: workload/);
  });
});
