// A figure's caption: one line saying what is plotted, then what its markers
// mean, from the rows actually drawn (a note only for a marker that appears).
import { MARK, type ChartRow } from "./rows.js";

/** A floor as the log axes label it: a percentage (the figures' log axes are all shares). */
const pct = (v: number) => `${Number((100 * v).toPrecision(2))}%`;

/** The notes that explain the drawn rows' markers, intervals and facets. */
export function markerNotes(drawn: ChartRow[]): string[] {
  const notes: string[] = [];
  const has = (m: string) => drawn.some((r) => r.mark === m);
  const seeds = Math.max(0, ...drawn.map((r) => r.n));
  if (drawn.some((r) => r.source === "paper")) notes.push("hollow markers: the paper's reported values");
  if (seeds > 1) notes.push(`ours: the mean of ${seeds} seeds with its 95% interval (Student t) as error bars`);
  if (has(MARK.capped) || has(MARK.paperCapped)) notes.push("▲: the p99 equals the scheduler's deadline, where a failed task is counted: at least 1% of tasks failed, so the real p99 is at least the deadline (a cap, not a measured latency)");
  const floors = [...new Set(drawn.filter((r) => r.mark === MARK.floor || r.mark === MARK.paperFloor).map((r) => r.y))];
  if (floors.length === 1) notes.push(`▼ (ours), □ (the paper's): a value of zero, drawn at the log axis' floor (${pct(floors[0])}) so that it is not dropped`);
  if (floors.length > 1) notes.push("▼ (ours), □ (the paper's): a value of zero, drawn at its log axis' floor so that it is not dropped");
  if (drawn.some((r) => r.loCut === true)) notes.push("an interval whose low end reaches zero is drawn down to the floor");
  if (new Set(drawn.map((r) => r.profile)).size > 1) notes.push("one column per run profile");
  return notes;
}

export function caption(what: string, drawn: ChartRow[]): string {
  const notes = markerNotes(drawn);
  return notes.length === 0 ? `${what}.` : `${what}; ${notes.join("; ")}.`;
}
