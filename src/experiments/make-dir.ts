// Create a directory and its missing parents, as `mkdir -p` does, with every
// step bounded. Node's own recursive mkdirSync (20.x) spins for ever on a
// path whose parent exists but refuses children with ENOENT (anything under
// /proc, say), so an `--out` there would hang the CLI instead of failing.
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Make `dir` (and any missing parents) a directory; throws the system's error when it cannot. */
export function makeDir(dir: string): void {
  const path = resolve(dir);
  try {
    mkdirSync(path);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      if (statSync(path).isDirectory()) return;
      throw new Error(`${path} exists and is not a directory`);
    }
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path) throw e;
    makeDir(parent);
  }
  mkdirSync(path); // the parent exists now: a second ENOENT is final
}
