// The core inside a browser's module worker (import maps do not reach
// workers, so the package's entry is imported by its path).
import * as core from "./node_modules/laminar-core/dist/src/core/index.js";
import { knownAnswer } from "./known-answer.mjs";

try {
  postMessage(await knownAnswer(core));
} catch (e) {
  postMessage({ ok: false, error: String(e) });
}
