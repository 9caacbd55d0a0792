// A sweep file: the same sweep as the command line's --grid, --set,
// --scheduler, --profile and --seeds, as JSON, so a sweep can be kept beside
// its results and run again. Read with the config file's limits (a regular
// file of at most 1 MiB, nesting and duplicate keys checked); the command
// line is laid over it (an axis of the same name replaces the file's).
//
//   {
//     "grid": { "workload.rho": [0.4, 0.6, 0.8], "da.candidates": [8, 16, 32] },
//     "set": { "cluster.nodes": 5000, "sim.durationS": 5 },
//     "schedulers": ["laminar", "ray"],
//     "profile": "artifact",
//     "seeds": 3
//   }
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { MAX_CONFIG_BYTES } from "../config/params-config.js";
import { checkJsonLimits } from "../config/json-limits.js";
import { SweepError, type Axis } from "./grid.js";

export interface SweepFile {
  axes: Axis[];
  sets: string[];
  schedulers?: string[];
  profile?: string;
  profiles?: string[];
  seeds?: number;
}

const KEYS = ["grid", "set", "schedulers", "profile", "profiles", "seeds"];

/** A JSON scalar as the text a --set would give (a string as is, a number or boolean printed). */
function scalar(where: string, v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "boolean") return String(v);
  throw new SweepError(`${where}: expected a number, a string or true/false, got ${JSON.stringify(v)}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function strings(where: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new SweepError(`${where}: expected a non-empty array`);
  return v.map((x, i) => scalar(`${where}[${i}]`, x));
}

/** The file's text: a regular file (a FIFO or device refused, not waited on) of at most MAX_CONFIG_BYTES. */
function readText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new SweepError(`cannot read (${(e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new SweepError("not a regular file");
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let n = 0, got: number;
    while (n < buf.length && (got = readSync(fd, buf, n, buf.length - n, null)) > 0) n += got;
    if (n > MAX_CONFIG_BYTES) throw new SweepError(`more than the ${MAX_CONFIG_BYTES} bytes a sweep file may have`);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** Parse a sweep file's JSON value (exported for tests). */
export function parseSweepFile(v: unknown): SweepFile {
  if (!isObject(v)) throw new SweepError("expected a JSON object with grid, set, schedulers, profile(s) and seeds");
  const unknown = Object.keys(v).find((k) => !KEYS.includes(k));
  if (unknown !== undefined) throw new SweepError(`unknown key "${unknown}" (known: ${KEYS.join(", ")})`);
  const out: SweepFile = { axes: [], sets: [] };
  if (v.grid !== undefined) {
    if (!isObject(v.grid)) throw new SweepError("grid: expected an object of parameter: [values]");
    out.axes = Object.entries(v.grid).map(([name, values]) => ({ name, values: strings(`grid.${name}`, values) }));
  }
  if (v.set !== undefined) {
    if (!isObject(v.set)) throw new SweepError("set: expected an object of parameter: value");
    out.sets = Object.entries(v.set).map(([name, value]) => `${name}=${scalar(`set.${name}`, value)}`);
  }
  if (v.schedulers !== undefined) out.schedulers = strings("schedulers", v.schedulers);
  if (v.profiles !== undefined && v.profile !== undefined) throw new SweepError("profile and profiles: give one (profiles sweeps several)");
  if (v.profiles !== undefined) out.profiles = strings("profiles", v.profiles);
  if (v.profile !== undefined) out.profile = scalar("profile", v.profile);
  if (v.seeds !== undefined) {
    if (typeof v.seeds !== "number" || !Number.isInteger(v.seeds)) throw new SweepError(`seeds: expected an integer, got ${JSON.stringify(v.seeds)}`);
    out.seeds = v.seeds;
  }
  return out;
}

/** Read a sweep file; every error is one line naming the file. */
export function readSweepFile(path: string): SweepFile {
  try {
    const text = readText(path);
    checkJsonLimits(text);
    let json: unknown;
    try {
      json = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (e) {
      throw new SweepError(`not valid JSON (${(e as Error).message})`);
    }
    return parseSweepFile(json);
  } catch (e) {
    throw new SweepError(`sweep file ${path}: ${(e as Error).message}`);
  }
}
