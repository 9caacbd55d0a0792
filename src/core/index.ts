// The core's public surface: what `laminar/core` and the laminar-core package
// export (docs/library.md). Nothing here needs Node or any other package, so
// a browser or a worker loads it as it is.
export { instantiateCore, type CoreChoice, type CoreSource, type InstantiateOptions, type LoadedCore } from "./instantiate.js";
export { CoreInstance, type Flavor } from "./instance.js";
export type { CoreExports } from "./exports.js";
export { Arena } from "./arena.js";
export { check, CoreError, Status, statusText } from "./status.js";
export * as twins from "./twins.js";
