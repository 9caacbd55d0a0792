// A text file as a stream of lines, read in 64 KiB chunks: a trace is never
// loaded whole. Synchronous, because the models pull their next arrival
// synchronously inside the event loop. CRLF and a final line without a
// newline are read as lines; a line longer than 1 MiB is refused.
import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK = 1 << 16;
export const MAX_LINE = 1 << 20;

export class LineReader {
  /** 1-based number of the line last returned. */
  lineNo = 0;
  private readonly fd: number;
  private readonly buf = Buffer.alloc(CHUNK);
  // keeps a multi-byte character split across two chunks whole
  private readonly dec = new StringDecoder("utf8");
  private pending = "";
  private lines: string[] = [];
  private at = 0;
  private eof = false;

  /** Throws the open error (ENOENT, EACCES, EISDIR on read) for the caller to word. */
  constructor(readonly path: string) {
    this.fd = openSync(path, "r");
  }

  /** The next line without its end, or null at the end of the file (the file is closed then). */
  next(): string | null {
    while (this.at === this.lines.length) {
      if (this.eof) return null;
      this.fill();
    }
    this.lineNo++;
    return this.lines[this.at++];
  }

  close(): void {
    if (!this.eof) {
      this.eof = true;
      this.lines = [];
      this.at = 0;
      closeSync(this.fd);
    }
  }

  private fill(): void {
    const n = readSync(this.fd, this.buf, 0, CHUNK, null);
    this.lines = [];
    this.at = 0;
    if (n === 0) {
      this.pending += this.dec.end();
      if (this.pending.length > 0) this.lines.push(this.pending.replace(/\r$/, ""));
      this.pending = "";
      this.eof = true;
      closeSync(this.fd);
      return;
    }
    const text = this.pending + this.dec.write(this.buf.subarray(0, n));
    const parts = text.split("\n");
    this.pending = parts.pop()!;
    if (this.pending.length > MAX_LINE) throw new RangeError(`line ${this.lineNo + parts.length + 1} is longer than ${MAX_LINE} characters`);
    for (const p of parts) this.lines.push(p.replace(/\r$/, ""));
  }
}
