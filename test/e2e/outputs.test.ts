// No result lost or clobbered, as a user meets it: sim --out never
// overwrites an existing result without --force and never writes through a
// symbolic link; a second run into a folder in use is refused in one line,
// a stale lock (a dead pid) is taken over; a full disk leaves the earlier
// result whole and the new one reaches the user (stdout with --json, else a
// named fallback file); reproduce refuses, before running anything, to
// overwrite results.json, results.csv or report.html it did not write, and
// a folder it cannot write. Full-disk and read-only cases mount a tiny tmpfs,
// which needs root: they are skipped with the reason otherwise.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
const tmp = mkdtempSync(join(tmpdir(), "laminar-outputs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function laminar(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const SMALL = ["--nodes", "300", "--duration", "0.2", "--no-progress"];
/** An hour of simulated time: a case refused after the run instead of before it would time out. */
const LONG = ["--nodes", "300", "--duration", "3600", "--no-progress"];

function oneLine(r: { code: number | null; err: string }, code: number, msg: RegExp): void {
  expect(r.code, r.err).toBe(code);
  const lines = r.err.trimEnd().split("\n");
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(/^laminar: /);
  expect(lines[0]).toMatch(msg);
}

/** A dead pid: a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

/** Mount a tmpfs of `size` at a new folder; null (with the reason) when not permitted. */
function tmpfs(size: string, ro = false): { dir: string; done: () => void } | string {
  const dir = mkdtempSync(join(tmp, "fs-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}${ro ? ",ro" : ""}`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) return `mount -t tmpfs is not permitted here (${(r.stderr || r.error?.message || "").trim()}): run the tests as root to check a full disk`;
  return { dir, done: () => spawnSync("umount", [dir]) };
}
const canMount = (() => {
  const m = tmpfs("64k");
  if (typeof m === "string") return m;
  m.done();
  return null;
})();

describe("sim --out", () => {
  it("refuses to overwrite a result before the run, replaces it with --force", () => {
    const dir = join(tmp, "overwrite");
    expect(laminar("sim", ...SMALL, "--json", "--out", dir).code).toBe(0);
    const before = readFileSync(join(dir, "result.json"), "utf8");
    oneLine(laminar("sim", ...LONG, "--out", dir), 2, /result\.json exists: not overwritten \(pass --force/);
    expect(readFileSync(join(dir, "result.json"), "utf8")).toBe(before);
    const forced = laminar("sim", ...SMALL, "--seed", "7", "--json", "--out", dir, "--force");
    expect(forced.code, forced.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "result.json"), "utf8")).config.sim.seed).toBe(7);
    // no temp file or lock is left behind
    expect(readdirSync(dir).sort()).toEqual(["result.json", "series.csv"]);
  });

  it("never writes through a symbolic link, --force or not", () => {
    const dir = join(tmp, "link");
    mkdirSync(dir);
    const victim = join(tmp, "victim.csv");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, join(dir, "series.csv"));
    for (const force of [[], ["--force"]]) oneLine(laminar("sim", ...LONG, "--out", dir, ...force), 2, /series\.csv is a symbolic link/);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  it("refuses a folder another live run holds, takes over a stale lock", () => {
    const dir = join(tmp, "lock");
    mkdirSync(dir);
    writeFileSync(join(dir, ".laminar.lock"), `${process.pid}\nlaminar sim\n`);
    oneLine(laminar("sim", ...LONG, "--out", dir), 2, new RegExp(`in use by another laminar run \\(pid ${process.pid}`));
    writeFileSync(join(dir, ".laminar.lock"), `${deadPid()}\nlaminar sim\n`);
    const r = laminar("sim", ...SMALL, "--json", "--out", dir);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, ".laminar.lock"))).toBe(false);
  });

  it("two runs into one folder at once: the second is refused in one line; killed, the first leaves a stale lock the next run takes over", async () => {
    const dir = join(tmp, "concurrent");
    const first = spawn(process.execPath, [cli, "sim", ...LONG, "--json", "--out", dir], { stdio: "ignore" });
    try {
      const lock = join(dir, ".laminar.lock");
      for (let i = 0; i < 300 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
      expect(readFileSync(lock, "utf8").split("\n")[0]).toBe(String(first.pid));
      oneLine(laminar("sim", ...LONG, "--out", dir), 2, new RegExp(`in use by another laminar run \\(pid ${first.pid}`));
    } finally {
      first.kill("SIGKILL");
      await new Promise((r) => first.once("exit", r));
    }
    expect(existsSync(join(dir, ".laminar.lock"))).toBe(true); // kill -9 leaves it
    const next = laminar("sim", ...SMALL, "--json", "--out", dir);
    expect(next.code, next.err).toBe(0);
    expect(existsSync(join(dir, ".laminar.lock"))).toBe(false);
    expect(existsSync(join(dir, "result.json"))).toBe(true);
  }, 60_000);

  it.skipIf(canMount !== null)(`a full disk keeps the earlier result whole and hands the new one over${canMount ? ` (skipped: ${canMount})` : ""}`, () => {
    const m = tmpfs("64k");
    if (typeof m === "string") throw new Error(m);
    try {
      const dir = join(m.dir, "o");
      expect(laminar("sim", ...SMALL, "--json", "--out", dir).code).toBe(0);
      const before = readFileSync(join(dir, "result.json"), "utf8");
      writeFileSync(join(m.dir, "fill"), Buffer.alloc(45_000)); // leaves room for the lock, not for a result
      const json = laminar("sim", ...SMALL, "--seed", "2", "--json", "--out", dir, "--force");
      oneLine(json, 1, /cannot write .*result\.json \(ENOSPC.*the result is on stdout/);
      expect(JSON.parse(json.out).config.sim.seed).toBe(2);
      expect(readFileSync(join(dir, "result.json"), "utf8")).toBe(before);
      const table = laminar("sim", ...SMALL, "--seed", "3", "--out", dir, "--force");
      oneLine(table, 1, /cannot write .*result\.json \(ENOSPC.*the result was saved to (\S+\.json)$/);
      expect(table.out).toMatch(/start success/);
      const fallback = /saved to (\S+\.json)$/.exec(table.err.trim())![1];
      try {
        expect(JSON.parse(readFileSync(fallback, "utf8")).config.sim.seed).toBe(3);
      } finally {
        rmSync(fallback, { force: true });
      }
      expect(readFileSync(join(dir, "result.json"), "utf8")).toBe(before);
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      m.done();
    }
  });

  it.skipIf(canMount !== null)(`a read-only folder is refused before the run, for sim and reproduce${canMount ? ` (skipped: ${canMount})` : ""}`, () => {
    const m = tmpfs("64k", true);
    if (typeof m === "string") throw new Error(m);
    try {
      oneLine(laminar("sim", ...LONG, "--out", m.dir), 2, /^laminar: --out .*EROFS/);
      oneLine(laminar("reproduce", "exp4a", "--no-progress", "--out", m.dir), 2, /^laminar: --out .*EROFS/);
    } finally {
      m.done();
    }
  });
});

describe("reproduce --out", () => {
  it("refuses, before running, to overwrite results it did not write, or to write through a link", () => {
    for (const name of ["results.json", "results.csv", "report.html"]) {
      const dir = join(tmp, `mine-${name}`);
      mkdirSync(dir);
      writeFileSync(join(dir, name), "the user's own\n");
      oneLine(laminar("reproduce", "exp4a", "--no-progress", "--out", dir), 2, new RegExp(`${name.replace(".", "\\.")} was not written by laminar reproduce .*--force`));
      expect(readFileSync(join(dir, name), "utf8")).toBe("the user's own\n");
      expect(existsSync(join(dir, "points")) ? readdirSync(join(dir, "points")) : []).toEqual([]);
    }
    const dir = join(tmp, "reproduce-link");
    mkdirSync(dir);
    writeFileSync(join(tmp, "target.html"), "x");
    symlinkSync(join(tmp, "target.html"), join(dir, "report.html"));
    oneLine(laminar("reproduce", "exp4a", "--no-progress", "--force", "--out", dir), 2, /report\.html is a symbolic link/);
  });

  it("refuses a folder another live run holds", () => {
    const dir = join(tmp, "reproduce-lock");
    mkdirSync(dir);
    writeFileSync(join(dir, ".laminar.lock"), `${process.pid}\nlaminar reproduce\n`);
    oneLine(laminar("reproduce", "exp4a", "--no-progress", "--out", dir), 2, /in use by another laminar run/);
  });
});
