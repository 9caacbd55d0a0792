// The TypeScript twins of the core's kernels, one namespace per kernel file:
// the fallback where a runtime has no WebAssembly, and the test oracle.
// Results and status codes match the WASM builds (docs/abi.md).
export * as bitmap from "./reference/bitmap.js";
export * as fastmath from "./reference/fastmath.js";
export * as memory from "./reference/memory.js";
export * as micro from "./reference/micro.js";
export * as probe from "./reference/probe.js";
export * as score from "./reference/score.js";
export * as wheel from "./reference/wheel.js";
