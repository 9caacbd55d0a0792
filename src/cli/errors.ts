// Bad input is reported as one line and a non-zero exit, never a stack trace.

/** An error in what the user asked for (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parse a list option ("a,b,c") against the allowed values. */
export function parseList<T extends string>(what: string, value: string, allowed: readonly T[]): T[] {
  const items = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${what}: empty list`);
  for (const it of items) {
    if (!(allowed as readonly string[]).includes(it)) {
      throw new UsageError(`unknown ${what} "${it}" (choose from: ${allowed.join(", ")})`);
    }
  }
  return items as T[];
}

/** Parse a positive finite number option. */
export function parsePositive(what: string, value: string): number {
  const x = Number(value);
  if (!Number.isFinite(x) || x <= 0) throw new UsageError(`${what} must be a positive number, got "${value}"`);
  return x;
}

/** Parse a positive integer option. */
export function parsePositiveInt(what: string, value: string): number {
  const x = Number(value);
  if (!Number.isInteger(x) || x <= 0) throw new UsageError(`${what} must be a positive integer, got "${value}"`);
  return x;
}
