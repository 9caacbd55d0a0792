// Packages an installed laminar may lack: the plotting stack (vega,
// vega-lite) and the job queue's client (bullmq, ioredis) are optional peers,
// left out of a plain install because only figures and queued sweeps need
// them, and benchmark.js is a development dependency, present in a clone.
// The commands that need them load them on demand, and a missing one becomes
// a message that says how to get it instead of a stack trace.
import type { figures } from "../report/figures.js";
import { missingPackage, noFiguresLine } from "../report/optional-render.js";
import { UsageError } from "./errors.js";

/** The report's figure builder; null (after saying why on stderr) when the plotting stack is not installed. */
export async function figureBuilder(): Promise<typeof figures | null> {
  try {
    return (await import("../report/figures.js")).figures;
  } catch (e) {
    const lacking = missingPackage(e, ["vega", "vega-lite"]);
    if (lacking === undefined) throw e;
    console.error(noFiguresLine(lacking, "the tables, results.json, results.csv and report.html are"));
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

/** A module of the sweep's job queue (it needs bullmq and ioredis); a usage error that says how to get them when they are not installed. */
export async function queueModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const lacking = missingPackage(e, ["bullmq", "ioredis"]);
    if (lacking === undefined) throw e;
    throw new UsageError(`--queue needs the packages bullmq and ioredis (${lacking} is not installed; they are optional for an installed laminar: npm install bullmq ioredis)`);
  }
}
