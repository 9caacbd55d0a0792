// One run at a time per output folder: DIR/.laminar.lock holds the pid of
// the run that writes there, with when that process started. It is made
// whole (a temp file with the pid, linked into place: O_EXCL semantics, never
// half-written), so a second run into the folder finds it and refuses. A lock
// whose pid is no longer alive (a run killed with -9) is stale and taken
// over; so is one whose pid is alive but is another process that reused the
// number (its start differs from the one the lock records; Linux's /proc
// tells, elsewhere the pid alone decides). A lock written on another host
// is never judged stale from here. The lock is removed when the run ends, or
// when the process exits for any reason it can see.
import { linkSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { tempName, writeOutput } from "./safe-write.js";

export const LOCK_NAME = ".laminar.lock";

/** The folder is in use by another live run. */
export class FolderLocked extends Error {
  override name = "FolderLocked";
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
}

/**
 * When process `pid` started, as "<boot id>:<start in clock ticks since
 * boot>" (Linux's /proc), or "" where that cannot be read: the same pid with
 * another start is another process.
 */
export function processStart(pid: number): string {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the fields after the command name (in parentheses, which may hold spaces): state is field 3, starttime field 22
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return `${boot}:${fields[19]}`;
  } catch {
    return "";
  }
}

const readPid = (file: string): number => {
  try {
    return Number.parseInt(readFileSync(file, "utf8").split("\n")[0], 10);
  } catch {
    return NaN;
  }
};

/** The lock's "key value" lines after the first three (start, host); {} when unreadable. */
function lockFields(file: string): Record<string, string> {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync(file, "utf8").split("\n").slice(3)) {
      const i = line.indexOf(" ");
      if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
    }
    return out;
  } catch {
    return {};
  }
}

/** Whether the run that wrote this lock may still be going. */
function holderAlive(file: string, pid: number): boolean {
  const f = lockFields(file);
  if (f.host !== undefined && f.host !== hostname()) return true; // another host's run: we cannot tell
  if (!alive(pid)) return false;
  if (f.start === undefined || f.start === "") return true;
  const now = processStart(pid);
  return now === "" || now === f.start;
}

/** Try to place our lock file; false when one is there already. */
function place(lock: string, body: string): boolean {
  const tmp = tempName(lock);
  writeOutput(tmp, body);
  try {
    linkSync(tmp, lock);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Take `dir`'s lock for this process, or throw FolderLocked naming the
 * holder. Returns the function that releases it (also run at exit).
 */
export function lockFolder(dir: string, command: string): () => void {
  const lock = join(dir, LOCK_NAME);
  const body = `${process.pid}\n${command}\n${new Date().toISOString()}\nstart ${processStart(process.pid)}\nhost ${hostname()}\n`;
  for (let attempt = 0; !place(lock, body); attempt++) {
    const pid = readPid(lock);
    if (holderAlive(lock, pid) || attempt >= 2) {
      const host = lockFields(lock).host;
      const where = host !== undefined && host !== hostname() ? ` on host ${host}` : "";
      throw new FolderLocked(`${dir} is in use by another laminar run (pid ${Number.isNaN(pid) ? "unknown" : pid}${where}, lock ${lock}): wait for it to end, or choose another --out (delete the lock only if no such run is going)`);
    }
    // stale: move it aside under a name of our own, then check we moved the stale one
    const aside = tempName(lock);
    try {
      renameSync(lock, aside);
    } catch {
      continue; // someone else moved it first: try again
    }
    if (readPid(aside) !== pid) {
      try { linkSync(aside, lock); } catch { /* its owner's lock came back some other way */ }
      unlinkSync(aside);
      continue;
    }
    unlinkSync(aside);
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    if (readPid(lock) === process.pid) {
      try { unlinkSync(lock); } catch { /* gone already */ }
    }
  };
  process.on("exit", release);
  return release;
}
