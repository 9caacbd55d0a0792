#!/usr/bin/env node
// Packs the two published packages from the built tree (npm run packages builds
// first), each staged in its own folder under out/pack/ with a manifest made
// here, and writes out/pack/laminar-VERSION.tgz and laminar-core-VERSION.tgz.
//
// Why staged: the repository's package.json keeps `prepare` so that `npm ci`
// in a clone builds the core and the TypeScript, but a published package.json
// with `prepare` makes npm warn every consumer about an install script. The
// staged manifests carry no scripts and no devDependencies, and hold built
// files only; the repository's own manifest is private and its `prepack`
// (this script with --refuse-root) stops a plain `npm pack` at the root.
//
//   laminar       the simulator: the public API (dist/src/api), the CLI, the
//                 core at `laminar/core`; runtime dependencies commander,
//                 piscina and zod; vega and vega-lite as optional peers.
//   laminar-core  the core alone, for embedding: the .wasm builds, the typed
//                 loader and the TypeScript twins (the import closure of
//                 dist/src/core/index.js), no dependencies at all.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "out", "pack");

if (process.argv.includes("--refuse-root")) {
  console.error("laminar: the repository's package.json is for a clone (its prepare script builds); pack the published packages with `npm run packages` (writes out/pack/*.tgz)");
  process.exit(1);
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const WASM = ["build/laminar-simd.wasm", "build/laminar-scalar.wasm"];
for (const f of [...WASM, "dist/src/api/index.js", "dist/src/api/index.d.ts", "dist/src/core/index.js"]) {
  if (!existsSync(join(root, f))) throw new Error(`pack: ${f} is missing; run npm run build first (npm run packages does)`);
}

/**
 * The files that `entries` import, transitively (relative specifiers in .js
 * and .d.ts files, static and dynamic), and the bare specifiers met on the way.
 */
function closure(entries) {
  const files = new Set(), bare = new Set(), todo = [...entries];
  const spec = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
  while (todo.length > 0) {
    const f = todo.pop();
    if (files.has(f) || !existsSync(join(root, f))) continue;
    files.add(f);
    for (const m of readFileSync(join(root, f), "utf8").matchAll(spec)) {
      const s = m[1];
      if (!s.startsWith(".")) { bare.add(s); continue; }
      const js = posix.join(posix.dirname(f), s);
      todo.push(js, js.replace(/\.js$/, ".d.ts"));
    }
  }
  return { files: [...files].sort(), bare: [...bare].sort() };
}

function stage(name, manifest, paths, extra = {}) {
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const p of paths) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    cpSync(join(root, p), join(dir, p), { recursive: true, filter: (src) => !src.endsWith(".wat") });
  }
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const file = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
  const tgz = join(out, file);
  console.log(`pack: ${relative(root, tgz)} (${(statSync(tgz).size / 1024).toFixed(0)} KiB packed)`);
  return tgz;
}

mkdirSync(out, { recursive: true });
const common = { version: pkg.version, license: pkg.license, type: "module" };

// laminar: the built tree, with the core's builds
stage("laminar", {
  name: pkg.name, description: pkg.description, ...common,
  main: pkg.main, types: pkg.types, exports: pkg.exports, bin: pkg.bin, engines: pkg.engines,
  dependencies: pkg.dependencies, peerDependencies: pkg.peerDependencies, peerDependenciesMeta: pkg.peerDependenciesMeta,
  files: ["build/*.wasm", "dist", "docs", "asconfig.json", "README.md"],
}, ["build", "dist", "docs", "asconfig.json", "README.md"]);

// laminar-core: the core's import closure and nothing else
const core = closure(["dist/src/core/index.js", "dist/src/core/index.d.ts"]);
const foreign = core.bare.filter((s) => s !== "node:fs/promises"); // read only in Node, by a dynamic import
if (foreign.length > 0) throw new Error(`pack: the core imports ${foreign.join(", ")}; laminar-core must have no dependencies`);
const coreReadme = [
  "# laminar-core",
  "",
  "The core of the Laminar scheduler simulator on its own: the WebAssembly builds (SIMD and scalar), the typed loader and the TypeScript twins of every kernel. No dependencies; tested in Node, worker threads, and Chromium pages and module workers.",
  "",
  "```js",
  'import { instantiateCore, Status } from "laminar-core";',
  "const { flavor, reason, core } = await instantiateCore(); // SIMD, else scalar, else the TypeScript twins",
  "```",
  "",
  "The API and the ABI are described in the laminar package's docs/library.md and docs/abi.md.",
  "",
].join("\n");
stage("laminar-core", {
  name: "laminar-core",
  description: "The Laminar scheduler's WebAssembly core (SIMD and scalar builds), its typed loader and TypeScript twins; no dependencies, any JavaScript runtime",
  ...common,
  main: "./dist/src/core/index.js",
  types: "./dist/src/core/index.d.ts",
  exports: {
    ".": { types: "./dist/src/core/index.d.ts", default: "./dist/src/core/index.js" },
    "./laminar-simd.wasm": "./build/laminar-simd.wasm",
    "./laminar-scalar.wasm": "./build/laminar-scalar.wasm",
    "./package.json": "./package.json",
  },
  sideEffects: false,
  files: ["build/*.wasm", "dist", "README.md"],
}, [...WASM, ...core.files], { "README.md": coreReadme });
