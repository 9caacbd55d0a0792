// Runs the native C reference kernels (bench/native/) in the same invocation
// as the JavaScript bench, so native and WASM rows are measured side by side.
// Compiles them first when a C compiler exists; without one the native rows
// are skipped with a note, never faked.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";

export interface NativeRow {
  name: string;
  impl: "native" | "native-128";
  nsPerOp: number;
  checksum: number;
}

const dir = join(packageRoot(), "bench", "native");

let built: { ok: true; log: string } | { ok: false; note: string } | null = null;

/** Compile the C twins (once per process: bench:sim's yardstick asks every round); a note when that is not possible. */
export function buildNative(): { ok: true; log: string } | { ok: false; note: string } {
  if (built !== null) return built;
  const build = spawnSync(process.execPath, [join(dir, "build.mjs")], { encoding: "utf8" });
  built = build.status !== 0 ? { ok: false, note: `native build failed: ${(build.stderr || "").trim().split("\n")[0]}` } : { ok: true, log: (build.stdout || "").trim() };
  return built;
}

/** Run both native binaries once (after buildNative). */
export async function runNative(buildLog: string): Promise<{ ok: true; rows: NativeRow[] } | { ok: false; note: string }> {
  const rows: NativeRow[] = [];
  const notes: string[] = [];
  for (const [bin, impl] of [["bench-native", "native"], ["bench-native-128", "native-128"]] as const) {
    const path = join(dir, "bin", bin);
    if (!existsSync(path)) {
      notes.push(`${impl}: not built (${buildLog.split("\n").pop()})`);
      continue;
    }
    const r = spawnSync(path, [impl], { encoding: "utf8", timeout: 120_000 });
    if (r.status !== 0) {
      notes.push(`${impl}: exited ${r.status}`);
      continue;
    }
    const parsed = JSON.parse(r.stdout) as { kernels: Array<{ name: string; nsPerOp: number; checksum: number }> };
    for (const k of parsed.kernels) rows.push({ name: k.name, impl, nsPerOp: k.nsPerOp, checksum: k.checksum >>> 0 });
  }
  if (rows.length === 0) return { ok: false, note: notes.join("; ") || "no native rows" };
  return { ok: true, rows };
}
