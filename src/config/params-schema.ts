// The zod schema of a configuration, built from the registry rather than
// written beside it: one strict object per group, one leaf per parameter with
// its type, bounds and default. zod decides what is wrong; the registry
// supplies the words, so every message names the parameter and its range.
import { z } from "zod";
import { ConfigError, unknownParam } from "./params-error.js";
import { CROSS_RULES } from "./params-rules.js";
import { findParam, KNOWN_NAMES, REGISTRY, type Config } from "./params.js";
import { isParam, mustBe, type ParamGroup, type ParamSpec } from "./params-spec.js";

function leafSchema(p: ParamSpec): z.ZodType {
  switch (p.type) {
    case "boolean":
      return z.boolean().default(p.default);
    case "enum":
      return z.enum(p.values as [string, ...string[]]).default(p.default);
    case "text":
      return z.string().max(p.maxLength).default(p.default);
    case "number":
    case "integer": {
      let s = p.type === "integer" ? z.number().int() : z.number(); // z.number() also rejects NaN and ±Infinity
      if (p.min !== undefined) s = s.min(p.min);
      if (p.gt !== undefined) s = s.gt(p.gt);
      if (p.max !== undefined) s = s.max(p.max);
      if (p.lt !== undefined) s = s.lt(p.lt);
      if (p.multipleOf !== undefined) s = s.multipleOf(p.multipleOf);
      return s.default(p.default);
    }
  }
}

function groupShape(g: ParamGroup): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, member] of Object.entries(g)) {
    // prefault({}): an absent group is parsed as {}, so its members get their defaults
    shape[key] = isParam(member) ? leafSchema(member) : z.strictObject(groupShape(member)).prefault({});
  }
  return shape;
}

/** The value at a key path of nested objects, or undefined. */
export function getPath(obj: unknown, path: readonly PropertyKey[]): unknown {
  let v = obj;
  for (const k of path) v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** The schema of a nested configuration object; parse output is a fully populated Config. */
export const configSchema = z.strictObject(groupShape(REGISTRY)).superRefine((c, ctx) => {
  for (const rule of CROSS_RULES) {
    if (!rule.ok(c as Config)) {
      ctx.addIssue({ code: "custom", path: rule.param.split("."), message: `must be ${rule.mustBe(c as Config)}` });
    }
  }
});

/** A value as the user wrote it, short enough for one line. */
export function show(v: unknown): string {
  if (v === undefined) return "nothing";
  const s = typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

const JS_TYPE = { number: "number", integer: "number", boolean: "boolean", enum: "string", text: "string" } as const;
/** Turn zod's first complaint about `input` into a one-line ConfigError. */
export function issueToError(issue: z.core.$ZodIssue, input: unknown): ConfigError {
  const name = issue.path.map(String).join(".");
  const value = getPath(input, issue.path);
  if (issue.code === "unrecognized_keys") {
    return unknownParam(name ? `${name}.${issue.keys[0]}` : issue.keys[0], KNOWN_NAMES);
  }
  if (issue.code === "custom") return new ConfigError(`${name}: ${issue.message} (got ${show(value)})`, name);
  if (name === "") return new ConfigError(`a configuration must be a JSON object of parameters (got ${show(value)})`);
  const spec = findParam(name);
  if (!spec) {
    return new ConfigError(`${name}: is a group of parameters; give an object or dotted keys such as ${name}.${Object.keys(getPath(REGISTRY, issue.path) as object)[0]} (got ${show(value)})`, name);
  }
  const typed = typeof value !== JS_TYPE[spec.type];
  return new ConfigError(`${name}: must be ${mustBe(spec, typed)} (got ${show(value)})`, name);
}
