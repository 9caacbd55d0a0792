// Locating the package root from any module, whether it runs from src/ (tests,
// via vitest) or from dist/ (the built CLI).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/** The directory that holds the project's package.json. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "asconfig.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find the laminar package root");
    dir = up;
  }
  root = dir;
  return dir;
}
