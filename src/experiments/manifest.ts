// Where a result came from: one manifest, the same fields for sim's
// result.json, reproduce's results.json and report.html, and bench --json.
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { arch, cpus, platform, release } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../core/paths.js";
import { buildId } from "./build-id.js";

export interface Manifest {
  /** The tool and its command, e.g. "laminar sim". */
  tool: string;
  version: string;
  /** build-id.ts: a hash of the version, the compiled JavaScript and the core. */
  build: string;
  /** The git commit of the package's checkout, with "-dirty" when tracked files have changes; null when the package is not the top of a git checkout. */
  commit: string | null;
  node: string;
  os: string;
  cpu: { model: string; count: number };
  /** The command line as typed (argv after the node binary and script). */
  argv: string[];
  startedAt: string;
  endedAt: string | null;
  /** Seeds the run used (sim: its root seed; reproduce: 1..K per point). */
  seeds: number[];
  /** The run profile, where the command has one. */
  profile: string | null;
}

function gitCommit(root: string): string | null {
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim();
  try {
    // the package's own checkout, not a repository it was installed inside (node_modules)
    if (realpathSync(git("rev-parse", "--show-toplevel")) !== realpathSync(root)) return null;
    const head = git("rev-parse", "HEAD");
    if (!/^[0-9a-f]{40}$/.test(head)) return null;
    return git("status", "--porcelain", "--untracked-files=no") === "" ? head : `${head}-dirty`;
  } catch {
    return null; // no git, or not a checkout (an npm install)
  }
}

/** A manifest for a run starting now; call finishManifest when it ends. */
export function startManifest(tool: string, seeds: number[], profile: string | null): Manifest {
  const root = packageRoot();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: string };
  const cpu = cpus();
  return {
    tool,
    version: pkg.version ?? "unknown",
    build: buildId(root),
    commit: gitCommit(root),
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    cpu: { model: cpu[0]?.model.trim() ?? "unknown", count: cpu.length },
    argv: process.argv.slice(2),
    startedAt: new Date().toISOString(),
    endedAt: null,
    seeds,
    profile,
  };
}

export function finishManifest(m: Manifest): Manifest {
  return { ...m, endedAt: new Date().toISOString() };
}

/** The manifest as "name: value" lines (report.html). */
export function manifestText(m: Manifest): string {
  return [
    `tool: ${m.tool} ${m.version} (build ${m.build}${m.commit ? `, commit ${m.commit}` : ""})`,
    `command: laminar ${m.argv.join(" ")}`,
    `node ${m.node} on ${m.os}, ${m.cpu.count} x ${m.cpu.model}`,
    `started ${m.startedAt}, ended ${m.endedAt ?? "-"}`,
    `seeds: ${m.seeds.length > 10 ? `${m.seeds[0]}..${m.seeds[m.seeds.length - 1]}` : m.seeds.join(", ")}; profile: ${m.profile ?? "-"}`,
  ].join("\n");
}
