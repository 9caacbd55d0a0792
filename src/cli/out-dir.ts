// The --out folder of sim and reproduce, made (and checked) before any work,
// with every failure a one-line usage error.
import { accessSync, constants } from "node:fs";
import { makeDir } from "../experiments/make-dir.js";
import { UsageError } from "./errors.js";

/** Make the --out folder `dir` and its parents; with `writable`, also check that it can be written to. */
export function makeOutDir(dir: string, writable = false): void {
  if (dir === "") throw new UsageError("--out: an empty path (give a folder)");
  try {
    makeDir(dir);
    if (writable) accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new UsageError(`--out ${dir}: ${(e as Error).message}`);
  }
}
