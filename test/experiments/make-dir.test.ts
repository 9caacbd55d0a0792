// makeDir creates a folder and its missing parents, accepts one that exists,
// and fails (never loops) where a folder cannot be made. The /proc case, where
// Node's own recursive mkdirSync spins, runs in a child process with a
// timeout, so a regression fails the test instead of hanging the suite; that
// child runs the built module in dist/ (npm test builds first).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeDir } from "../../src/experiments/make-dir.js";
import { packageRoot } from "../../src/core/paths.js";

const tmp = mkdtempSync(join(tmpdir(), "laminar-make-dir-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("makeDir", () => {
  it("makes a folder and its missing parents, and accepts one that exists", () => {
    const dir = join(tmp, "a", "b", "c");
    makeDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    makeDir(dir);
    makeDir(join(tmp, "a"));
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it("refuses a path through or onto a file", () => {
    const file = join(tmp, "file");
    writeFileSync(file, "x");
    expect(() => makeDir(file)).toThrow(/exists and is not a directory/);
    expect(() => makeDir(join(file, "sub"))).toThrow(/ENOTDIR/);
  });

  it.runIf(existsSync("/proc/self"))("fails at once under /proc, where Node's recursive mkdir loops", () => {
    const mod = pathToFileURL(join(packageRoot(), "dist", "src", "experiments", "make-dir.js")).href;
    const code = `import(${JSON.stringify(mod)}).then((m) => { try { m.makeDir("/proc/laminar-no/such"); } catch (e) { console.log(e.code); } })`;
    const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 20_000 });
    expect(r.signal).toBeNull();
    expect(r.stdout.trim()).toBe("ENOENT");
  });
});
