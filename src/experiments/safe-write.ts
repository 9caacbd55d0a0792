// Writing an output file so that no result is ever lost or clobbered: the
// data goes to a temp file of its own in the same folder (the pid and a
// random suffix in its name, so concurrent runs never share one), is flushed
// to disk (fsync), and only then takes the file's name. A full disk or a
// crash leaves the earlier file as it was, never a truncated one. Outputs
// never follow a symbolic link, and an existing file is replaced only when
// the caller says so (`overwrite`, the CLI's --force); without it the new
// file is linked into place, which fails atomically if the name was taken
// in the meantime.
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

/** An output that must not be written: a symbolic link, not a plain file, or (without overwrite) an existing file. */
export class OutputRefused extends Error {
  override name = "OutputRefused";
}

/** Writing an output failed (a full disk, a folder gone read-only): the message names the file. */
export class OutputWriteError extends Error {
  override name = "OutputWriteError";
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** What is at `path` now, without following a link: null when nothing is. */
function what(path: string): "file" | "link" | "other" | null {
  try {
    const s = lstatSync(path);
    return s.isSymbolicLink() ? "link" : s.isFile() ? "file" : "other";
  } catch (e) {
    if (code(e) === "ENOENT") return null;
    throw e;
  }
}

/**
 * Refuse (OutputRefused) to write `path` when it is a symbolic link or not a
 * plain file, or when it exists and `overwrite` is false. Run it before a
 * long run, so the refusal comes first; writeOutput checks again.
 */
export function checkOutput(path: string, overwrite: boolean): void {
  const w = what(path);
  if (w === "link") throw new OutputRefused(`${path} is a symbolic link: laminar never writes through one (remove it, or choose another folder)`);
  if (w === "other") throw new OutputRefused(`${path} exists and is not a plain file`);
  if (w === "file" && !overwrite) throw new OutputRefused(`${path} exists: not overwritten (pass --force to replace it, or choose another folder)`);
}

/**
 * A temp file's name beside `path`: hidden, with the pid and a random suffix;
 * the file's own name cut to 150 characters, so a long one (a point's key)
 * keeps the temp name inside the 255 bytes a file name may have.
 */
export function tempName(path: string): string {
  return join(dirname(path), `.${basename(path).slice(0, 150)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

function writeTemp(tmp: string, data: string | Uint8Array): void {
  const fd = openSync(tmp, "wx", 0o644); // O_EXCL: never an existing file, never through a link
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let at = 0;
    while (at < buf.length) at += writeSync(fd, buf, at, buf.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flush the folder's entry for the renamed file (best effort: not every file system allows it). */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch {
    // a folder that cannot be opened or synced: the file itself is on disk
  }
}

/**
 * Write `data` to `path` atomically (temp file, fsync, rename). Throws
 * OutputRefused as checkOutput does, OutputWriteError naming the file when
 * the write itself fails; either way `path` is left as it was.
 */
export function writeOutput(path: string, data: string | Uint8Array, overwrite = false): void {
  checkOutput(path, overwrite);
  const tmp = tempName(path);
  try {
    writeTemp(tmp, data);
    if (overwrite) renameSync(tmp, path); // rename replaces a link itself, never its target
    else {
      try {
        linkSync(tmp, path); // fails with EEXIST if the name was taken since checkOutput
      } catch (e) {
        if (code(e) === "EEXIST") throw new OutputRefused(`${path} appeared during the run: not overwritten (pass --force to replace it)`);
        if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(code(e) ?? "")) throw e;
        checkOutput(path, false); // a file system without hard links: check, then rename
        renameSync(tmp, path);
      }
    }
  } catch (e) {
    if (e instanceof OutputRefused) throw e;
    throw new OutputWriteError(`cannot write ${path} (${(e as Error).message})`);
  } finally {
    try { unlinkSync(tmp); } catch { /* renamed away, or never made */ }
  }
  syncDir(dirname(path));
}
