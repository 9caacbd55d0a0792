// Instructions by function, for bench:instr --functions: a run under
// Valgrind's callgrind (every instruction's address and count) with V8
// writing a perf jitdump (--perf-prof: the address range and name of every
// piece of code it compiles, JavaScript and WebAssembly alike), joined
// here. A WebAssembly function is named by the core's text build (its n-th
// function); code outside the JIT's keeps callgrind's name for it. For
// --annotate, one function's machine code (the jitdump holds its bytes),
// disassembled by binutils' objdump, each instruction with its count.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Compiled code: [start, end), its name, and its machine code. */
interface Range {
  start: number;
  end: number;
  name: string;
  code: Buffer;
}

/** The code-load records of a perf jitdump (the format of Linux perf's jitdump specification, version 1). */
export function jitRanges(path: string): Range[] {
  const b = readFileSync(path);
  if (b.length < 40 || b.readUInt32LE(0) !== 0x4a695444) throw new Error(`${path} is not a jitdump`);
  const out: Range[] = [];
  for (let o = b.readUInt32LE(8); o + 16 <= b.length; ) {
    const id = b.readUInt32LE(o), size = b.readUInt32LE(o + 4);
    if (size < 16 || o + size > b.length) break;
    if (id === 0) {
      // JIT_CODE_LOAD: header (16), pid, tid, vma, code_addr, code_size, code_index, name\0, code
      const start = Number(b.readBigUInt64LE(o + 32)), len = Number(b.readBigUInt64LE(o + 40));
      let e = o + 56;
      while (e < o + size && b[e] !== 0) e++;
      // the code follows the name's terminating zero
      out.push({ start, end: start + len, name: b.toString("utf8", o + 56, e), code: b.subarray(e + 1, Math.min(e + 1 + len, o + size)) });
    }
    o += size;
  }
  return out.sort((x, y) => x.start - y.start);
}

/** The n-th function's name in a core's text build ("$assembly/engine/run/engineRun"), index = WebAssembly function index. */
export function watNames(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter((l) => /^ *\(func /.test(l)).map((l) => l.trim().split(" ")[1]);
}

/** A readable name: a WebAssembly function by the core's, a JavaScript function by its file under dist/. */
function tidy(name: string, wasm: string[]): string {
  const w = name.match(/wasm-function\[(\d+)\]/);
  if (w !== null) return `wasm ${wasm[Number(w[1])] ?? `function ${w[1]}`}`;
  const js = name.match(/^JS:[*~^+-]?(\S*) (?:file:\/\/)?(\S+?)(?::\d+:\d+)?$/);
  if (js !== null) return `js ${js[1] || "(anonymous)"} ${js[2].replace(/^.*\/dist\//, "")}`;
  return name.replace(/^JS:/, "");
}

/** The jitdump in dir (V8's --perf-prof writes jit-PID.dump into its working directory). */
function jitdumpIn(dir: string): string {
  const dump = readdirSync(dir).find((f) => f.startsWith("jit-") && f.endsWith(".dump"));
  if (dump === undefined) throw new Error(`no jitdump in ${dir} (did node run with --perf-prof there?)`);
  return join(dir, dump);
}

/**
 * Each cost line of a callgrind output written with --dump-instr=yes
 * --compress-strings=no --compress-pos=no, but a call's inclusive cost:
 * the function callgrind names it by, the instruction's address, and the
 * sum of the events named (callgrind's: Ir, the instructions; with
 * --cache-sim=yes also D1mr and D1mw, the first-level data misses on reads
 * and writes; DLmr and DLmw, the last level's).
 */
function eachCost(path: string, events: string[], each: (fn: string, address: number, cost: number) => void): void {
  let fn = "", callLine = false;
  /** The cost line's fields to add up (after the address and the line). */
  let cols: number[] = [];
  const text = readFileSync(path, "utf8");
  for (let i = 0; i < text.length; ) {
    let j = text.indexOf("\n", i);
    if (j < 0) j = text.length;
    const l = text.slice(i, j);
    i = j + 1;
    if (l.startsWith("fn=")) fn = l.slice(3);
    else if (l.startsWith("events:")) {
      const names = l.slice(7).trim().split(/\s+/);
      cols = events.map((e) => {
        const k = names.indexOf(e);
        if (k < 0) throw new Error(`callgrind counted no ${e} (its events: ${names.join(" ")})`);
        return k + 2;
      });
    }
    else if (l.startsWith("calls=")) callLine = true; // the next cost line is the call's inclusive cost, not this function's
    else if (l.startsWith("0x")) {
      if (callLine) { callLine = false; continue; }
      const t = l.split(" ");
      let c = 0;
      for (const k of cols) c += Number(t[k] ?? 0); // callgrind leaves trailing zeros out
      each(fn, parseInt(t[0], 16), c);
    }
  }
  if (cols.length === 0) throw new Error(`${path} names no events`);
}

/**
 * Counts by function in a callgrind output (eachCost's), the JIT's code
 * named by the jitdump in the same directory.
 */
export function functionCosts(dir: string, wasm: string[], events: string[] = ["Ir"], file = "callgrind.out"): Map<string, number> {
  const ranges = jitRanges(jitdumpIn(dir));
  const costs = new Map<string, number>();
  eachCost(join(dir, file), events, (fn, a, c) => {
    const r = rangeAt(ranges, a);
    const k = r !== null ? tidy(r.name, wasm) : fn.startsWith("0x") ? "(other JIT code)" : `native ${fn.split("(")[0].replace(/ \[.*$/, "")}`;
    costs.set(k, (costs.get(k) ?? 0) + c);
  });
  return costs;
}

/** The range holding address a, or null (ranges sorted by start). */
function rangeAt(ranges: Range[], a: number): Range | null {
  let lo = 0, hi = ranges.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (ranges[m].start <= a) lo = m + 1;
    else hi = m - 1;
  }
  return hi >= 0 && a < ranges[hi].end ? ranges[hi] : null;
}

