// Bad configuration is the user's input, not a bug: it is reported as a
// ConfigError whose message is one line that names the parameter, the bad
// value and what is allowed. The CLI prints it and exits 2 (src/cli/main.ts).
// Kept free of imports so any layer can catch it cheaply.

export class ConfigError extends Error {
  override name = "ConfigError";
  /**
   * @param message one line, no trailing period
   * @param param the dotted parameter (or group) name it concerns, when there is one
   */
  constructor(message: string, readonly param?: string) {
    super(message.replace(/\s*\n\s*/g, " "));
  }
}

/** Edit distance (insert, delete, substitute, swap of neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The closest known name, if it is close enough to be a plausible typo: within
 * a third of the name's length, or the same last segment in another group
 * ("rho" for "workload.rho", "cluster.rho" for "workload.rho").
 */
export function suggest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  if (best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3))) return best;
  const leaf = lower.split(".").pop();
  const sameLeaf = known.filter((k) => k.toLowerCase().split(".").pop() === leaf);
  return sameLeaf.length === 1 ? sameLeaf[0] : undefined;
}

/** `unknown parameter "x" (did you mean y?)` */
export function unknownParam(name: string, known: readonly string[]): ConfigError {
  const s = suggest(name, known);
  return new ConfigError(`unknown parameter "${name}"${s ? ` (did you mean ${s}?)` : " (run `laminar params` for the list)"}`, name);
}
