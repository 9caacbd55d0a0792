// The files `reproduce` writes beside its points (results.json, results.csv,
// report.html, the SVG figures) are its own to rewrite, and nobody else's:
// DIR/.laminar-outputs.json records the SHA-256 of each file as laminar last
// wrote it. A file of one of those names that is not recorded there, or no
// longer matches its record (the user's own file, or one edited since), is
// never overwritten unless the user passes --force.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkOutput, OutputRefused, writeOutput } from "./safe-write.js";

export const OWNED_NAME = ".laminar-outputs.json";

interface Owned {
  files: Record<string, string>;
}

const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

function readOwned(dir: string): Owned {
  const file = join(dir, OWNED_NAME);
  if (!existsSync(file) || lstatSync(file).isSymbolicLink()) return { files: {} };
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as Partial<Owned>;
    return v.files !== null && typeof v.files === "object" && !Array.isArray(v.files) ? { files: { ...v.files } } : { files: {} };
  } catch {
    return { files: {} };
  }
}

/** Laminar wrote `dir/name` and nobody changed it since. */
function ours(dir: string, owned: Owned, name: string): boolean {
  const want = owned.files[name];
  if (typeof want !== "string") return false;
  try {
    return sha(readFileSync(join(dir, name))) === want;
  } catch {
    return false;
  }
}

/** Refuse (OutputRefused) to write any of `names` in `dir` that laminar did not write, unless `force`; links always. */
export function checkOwned(dir: string, names: readonly string[], force: boolean): void {
  const owned = readOwned(dir);
  for (const name of names) {
    const path = join(dir, name);
    checkOutput(path, true); // links and non-files, whatever force says
    if (!force && existsSync(path) && !ours(dir, owned, name)) {
      throw new OutputRefused(`${path} was not written by laminar reproduce (or was changed since): not overwritten (pass --force to replace it, or choose another --out)`);
    }
  }
}

/** Write `dir/name` (checkOwned first) and record it as laminar's. */
export function writeOwned(dir: string, name: string, data: string | Uint8Array, force: boolean): void {
  checkOwned(dir, [name], force);
  writeOutput(join(dir, name), data, true);
  const owned = readOwned(dir);
  owned.files[name] = sha(data);
  writeOutput(join(dir, OWNED_NAME), JSON.stringify(owned, null, 1) + "\n", true);
}
