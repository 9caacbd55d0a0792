// Create a directory and its missing parents, as `mkdir -p` does, with every
// step bounded. Node's own recursive mkdirSync (20.x) spins for ever on a
// path whose parent exists but refuses children with ENOENT (anything under
// /proc, say), so an `--out` there would hang the CLI instead of failing.
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Make `dir` (and any missing parents) a directory; throws the system's error when it cannot. */
export function makeDir(dir: string): void {
  const path = resolve(dir);
  if (!tryMkdir(path)) {
    const parent = dirname(path);
    if (parent === path) throw new Error(`${path}: cannot make the root`);
    makeDir(parent);
    // the parent exists now: a second ENOENT is final (Node's loop retries here)
    if (!tryMkdir(path)) mkdirSync(path);
  }
  if (!statSync(path).isDirectory()) throw new Error(`${path} exists and is not a directory`);
}

/** mkdir one level: true when `path` was made or already exists, false on ENOENT (a parent is missing). */
function tryMkdir(path: string): boolean {
  try {
    mkdirSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    if (code !== "EEXIST") throw e;
  }
  return true;
}
