// `npm run bench:instr` as a user runs it: the built bench in dist/, real
// processes under Valgrind's cachegrind (skipped, saying so, where valgrind
// is not installed; .ci/run installs Debian's), and its checks of the
// options, which need no valgrind.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const bench = join(packageRoot(), "dist", "bench", "sim-instr.js");
const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status === 0;
const objdump = spawnSync("objdump", ["--version"], { encoding: "utf8" }).status === 0;

describe("bench:instr", () => {
  it("refuses a bad option with one line and exit 2, and lists every option it takes in its help", () => {
    if (!existsSync(bench)) throw new Error(`${bench} is missing: run "npm run build"`);
    for (const [arg, line] of [
      ["--nodez=5", "bench:instr: unknown option --nodez=5"],
      ["--durations=0.4,0.1", "bench:instr: --durations takes two positive numbers, the shorter first, got 0.4,0.1"],
      ["--durations=0.4", "bench:instr: --durations takes two positive numbers"],
      ["--nodes=0", "bench:instr: --nodes takes a positive integer, got 0"],
      ["--rounds=0", "bench:instr: --rounds takes a positive integer, got 0"],
      ["--base=/nonexistent", "bench:instr: --base=/nonexistent is not a built checkout"],
      ["--set=nope=1", "bench:instr: unknown parameter \"nope\""],
      ["--functions=x", "bench:instr: --functions takes a positive integer, got x"],
      ["--split --set=memory.enabled=true", "bench:instr: --split needs a run that can take the gateway once"],
      ["--functions --threads=1", "bench:instr: --threads takes an integer from 2 to 64, got 1"],
      ["--threads=2", "bench:instr: --threads goes with --functions"],
      ["--functions --threads=2 --split", "bench:instr: --threads and --split are two different runs"],
      ["--annotate=", "bench:instr: --annotate takes a function's name, or part of it"],
      ["--annotate=chooseTarget --functions", "bench:instr: --annotate and --functions are two different reports"],
      ["--annotate=chooseTarget --rounds=2", "bench:instr: --annotate counts one run of each build"],
      ["--annotate=chooseTarget --threads=2", "bench:instr: --threads goes with --functions (it says where each thread's instructions go); --annotate counts the run on one thread"],
    ]) {
      const r = spawnSync(process.execPath, [bench, ...arg.split(" ")], { encoding: "utf8", timeout: 60_000 });
      expect(r.status, arg).toBe(2);
      expect(r.stderr.trim().split("\n"), arg).toHaveLength(1);
      expect(r.stderr.startsWith(line), r.stderr).toBe(true);
    }
    const help = spawnSync(process.execPath, [bench, "--help"], { encoding: "utf8", timeout: 60_000 });
    expect(help.status).toBe(0);
    const unknown = spawnSync(process.execPath, [bench, "--nodez=5"], { encoding: "utf8", timeout: 60_000 });
    const listed = unknown.stderr.split("(options: ")[1]?.match(/--[a-z-]+=?/g) ?? [];
    expect(listed.length).toBeGreaterThanOrEqual(6);
    for (const o of listed) expect(help.stdout, o).toContain(o);
  }, 120_000);

  it.skipIf(!valgrind)("counts instructions and misses per task for this build and a base (needs valgrind)", () => {
    // the base is this same checkout; short runs, so the counts are mostly the JIT's and say nothing of speed here,
    // but they must repeat
    const r = spawnSync(process.execPath, [bench, "--nodes=200", "--durations=0.005,0.02", `--base=${packageRoot()}`, "--json"], { encoding: "utf8", timeout: 600_000 });
    expect(r.status, r.stderr).toBe(0);
    type Spread = { median: number; min: number; max: number };
    const s = JSON.parse(r.stdout) as { results: { build: string; tasks: number; instructions: number; d1Misses: number; llMisses: number }[]; ratios: { instructions: Spread } };
    expect(s.results.map((x) => x.build)).toEqual(["this", "base"]);
    // the same simulation: the same tasks in the difference of the two runs
    expect(s.results[0].tasks).toBe(s.results[1].tasks);
    for (const x of s.results) {
      expect(x.tasks).toBeGreaterThan(0);
      expect(x.instructions).toBeGreaterThan(1000);
      expect(x.d1Misses).toBeGreaterThan(0);
    }
    expect(s.ratios.instructions.median).toBeCloseTo(s.results[0].instructions / s.results[1].instructions, 9);
    // the same build counts about the same (wall-clock pairs here differ by up to a third); in runs this short, what
    // varies from run to run (start-up, compiling; more so on a loaded machine) is spread over a few thousand tasks
    // only, so the bound is wide: at the bench's own durations one build repeats to about 1.5% (docs/bench.md)
    expect(Math.abs(s.ratios.instructions.median - 1), JSON.stringify(s.ratios)).toBeLessThan(0.15);
  }, 600_000);

  it.skipIf(!valgrind)("names the functions a task's instructions go to, JavaScript and WebAssembly (--functions; needs valgrind)", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=200", "--durations=0.005,0.02", "--functions=400", "--json"], { encoding: "utf8", timeout: 600_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { tasks: number; totals: { instructions: number; wasm: number; js: number; other: number }[]; functions: { name: string; this: number }[] };
    expect(s.tasks).toBeGreaterThan(0);
    const t = s.totals[0];
    expect(t.wasm + t.js + t.other).toBeCloseTo(t.instructions, 3);
    const names = s.functions.map((f) => f.name);
    // the probe action runs in the core (probeCore, inlined into the Zone engine's chooseTarget), the host's loop around
    // the engine's run in TypeScript (ZoneEngine.step): both named, with instructions of their own
    const probe = s.functions.find((f) => f.name === "wasm $assembly/engine/agent/chooseTarget");
    const host = s.functions.find((f) => f.name === "js step src/laminar/zone-engine.js");
    expect(probe?.this, names.slice(0, 20).join(", ")).toBeGreaterThan(100);
    expect(host?.this, names.slice(0, 20).join(", ")).toBeGreaterThan(10);
    expect(names).not.toContain("js replay src/laminar/log-replay.js");
    // --split counts the run threads take: the Zones replay the gateway's log (log-replay.ts)
    const split = spawnSync(process.execPath, [bench, "--nodes=200", "--durations=0.005,0.02", "--functions=400", "--split", "--json"], { encoding: "utf8", timeout: 600_000 });
    expect(split.status, split.stderr).toBe(0);
    const sp = JSON.parse(split.stdout) as typeof s;
    expect(sp.tasks).toBe(s.tasks);
    expect(sp.functions.find((f) => f.name === "js replay src/laminar/log-replay.js")?.this).toBeGreaterThan(0);
  }, 600_000);

  it.skipIf(!valgrind || !objdump)("lists a function's machine code, each instruction with its count per task (--annotate; needs valgrind and objdump)", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=200", "--durations=0.005,0.02", "--annotate=agent/chooseTarget", "--json"], { encoding: "utf8", timeout: 600_000 });
    expect(r.status, r.stderr).toBe(0);
    type Copy = { name: string; start: number; bytes: number; total: number; lines: { address: number; per: number; text: string }[] };
    const s = JSON.parse(r.stdout) as { annotate: string; builds: { build: string; tasks: number; copies: Copy[] }[] };
    expect(s.builds.map((b) => b.build)).toEqual(["this"]);
    const [c] = s.builds[0].copies;
    expect(c.name).toBe("wasm $assembly/engine/agent/chooseTarget");
    // its instructions lie in its code, in order, and their counts add up to its total; the probe action's loops run
    // many times a call, its entry once
    expect(c.lines.every((l, i) => l.address >= c.start && l.address < c.start + c.bytes && (i === 0 || l.address > c.lines[i - 1].address))).toBe(true);
    expect(c.lines.reduce((a, l) => a + l.per, 0)).toBeCloseTo(c.total, 6);
    expect(c.total).toBeGreaterThan(100);
    expect(Math.max(...c.lines.map((l) => l.per))).toBeGreaterThan(4 * c.lines[0].per);
    expect(c.lines[0].per).toBeGreaterThan(0);
    expect(c.lines.some((l) => /^v\w+ps /.test(l.text))).toBe(true); // the SIMD build's packed single-precision arithmetic
    const none = spawnSync(process.execPath, [bench, "--nodes=200", "--durations=0.005,0.02", "--annotate=noSuchFunction"], { encoding: "utf8", timeout: 600_000 });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no compiled function whose name holds "noSuchFunction" ran');
  }, 600_000);

  it.skipIf(!valgrind)("counts each worker thread apart, the gateway's first (--functions --threads=2; needs valgrind)", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=1200", "--durations=0.005,0.02", "--functions=400", "--threads=2", "--json"], { encoding: "utf8", timeout: 600_000 });
    expect(r.status, r.stderr).toBe(0);
    type Thread = { thread: number; threads: number; gateway: boolean; tasks: number; functions: { name: string; this: number }[] };
    const [g, z] = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Thread);
    expect([g.thread, z.thread, g.threads, g.gateway, z.gateway]).toEqual([1, 2, 2, true, false]);
    expect(z.tasks).toBe(g.tasks);
    const has = (t: Thread, name: string) => (t.functions.find((f) => f.name === name)?.this ?? 0) > 0;
    // the gateway's micro-batch on its thread only; both threads run Zones (the probe action) and replay its log
    expect([has(g, "wasm $assembly/engine/gateway/batch"), has(z, "wasm $assembly/engine/gateway/batch")]).toEqual([true, false]);
    for (const t of [g, z]) {
      expect(has(t, "wasm $assembly/engine/agent/chooseTarget")).toBe(true);
      expect(has(t, "js replay src/laminar/log-replay.js")).toBe(true);
    }
  }, 600_000);
});
if (!valgrind) console.log("bench:instr: valgrind is not installed, so its run test is skipped (Debian: apt-get install valgrind)");
else if (!objdump) console.log("bench:instr: objdump is not installed, so the --annotate run test is skipped (Debian: apt-get install binutils)");
