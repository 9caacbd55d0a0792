// The laminar command as a user runs it: the built CLI in dist/, a real process.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");

function laminar(...args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" (npm ci does it)`);
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("laminar CLI", () => {
  it("has help on every command", () => {
    const top = laminar("--help");
    expect(top.code).toBe(0);
    // every command listed in the top-level help has its own --help
    const commands = [...top.out.matchAll(/^  ([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== "help");
    expect(commands).toEqual(expect.arrayContaining(["bench", "info", "params"]));
    for (const cmd of commands) {
      const r = laminar(cmd, "--help");
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`Usage: laminar ${cmd}`));
    }
  });

  it("info reports the SIMD build and its exports", () => {
    const r = laminar("info", "--json");
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out);
    expect(info.build).toBe("simd");
    expect(info.abiVersion).toBe(3);
    for (const name of ["bmFreeCount", "bmFirstRun", "scoreCandidates", "zoneAggregate", "tegWeights", "wheelAdvance", "microZoneUpdate"]) {
      expect(info.exports).toContain(name);
    }
  });

  it("bench --json gives kernel rows with the agreed fields", () => {
    const kernels = ["mask-update", "feasible-count", "probe-candidates", "zone-aggregate"];
    const r = laminar("bench", "--json", "--quick", "--no-native", "--kernels", kernels.join(","));
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.kernels).toHaveLength(12);
    for (const row of j.kernels) {
      expect(kernels).toContain(row.name);
      expect(["wasm-simd", "wasm-scalar", "ts"]).toContain(row.impl);
      expect(row.nsPerOp).toBeGreaterThan(0);
      // each row keeps its round count and spread (benchmark.js's margin of error per round, and the rounds' range)
      expect(row.roundCount).toBe(1);
      expect(row.spreadPct).toBe(0);
      expect(row.rmePct).toHaveLength(1);
      expect(row.rmePct[0]).toBeGreaterThanOrEqual(0);
      expect(row.samples[0]).toBeGreaterThanOrEqual(5);
    }
    // where the figures came from
    expect(j.manifest.tool).toBe("laminar bench");
    expect(j.manifest.build).toMatch(/^[0-9a-f]{16}$/);
    expect(j.manifest.argv).toEqual(["bench", "--json", "--quick", "--no-native", "--kernels", kernels.join(",")]);
    expect(j.manifest.cpu.count).toBeGreaterThan(0);
    expect(Date.parse(j.manifest.endedAt)).toBeGreaterThanOrEqual(Date.parse(j.manifest.startedAt));
    expect(j.checksumMismatches).toEqual([]);
    // the probe action, its deferred draws finished by the host, as pinned in bench/native/README.md
    const probe = j.kernels.filter((row: { name: string }) => row.name === "probe-candidates");
    expect(probe.map((row: { checksum: number }) => row.checksum)).toEqual([2311746949, 2311746949, 2311746949]);
    expect(j.paperNsPerOp["mask-update"]).toBe(4.02);
  });

  it("bench prints a table with the native rows beside the WASM ones", () => {
    const r = laminar("bench", "--quick", "--kernels", "zone-update");
    expect(r.code).toBe(0);
    const row = r.out.split("\n").find((l) => l.startsWith("zone-update"));
    expect(row).toBeDefined();
    const cells = row!.trim().split(/\s+/);
    // kernel, wasm-simd, wasm-scalar, ts, native, native-128, 3 ratios, paper
    expect(cells).toHaveLength(10);
    expect(cells[9]).toBe("29.3");
    const hasCompiler = spawnSync("gcc", ["--version"]).status === 0;
    if (hasCompiler) {
      expect(Number(cells[4])).toBeGreaterThan(0);
      expect(cells[6]).toMatch(/^\d+\.\d+x$/);
    } else {
      expect(r.out).toMatch(/native rows skipped/);
    }
  });

  it("bad input: one line, non-zero exit, no stack trace", () => {
    const cases: Array<[string[], number, RegExp]> = [
      [["bench", "--kernels", "nope"], 2, /unknown kernel "nope"/],
      [["bench", "--impls", "wasm-simd,java"], 2, /unknown impl "java"/],
      [["bench", "--max-time", "-1"], 2, /--max-time must be a positive number/],
      // commander's own parse errors: the same one line and exit 2 as every other bad input
      [["bench", "--frobnicate"], 2, /^laminar: unknown option '--frobnicate'/],
      [["nosuchcommand"], 2, /^laminar: unknown command 'nosuchcommand'/],
    ];
    // an --out under /proc: Node's own recursive mkdir would spin there for ever
    if (existsSync("/proc/self")) cases.push([["reproduce", "exp4a", "--no-progress", "--out", "/proc/laminar-no/such"], 2, /--out \/proc\/laminar-no\/such: ENOENT/]);
    for (const [args, code, msg] of cases) {
      const r = laminar(...args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err).toMatch(msg);
      expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
      expect(r.err.trim().split("\n")[0]).toMatch(msg);
    }
  });
});
