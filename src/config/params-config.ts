// Building a Config: from an object (a parsed config file), from `--set
// key=value` strings, from a file. Every path ends in the registry-built zod
// schema, and every failure is a one-line ConfigError.
//
// Accepted object forms, freely mixed (a name given twice is an error):
//   nested   {"workload": {"rho": 0.9}, "cluster": {"preoccupancy": {"enabled": true}}}
//   dotted   {"workload.rho": 0.9, "cluster.preoccupancy.enabled": true}
//   partly   {"cluster": {"preoccupancy.enabled": true}}
// Values keep their JSON types ("0.9" is not a number); --set coerces text by
// the parameter's type instead.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { decimal } from "./decimal.js";
import { checkJsonLimits, MAX_CONFIG_DEPTH } from "./json-limits.js";
import { ConfigError, unknownParam } from "./params-error.js";
import { configSchema, getPath, issueToError, show } from "./params-schema.js";
import { findParam, GROUP_NAMES, KNOWN_NAMES, PARAMS, type Config } from "./params.js";
import { mustBe, type ParamSpec, type ParamValue } from "./params-spec.js";
import { profileSets, type ProfileName } from "./profiles.js";

type Tree = Record<string, unknown>;

const isObject = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

/** Put `value` at `key` of `node`, merging objects; a leaf given twice is an error. */
function place(node: Tree, key: string, value: unknown, name: string): void {
  const here = node[key];
  if (here === undefined) node[key] = value;
  else if (isObject(here) && isObject(value)) for (const [k, v] of Object.entries(value)) place(here, k, v, `${name}.${k}`);
  else throw new ConfigError(`${name}: given more than once (as a nested and a dotted key)`, name);
}

/**
 * Rewrite dotted keys into nesting, recursively: a syntax step only, with no
 * knowledge of the registry (unknown names are the schema's to reject).
 * Null-prototype nodes, so a "__proto__" key is just an unknown name.
 */
function expandDotted(input: Tree, prefix: string): Tree {
  const out: Tree = Object.create(null);
  for (const [key, raw] of Object.entries(input)) {
    const name = prefix + key;
    const parts = key.split(".");
    if (parts.some((p) => p === "")) throw new ConfigError(`"${name}" is not a parameter name (empty segment)`, name);
    let node = out;
    for (const [i, part] of parts.slice(0, -1).entries()) {
      const at = prefix + parts.slice(0, i + 1).join(".");
      if (node[part] === undefined) node[part] = Object.create(null);
      else if (!isObject(node[part])) throw new ConfigError(`${at}: given more than once (as a nested and a dotted key)`, at);
      node = node[part] as Tree;
    }
    place(node, parts[parts.length - 1], isObject(raw) ? expandDotted(raw, `${name}.`) : raw, name);
  }
  return out;
}

function deepFreeze<T>(o: T): T {
  if (isObject(o)) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * Validate a configuration object (nested, dotted or mixed) and fill in every
 * default. Returns a deeply frozen Config; throws ConfigError.
 */
export function parseConfig(input: unknown): Config {
  const tree = isObject(input) ? expandDotted(input, "") : input;
  const r = configSchema.safeParse(tree);
  if (!r.success) throw issueToError(r.error.issues[0], tree);
  return deepFreeze(r.data as unknown as Config);
}

/** Every parameter at its default. */
export function defaultConfig(): Config {
  return parseConfig({});
}

/** The Config as dotted name -> value, in registry order (for reports and --set). */
export function flattenConfig(config: Config): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const { name } of PARAMS) {
    out[name] = getPath(config, name.split(".")) as ParamValue;
  }
  return out;
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** Read `--set` text as the parameter's type: numbers in decimal notation (5_000, 1e3; not 0x10), booleans (true/false, on/off, yes/no, 1/0), enum names. */
export function coerce(name: string, spec: ParamSpec, text: string): ParamValue {
  const bad = () => new ConfigError(`${name}: must be ${mustBe(spec, true)} (got ${show(text)})`, name);
  switch (spec.type) {
    case "number":
    case "integer": {
      const x = decimal(text);
      if (Number.isNaN(x)) throw bad();
      return x;
    }
    case "boolean": {
      const t = text.toLowerCase();
      if (TRUE.has(t)) return true;
      if (FALSE.has(t)) return false;
      throw bad();
    }
    case "enum":
    case "text":
      return text;
  }
}

