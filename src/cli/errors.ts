// Bad input is reported as one line and a non-zero exit, never a stack trace.
// Numbers are read in decimal notation only (decimal.ts: no 0x10, no Infinity).
import { decimal } from "../config/decimal.js";

/** An error in what the user asked for (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parse a list option ("a,b,c") against the allowed values; a value named twice is refused. */
export function parseList<T extends string>(what: string, value: string, allowed: readonly T[]): T[] {
  const items = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${what}: empty list`);
  for (const it of items) {
    if (!(allowed as readonly string[]).includes(it)) {
      throw new UsageError(`unknown ${what} "${it}" (choose from: ${allowed.join(", ")})`);
    }
  }
  const twice = items.find((it, i) => items.indexOf(it) !== i);
  if (twice !== undefined) throw new UsageError(`${what} "${twice}" named more than once`);
  return items as T[];
}

/** Parse a positive finite number option. */
export function parsePositive(what: string, value: string, max = Infinity): number {
  const x = decimal(value);
  if (x > max) throw new UsageError(`${what} must be at most ${max}, got "${value}"`);
  if (!Number.isFinite(x) || x <= 0) throw new UsageError(`${what} must be a positive number, got "${value}"`);
  return x;
}

/** Parse a positive integer option. */
export function parsePositiveInt(what: string, value: string): number {
  const x = decimal(value);
  if (!Number.isInteger(x) || x <= 0) throw new UsageError(`${what} must be a positive integer, got "${value}"`);
  return x;
}

/** Parse an integer option from `min` to `max`, written in plain decimal digits. */
export function parseIntIn(what: string, value: string, min: number, max: number): number {
  const x = decimal(value);
  if (!Number.isSafeInteger(x) || x < min || x > max) throw new UsageError(`${what} must be an integer from ${min} to ${max}, got "${value}"`);
  return x;
}
