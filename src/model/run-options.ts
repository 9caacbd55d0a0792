// Options every scheduler's run function takes.
import type { Core } from "../core/wasm.js";

export interface RunOptions {
  /** Called every slice of simulated time with (simulated ns so far, horizon ns). */
  onProgress?: (nowNs: number, endNs: number) => void;
  /** A core instance to build on (default: a fresh one; a run takes it over). */
  core?: Core;
}