/** One compiled copy of a function, instruction by instruction: its count per task (`per`), address and text. */
export interface Annotated {
  name: string;
  start: number;
  bytes: number;
  /** All its instructions per task. */
  total: number;
  lines: { address: number; per: number; text: string }[];
}

/**
 * The compiled copies of the functions whose readable name (as --functions
 * prints it) contains `want`, that ran in the callgrind output `file` in
 * dir: each instruction of their machine code (x86-64, disassembled by
 * objdump from the jitdump's bytes) with its instructions per task (its
 * count over `tasks`), the busiest copy first.
 */
export function annotate(dir: string, wasm: string[], want: string, tasks: number, file = "callgrind.out"): Annotated[] {
  const ranges = jitRanges(jitdumpIn(dir)).filter((r) => tidy(r.name, wasm).includes(want));
  const counts = new Map<number, number>(), totals = new Map<Range, number>();
  eachCost(join(dir, file), ["Ir"], (_fn, a, c) => {
    const r = rangeAt(ranges, a);
    if (r === null) return;
    counts.set(a, (counts.get(a) ?? 0) + c);
    totals.set(r, (totals.get(r) ?? 0) + c);
  });
  const out: Annotated[] = [];
  for (const r of ranges) {
    const total = totals.get(r) ?? 0;
    if (total === 0) continue;
    const lines = disassemble(r.code, r.start).map((l) => ({ ...l, per: (counts.get(l.address) ?? 0) / tasks }));
    out.push({ name: tidy(r.name, wasm), start: r.start, bytes: r.end - r.start, total: total / tasks, lines });
  }
  return out.sort((x, y) => y.total - x.total);
}

/** x86-64 machine code at address `at`, an instruction a line (binutils' objdump, AT&T syntax). */
export function disassemble(code: Buffer, at: number): { address: number; text: string }[] {
  const dir = mkdtempSync(join(tmpdir(), "laminar-dis-"));
  try {
    const bin = join(dir, "code.bin");
    writeFileSync(bin, code);
    const r = spawnSync("objdump", ["-D", "-b", "binary", "-m", "i386:x86-64", "--no-show-raw-insn", `--adjust-vma=0x${at.toString(16)}`, bin], { encoding: "utf8", maxBuffer: 1 << 28 });
    if (r.error !== undefined || r.status !== 0) throw new Error(`--annotate needs binutils' objdump (Debian: apt-get install binutils)${r.stderr ? `: ${r.stderr.trim().split("\n")[0]}` : ""}`);
    const out: { address: number; text: string }[] = [];
    for (const line of r.stdout.split("\n")) {
      const m = line.match(/^\s*([0-9a-f]+):\s+(.*\S)\s*$/);
      if (m !== null) out.push({ address: parseInt(m[1], 16), text: m[2].replace(/\s+/g, " ") });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
