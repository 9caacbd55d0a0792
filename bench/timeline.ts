// bench:sim --timeline=FILE: one threaded run's half windows drawn as an SVG
// timeline, a row per thread and part (the gateway's halves, the Zones'),
// over TIMELINE_PERIODS batch periods from the middle of the run, each half
// coloured by its place in the gateway's batch period. Where a thread's row
// is empty it waits; what it waits for is the other row's half two places
// back (docs/parallel.md, "Where the threads wait"). What the --phases table
// sums over the whole run, this shows half by half: which half ran while
// which, and the single long ones a sum hides.
import type { HalfPhases } from "../src/run/options.js";

/** One half as drawn: thread, kind (0 the gateway's, 1 the Zones'), half index, start and end (ms, any common origin). */
export interface Span {
  thread: number;
  kind: number;
  half: number;
  start: number;
  end: number;
}

/** The spans the threads kept (HalfPhases.spans), in one list; threads without any are left out. */
export function spansOf(phases: (HalfPhases | null)[]): Span[] {
  const out: Span[] = [];
  phases.forEach((p, thread) => {
    const s = p?.spans ?? [];
    for (let i = 0; i + 3 < s.length; i += 4) out.push({ thread, kind: s[i], half: s[i + 1], start: s[i + 2], end: s[i + 3] });
  });
  return out;
}

/** Eight colours for a batch period's places (a period of more halves reuses them). */
const COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f"];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The timeline as a standalone SVG document: x is wall time from the first
 * half drawn (ms), a row per (thread, kind) in thread order, the gateway's
 * row first; each half a bar labelled with its place in the period (half
 * index mod period) where there is room. null when there is nothing to draw.
 */
export function timelineSvg(spans: Span[], period: number, title: string): string | null {
  if (spans.length === 0 || !(period >= 1)) return null;
  const t0 = Math.min(...spans.map((s) => s.start)), t1 = Math.max(...spans.map((s) => s.end));
  const rows = [...new Set(spans.map((s) => s.thread * 2 + s.kind))].sort((a, b) => a - b);
  const left = 190, right = 20, top = 48, rowH = 34, width = 1000;
  const plotW = width - left - right, height = top + rows.length * rowH + 70;
  const span = Math.max(t1 - t0, 1e-9);
  const x = (t: number) => left + ((t - t0) / span) * plotW;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  out.push(`<text x="${left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`);
  out.push(`<text x="${left}" y="38" fill="#555">each bar a half window, coloured and numbered by its place in the gateway's batch period; blank: the thread waits</text>`);
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    const thread = row >> 1, kind = row & 1;
    out.push(`<text x="${left - 8}" y="${y + rowH / 2 + 4}" text-anchor="end">thread ${thread}, ${kind === 0 ? "the gateway's" : "the Zones'"}</text>`);
    out.push(`<line x1="${left}" x2="${left + plotW}" y1="${y + rowH - 2}" y2="${y + rowH - 2}" stroke="#ddd"/>`);
    for (const s of spans) {
      if (s.thread * 2 + s.kind !== row) continue;
      const place = s.half % period, a = x(s.start), w = Math.max(x(s.end) - a, 0.5);
      out.push(`<rect x="${a.toFixed(2)}" y="${y + 4}" width="${w.toFixed(2)}" height="${rowH - 10}" fill="${COLOURS[place % COLOURS.length]}"><title>half ${s.half} (place ${place}): ${(s.end - s.start).toFixed(3)} ms</title></rect>`);
      if (w >= 12) out.push(`<text x="${(a + w / 2).toFixed(2)}" y="${y + rowH / 2 + 3}" text-anchor="middle" fill="white" font-size="10">${place}</text>`);
    }
  });
  // the time axis: about ten ticks at a round step
  const axisY = top + rows.length * rowH + 4;
  out.push(`<line x1="${left}" x2="${left + plotW}" y1="${axisY}" y2="${axisY}" stroke="#333"/>`);
  const raw = span / 10, mag = 10 ** Math.floor(Math.log10(raw)), step = [1, 2, 5, 10].map((m) => m * mag).find((v) => v >= raw)!;
  for (let t = 0; t <= span + 1e-9; t += step) {
    const tx = x(t0 + t);
    out.push(`<line x1="${tx.toFixed(2)}" x2="${tx.toFixed(2)}" y1="${axisY}" y2="${axisY + 5}" stroke="#333"/>`);
    out.push(`<text x="${tx.toFixed(2)}" y="${axisY + 18}" text-anchor="middle">${Number(t.toPrecision(6))}</text>`);
  }
  out.push(`<text x="${left + plotW / 2}" y="${axisY + 36}" text-anchor="middle">wall time (ms)</text>`);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
