// Writing sim's --out files after a run without ever losing the run: when a
// write fails (a full disk, a folder gone read-only, a file that appeared
// meanwhile), the result still reaches the user, on stdout with --json, else
// in a fallback file in the OS temp folder, and the error names both.
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeOutput } from "../experiments/safe-write.js";

/** What went wrong writing the outputs, and where the result went instead. */
export class ResultNotSaved extends Error {
  override name = "ResultNotSaved";
}

/**
 * Write `files` ([name, text]) into `dir` (replacing existing ones only with
 * `force`). On a failure, returns the one-line error to report after the
 * result is printed: the result (`resultJson`) is then on stdout (`json`) or
 * saved to a named fallback file; returns null when every file was written.
 */
export function saveOutputs(dir: string, files: Array<[string, string]>, force: boolean, json: boolean, resultJson: string): ResultNotSaved | null {
  try {
    for (const [name, text] of files) writeOutput(join(dir, name), text, force);
    return null;
  } catch (e) {
    const why = (e as Error).message;
    if (json) return new ResultNotSaved(`--out ${dir}: ${why}; the result is on stdout`);
    const fallback = join(tmpdir(), `laminar-result-${process.pid}-${randomBytes(4).toString("hex")}.json`);
    try {
      writeOutput(fallback, resultJson);
      return new ResultNotSaved(`--out ${dir}: ${why}; the result was saved to ${fallback}`);
    } catch (e2) {
      process.stdout.write(resultJson);
      return new ResultNotSaved(`--out ${dir}: ${why}; the fallback file failed too (${(e2 as Error).message}), so the result JSON is on stdout`);
    }
  }
}
