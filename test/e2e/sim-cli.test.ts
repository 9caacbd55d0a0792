// `laminar sim` as a user runs it: the built CLI in dist/, a real process.
// Pins the JSON result's fields and their accounting (arrived = started +
// failed + in flight), the seed round trip, run-to-run determinism, the
// human-readable table, --out's result.json and series.csv, --help, and that
// every bad input exits 2 with one "laminar:" line naming the parameter and
// no stack trace. Runs are small (300 nodes, 0.2 s simulated).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");

function laminar(...args: string[]) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" (npm ci does it)`);
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const SMALL = ["--nodes", "300", "--duration", "0.2", "--no-progress"];
const SEED = "4242";

/** Fields that measure the run itself, not the simulation: they differ between identical runs (the manifest has the run's start and end time). */
const WALL_FIELDS = ["wallSeconds", "tasksPerWallSecond", "peakRssMiB", "manifest"];

function withoutWall(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => !WALL_FIELDS.includes(k)));
}

let tmp: string;
let first: { code: number | null; out: string; err: string };
let result: Record<string, unknown> & { config: { sim: { seed: number }; cluster: { nodes: number } } };

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "laminar-sim-e2e-"));
  first = laminar("sim", ...SMALL, "--seed", SEED, "--json");
  if (first.code === 0) result = JSON.parse(first.out);
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("laminar sim --json", () => {
  it("exits 0 and prints exactly one JSON object", () => {
    expect(first.code, first.err).toBe(0);
    expect(first.err).toBe("");
    const lines = first.out.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(typeof result).toBe("object");
    expect(Array.isArray(result)).toBe(false);
  });

  it("has the agreed fields, with the right types", () => {
    const numeric = [
      "arrived", "started", "completed", "failed", "startSuccessRatio", "controlWorkPerSuccessUs", "bounces", "fastFails",
      "regenerations", "duplicateWinners", "reservationsExpired", "eventsProcessed", "wallSeconds", "tasksPerWallSecond", "peakRssMiB",
    ];
    for (const k of ["config", ...numeric, "p50StartedMs", "p99StartedMs", "p99StartMs"]) expect(result, k).toHaveProperty(k);
    for (const k of numeric) {
      expect(typeof result[k], k).toBe("number");
      expect(Number.isFinite(result[k] as number), k).toBe(true);
      expect(result[k] as number, k).toBeGreaterThanOrEqual(0);
    }
    for (const k of ["arrived", "started", "completed", "failed", "bounces", "fastFails", "regenerations", "duplicateWinners", "reservationsExpired", "eventsProcessed"]) {
      expect(Number.isInteger(result[k]), k).toBe(true);
    }
    // latencies: a number, or null when nothing started
    for (const k of ["p50StartedMs", "p99StartedMs", "p99StartMs"]) {
      expect(result[k] === null || typeof result[k] === "number", k).toBe(true);
    }
    expect(result.startSuccessRatio as number).toBeLessThanOrEqual(1);
  });

  it("records where it came from: version, build, Node, OS, CPU, command line, times, seed, profile", () => {
    const m = (result as unknown as { manifest: Record<string, unknown> }).manifest;
    expect(m.tool).toBe("laminar sim");
    expect(m.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(m.build).toMatch(/^[0-9a-f]{16}$/);
    expect(m.commit === null || /^[0-9a-f]{40}(-dirty)?$/.test(m.commit as string)).toBe(true);
    expect(m.node).toBe(process.version);
    expect((m.cpu as { count: number }).count).toBeGreaterThan(0);
    expect(m.argv).toEqual(["sim", ...SMALL, "--seed", SEED, "--json"]);
    expect(Date.parse(m.endedAt as string)).toBeGreaterThanOrEqual(Date.parse(m.startedAt as string));
    expect(m.seeds).toEqual([Number(SEED)]);
    expect(m.profile).toBeNull();
  });

  it("echoes the resolved config, the seed and the named flags included", () => {
    expect(result.config.sim.seed).toBe(Number(SEED));
    expect(result.config.cluster.nodes).toBe(300);
    expect((result.config as unknown as { sim: { durationS: number } }).sim.durationS).toBe(0.2);
  });

  it("accounts for every arrival: arrived = started + failed + inFlightAtEnd", () => {
    const r = result as Record<string, number>;
    expect(r).toHaveProperty("inFlightAtEnd");
    expect(r.arrived).toBeGreaterThan(0);
    expect(r.arrived).toBe(r.started + r.failed + r.inFlightAtEnd);
    expect(r.completed).toBeLessThanOrEqual(r.started);
    expect(r.startSuccessRatio).toBeCloseTo(r.started / r.arrived, 9);
    expect(r.eventsProcessed).toBeGreaterThan(0);
    if (r.p50StartedMs !== null && r.p99StartedMs !== null) expect(r.p50StartedMs).toBeLessThanOrEqual(r.p99StartedMs);
  });

  it("with --out DIR, also writes result.json (same run) and series.csv; a same-seed rerun is identical", () => {
    const dir = join(tmp, "out", "nested");
    const r = laminar("sim", ...SMALL, "--seed", SEED, "--json", "--out", dir);
    expect(r.code, r.err).toBe(0);
    const stdout = JSON.parse(r.out);
    const file = JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));
    expect(file.arrived).toBe(stdout.arrived);
    expect(withoutWall(file)).toEqual(withoutWall(stdout));
    // the same seed and flags give the same simulation
    expect(withoutWall(stdout)).toEqual(withoutWall(result));
    const csv = readFileSync(join(dir, "series.csv"), "utf8").split("\n");
    expect(csv[0].startsWith("tMs,")).toBe(true);
    const cols = csv[0].split(",").length;
    const rows = csv.slice(1).filter((l) => l !== "");
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.split(",")).toHaveLength(cols);
  });
});

