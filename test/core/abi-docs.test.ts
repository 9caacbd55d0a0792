// docs/abi.md, docs/laminar_core.h and src/core/exports.ts describe exactly
// the functions the builds export.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import { builds } from "./harness.js";

const read = (p: string) => readFileSync(join(packageRoot(), p), "utf8");
const exported = (i: number) =>
  Object.keys(builds[i][1].exports).filter((k) => k !== "memory").sort();

describe("ABI documents match the exports", () => {
  it("both builds export the same functions", () => {
    expect(exported(0)).toEqual(exported(1));
  });

  it("docs/abi.md documents every export, and nothing else", () => {
    const doc = read("docs/abi.md");
    const documented = [...new Set([...doc.matchAll(/^\| `([a-z][A-Za-z0-9]*)\(/gm)].map((m) => m[1]))].sort();
    expect(documented).toEqual(exported(0));
  });

  it("the C header declares every export", () => {
    const h = read("docs/laminar_core.h");
    const declared = [...new Set([...h.matchAll(/^\s*X\([^,]+,\s*([A-Za-z0-9]+),/gm)].map((m) => m[1]))].sort();
    expect(declared).toEqual(exported(0));
  });

  it("the TypeScript interface names every export", () => {
    const ts = read("src/core/exports.ts");
    const named = [...new Set([...ts.matchAll(/^\s+([a-z][A-Za-z0-9]*)\(/gm)].map((m) => m[1]))].sort();
    expect(named).toEqual(exported(0));
  });
});
