// No import circles in src/, bench/ or assembly/: every relative import
// (static, type-only, re-export or dynamic) is an edge, and the graph must
// have no strongly connected component of more than one file and no file
// importing itself. A circle makes load order matter and hides which layer a
// file belongs to (docs/architecture.md: imports point downward).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const ROOT = packageRoot();
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The file a relative specifier names ("./x.js" and "./x" are ./x.ts), or null for a package. */
function target(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec).replace(/\.js$/, "");
  for (const p of [`${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(p).isFile()) return p;
    } catch { /* not this one */ }
  }
  return null;
}

/** The import graph of the files: file -> the files it imports. */
export function importGraph(all: string[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of all) {
    const text = readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const to = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const t = target(f, m[1] ?? m[2]);
      if (t !== null) to.add(t);
    }
    g.set(f, [...to]);
  }
  return g;
}

/** Strongly connected components with more than one file, or a file that imports itself (Tarjan). */
export function circles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc.map((f) => relative(ROOT, f)).sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("import graph", () => {
  it("finds a circle when there is one", () => {
    const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]], ["e", ["e"]]]);
    const found = circles(g).map((c) => c.map((f) => f.split("/").pop()).join(","));
    expect(found.sort()).toEqual(["a,b,c", "e"]);
  });

  it("reads every kind of relative import", () => {
    const g = importGraph([join(ROOT, "src", "schedulers", "laminar-run.ts"), join(ROOT, "src", "report", "figures.ts")]);
    const names = (f: string) => g.get(join(ROOT, f))!.map((t) => relative(ROOT, t));
    expect(names("src/schedulers/laminar-run.ts")).toContain("src/run/threads.ts"); // dynamic import()
    expect(names("src/report/figures.ts")).toContain("src/report/figure-spec.ts"); // type-only and re-export
  });

  it("has no circle in src/, bench/ or assembly/", () => {
    const all = ["src", "bench", "assembly"].flatMap((d) => files(join(ROOT, d)));
    expect(all.length).toBeGreaterThan(100);
    expect(circles(importGraph(all))).toEqual([]);
  });
});
