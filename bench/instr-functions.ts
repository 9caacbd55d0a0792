// Instructions by function, for bench:instr --functions: a run under
// Valgrind's callgrind (every instruction's address and count) with V8
// writing a perf jitdump (--perf-prof: the address range and name of every
// piece of code it compiles, JavaScript and WebAssembly alike), joined
// here. A WebAssembly function is named by the core's text build (its n-th
// function); code outside the JIT's keeps callgrind's name for it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Compiled code: [start, end) and its name. */
interface Range {
  start: number;
  end: number;
  name: string;
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
      out.push({ start, end: start + len, name: b.toString("utf8", o + 56, e) });
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

/**
 * Counts by function in a callgrind output written with --dump-instr=yes
 * --compress-strings=no --compress-pos=no, the JIT's code named by the
 * jitdump in the same directory: the sum of the events named (callgrind's:
 * Ir, the instructions; with --cache-sim=yes also D1mr and D1mw, the
 * first-level data misses on reads and writes; DLmr and DLmw, the last
 * level's).
 */
export function functionCosts(dir: string, wasm: string[], events: string[] = ["Ir"], file = "callgrind.out"): Map<string, number> {
  const dump = readdirSync(dir).find((f) => f.startsWith("jit-") && f.endsWith(".dump"));
  if (dump === undefined) throw new Error(`no jitdump in ${dir} (did node run with --perf-prof there?)`);
  const ranges = jitRanges(join(dir, dump));
  const find = (a: number): Range | null => {
    let lo = 0, hi = ranges.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (ranges[m].start <= a) lo = m + 1;
      else hi = m - 1;
    }
    return hi >= 0 && a < ranges[hi].end ? ranges[hi] : null;
  };
  const costs = new Map<string, number>();
  const add = (k: string, c: number) => costs.set(k, (costs.get(k) ?? 0) + c);
  let fn = "", callLine = false;
  /** The cost line's fields to add up (after the address and the line). */
  let cols: number[] = [];
  const text = readFileSync(join(dir, file), "utf8");
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
      const t = l.split(" "), a = parseInt(t[0], 16);
      let c = 0;
      for (const k of cols) c += Number(t[k] ?? 0); // callgrind leaves trailing zeros out
      const r = find(a);
      add(r !== null ? tidy(r.name, wasm) : fn.startsWith("0x") ? "(other JIT code)" : `native ${fn.split("(")[0].replace(/ \[.*$/, "")}`, c);
    }
  }
  if (cols.length === 0) throw new Error(`${join(dir, file)} names no events`);
  return costs;
}
