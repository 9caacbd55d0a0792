// Progress for long CLI runs (simulations, sweeps). On a terminal, one line
//   label [########------------]  42.0% 1m05s ETA 1m30s extra
// redrawn in place with \r at most every minIntervalMs. Anywhere else (a
// pipe, a file, a batch job's log) or on a terminal that reports 0 columns,
// a plain line
//   label 42.0% elapsed 1m05s ETA 1m30s extra
// every plainEveryMs (default 30 s, or LAMINAR_PROGRESS_EVERY_S seconds),
// the first one after that interval, so a short run prints nothing. It
// writes nothing at all when not enabled (--no-progress).
import { performance } from "node:perf_hooks";

/** The part of a writable stream Progress uses (process.stderr fits). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Units of work in the whole run (e.g. simulated ms); 0 or less counts as already complete. */
  total: number;
  label: string;
  /** Default: true. */
  enabled?: boolean;
  /** Off a terminal: ms between plain lines. Default LAMINAR_PROGRESS_EVERY_S seconds, else 30 s. */
  plainEveryMs?: number;
  /** Minimum time between redraws, ms. Default 250. */
  minIntervalMs?: number;
  /** Clock in ms. Default performance.now. */
  now?: () => number;
  /** Line width limit; lines are kept shorter than this. Default stream.columns or 80. */
  width?: number;
}

const BAR = 20;

/** The plain lines' interval: LAMINAR_PROGRESS_EVERY_S (seconds, above 0) or 30 s. */
export function plainEveryMsDefault(env: NodeJS.ProcessEnv = process.env): number {
  const s = Number(env.LAMINAR_PROGRESS_EVERY_S);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 30_000;
}

/** Formats a duration as "7s", "1m05s" or "2h03m07s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "--";
  const t = Math.round(ms / 1000);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  const pad = (x: number) => String(x).padStart(2, "0");
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`;
  if (m > 0) return `${m}m${pad(s)}s`;
  return `${s}s`;
}

export class Progress {
  readonly enabled: boolean;
  /** "bar" on a terminal with columns, "plain" lines elsewhere. */
  readonly mode: "bar" | "plain";
  private readonly plainEveryMs: number;
  private lastPlain: number;
  private readonly total: number;
  private readonly label: string;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly width: number | undefined;
  private readonly start: number;
  private lastDraw = -Infinity;
  private lastLen = 0;
  private drawn = false;
  private finished = false;

  constructor(options: ProgressOptions, private readonly stream: ProgressStream = process.stderr) {
    this.total = Number.isFinite(options.total) && options.total > 0 ? options.total : 0;
    this.label = options.label;
    this.enabled = options.enabled ?? true;
    const cols = options.width ?? stream.columns ?? 80;
    this.mode = stream.isTTY === true && cols > 0 ? "bar" : "plain";
    this.plainEveryMs = options.plainEveryMs ?? plainEveryMsDefault();
    this.minIntervalMs = options.minIntervalMs ?? 250;
    this.now = options.now ?? (() => performance.now());
    this.width = options.width;
    this.start = this.now();
    this.lastPlain = this.start;
  }

  /** Reports `done` units complete; redraws if minIntervalMs has passed since the last draw. */
  update(done: number, extra?: string): void {
    if (!this.enabled || this.finished) return;
    const t = this.now();
    if (this.mode === "plain") {
      if (t - this.lastPlain < this.plainEveryMs) return;
      this.plain(t, this.fraction(done), extra);
      return;
    }
    if (this.drawn && t - this.lastDraw < this.minIntervalMs) return;
    this.draw(t, this.fraction(done), extra);
  }

  /** Draws the final 100% line and a newline, if anything was drawn before. */
  finish(extra?: string): void {
    if (!this.enabled || this.finished) return;
    this.finished = true;
    if (!this.drawn) return;
    if (this.mode === "plain") {
      this.plain(this.now(), 1, extra);
      return;
    }
    this.draw(this.now(), 1, extra);
    this.stream.write("\n");
  }

  private fraction(done: number): number {
    if (this.total === 0) return 1;
    if (!(done > 0)) return 0; // also NaN
    return Math.min(1, done / this.total);
  }

  /** One plain line with a newline: no bar, no \r, not cut to a width. */
  private plain(t: number, f: number, extra: string | undefined): void {
    const elapsed = Math.max(0, t - this.start);
    const eta = f >= 1 ? 0 : f > 0 ? (elapsed * (1 - f)) / f : NaN;
    const parts = [this.label, `${(f * 100).toFixed(1)}%`, `elapsed ${formatDuration(elapsed)}`, `ETA ${formatDuration(eta)}`];
    if (extra) parts.push(extra);
    this.stream.write(parts.join(" ").replace(/[\r\n]/g, " ") + "\n");
    this.lastPlain = t;
    this.drawn = true;
  }

  private draw(t: number, f: number, extra: string | undefined): void {
    const elapsed = Math.max(0, t - this.start);
    const eta = f >= 1 ? 0 : f > 0 ? (elapsed * (1 - f)) / f : NaN;
    const fill = Math.round(f * BAR);
    const parts = [
      this.label,
      `[${"#".repeat(fill)}${"-".repeat(BAR - fill)}]`,
      `${(f * 100).toFixed(1).padStart(5)}%`,
      formatDuration(elapsed),
      `ETA ${formatDuration(eta)}`,
    ];
    if (extra) parts.push(extra);
    const cols = this.width ?? this.stream.columns ?? 80;
    const max = Number.isFinite(cols) ? Math.max(0, Math.floor(cols) - 1) : 79;
    let line = parts.join(" ").replace(/[\r\n]/g, " ");
    if (line.length > max) line = line.slice(0, max);
    // Pad with spaces to wipe the rest of a longer previous line.
    const pad = Math.max(0, Math.min(this.lastLen, max) - line.length);
    this.stream.write("\r" + line + " ".repeat(pad));
    this.lastLen = line.length;
    this.lastDraw = t;
    this.drawn = true;
  }
}
