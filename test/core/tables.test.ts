// The committed lookup tables are what scripts/gen-tables.mjs generates, and
// the AssemblyScript and TypeScript copies hold the same bits.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import * as T from "../../src/core/reference/tables.js";

describe("lookup tables", () => {
  it("regenerate to the committed files", () => {
    const r = spawnSync(process.execPath, [join(packageRoot(), "scripts", "gen-tables.mjs"), "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("AssemblyScript and TypeScript copies hold the same bits", () => {
    const as = readFileSync(join(packageRoot(), "assembly", "tables.ts"), "utf8");
    for (const [name, table] of Object.entries(T)) {
      const m = as.match(new RegExp(`export const ${name}: usize = memory\\.data<u32>\\(\\[([^\\]]*)\\]\\)`));
      expect(m, name).not.toBeNull();
      const bits = m![1].split(",").map((x) => Number(x.trim()));
      expect(bits).toEqual(Array.from(new Uint32Array((table as Float32Array).buffer)));
    }
  });
});
