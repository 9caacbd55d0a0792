// docs/parameters.md is what the registry renders: the reference cannot drift.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import { renderParamsMarkdown } from "../../src/config/params-doc.js";
import { PARAMS } from "../../src/config/params.js";

describe("docs/parameters.md", () => {
  const md = renderParamsMarkdown();

  it("is up to date with the registry", () => {
    const committed = readFileSync(join(packageRoot(), "docs", "parameters.md"), "utf8");
    // on failure: npm run build:ts && node dist/src/cli/main.js params --markdown > docs/parameters.md
    expect(committed === md, "docs/parameters.md is stale: regenerate it with `laminar params --markdown > docs/parameters.md`").toBe(true);
  });

  it("has one table row per parameter, six cells each", () => {
    const rows = md.split("\n").filter((l) => l.startsWith("| `"));
    expect(rows).toHaveLength(PARAMS.length);
    for (const r of rows) expect(r.replace(/\\\|/g, "").split("|").length - 2).toBe(6);
  });

  it("renders a group on its own", () => {
    const only = renderParamsMarkdown(PARAMS.filter((p) => p.group === "da"));
    expect(only).toMatch(/### `da`: Laminar: Decentralized Agent/);
    expect(only).not.toMatch(/`workload.rho`/);
  });
});
