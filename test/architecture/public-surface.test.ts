// What the published packages promise: the core's entry (laminar/core and
// laminar-core) imports nothing outside its own files, statically nothing
// from Node, so a browser or a worker loads it as it is; and the public type
// declarations need no other package (a consumer without the plotting stack,
// piscina's or commander's types, or @types/node still type-checks).
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const ROOT = packageRoot();
const STATIC = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

/** Files reachable from `entry` by relative imports (`ext` the files' extension), and the other specifiers met, static and dynamic. */
function walk(entry: string, ext: ".ts" | ".d.ts"): { files: string[]; staticBare: string[]; dynamicBare: string[] } {
  const files = new Set<string>(), staticBare = new Set<string>(), dynamicBare = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    const text = readFileSync(join(ROOT, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const [re, bare] of [[STATIC, staticBare], [DYNAMIC, dynamicBare]] as const) {
      for (const m of text.matchAll(re)) {
        if (!m[1].startsWith(".")) bare.add(m[1]);
        else todo.push(posix.join(posix.dirname(f), m[1]).replace(/\.js$/, ext));
      }
    }
  }
  return { files: [...files], staticBare: [...staticBare], dynamicBare: [...dynamicBare] };
}

describe("the public surface", () => {
  it("the core's entry loads in any runtime: only its own files and the twins' ziggurat (with its fdlibm), no static import of Node or a package", () => {
    const core = walk("src/core/index.ts", ".ts");
    expect(core.staticBare).toEqual([]);
    expect(core.dynamicBare).toEqual(["node:fs/promises"]); // read only when running in Node
    expect(core.files.filter((f) => !f.startsWith("src/core/")).sort()).toEqual(["src/sim/fdlibm.ts", "src/sim/ziggurat.ts"]);
    expect(core.files).not.toContain("src/core/wasm.ts"); // the Node-only loader
    expect(core.files).not.toContain("src/core/paths.ts");
  });

  const built = existsSync(join(ROOT, "dist/src/api/index.d.ts"));
  it.skipIf(!built)("the public declarations import no package, not even Node's types", () => {
    for (const entry of ["dist/src/api/index.d.ts", "dist/src/core/index.d.ts"]) {
      const d = walk(entry, ".d.ts");
      expect(d.staticBare, entry).toEqual([]);
      expect(d.dynamicBare, entry).toEqual([]);
      for (const f of d.files) expect(readFileSync(join(ROOT, f), "utf8"), f).not.toMatch(/NodeJS\.|\bBuffer\b|reference types=/);
    }
  });

  it("the package's exports map names the two entries and their declarations", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown>; dependencies: Record<string, string> };
    expect(pkg.exports["."]).toEqual({ types: "./dist/src/api/index.d.ts", default: "./dist/src/api/index.js" });
    expect(pkg.exports["./core"]).toEqual({ types: "./dist/src/core/index.d.ts", default: "./dist/src/core/index.js" });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["commander", "piscina", "zod"]);
  });
});
