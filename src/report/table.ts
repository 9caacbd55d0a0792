// Plain-text tables for terminal output: right-aligned numbers, left-aligned text.

export function formatTable(header: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const width = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const numeric = header.map((_, i) => cells.length > 0 && cells.every((r) => /^[-+]?[\d.,]+x?$|^-$/.test(r[i] ?? "")));
  const line = (r: string[]) =>
    r.map((c, i) => (numeric[i] ? c.padStart(width[i]) : c.padEnd(width[i]))).join("  ").trimEnd();
  return [line(header), width.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}
