// Builds the core twice from one source: build/laminar-simd.wasm (--enable simd)
// and build/laminar-scalar.wasm (SIMD disabled; the ASC_FEATURE_SIMD branches
// fall back to scalar code). Both -O3 --runtime stub with no imports.
// The lookup tables (assembly/tables.ts) are generated once and committed:
// `npm run gen:tables` rewrites them (see scripts/gen-tables.mjs).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const asc = join(dirname(require.resolve("assemblyscript/package.json")), "bin", "asc.js");

for (const target of ["simd", "scalar"]) {
  execFileSync(process.execPath, [asc, "assembly/index.ts", "--config", "asconfig.json", "--target", target], {
    cwd: root,
    stdio: "inherit",
  });
  const mod = new WebAssembly.Module(readFileSync(join(root, `build/laminar-${target}.wasm`)));
  const imports = WebAssembly.Module.imports(mod);
  const bad = WebAssembly.Module.exports(mod).filter((e) => e.kind !== "function" && e.kind !== "memory");
  if (imports.length > 0 || bad.length > 0) {
    console.error(`build-wasm: ${target} build must have no imports and export only functions and memory`);
    process.exit(1);
  }
  console.log(`build-wasm: build/laminar-${target}.wasm (${WebAssembly.Module.exports(mod).length - 1} functions)`);
}
