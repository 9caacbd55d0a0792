// `npm run bench:sim` as a user runs it: the built bench in dist/, a real
// process, its speed stated in probe actions timed in the same invocation.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import { probesPerTask } from "../../bench/yardstick.js";

const bench = join(packageRoot(), "dist", "bench", "sim-laminar.js");

describe("bench:sim", () => {
  it("states the wall time per task in probe actions of the same invocation", () => {
    if (!existsSync(bench)) throw new Error(`${bench} is missing: run "npm run build"`);
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.1", "--rounds=1", "--no-native", "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as {
      arrived: number; medianWallSeconds: number; medianProbeActionsPerTask: number; fastestProbeActionsPerTask: number;
      yardstick: { impl: string; medianNsPerProbe: number; fastestNsPerProbe: number; timings: number[] };
    };
    expect(s.yardstick.impl).toBe("wasm-simd");
    expect(s.yardstick.medianNsPerProbe).toBeGreaterThan(0);
    expect(s.medianProbeActionsPerTask).toBeCloseTo((s.medianWallSeconds * 1e9) / s.arrived / s.yardstick.medianNsPerProbe, 6);
    // one round: timed before and after its runs; the median is their mean, the fastest their minimum
    expect(s.yardstick.timings).toHaveLength(2);
    expect(s.yardstick.medianNsPerProbe).toBeCloseTo((s.yardstick.timings[0] + s.yardstick.timings[1]) / 2, 9);
    expect(s.yardstick.fastestNsPerProbe).toBe(Math.min(...s.yardstick.timings));
    expect(s.fastestProbeActionsPerTask).toBeCloseTo((s.medianWallSeconds * 1e9) / s.arrived / s.yardstick.fastestNsPerProbe, 6);
  }, 180_000);

  it("runs the TypeScript model and the core's Zone engine side by side, on the same events", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.1", "--rounds=1", "--no-yardstick", "--engines=ts,core", "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { byWorkers: { engine: string; eventsProcessed: number; medianSpeedup: number }[] };
    expect(s.byWorkers.map((b) => b.engine)).toEqual(["ts", "core"]);
    expect(s.byWorkers[1].eventsProcessed).toBe(s.byWorkers[0].eventsProcessed);
    expect(s.byWorkers[1].medianSpeedup).toBeGreaterThan(0);
    const bad = spawnSync(process.execPath, [bench, "--engines=wasm"], { encoding: "utf8", timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toEqual(["bench:sim: bench: --engines takes ts, core or auto, got wasm"]);
    for (const [arg, line] of [["--nodez=5", "bench:sim: bench: unknown option --nodez=5"], ["--rounds=0", "bench:sim: bench: --rounds takes a positive integer, got 0"],
      ["--base=/nonexistent", "bench:sim: bench: --base=/nonexistent has no built bench"], ["--nodes=0x10", "bench:sim: bench: --nodes takes a positive integer, got 0x10"],
      ["--set=nope=1", "bench:sim: unknown parameter \"nope\""]]) {
      const r2 = spawnSync(process.execPath, [bench, arg], { encoding: "utf8", timeout: 60_000 });
      expect(r2.status, arg).toBe(2);
      expect(r2.stderr.trim().split("\n")).toHaveLength(1);
      expect(r2.stderr.startsWith(line), r2.stderr).toBe(true);
    }
    // every option the parser knows is in the help, which runs nothing
    const help = spawnSync(process.execPath, [bench, "--help"], { encoding: "utf8", timeout: 60_000 });
    expect(help.status).toBe(0);
    expect(help.stderr).toBe("");
    for (const o of ["--nodes=", "--rho=", "--duration=", "--rounds=", "--workers=", "--engines=", "--gateway=", "--set=", "--base=", "--ceiling", "--no-yardstick", "--no-native", "--json"]) {
      expect(help.stdout, o).toContain(o);
    }
    const unknown = spawnSync(process.execPath, [bench, "--nodez=5"], { encoding: "utf8", timeout: 60_000 });
    const listed = unknown.stderr.split("(options: ")[1]?.match(/--[a-z-]+=?/g) ?? [];
    expect(listed.length).toBeGreaterThan(10);
    for (const o of listed) expect(help.stdout, o).toContain(o);
  }, 180_000);

  it("compares this build with a base build in alternating pairs (--base)", () => {
    // the base here is this same checkout: the two builds behave alike, and every pair gives a ratio
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.05", "--rounds=2", "--no-yardstick", `--base=${packageRoot()}`, "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { base: { sameResults: boolean }; againstBase: { pairs: number; wall: { median: number; min: number; max: number } } };
    expect(s.base.sameResults).toBe(true);
    expect(s.againstBase.pairs).toBe(2);
    expect(s.againstBase.wall.min).toBeLessThanOrEqual(s.againstBase.wall.median);
    expect(s.againstBase.wall.median).toBeGreaterThan(0);
    // a base whose runs take 1,000 s and count other tasks: the ratio is this / base (far below 1), and the difference is flagged
    const stub = mkdtempSync(join(tmpdir(), "bench-base-"));
    try {
      mkdirSync(join(stub, "dist", "bench"), { recursive: true });
      const round = { arrived: 1, started: 1, eventsProcessed: 1, wallSeconds: 1000, cpuSeconds: 1000, tasksPerWallSecond: 0.001, tasksPerCpuSecond: 0.001, peakRssMiB: 1, waitShare: null, setupS: null };
      writeFileSync(join(stub, "dist", "bench", "sim-laminar.js"), `process.stdout.write(${JSON.stringify(JSON.stringify(round))});\n`);
      const slow = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.05", "--rounds=1", "--no-yardstick", `--base=${stub}`, "--json"], { encoding: "utf8", timeout: 120_000 });
      expect(slow.status, slow.stderr).toBe(0);
      const t = JSON.parse(slow.stdout) as { base: { sameResults: boolean }; againstBase: { wall: { median: number }; cpu: { median: number } } };
      expect(t.base.sameResults).toBe(false);
      expect(t.againstBase.wall.median).toBeLessThan(0.01);
      expect(t.againstBase.cpu.median).toBeLessThan(0.01);
    } finally {
      rmSync(stub, { recursive: true, force: true });
    }
  }, 180_000);

  it("times the gateway side and the Zones apart (--split), on a run with the one-thread result", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.05", "--rounds=1", "--no-native", "--split", "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    const share = s.split.share;
    for (const k of ["gateway", "zones", "replay", "exchange"]) {
      expect(share[k], k).toBeGreaterThan(0);
      expect(s.split.probeActionsPerTask[k], k).toBeGreaterThan(0);
    }
    expect(share.gateway + share.zones + share.replay + share.exchange + share.rest).toBeCloseTo(1, 9);
    expect(share.rest).toBeGreaterThanOrEqual(0);
    const bad = spawnSync(process.execPath, [bench, "--split", "--set=memory.enabled=true"], { encoding: "utf8", timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toEqual(["bench:sim: bench: --split needs a run that can take the gateway once (the core's Zone engine, no memory model, no invariant checker)"]);
  }, 180_000);

  it("shows where each thread's time goes by half of the batch period (--phases)", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.02", "--rounds=1", "--workers=2", "--no-yardstick", "--phases"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const tables = r.stderr.split("\n").filter((l) => l.includes("ms by half of the gateway's batch period"));
    expect(tables.map((l) => l.match(/thread \d/)![0])).toEqual(["thread 0", "thread 1"]);
    expect(r.stderr).toMatch(/^  half {18}( +\d){8} +all$/m);
    expect(r.stderr).toMatch(/^  the gateway's .*\n  waiting before those .*\n  the Zones' /m);
  }, 120_000);

  it("replays every half of a threaded run through the threads' schedule (--replay), in the text and the JSON", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.02", "--rounds=1", "--workers=1,2", "--no-yardstick", "--replay"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    // the threaded run only; 0.02 s is 160 halves of 0.125 ms, and the run's slots two more
    expect(r.stderr).toMatch(/^round 1\/1, 2 worker\(s\), replay of every half \(162 a kind\): measured [\d.]+ s from the first half to the last, the threads waiting [\d.]+%, [\d.]+%; the schedule's rule on the same halves [\d.]+ s \([\d.]+ of measured\)/m);
    expect(r.stderr).not.toMatch(/1 worker\(s\), replay/);
    expect(r.stderr).toMatch(/^  gateway share {31}( +0\.\d\d){8}$/m);
    expect(r.stderr).toMatch(/^  replayed, s {33}( +[\d.]+){8}$/m);
    expect(r.stderr).toMatch(/^  each half at its phase's mean \(80 halves\), s( +[\d.]+){8}$/m);
    expect(r.stderr).toMatch(/^  best share 0\.\d\d \([\d.]+ s\); with each half at its phase's mean 0\.\d\d \([\d.]+ s\); all the halves' time over 2 threads [\d.]+ s$/m);
    const j = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.02", "--rounds=1", "--workers=2", "--no-yardstick", "--replay", "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(j.status, j.stderr).toBe(0);
    const s = JSON.parse(j.stdout);
    const rp = s.byWorkers[0].replay[0];
    expect(rp.threads).toBe(2);
    expect(rp.period).toBe(80);
    expect(rp.measured.waitMs).toHaveLength(2);
    expect(rp.replayed.wallMs).toBeGreaterThan(0);
    // no schedule beats all the halves' time spread evenly over the threads
    expect(rp.workMs).toBeLessThanOrEqual(rp.replayed.wallMs * (1 + 1e-12));
    // thread 0 holds (1/2 - g) / (1 - g) of the nodes, give or take a Zone
    expect(rp.gatewayShare).toBeGreaterThan(0);
    expect(rp.byShare.map((b: { gatewayShare: number }) => b.gatewayShare)).toEqual([0.02, 0.06, 0.1, 0.14, 0.18, 0.22, 0.26, 0.3]);
    const one = spawnSync(process.execPath, [bench, "--replay"], { encoding: "utf8", timeout: 60_000 });
    expect(one.status).toBe(2);
    expect(one.stderr.trim()).toBe("bench:sim: bench: --replay needs a worker count above 1 (--workers=2)");
  }, 180_000);

  it("draws each thread's half windows from the middle of a threaded run (--timeline), into a new file only", () => {
    const dir = mkdtempSync(join(tmpdir(), "laminar-timeline-"));
    try {
      const file = join(dir, "t.svg");
      const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.02", "--rounds=1", "--workers=2", "--no-yardstick", `--timeline=${file}`], { encoding: "utf8", timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(`the timeline is in ${file}`);
      const svg = readFileSync(file, "utf8");
      expect(svg.startsWith("<svg ")).toBe(true);
      expect(svg).toContain("thread 0, the gateway's");
      expect(svg).toContain("thread 1, the Zones'");
      // four batch periods of eight halves, on both threads: at least the gateway's 32 and two sets of the Zones' 32
      expect((svg.match(/<title>half \d+/g) ?? []).length).toBeGreaterThanOrEqual(96);
      // the file is there now: a second run refuses it before running, and leaves it as it was
      const again = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.02", "--rounds=1", "--workers=2", "--no-yardstick", `--timeline=${file}`], { encoding: "utf8", timeout: 60_000 });
      expect(again.status).toBe(2);
      expect(again.stderr.trim()).toBe(`bench:sim: bench: --timeline=${file} exists already; name a new file (nothing is replaced)`);
      expect(readFileSync(file, "utf8")).toBe(svg);
      const one = spawnSync(process.execPath, [bench, `--timeline=${join(dir, "u.svg")}`], { encoding: "utf8", timeout: 60_000 });
      expect(one.status).toBe(2);
      expect(one.stderr.trim()).toBe("bench:sim: bench: --timeline needs a worker count above 1 (--workers=2)");
      const nodir = spawnSync(process.execPath, [bench, "--workers=2", `--timeline=${join(dir, "no", "u.svg")}`], { encoding: "utf8", timeout: 60_000 });
      expect(nodir.status).toBe(2);
      expect(nodir.stderr.trim()).toBe(`bench:sim: bench: --timeline=${join(dir, "no", "u.svg")}: no directory ${join(dir, "no")}`);
      expect(existsSync(join(dir, "u.svg"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("measures the machine's ceiling for threads (--ceiling): one-thread runs at once against one alone", () => {
    const r = spawnSync(process.execPath, [bench, "--nodes=300", "--duration=0.05", "--rounds=1", "--workers=1,2", "--no-yardstick", "--ceiling", "--json"], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { byWorkers: { workers: number; medianGatewayS: number | null; ceiling: { slowdown: { median: number }; medianCeiling: number; medianSpeedup: number; medianShare: number } | null }[] };
    expect(s.byWorkers[0].ceiling).toBeNull();
    // two threads take the gateway once: the first thread's time on it is reported (none for one thread)
    expect(s.byWorkers[0].medianGatewayS).toBeNull();
    expect(s.byWorkers[1].medianGatewayS).toBeGreaterThan(0);
    const c = s.byWorkers[1].ceiling!;
    expect(c.slowdown.median).toBeGreaterThan(0);
    expect(c.medianCeiling).toBeCloseTo(2 / c.slowdown.median, 6);
    // one round: the share is the speed-up over the one alone, over the ceiling
    expect(c.medianShare).toBeCloseTo(c.medianSpeedup / c.medianCeiling, 6);
    const bad = spawnSync(process.execPath, [bench, "--ceiling"], { encoding: "utf8", timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe("bench:sim: bench: --ceiling needs a worker count above 1 (--workers=1,2)");
  }, 180_000);

  it("divides wall time per task by the yardstick", () => {
    expect(probesPerTask(2, 1_000_000, { impl: "native", nsPerProbe: 400 })).toBe(5);
  });
});