describe("laminar sim --check-invariants", () => {
  it("checks every scheduler's invariants and reports how many checks passed", () => {
    for (const s of ["laminar", "slurm", "ray", "flux", "sparrow"]) {
      const r = laminar("sim", "--scheduler", s, ...SMALL, "--check-invariants", "--json");
      expect(r.code, `${s}: ${r.err}`).toBe(0);
      expect((JSON.parse(r.out) as { invariantChecks: number }).invariantChecks, s).toBeGreaterThan(0);
    }
  });
});

describe("laminar sim on the core's Zone engine and on the TypeScript model", () => {
  it("gives the same result, field for field, and says in the table where the Zone side ran", () => {
    const ts = laminar("sim", ...SMALL, "--seed", SEED, "--json", "--set", "sim.engine=ts");
    expect(ts.code, ts.err).toBe(0);
    const a = withoutWall(JSON.parse(ts.out)), b = withoutWall(result);
    (a.config as { sim: { engine: string } }).sim.engine = (b.config as { sim: { engine: string } }).sim.engine;
    expect(a).toEqual(b);
    const table = laminar("sim", ...SMALL, "--seed", SEED);
    expect(table.out).toMatch(/Zone side ran on +the core's Zone engine \(sim\.engine=auto\)/);
  });
});

describe("laminar sim (table)", () => {
  it("prints a readable table with the start success", () => {
    const r = laminar("sim", ...SMALL, "--seed", "3");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/start success/);
    expect(r.out).toMatch(/300 nodes/);
    expect(r.out).toMatch(/seed 3\b/);
    expect(() => JSON.parse(r.out)).toThrow();
  });
});