/**
 * Apply `key=value` overrides in order (a later one wins) and re-validate the
 * whole configuration, so cross-parameter rules see the final values.
 */
export function applySets(config: Config, sets: readonly string[]): Config {
  if (sets.length === 0) return config;
  const flat: Tree = flattenConfig(config);
  for (const s of sets) {
    const eq = s.indexOf("=");
    if (eq <= 0) throw new ConfigError(`--set "${s}": expected key=value, e.g. workload.rho=0.9`);
    const name = s.slice(0, eq).trim();
    const spec = findParam(name);
    if (!spec) {
      if (GROUP_NAMES.includes(name)) {
        const first = PARAMS.find((p) => p.group === name)?.name;
        throw new ConfigError(`${name}: is a group of parameters; set one of them, e.g. ${first}=...`, name);
      }
      throw unknownParam(name, KNOWN_NAMES);
    }
    flat[name] = coerce(name, spec, s.slice(eq + 1).trim());
  }
  return parseConfig(flat);
}

/** Every leaf of a (nested, dotted or mixed) config object under its dotted name. */
export function dottedLeaves(input: Tree, prefix: string, out: Tree = {}): Tree {
  for (const [key, v] of Object.entries(input)) {
    if (isObject(v)) dottedLeaves(v, `${prefix}${key}.`, out);
    else out[prefix + key] = v;
  }
  return out;
}

/** The largest config file read, bytes (the full registry as JSON is a few KiB). */
export const MAX_CONFIG_BYTES = 1 << 20;

/**
 * A config file's text: only a regular file (opened without blocking, so a
 * FIFO or a device is refused rather than waited on or read for ever), and
 * at most MAX_CONFIG_BYTES.
 */
function readConfigText(path: string, where: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new ConfigError(`${where}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ConfigError(`${where}: not a regular file (a folder, device, FIFO or socket)`);
    if (st.size > MAX_CONFIG_BYTES) throw new ConfigError(`${where}: ${st.size} bytes, more than the ${MAX_CONFIG_BYTES} a config file may have`);
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let n = 0, got: number;
    while (n < buf.length && (got = readSync(fd, buf, n, buf.length - n, null)) > 0) n += got;
    if (n > MAX_CONFIG_BYTES) throw new ConfigError(`${where}: more than the ${MAX_CONFIG_BYTES} bytes a config file may have`);
    return buf.subarray(0, n).toString("utf8");
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`${where}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read and validate a JSON config file; every error names the file. With
 * `over`, the file's values are laid over that config (a profile's) rather
 * than over the defaults.
 */
export function loadConfigFile(path: string, over?: Config): Config {
  const where = `config file ${path}`;
  const text = readConfigText(path, where);
  try {
    checkJsonLimits(text, MAX_CONFIG_DEPTH);
  } catch (e) {
    throw new ConfigError(`${where}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new ConfigError(`${where}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    const own = parseConfig(json);
    return over === undefined || !isObject(json) ? own : parseConfig({ ...flattenConfig(over), ...dottedLeaves(json, "") });
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${where}: ${e.message}`, e.param);
    throw e;
  }
}

/** Defaults, then the profile's values if any, then the config file if any, then the --set overrides in order. */
export function resolveConfig(file: string | undefined, sets: readonly string[] = [], profile?: ProfileName): Config {
  const base = profile === undefined ? undefined : applySets(defaultConfig(), profileSets(profile));
  const config = file === undefined ? (base ?? defaultConfig()) : loadConfigFile(file, base);
  return applySets(config, sets);
}
