// Packages an installed laminar may lack: the plotting stack (vega,
// vega-lite) is an optional peer, left out of a plain install because only
// figures need it, and benchmark.js is a development dependency, present in a
// clone. The commands that need them load them on demand, and a missing one
// becomes a message that says how to get it instead of a stack trace.
import type { figures } from "../report/figures.js";

/** The optional package a failed dynamic import lacks, when it is one of `names`. */
export function missingPackage(e: unknown, names: readonly string[]): string | undefined {
  if (!(e instanceof Error) || (e as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return undefined;
  return names.find((n) => e.message.includes(`Cannot find package '${n}'`));
}

/** The report's figure builder; null (after saying why on stderr) when the plotting stack is not installed. */
export async function figureBuilder(): Promise<typeof figures | null> {
  try {
    return (await import("../report/figures.js")).figures;
  } catch (e) {
    const lacking = missingPackage(e, ["vega", "vega-lite"]);
    if (lacking === undefined) throw e;
    console.error(`laminar: no SVG figures: drawing them needs the packages vega and vega-lite (${lacking} is not installed; they are optional for an installed laminar: npm install vega vega-lite); the tables, results.json, results.csv and report.html are written`);
    return null;
  }
}

/** bench/run.js, which needs benchmark.js; a clear error when it is not installed. */
export async function benchRunner(): Promise<typeof import("../../bench/run.js")> {
  try {
    return await import("../../bench/run.js");
  } catch (e) {
    if (missingPackage(e, ["benchmark"]) === undefined) throw e;
    throw new Error("bench needs benchmark.js, a development dependency: run it in a clone of the repository after npm ci", { cause: e });
  }
}
