// A package-lock.json for a fresh project that depends on one packed tarball,
// so that `npm ci --offline` installs it from npm's cache alone. npm ci with
// the repository's lockfile caches every tarball but no registry metadata,
// and a plain `npm install --offline <tarball>` needs that metadata to
// resolve version ranges; a lockfile names exact tarballs and needs none.
// The tarball's dependency tree is the repository lockfile's non-dev part:
// the packages a consumer gets, at the paths npm gave them here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/**
 * The lockfile for a project named `name` depending on `tarball` (a file
 * beside the lockfile) whose package.json is `manifest`; `lock` is the
 * repository's parsed package-lock.json, or null when the tarball has no
 * dependencies.
 */
export function offlineLock(name, tarball, manifest, lock) {
  const spec = `file:${basename(tarball)}`;
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  const own = {};
  for (const k of ["version", "license", "dependencies", "peerDependencies", "peerDependenciesMeta", "bin", "engines"]) {
    if (manifest[k] !== undefined) own[k] = manifest[k];
  }
  const packages = {
    "": { name, dependencies: { [manifest.name]: spec } },
    [`node_modules/${manifest.name}`]: { ...own, resolved: spec, integrity },
  };
  for (const [path, entry] of Object.entries(lock?.packages ?? {})) {
    if (path !== "" && entry.dev !== true && entry.link !== true) packages[path] = entry;
  }
  return { name, lockfileVersion: 3, requires: true, packages };
}
