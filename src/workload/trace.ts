// The trace workload (workload.kind=trace): tasks read from a file as a
// stream (lines.ts), one row at a time (trace-rows.ts), in the file's order,
// which must be arrival order. Time scaling, copies of each row and replays
// every periodS let a short trace load a large cluster. A bad row stops the
// run with its line number (badRows=fail) or is left out and counted (skip).
// Entry nodes are drawn as the bimodal generator draws them (EntryNodes).
import { statSync } from "node:fs";
import type { Config } from "../config/params.js";
import { ConfigError } from "../config/params-error.js";
import { NS_PER_MS } from "../sim/time.js";
import { EntryNodes } from "./arrivals.js";
import { CLASS_F, CLASS_L } from "./bimodal.js";
import { LineReader } from "./lines.js";
import type { ArrivalSource } from "./source.js";
import { HeaderError, RowError, rowParser, type RowParser, type TraceRow } from "./trace-rows.js";

/** A trace that cannot be read, or a bad row under badRows=fail: one line, exit 2. */
export class TraceError extends ConfigError {}

/** Open the trace for reading, or say in one line why not. Only a regular file (a link to one is fine): a FIFO or a device is refused before it is opened, so it cannot hang the run. */
function open(c: Config): LineReader {
  const path = c.workload.trace.file;
  let regular: boolean;
  try {
    regular = statSync(path).isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TraceError(`workload.trace.file ${path}: cannot read (${code === "ENOENT" ? "no such file" : code ?? (e as Error).message})`, "workload.trace.file");
  }
  if (!regular) throw new TraceError(`workload.trace.file ${path}: not a regular file (a folder, device, FIFO or socket)`, "workload.trace.file");
  try {
    return new LineReader(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TraceError(`workload.trace.file ${path}: cannot read (${code ?? (e as Error).message})`, "workload.trace.file");
  }
}

export class TraceArrivals implements ArrivalSource {
  time = 0;
  cls = 0;
  service = 0;
  atoms = 0;
  price = 0;
  memGiB = NaN;
  entry = 0;
  count = 0;
  /** Rows left out (badRows=skip), over every replay. */
  skipped = 0;
  /** Rows read (good ones), over every replay. */
  rows = 0;
  private reader: LineReader | null;
  private parser: RowParser;
  private readonly t: Config["workload"]["trace"];
  private readonly periodMs: number;
  private readonly entries: EntryNodes | null;
  /** The next row (null: none left), its arrival (ns), copies of it still to hand out, the replay it belongs to. */
  private row: TraceRow | null = null;
  private rowNs = Infinity;
  private left = 0;
  private pass = 0;
  private lastMs = -Infinity;

  constructor(private readonly c: Config, private readonly endNs: number, withEntry = false) {
    this.t = c.workload.trace;
    this.periodMs = this.t.periodS * 1000;
    this.entries = withEntry ? new EntryNodes(c) : null;
    this.reader = open(c);
    this.parser = rowParser(c);
    this.advance();
  }

  peek(): number {
    return this.rowNs;
  }

  next(): void {
    const r = this.row!;
    this.time = this.rowNs;
    this.cls = r.contiguous ? CLASS_L : CLASS_F;
    this.atoms = r.atoms;
    const w = this.c.workload;
    this.memGiB = r.memGiB;
    this.price = Number.isNaN(r.price) ? (r.contiguous ? w.priceL : w.priceF) : r.price;
    this.service = Math.max(1, Math.round(r.durationMs * this.t.durationScale * NS_PER_MS));
    if (this.entries) this.entry = this.entries.next();
    this.count++;
    if (--this.left === 0) this.advance();
  }

  /** Read up to the next good row of this replay (or the next replay's first), or to the end. */
  private advance(): void {
    for (;;) {
      const r = this.read();
      if (r !== null) {
        const ns = Math.round((this.pass * this.periodMs + r.arrivalMs) * NS_PER_MS);
        if (ns >= this.endNs) break;
        this.row = r;
        this.rowNs = ns;
        this.left = this.t.copies;
        return;
      }
      // this replay is over: the next one starts a period later, from the top of the file
      if (this.periodMs <= 0 || Math.round((this.pass + 1) * this.periodMs * NS_PER_MS) >= this.endNs) break;
      this.pass++;
      this.lastMs = -Infinity;
      this.reader = open(this.c);
      this.parser = rowParser(this.c);
    }
    this.reader?.close();
    this.reader = null;
    this.row = null;
    this.rowNs = Infinity;
  }

  /** The next good row of this replay, scaled (null: the file, or the replay's period, is over). */
  private read(): TraceRow | null {
    const rd = this.reader;
    if (rd === null) return null;
    for (;;) {
      let line: string | null;
      try {
        line = rd.next();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new TraceError(`workload.trace.file ${rd.path}: cannot read (${code === "EISDIR" ? "a folder" : code ?? (e as Error).message})`, "workload.trace.file");
      }
      if (line === null) return null;
      try {
        const r = this.parser.parse(line);
        if (r === null) continue;
        const ms = r.arrivalMs * this.t.arrivalScale;
        if (ms < this.lastMs) throw new RowError(`arrives at ${ms} ms, before the row above it (${this.lastMs} ms): the file must be in arrival order`);
        if (this.periodMs > 0 && ms >= this.periodMs) {
          rd.close();
          return null;
        }
        this.lastMs = ms;
        this.rows++;
        return { ...r, arrivalMs: ms };
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        if (this.t.badRows === "skip" && !(e instanceof HeaderError)) {
          this.skipped++;
          continue;
        }
        throw new TraceError(`workload.trace.file ${rd.path} line ${rd.lineNo}: ${e.message}${e instanceof HeaderError ? "" : " (workload.trace.badRows=skip leaves bad rows out)"}`, "workload.trace.file");
      }
    }
  }
}

/** Read the whole trace once, as a run would, before the run starts: its errors surface now, with the rows and skipped rows counted. */
export function checkTrace(c: Config): { rows: number; skipped: number; tasks: number } {
  const src = new TraceArrivals(c, Math.round(c.sim.durationS * 1e9));
  while (src.peek() < Infinity) src.next();
  return { rows: src.rows, skipped: src.skipped, tasks: src.count };
}
