// The figures of `laminar reproduce` from synthetic results: failure ratios
// on log axes, intervals with several seeds, caps at the deadline, legend
// entries for every marker, one column per run profile, a caption each; and
// report.html shows every figure written.
import { describe, expect, it } from "vitest";
import { figures, figureSpecs } from "../../src/report/figures.js";
import { reportHtml } from "../../src/report/html.js";
import { PROFILE_LABEL } from "../../src/report/labels.js";
import { MARK } from "../../src/report/rows.js";
import { syntheticResults } from "./fixtures.js";

const spec = (s: unknown) => JSON.stringify(s);

describe("figures", () => {
  it("plots start success as the failure ratio on a log axis, with a legend entry for the paper's markers", async () => {
    const figs = await figures(syntheticResults({ experiments: ["exp1"] }));
    expect(figs.map((f) => f.file)).toEqual(["exp1-success.svg", "exp1-p99.svg", "control-work-rho.svg"]);
    const success = figureSpecs(syntheticResults({ experiments: ["exp1"] }))[0];
    expect(spec(success.spec)).toMatch(/"type":"log"/);
    expect(spec(success.spec)).toMatch(/1 − success/);
    const svg = figs[0].svg;
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain(MARK.paper);
    expect(svg).toContain(MARK.floor); // the Ray-like point without failures, drawn at the floor
    expect(svg).not.toContain("errorbar");
  });

  it("plots Exp1's control work for every scheduler with a modelled cost on a log axis, each one's definition in the caption", async () => {
    const cw = figureSpecs(syntheticResults({ experiments: ["exp1"] })).find((f) => f.file === "control-work-rho.svg")!;
    expect(spec(cw.spec)).toMatch(/"type":"log"/);
    for (const name of ["Laminar", "Slurm-like", "Ray-like", "Flux-like"]) expect(cw.caption).toContain(name);
    // the Sparrow-like model runs in Exp1 but models no decision cost: left out, and the caption says so
    expect(cw.caption).toMatch(/Not drawn: Sparrow-like \(no decision cost modelled\)/);
    const svg = (await figures(syntheticResults({ experiments: ["exp1"] }))).find((f) => f.file === "control-work-rho.svg")!.svg;
    for (const name of ["Laminar", "Slurm-like", "Ray-like", "Flux-like"]) expect(svg).toContain(name);
    expect(svg).not.toContain("Sparrow-like");
    const p99 = (await figures(syntheticResults({ experiments: ["exp1"] }))).find((f) => f.file === "exp1-p99.svg")!.svg;
    expect(p99).toContain("Sparrow-like");
  });

  it("draws the 95% interval with several seeds, and not with one", () => {
    const two = figureSpecs(syntheticResults({ seeds: 2 }));
    const one = figureSpecs(syntheticResults({ seeds: 1 }));
    for (const f of two.filter((f) => f.file !== "exp5-series.svg")) expect(spec(f.spec), f.file).toMatch(/"errorbar"/);
    for (const f of two.filter((f) => f.file !== "exp5-series.svg")) expect(f.caption, f.file).toMatch(/mean of 2 seeds with its 95% interval/);
    for (const f of one) expect(spec(f.spec), f.file).not.toMatch(/"errorbar"/);
  });

  it("draws a p99 at the deadline as a cap, beside the deadlines", async () => {
    const figs = await figures(syntheticResults({ experiments: ["exp1"] }));
    const p99 = figs.find((f) => f.file === "exp1-p99.svg")!;
    expect(p99.svg).toContain(MARK.capped);
    expect(p99.svg).toContain("≥");
    expect(p99.svg).toContain("baselines' deadline, 5,000 ms");
    expect(p99.svg).toContain("Laminar's deadline, 500 ms");
    expect(p99.caption).toMatch(/a cap, not a measured latency/);
  });

  it("shows an experiment's run profiles side by side, and one panel for one profile", async () => {
    const results = syntheticResults({ experiments: ["exp1", "exp2"], artifact: true });
    const specs = figureSpecs(results);
    for (const f of specs.filter((f) => f.experiment === "exp1")) {
      expect(spec(f.spec), f.file).toMatch(/"facet":\{"column":\{"field":"profile"/);
      expect(f.caption).toMatch(/one column per run profile/);
    }
    for (const f of specs.filter((f) => f.experiment === "exp2")) expect(spec(f.spec), f.file).not.toMatch(/"facet"/);
    const svg = (await figures(results)).find((f) => f.file === "exp1-p99.svg")!.svg;
    expect(svg).toContain(PROFILE_LABEL.paper);
    expect(svg).toContain(PROFILE_LABEL.artifact);
    expect(svg).toContain(MARK.capped); // the artifact column's Laminar p99 at 500 ms
  });

  it("draws every experiment's figures with two profiles, one column each", async () => {
    const all = ["exp1", "exp2", "exp3", "exp4a", "exp4b", "exp5"];
    const figs = await figures(syntheticResults({ seeds: 2, artifact: all }));
    expect(figs).toHaveLength(12);
    for (const f of figs) {
      expect(f.svg, f.file).toContain(PROFILE_LABEL.artifact);
      expect(f.caption, f.file).toMatch(/one column per run profile/);
    }
  });

  it("gives every figure a one-line caption", () => {
    for (const f of figureSpecs(syntheticResults({ seeds: 2, artifact: true }))) {
      expect(f.caption.length, f.file).toBeGreaterThan(40);
      expect(f.caption).not.toMatch(/\n/);
      expect(f.caption.endsWith(".")).toBe(true);
    }
  });
});

describe("report.html", () => {
  it("shows and links every figure written, each with its caption, even with the tables of one experiment", async () => {
    const figs = await figures(syntheticResults({ experiments: ["exp1"] }));
    const html = reportHtml("t", "intro", [{ id: "exp1", text: "table" }], figs);
    expect(figs.some((f) => f.file === "control-work-rho.svg")).toBe(true); // the figure an exp1-only report used to leave out
    for (const f of figs) {
      expect(html).toContain(`data-file="${f.file}"`);
      expect(html).toContain(`<a href="${f.file}">`);
      expect(html).toContain(f.caption.replace(/&/g, "&amp;").replace(/"/g, "&quot;"));
    }
    expect(html.match(/<figure /g)).toHaveLength(figs.length);
    expect(html.match(/<svg/g)).toHaveLength(figs.length);
  });

  it("puts a figure whose experiment has no table in a section of its own", async () => {
    const figs = await figures(syntheticResults({ experiments: ["exp4a"] }));
    const html = reportHtml("t", "intro", [], figs);
    expect(html).toContain('id="other-figures"');
    expect(html).toContain('data-file="exp4a-success.svg"');
  });
});