describe("laminar sim progress off a terminal", () => {
  it("writes plain lines with the ETA to stderr at the set interval; stdout keeps only the result", () => {
    const r = spawnSync(process.execPath, [cli, "sim", "--nodes", "300", "--duration", "0.2", "--json"], {
      encoding: "utf8", timeout: 120_000, env: { ...process.env, LAMINAR_PROGRESS_EVERY_S: "0.01" },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^sim \d+\.\d% elapsed \S+ ETA \S+ [\d.]+ s simulated$/);
    expect(lines.at(-1)).toMatch(/^sim 100\.0% /);
    expect(r.stderr).not.toContain("\r");
    expect(JSON.parse(r.stdout).arrived).toBeGreaterThan(0);
  });
});

describe("laminar sim --help", () => {
  it("exits 0 and lists the main flags", () => {
    const r = laminar("sim", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: laminar sim/);
    for (const flag of ["--nodes", "--rho", "--json", "--set"]) expect(r.out).toContain(flag);
  });
});

describe("laminar sim: bad input", () => {
  /** exit 2, nothing on stdout, exactly one "laminar:" line on stderr that matches `names`, no stack trace. */
  function refused(args: string[], names: RegExp): void {
    const r = laminar("sim", ...args);
    const what = args.join(" ");
    expect(r.code, `${what}: ${r.err}`).toBe(2);
    expect(r.out, what).toBe("");
    expect(r.err.endsWith("\n"), what).toBe(true);
    const lines = r.err.trimEnd().split("\n");
    expect(lines, what).toHaveLength(1);
    expect(lines[0], what).toMatch(/^laminar: /);
    expect(lines[0], what).toMatch(names);
    expect(r.err, what).not.toContain("    at ");
  }

  it("out-of-range named flags", () => {
    refused(["--nodes", "0", "--duration", "0.2", "--no-progress", "--json"], /cluster\.nodes/);
    refused([...SMALL, "--rho", "0", "--json"], /workload\.rho/);
    refused([...SMALL, "--rho", "-1", "--json"], /workload\.rho/);
  });

  it("bad --workers", () => {
    for (const w of ["0", "-1", "1.5", "abc", "65"]) refused([...SMALL, "--json", "--workers", w], /--workers/);
    refused([...SMALL, "--json", "--workers", "2", "--scheduler", "slurm"], /--workers/);
  });

  it("bad --set values and names", () => {
    refused([...SMALL, "--json", "--set", "cluster.atomsPerNode=100"], /cluster\.atomsPerNode/);
    refused([...SMALL, "--json", "--set", "network.hopMs=-1"], /network\.hopMs/);
    refused([...SMALL, "--json", "--set", "nosuch.param=1"], /nosuch\.param/);
    refused(["--duration", "0.2", "--no-progress", "--json", "--set", "cluster.nodes=abc"], /cluster\.nodes/);
    refused([...SMALL, "--json", "--set", "sim.engine=wasm"], /sim\.engine/);
    refused([...SMALL, "--json", "--set", "sim.engine=core", "--check-invariants"], /sim\.engine/);
  });

  it("bad --config files", () => {
    refused([...SMALL, "--json", "--config", "/nonexistent.json"], /\/nonexistent\.json/);
    const malformed = join(tmp, "malformed.json");
    writeFileSync(malformed, '{"cluster": {"nodes": 300,');
    refused([...SMALL, "--json", "--config", malformed], new RegExp(`${malformed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*JSON`));
    const unknown = join(tmp, "unknown.json");
    writeFileSync(unknown, JSON.stringify({ cluster: { nodes: 300, nodez: 5 } }));
    refused([...SMALL, "--json", "--config", unknown], /cluster\.nodez/);
  });

  it("an --out folder that cannot be made, refused before the run", () => {
    // an hour of simulated time: were the folder checked after the run, these would time out instead
    const LONG = ["--nodes", "300", "--duration", "3600", "--no-progress", "--json"];
    const file = join(tmp, "not-a-folder");
    writeFileSync(file, "x");
    refused([...LONG, "--out", file], /--out .*not-a-folder: .*not a directory/);
    refused([...LONG, "--out", join(file, "sub")], /--out .*ENOTDIR/);
    refused([...LONG, "--out", ""], /--out: an empty path/);
    // under /proc, Node's own recursive mkdir spins for ever
    if (existsSync("/proc/self")) refused([...LONG, "--out", "/proc/laminar-no/such"], /--out \/proc\/laminar-no\/such: ENOENT/);
  });

  it("--scheduler slurm, ray and flux run the baselines", () => {
    for (const name of ["slurm", "ray", "flux"]) {
      const r = laminar("sim", ...SMALL, "--json", "--scheduler", name);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.scheduler).toBe(name);
      expect(j.arrived).toBe(j.started + j.failed + j.inFlightAtEnd);
    }
  });

  it("--profile: the profile's values under --config and --set, recorded in the result", () => {
    const r = laminar("sim", ...SMALL, "--json", "--scheduler", "ray", "--profile", "artifact");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.profile).toBe("artifact");
    expect(j.config.network.loss).toBe(0);
    expect(j.config.workload.hotspotShare).toBe(0.2);
    expect(j.config.sim.durationS).toBe(0.2); // --duration, a named flag, overrides the profile's 5 s
    expect(j.messagesLost).toBe(0);
    const file = join(tmp, "profile.json");
    writeFileSync(file, JSON.stringify({ network: { loss: 0.05 } }));
    const f = JSON.parse(laminar("sim", ...SMALL, "--json", "--scheduler", "ray", "--profile", "artifact", "--config", file).out);
    expect(f.config.network.loss).toBe(0.05); // the file over the profile
    expect(f.config.network.hopMs).toBe(0.1); // the profile's where the file is silent
    expect(f.messagesLost).toBeGreaterThan(0);
    const none = JSON.parse(laminar("sim", ...SMALL, "--json", "--scheduler", "ray").out);
    expect(none.profile).toBe(null);
    refused([...SMALL, "--json", "--profile", "lab"], /--profile: unknown profile "lab"/);
  });

  it("params --profile lists what a profile sets, with sources", () => {
    const r = laminar("params", "--profile", "artifact", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { profile: string; values: Array<{ name: string; value: unknown; default: unknown; source: string }> };
    expect(j.profile).toBe("artifact");
    const loss = j.values.find((v) => v.name === "network.loss")!;
    expect(loss.value).toBe(0);
    expect(loss.default).toBe(0.01);
    expect(loss.source).toMatch(/sweep/);
    const text = laminar("params", "--profile", "paper");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/network\.loss\s+0\.01/);
  });

  it("--scheduler with an unknown name", () => {
    refused([...SMALL, "--json", "--scheduler", "yarn"], /sim\.scheduler/);
  });

  it("bad memory and Airlock settings", () => {
    refused([...SMALL, "--json", "--set", "memory.enabled=true", "--scheduler", "ray"], /memory\.enabled/);
    refused([...SMALL, "--json", "--set", "memory.enabled=true", "--set", "airlock.safeWatermark=0.95"], /airlock\.safeWatermark/);
    refused([...SMALL, "--json", "--set", "airlock.highWatermark=1.5"], /airlock\.highWatermark/);
    refused([...SMALL, "--json", "--set", "airlock.compressionRatio=0.5"], /airlock\.compressionRatio/);
    refused([...SMALL, "--json", "--set", "memory.overclaimProb=2"], /memory\.overclaimProb/);
    refused([...SMALL, "--json", "--set", "memory.oomRule=smallest"], /memory\.oomRule/);
  });
});

