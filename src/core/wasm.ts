// The only module that loads the core's .wasm files. It instantiates a build
// (SIMD where the runtime validates it, otherwise scalar), and gives the rest of
// the code the raw exports plus an arena that owns the memory layout.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CoreInstance, type Flavor } from "./instance.js";
import { packageRoot } from "./paths.js";

export type { Flavor } from "./instance.js";

/** Where the built .wasm files live (build/, at the package root). */
export function wasmPath(flavor: Flavor): string {
  return join(packageRoot(), "build", `laminar-${flavor}.wasm`);
}

const moduleCache = new Map<Flavor, WebAssembly.Module>();

function compiled(flavor: Flavor): WebAssembly.Module {
  let m = moduleCache.get(flavor);
  if (!m) {
    const path = wasmPath(flavor);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch {
      throw new Error(`core: ${path} is missing; run "npm run build:wasm" (npm ci does it)`);
    }
    m = new WebAssembly.Module(bytes);
    moduleCache.set(flavor, m);
  }
  return m;
}

/** True when this runtime can compile the SIMD build. */
export function simdSupported(): boolean {
  try {
    return WebAssembly.validate(new Uint8Array(readFileSync(wasmPath("simd"))));
  } catch {
    return false;
  }
}

/** One instance of the core, from the build in build/ (read synchronously: Node only). */
export class Core extends CoreInstance {
  constructor(flavor: Flavor) {
    super(flavor, new WebAssembly.Instance(compiled(flavor), {}));
  }
}

/** Load a fresh core instance; "auto" picks SIMD when the runtime supports it. */
export function loadCore(flavor: Flavor | "auto" = "auto"): Core {
  if (flavor === "auto") flavor = simdSupported() ? "simd" : "scalar";
  return new Core(flavor);
}
