// The report finds schedulers through the catalogue: a run of any registered
// scheduler (here the Sparrow-like one, which `reproduce` does not run) is
// drawn under its entry's label and colour, and its deadline is the one its
// entry names.
import { describe, expect, it } from "vitest";
import { figures } from "../../src/report/figures.js";
import { deadlineMs } from "../../src/report/deadline.js";
import { SCHEDULER_COLOR, SCHEDULER_LABEL } from "../../src/report/labels.js";
import { SCHEDULERS } from "../../src/schedulers/catalogue.js";
import { syntheticResults } from "./fixtures.js";

describe("the report and the scheduler catalogue", () => {
  it("labels and colours every registered scheduler from its entry", () => {
    for (const e of SCHEDULERS) {
      expect(SCHEDULER_LABEL[e.name]).toBe(e.label);
      expect(SCHEDULER_COLOR[e.label]).toBe(e.color);
    }
    expect(new Set(Object.values(SCHEDULER_COLOR)).size).toBe(SCHEDULERS.length);
  });

  it("draws a Sparrow-like run of Exp1 under its label and colour, with the baselines' deadline", async () => {
    const base = syntheticResults({ experiments: ["exp1"] });
    const sparrow = base.filter((r) => r.point.scheduler === "ray").map((r) => ({
      ...r, key: r.key.replace("ray", "sparrow"),
      point: { ...r.point, scheduler: "sparrow" as const, sets: r.point.sets.map((s) => s.replace("ray", "sparrow")) },
      result: { ...r.result, scheduler: "sparrow", startSuccessRatio: 0.98 },
    }));
    expect(deadlineMs(sparrow[0])).toBe(5000);
    const success = (await figures([...base, ...sparrow])).find((f) => f.file === "exp1-success.svg")!;
    expect(success.svg).toContain("Sparrow-like");
    expect(success.svg).toContain(SCHEDULER_COLOR["Sparrow-like"]);
  });
});
