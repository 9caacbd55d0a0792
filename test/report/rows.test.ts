// The figures' data rows: the failure ratio per point (mean over seeds, 95%
// interval with several seeds), zeros on a log axis drawn at a flagged floor,
// and a p99 at the deadline flagged as a cap.
import { describe, expect, it } from "vitest";
import { meanCi } from "../../src/metrics/stats.js";
import type { PointRun } from "../../src/report/data.js";
import { atDeadline, deadlineMs, p99AtDeadline } from "../../src/report/deadline.js";
import { PROFILE_LABEL } from "../../src/report/labels.js";
import { applyFloor, logFloor, MARK, num, ourRows, paperRows, profilesOf } from "../../src/report/rows.js";
import { syntheticResults } from "./fixtures.js";

const failure = (r: PointRun) => 1 - num(r, "startSuccessRatio");
const sched = (r: PointRun) => r.point.scheduler;
const rho = (r: PointRun) => r.point.rho;

describe("figure rows", () => {
  it("computes the failure ratio per point: the mean of 1 - success over seeds, with its 95% interval", () => {
    const results = syntheticResults({ seeds: 3, experiments: ["exp1"] });
    const rows = ourRows(results, "exp1", failure, sched, rho);
    expect(rows).toHaveLength(30); // 5 schedulers x 6 loads
    const runs = results.filter((r) => r.point.scheduler === "laminar" && r.point.rho === 0.8);
    const row = rows.find((r) => r.series === "laminar" && r.x === 0.8)!;
    const { mean, half } = meanCi(runs.map((r) => 1 - (r.result.startSuccessRatio as number)));
    expect(half).toBeGreaterThan(0);
    expect(row.value).toBeCloseTo(mean, 12);
    expect(row.y).toBeCloseTo(mean, 12);
    expect(row.lo).toBeCloseTo(mean - half, 12);
    expect(row.hi).toBeCloseTo(mean + half, 12);
    expect(row.n).toBe(3);
    expect(row.mark).toBe(MARK.interval);
    expect(row.profile).toBe(PROFILE_LABEL.paper);
  });

  it("has no interval with one seed", () => {
    const rows = ourRows(syntheticResults({ experiments: ["exp1"] }), "exp1", failure, sched, rho);
    for (const r of rows) {
      expect(r.lo).toBeNull();
      expect(r.hi).toBeNull();
      expect(r.mark === MARK.measured).toBe(true);
    }
  });

  it("draws a zero at the log axis' floor, a decade below the smallest positive value, flagged and not dropped", () => {
    const results = syntheticResults({ seeds: 2, experiments: ["exp1"] });
    const rows = [...ourRows(results, "exp1", failure, sched, rho), ...paperRows(results, "exp1", (p) => (p.startSuccessRatio === undefined ? undefined : 1 - p.startSuccessRatio), sched, rho)];
    const floor = logFloor(rows);
    const smallest = Math.min(...rows.map((r) => r.value).filter((v) => v > 0));
    expect(floor).toBeLessThan(smallest);
    expect(floor).toBeGreaterThanOrEqual(smallest / 100);
    expect(Math.log10(floor) % 1).toBeCloseTo(0, 9); // a power of ten
    const drawn = applyFloor(rows, floor);
    expect(drawn).toHaveLength(rows.length);
    const zero = drawn.find((r) => r.series === "ray" && r.x === 0.4)!; // the fixture's Ray-like point without failures
    expect(zero.value).toBe(0);
    expect(zero.y).toBe(floor);
    expect(zero.mark).toBe(MARK.floor);
    expect(zero.lo).toBe(floor);
    expect(zero.loCut).toBe(false); // both seeds without failures: a zero, not an interval cut short
    const cut = applyFloor([{ ...zero, value: 1e-3, y: 1e-3, lo: -1e-3, hi: 3e-3, mark: MARK.interval }], floor)[0];
    expect(cut.lo).toBe(floor);
    expect(cut.loCut).toBe(true);
    for (const r of drawn) {
      expect(r.y).toBeGreaterThan(0);
      if (r.lo !== null) expect(r.lo).toBeGreaterThanOrEqual(floor);
    }
    // the paper's 99.99% and 99.18% are two decades apart on this axis, not glued to 100%
    const paper = drawn.filter((r) => r.source === "paper" && r.series === "laminar");
    const at = (x: number) => paper.find((r) => r.x === x)!.y;
    expect(Math.log10(at(0.9)) - Math.log10(at(0.4))).toBeGreaterThan(1.8);
  });

  it("a paper's zero is floored too, with its own marker", () => {
    const rows = applyFloor([{ profile: "p", series: "s", x: 1, y: 0, lo: null, hi: null, value: 0, n: 0, mark: MARK.paper, source: "paper" }], 1e-3);
    expect(rows[0].y).toBe(1e-3);
    expect(rows[0].mark).toBe(MARK.paperFloor);
  });

  it("flags a p99 at the scheduler's deadline as a cap (Laminar 500 ms, the baselines 5,000 ms)", () => {
    const [base] = syntheticResults({ experiments: ["exp1"] });
    const run = (scheduler: PointRun["point"]["scheduler"], p99: number, failed = 10): PointRun => ({ ...base, point: { ...base.point, scheduler }, result: { ...base.result, p99StartMs: p99, failed } });
    expect(deadlineMs(run("laminar", 1))).toBe(500);
    expect(deadlineMs(run("ray", 1))).toBe(5000);
    expect(p99AtDeadline(run("laminar", 500))).toBe(true);
    expect(p99AtDeadline(run("laminar", 498))).toBe(true); // within the histogram's 2^-7 resolution
    expect(p99AtDeadline(run("laminar", 450))).toBe(false);
    expect(p99AtDeadline(run("ray", 500))).toBe(false);
    expect(p99AtDeadline(run("flux", 5000))).toBe(true);
    expect(p99AtDeadline(run("flux", 5000, 0))).toBe(false); // nothing failed: a measured latency
    expect(p99AtDeadline({ ...run("flux", 5000), result: { p99StartMs: 5000, failed: 3 } })).toBe(false); // no config: unknown deadline
    expect(atDeadline(5000, 5000)).toBe(true);
    const results = syntheticResults({ seeds: 2, experiments: ["exp1"] });
    const rows = ourRows(results, "exp1", (r) => num(r, "p99StartMs"), sched, rho, p99AtDeadline);
    expect(rows.filter((r) => r.mark === MARK.capped).map((r) => `${r.series}@${r.x}`)).toEqual(["flux@0.9"]);
  });

  it("keeps run profiles apart", () => {
    const results = syntheticResults({ experiments: ["exp1", "exp2"], artifact: true });
    expect(profilesOf(results, "exp1")).toEqual([PROFILE_LABEL.paper, PROFILE_LABEL.artifact]);
    expect(profilesOf(results, "exp2")).toEqual([PROFILE_LABEL.paper]);
    const rows = ourRows(results, "exp1", failure, sched, rho);
    expect(rows).toHaveLength(60);
    expect(rows.filter((r) => r.profile === PROFILE_LABEL.artifact)).toHaveLength(30);
    const paper = paperRows(results, "exp1", (p) => p.p99Ms, sched, rho);
    expect(new Set(paper.map((r) => r.profile)).size).toBe(2); // the paper's markers in both columns
  });
});
