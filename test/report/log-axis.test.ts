// A log axis' ticks and floor label, and the shape legend's hollow entries
// for the paper's markers.
import { describe, expect, it } from "vitest";
import { compile, type TopLevelSpec } from "vega-lite";
import { chartSpec } from "../../src/report/chart.js";
import { HOLLOW, hollowPaperLegend } from "../../src/report/legend.js";
import { logAxis, logTicks } from "../../src/report/log-axis.js";
import { MARK, type ChartRow } from "../../src/report/rows.js";

const row = (y: number, mark: ChartRow["mark"] = MARK.measured, source: ChartRow["source"] = "ours"): ChartRow =>
  ({ profile: "p", series: "s", x: 1, y, lo: null, hi: null, value: y, n: 1, mark, source });

describe("log axis", () => {
  it("ticks at the decades when three lie within the values, from the decade below to the decade above", () => {
    expect(logTicks([row(2e-4), row(0.5)])).toEqual([1e-4, 1e-3, 1e-2, 0.1, 1]);
  });

  it("ticks at 1-2-5 over one to two decades, and leaves a narrow range to Vega", () => {
    expect(logTicks([row(0.004), row(0.06)])).toEqual([0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]);
    expect(logTicks([row(0.03), row(0.06)])).toBeNull();
  });

  it("always ticks the floor, and labels it 0", () => {
    const rows = [row(1e-3, MARK.floor), row(0.03), row(0.06)];
    expect(logTicks(rows)).toContain(1e-3);
    const axis = logAxis(rows, true);
    expect(axis.labelExpr).toMatch(/'0 \(floor\)'/);
    expect(axis.format).toBe("~%");
  });
});

describe("shape legend", () => {
  it("lists every marker drawn and draws the paper's hollow", () => {
    const spec = chartSpec([row(1), row(2, MARK.paper, "paper"), row(3, MARK.paperCapped, "paper")], { xTitle: "x", yTitle: "y" });
    const vg = compile(spec as TopLevelSpec).spec as unknown as { legends?: Array<Record<string, unknown>>; scales: Array<{ name: string; domain: unknown }> };
    hollowPaperLegend(vg);
    const shape = vg.legends!.find((l) => l.shape !== undefined)!;
    const fill = JSON.stringify((shape.encode as Record<string, Record<string, unknown>>).symbols);
    for (const m of HOLLOW) expect(fill).toContain(JSON.stringify(m).slice(1, -1));
    expect(fill).toMatch(/transparent/);
    expect(JSON.stringify(vg.scales.find((s) => s.name === "shape"))).toContain(MARK.paper);
  });
});
