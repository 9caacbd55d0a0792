// Imports point downward (docs/architecture.md, "Layers"): each folder may
// import only from the folders listed for it, and a folder not listed here
// fails the test until someone decides where it sits. The table is the
// layering as it is, checked; change it in the same commit as the doc.
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { files, importGraph, ROOT } from "./import-graph.js";

/**
 * The parameter registry (src/config) gathers the groups that schedulers
 * and workloads register; those registrations use only the spec helpers
 * (params-spec.ts), so they sit between the two.
 */
const SPEC = "src/config/params-spec.ts";
const REGISTERED = ["src/schedulers", "src/workload/params", SPEC];
const BELOW_MODELS = ["src/cluster", "src/config", "src/core", "src/metrics", "src/sim", "src/workload", ...REGISTERED];
const BELOW_RUN = ["src/laminar", "src/baselines", ...BELOW_MODELS];

/** folder -> the folders its files may import from (besides its own). */
export const MAY_IMPORT: Record<string, readonly string[]> = {
  assembly: [],
  "src/sim": [],
  [SPEC]: [],
  "src/schedulers": [SPEC],
  "src/workload/params": [SPEC],
  "src/config": REGISTERED,
  "src/core": ["src/sim"],
  "src/workload": ["src/config", "src/sim", "src/workload/params"],
  "src/metrics": ["src/config", "src/sim"],
  "src/cluster": ["src/config", "src/core", "src/sim"],
  "src/laminar": BELOW_MODELS,
  "src/baselines": BELOW_MODELS,
  "src/run": BELOW_RUN,
  "src/schedulers/run": ["src/run", ...BELOW_RUN],
  "src/report": ["src/config", "src/metrics", "src/schedulers"],
  "src/experiments": ["src/run", "src/report", ...BELOW_RUN],
  "src/sweep": ["src/experiments", "src/run", "src/report", ...BELOW_RUN],
  bench: ["src/run", ...BELOW_RUN],
  "src/api": ["src/experiments", "src/run", "src/report", ...BELOW_RUN],
  "src/cli": ["bench", "src/sweep", "src/experiments", "src/run", "src/report", ...BELOW_RUN],
};

/** The layer of a file: the longest key of MAY_IMPORT it is or lies under, or its own folder when none. */
function layerOf(file: string): string {
  const rel = relative(ROOT, file).split("\\").join("/");
  let best = "";
  for (const k of Object.keys(MAY_IMPORT)) if ((rel === k || rel.startsWith(`${k}/`)) && k.length > best.length) best = k;
  return best !== "" ? best : rel.split("/").slice(0, 2).join("/");
}

/** Every import that breaks the table, as "from -> to". */
export function violations(g: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, tos] of g) {
    const a = layerOf(from);
    const allowed = MAY_IMPORT[a];
    for (const to of tos) {
      const b = layerOf(to);
      if (a === b) continue;
      if (allowed === undefined) out.push(`${relative(ROOT, from)}: folder ${a} has no place in the layer table`);
      else if (!allowed.includes(b)) out.push(`${relative(ROOT, from)} -> ${relative(ROOT, to)}`);
    }
  }
  return [...new Set(out)].sort();
}

describe("layers", () => {
  it("finds an upward import", () => {
    const f = (p: string) => join(ROOT, p);
    const g = new Map([[f("src/metrics/result.ts"), [f("src/core/wasm.ts"), f("src/sim/time.ts")]], [f("src/report/rows.ts"), [f("src/experiments/runner.ts")]]]);
    expect(violations(g)).toEqual(["src/metrics/result.ts -> src/core/wasm.ts", "src/report/rows.ts -> src/experiments/runner.ts"]);
  });

  it("finds a folder with no place in the table", () => {
    const f = (p: string) => join(ROOT, p);
    expect(violations(new Map([[f("src/newthing/a.ts"), [f("src/sim/time.ts")]]]))).toEqual(["src/newthing/a.ts: folder src/newthing has no place in the layer table"]);
  });

  it("every import of src/, bench/ and assembly/ points downward", () => {
    const all = ["src", "bench", "assembly"].flatMap((d) => files(join(ROOT, d)));
    expect(violations(importGraph(all))).toEqual([]);
  });
});