describe("laminar sim with the memory model and Airlock", () => {
  const MEM = [...SMALL, "--set", "memory.enabled=true", "--set", "reservation.enabled=false", "--set", "regeneration.enabled=false"];
  it("reports the runtime-survival fields and series, and prints them in the table", () => {
    // suspending down to the top (not the default scope): the kernel never fires
    const r = laminar("sim", ...MEM, "--set", "airlock.suspensionScope=all", "--json");
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    for (const k of ["completedSuccessRatio", "executionSurvival", "lTaskOomKills", "fTaskOomKills", "suspensions", "resumedInPlace",
      "secondaryReactivations", "secondaryLandings", "reclaimed", "probeDrops"]) expect(typeof j[k], k).toBe("number");
    expect(j.lTaskOomKills).toBe(0);
    expect(j.suspensions).toBeGreaterThan(0);
    expect(j.series[0]).toHaveProperty("oomKillsL");
    const t = laminar("sim", ...MEM);
    expect(t.code, t.err).toBe(0);
    expect(t.out).toMatch(/OOM kills, L-tasks \/ F-tasks/);
    expect(t.out).toMatch(/Airlock: reactivated \/ landed \/ reclaimed/);
  });
  it("without Airlock the kernel kills L-tasks", () => {
    const r = laminar("sim", ...MEM, "--set", "airlock.enabled=false", "--json");
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.lTaskOomKills).toBeGreaterThan(0);
    expect(j.suspensions).toBe(0);
  });
});

describe("laminar sim --workers", () => {
  it("splits the Zones over threads and prints the same result as one thread", () => {
    const args = ["--nodes", "600", "--duration", "0.2", "--no-progress", "--seed", SEED, "--json", "--set", "memory.enabled=true"];
    const one = laminar("sim", ...args);
    const two = laminar("sim", ...args, "--workers", "2");
    expect(one.code, one.err).toBe(0);
    expect(two.code, two.err).toBe(0);
    const strip = (o: string) => {
      const { eventsProcessed, invariantChecks, ...r } = withoutWall(JSON.parse(o) as Record<string, unknown>);
      void eventsProcessed; void invariantChecks;
      return r;
    };
    expect(strip(two.out)).toEqual(strip(one.out));
  });
});
