// writeOutput: a temp file of this process (pid and a random suffix) in the
// same folder, fsync, rename; never through a link, never over an existing
// file without overwrite; a failed write leaves the earlier file whole and no
// temp file behind. The folder lock: O_EXCL with the pid, stale locks taken over.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OutputRefused, OutputWriteError, tempName, writeOutput } from "../../src/experiments/safe-write.js";
import { FolderLocked, lockFolder, processStart } from "../../src/experiments/out-lock.js";
import { hostname } from "node:os";
import { checkOwned, writeOwned } from "../../src/experiments/owned-files.js";

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), "laminar-safe-write-")); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeOutput", () => {
  it("writes a new file and leaves no temp file", () => {
    writeOutput(join(dir, "a.json"), "{}\n");
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe("{}\n");
    expect(readdirSync(dir)).toEqual(["a.json"]);
  });

  it("gives each write a temp name of its own (pid and random suffix)", () => {
    const a = tempName(join(dir, "r.json")), b = tempName(join(dir, "r.json"));
    expect(a).not.toBe(b);
    expect(a).toContain(`.r.json.${process.pid}.`);
  });

  it("writes a file whose name is near the 255-byte limit (a point's key): the temp name stays inside it", () => {
    const name = `${"k".repeat(245)}.json`;
    writeOutput(join(dir, name), "{}");
    expect(readdirSync(dir)).toEqual([name]);
  });

  it("refuses an existing file without overwrite, replaces it with", () => {
    writeFileSync(join(dir, "a.json"), "old");
    expect(() => writeOutput(join(dir, "a.json"), "new")).toThrow(OutputRefused);
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe("old");
    writeOutput(join(dir, "a.json"), "new", true);
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe("new");
  });

  it("never writes through a symbolic link, even with overwrite", () => {
    writeFileSync(join(dir, "target"), "precious");
    symlinkSync(join(dir, "target"), join(dir, "link"));
    expect(() => writeOutput(join(dir, "link"), "x", true)).toThrow(/symbolic link/);
    expect(readFileSync(join(dir, "target"), "utf8")).toBe("precious");
  });

  it("names the file when the write fails, and leaves nothing behind", () => {
    const gone = join(dir, "no-such-folder", "a.json");
    expect(() => writeOutput(gone, "x")).toThrow(OutputWriteError);
    expect(() => writeOutput(gone, "x")).toThrow(/cannot write .*no-such-folder\/a\.json \(ENOENT/);
  });
});

describe("lockFolder", () => {
  it("holds the folder until released; a live holder is refused, a dead one taken over", () => {
    const release = lockFolder(dir, "test");
    expect(readFileSync(join(dir, ".laminar.lock"), "utf8").split("\n")[0]).toBe(String(process.pid));
    expect(() => lockFolder(dir, "test")).toThrow(FolderLocked); // our own pid is alive
    release();
    expect(existsSync(join(dir, ".laminar.lock"))).toBe(false);
    writeFileSync(join(dir, ".laminar.lock"), "2147483646\nold run\n"); // no such pid
    const again = lockFolder(dir, "test");
    expect(readFileSync(join(dir, ".laminar.lock"), "utf8").split("\n")[0]).toBe(String(process.pid));
    again();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes over a lock whose pid was reused by another process, and keeps one from another host", () => {
    const start = processStart(process.pid);
    if (start === "") return; // no /proc here: the pid alone decides, as the test above shows
    const lock = join(dir, ".laminar.lock");
    // our pid, alive, but the lock records another start: the run that wrote it is gone
    writeFileSync(lock, `${process.pid}\nold run\n2026-01-01T00:00:00.000Z\nstart ${start}0\nhost ${hostname()}\n`);
    const release = lockFolder(dir, "test");
    expect(readFileSync(lock, "utf8")).toContain(`start ${start}\n`);
    release();
    // our pid with our own start: that run is going
    writeFileSync(lock, `${process.pid}\nold run\n2026-01-01T00:00:00.000Z\nstart ${start}\nhost ${hostname()}\n`);
    expect(() => lockFolder(dir, "test")).toThrow(FolderLocked);
    // a pid that does not exist here, written on another host: it may be going there
    writeFileSync(lock, `2147483646\nold run\n2026-01-01T00:00:00.000Z\nstart x\nhost not-${hostname()}\n`);
    expect(() => lockFolder(dir, "test")).toThrow(FolderLocked);
  });
});

describe("owned files", () => {
  it("rewrites its own files, refuses the user's and ones changed since, unless forced", () => {
    writeOwned(dir, "results.json", "1", false);
    writeOwned(dir, "results.json", "2", false); // its own: rewritten
    expect(readFileSync(join(dir, "results.json"), "utf8")).toBe("2");
    writeFileSync(join(dir, "results.json"), "edited by hand");
    expect(() => checkOwned(dir, ["results.json"], false)).toThrow(/not written by laminar reproduce/);
    writeFileSync(join(dir, "report.html"), "the user's");
    expect(() => writeOwned(dir, "report.html", "ours", false)).toThrow(OutputRefused);
    expect(readFileSync(join(dir, "report.html"), "utf8")).toBe("the user's");
    writeOwned(dir, "report.html", "ours", true);
    expect(() => checkOwned(dir, ["report.html"], false)).not.toThrow();
  });
});
