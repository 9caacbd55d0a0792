// The shape of one entry in the parameter registry (src/config/params.ts), the
// builders that make the registry read like a table, and the words used to
// describe an entry's allowed values. Everything that talks about a parameter
// (the zod schema, error messages, `laminar params`, docs/parameters.md) is
// derived from these records, so there is exactly one place to change a
// default, a range or a unit.

/** Marks a registry leaf. A symbol, so a group may have a member called "type" or "kind". */
export const PARAM: unique symbol = Symbol("laminar.param");

/**
 * Where a default comes from. Always one of four forms, rendered as text:
 * `paper §<section>`, `artifact` (the authors' public Laminar-Sim),
 * `cited <work>: <what it says>` for a value another publication fixes (a
 * baseline modelled on a published system), or `ours (<short reason>)` for
 * what none of them fixes.
 */
export type Source = string & { readonly __source: true };

export const paper = (section: string): Source => `paper §${section}` as Source;
export const artifact = (): Source => "artifact" as Source;
export const ours = (reason: string): Source => `ours (${reason})` as Source;
export const cited = (work: string, what: string): Source => `cited ${work}: ${what}` as Source;
export const SOURCE_PATTERN = /^(paper §\S.*|artifact|cited \S[^:]*: \S.*|ours \([^()]+\))$/;

/**
 * Bounds of a numeric parameter. `min`/`max` are inclusive, `gt`/`lt` exclusive;
 * give at most one of each pair. `multipleOf` applies to integers (atoms).
 */
export interface Bounds {
  readonly min?: number;
  readonly gt?: number;
  readonly max?: number;
  readonly lt?: number;
  readonly multipleOf?: number;
}

interface Common {
  readonly [PARAM]: true;
  /** ms, ns, µs, s, atoms, nodes, fraction, count, GiB, units (patience), ... */
  readonly unit: string;
  readonly source: Source;
  /** One line: what it is, and where paper and artifact disagree, the other value. */
  readonly description: string;
}

export interface NumberParam extends Common, Bounds {
  readonly type: "number";
  readonly default: number;
}
export interface IntegerParam extends Common, Bounds {
  readonly type: "integer";
  readonly default: number;
}
export interface BooleanParam extends Common {
  readonly type: "boolean";
  readonly default: boolean;
}
export interface EnumParam<V extends string = string> extends Common {
  readonly type: "enum";
  readonly values: readonly V[];
  readonly default: V;
}
/** Free text, such as a file path; empty when unset. */
export interface TextParam extends Common {
  readonly type: "text";
  readonly default: string;
  readonly maxLength: number;
}
export type ParamSpec = NumberParam | IntegerParam | BooleanParam | EnumParam | TextParam;
export type ParamType = ParamSpec["type"];

/** A group of parameters: named members that are parameters or further groups. */
export interface ParamGroup {
  readonly [member: string]: ParamSpec | ParamGroup;
}

export function isParam(x: ParamSpec | ParamGroup): x is ParamSpec {
  return PARAM in x;
}

type Fields<P> = Omit<P, typeof PARAM | "type">;

export const num = (p: Fields<NumberParam>): NumberParam => ({ [PARAM]: true, type: "number", ...p });
export const int = (p: Fields<IntegerParam>): IntegerParam => ({ [PARAM]: true, type: "integer", ...p });
export const bool = (p: Fields<BooleanParam>): BooleanParam => ({ [PARAM]: true, type: "boolean", ...p });
export const text = (p: Fields<TextParam>): TextParam => ({ [PARAM]: true, type: "text", ...p });
export const enm = <const V extends string>(p: Fields<EnumParam<V>>): EnumParam<V> => ({ [PARAM]: true, type: "enum", ...p });

/** The value type a parameter holds in a Config. */
export type ValueOf<P> = P extends EnumParam<infer V> ? V : P extends BooleanParam ? boolean : P extends TextParam ? string : number;

/** The typed, nested configuration object a registry group describes. */
export type ConfigOf<G> = {
  readonly [K in keyof G]: G[K] extends ParamSpec ? ValueOf<G[K]> : ConfigOf<G[K]>;
};

export type ParamValue = number | boolean | string;

/** "> 0 and <= 2", ">= 64 and <= 1024" or "" when unbounded. */
export function boundsText(b: Bounds): string {
  const parts: string[] = [];
  if (b.gt !== undefined) parts.push(`> ${b.gt}`);
  if (b.min !== undefined) parts.push(`>= ${b.min}`);
  if (b.lt !== undefined) parts.push(`< ${b.lt}`);
  if (b.max !== undefined) parts.push(`<= ${b.max}`);
  return parts.join(" and ");
}

/**
 * What the parameter must be, as the tail of "must be ...". With `typed`, it
 * names the type too ("a number > 0 and <= 2"); range errors leave it out
 * ("> 0 and <= 2"), integers always say so.
 */
export function mustBe(p: ParamSpec, typed: boolean): string {
  switch (p.type) {
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${p.values.join(", ")}`;
    case "text":
      return `text of at most ${p.maxLength} characters`;
    case "integer": {
      const what = p.multipleOf !== undefined ? `an integer multiple of ${p.multipleOf}` : "an integer";
      const b = boundsText(p);
      return !b ? what : p.multipleOf !== undefined ? `${what}, ${b}` : `${what} ${b}`;
    }
    case "number": {
      const b = boundsText(p);
      if (!b) return "a finite number";
      return typed ? `a number ${b}` : b;
    }
  }
}

/** Interval notation for tables: "(0, 2]", "[64, 1024], multiple of 64", "true/false". */
export function rangeText(p: ParamSpec): string {
  if (p.type === "boolean") return "true/false";
  if (p.type === "enum") return p.values.join(" / ");
  if (p.type === "text") return `text, at most ${p.maxLength} characters`;
  const lo = p.gt !== undefined ? `(${p.gt}` : p.min !== undefined ? `[${p.min}` : "(-inf";
  const hi = p.lt !== undefined ? `${p.lt})` : p.max !== undefined ? `${p.max}]` : "inf)";
  const tail = p.multipleOf !== undefined ? `, multiple of ${p.multipleOf}` : p.type === "integer" ? ", integer" : "";
  return `${lo}, ${hi}${tail}`;
}
