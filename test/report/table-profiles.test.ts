// The text tables keep run profiles apart: an experiment run under two
// profiles prints one table per profile, titled with it; with one, no prefix.
import { describe, expect, it } from "vitest";
import { experimentTable } from "../../src/experiments/report.js";
import { EXPERIMENTS } from "../../src/experiments/specs.js";
import { syntheticResults } from "./fixtures.js";

const exp1 = EXPERIMENTS.find((e) => e.id === "exp1")!;

describe("experiment tables by run profile", () => {
  it("gives each profile its own table, titled with the profile", () => {
    const text = experimentTable(exp1, syntheticResults({ seeds: 2, experiments: ["exp1"], artifact: true }));
    const tables = text.split("\n\n");
    expect(tables).toHaveLength(2);
    expect(tables[0].split("\n")[0]).toMatch(/profile paper \(the paper's stated setup\)$/);
    expect(tables[1].split("\n")[0]).toMatch(/profile artifact \(the authors' published sweep settings\)$/);
    for (const t of tables) {
      const lines = t.split("\n");
      expect(lines).toHaveLength(3 + 30); // title, header, rule, 30 points (5 schedulers x 6 loads)
      expect(lines.filter((l) => /^laminar +workload\.rho=0\.4 /.test(l))).toHaveLength(1);
    }
  });

  it("splits any experiment run under two profiles into two tables", () => {
    const exp2 = EXPERIMENTS.find((e) => e.id === "exp2")!;
    const text = experimentTable(exp2, syntheticResults({ experiments: ["exp2"], artifact: ["exp2"] }));
    expect(text.split("\n\n")).toHaveLength(2);
    expect(text).toMatch(/profile artifact/);
  });

  it("names no profile when there is one", () => {
    const text = experimentTable(exp1, syntheticResults({ experiments: ["exp1"] }));
    expect(text.split("\n")).toHaveLength(3 + 30);
    expect(text).not.toMatch(/paper: workload/);
  });
});
