// The --out folder of sim and reproduce, made and checked before any work,
// with every failure a one-line usage error: the folder is made (with its
// parents), a temp file is created in it and removed (so a read-only file
// system or a folder without write permission is found even as root, where
// access(2) says yes), and the files the run will write are checked
// (safe-write.ts: no symbolic links, no existing file without --force).
import { closeSync, openSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { makeDir } from "../experiments/make-dir.js";
import { checkOutput, tempName } from "../experiments/safe-write.js";
import { UsageError } from "./errors.js";

/** Make the --out folder `dir` and its parents; with `writable`, also prove that a file can be created in it. */
export function makeOutDir(dir: string, writable = false): void {
  if (dir === "") throw new UsageError("--out: an empty path (give a folder)");
  try {
    makeDir(dir);
    if (writable) {
      const probe = tempName(join(dir, "write-check"));
      closeSync(openSync(probe, "wx"));
      unlinkSync(probe);
    }
  } catch (e) {
    throw new UsageError(`--out ${dir}: ${(e as Error).message}`);
  }
}

/** Refuse, before the run, to write any of `names` in `dir` (a link; an existing file unless `force`). */
export function checkOutFiles(dir: string, names: readonly string[], force: boolean): void {
  try {
    for (const n of names) checkOutput(join(dir, n), force);
  } catch (e) {
    throw new UsageError(`--out ${dir}: ${(e as Error).message}`);
  }
}
