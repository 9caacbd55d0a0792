// One instance of the core over an already instantiated WebAssembly module:
// no file system, no fetch, nothing but the WebAssembly API, so that it runs
// wherever JavaScript does. wasm.ts (Node, from build/) and instantiate.ts
// (bytes, URL or file, any runtime) both end here.
import { Arena } from "./arena.js";
import type { CoreExports } from "./exports.js";

/** The two WebAssembly builds of the core: with 128-bit SIMD, and without. */
export type Flavor = "simd" | "scalar";

/** One instance of the core: its exports, its memory, and an arena over it. */
export class CoreInstance {
  readonly exports: CoreExports;
  readonly arena: Arena;

  constructor(readonly flavor: Flavor, instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as CoreExports;
    this.arena = new Arena(this.exports.memory, this.exports.heapBase());
  }
}
