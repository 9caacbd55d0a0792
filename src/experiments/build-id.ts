// Which build of laminar produced a sweep's points: a hash over the package
// version, the compiled JavaScript (dist/src) and the core (build/*.wasm).
// `reproduce` records it in each point file it writes and resumes only points
// of the same build, so a sweep never mixes results of two versions of the
// model. Any rebuilt change counts, help text included: that errs on the
// side of running a point again.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { packageRoot } from "../core/paths.js";

function files(dir: string, keep: (name: string) => boolean, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, keep, out);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

/** The build's id: 16 hex digits. */
export function buildId(root = packageRoot()): string {
  const h = createHash("sha256");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: string };
  h.update(`laminar ${pkg.version ?? "?"}\n`);
  const paths = [
    ...files(join(root, "dist", "src"), (n) => n.endsWith(".js"), []),
    ...files(join(root, "build"), (n) => n.endsWith(".wasm"), []),
  ].map((p) => relative(root, p).split("\\").join("/")).sort();
  for (const p of paths) {
    h.update(`${p}\n`);
    h.update(readFileSync(join(root, p)));
  }
  return h.digest("hex").slice(0, 16);
}
