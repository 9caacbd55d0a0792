// One trace row from one line of text, per format (workload.trace.format):
//
//   csv    a header line naming the columns arrivalMs, durationMs, atoms,
//          contiguous and, optionally, price and memGiB (any order, other columns
//          ignored); then one task per line. Plain comma-separated fields,
//          no quoting.
//   jsonl  one JSON object per line: {"arrivalMs": 0.5, "durationMs": 5,
//          "atoms": 4, "contiguous": false}, "price" and "memGiB" optional.
//          price is the task's token density (units/atom, > 0): Laminar's
//          priority and patience start from price * atoms; an empty or
//          absent price is its class's (workload.priceF, priceL). memGiB
//          (>= 0) is the memory the task declares to the memory model
//          (memory.enabled); empty or absent: atoms * memory.declaredPerAtomGiB.
//   openb  the Alibaba openb pod list (a header naming at least cpu_milli,
//          num_gpu, gpu_milli, creation_time, deletion_time,
//          scheduled_time; times in seconds). The mapping, every choice ours:
//            arrival   creation_time, less the first row's, in ms
//            duration  deletion_time - scheduled_time, in ms (a pod never
//                      scheduled or never deleted has none: a bad row)
//            atoms     ceil(cpu_milli / cpuMilliPerAtom)
//                      + ceil(num_gpu * gpu_milli / 1000 * gpuAtoms)
//            shape     contiguous when it asks for any GPU (GPUs sit on one
//                      node's bus, like the L-tasks' strictly contiguous
//                      run); dispersed when it asks only for CPU
//            price     qos through workload.trace.qosPrices (e.g. LS=36 makes
//                      a latency-sensitive pod's token density 36); a qos
//                      not listed there keeps its class's
//            memory    memory_mib / 1024 GiB, declared to the memory model
//          name, gpu_spec and pod_phase are not used: the models have no GPU
//          type or pod lifecycle.
//
// Every row: arrival >= 0, duration > 0, atoms an integer from 1 to
// cluster.atomsPerNode. A row that breaks a rule is a RowError; the source
// (trace.ts) adds the line number and applies workload.trace.badRows. Blank
// lines are skipped.
import type { Config } from "../config/params.js";
import { ConfigError } from "../config/params-error.js";

export interface TraceRow {
  arrivalMs: number;
  durationMs: number;
  atoms: number;
  contiguous: boolean;
  /** Token density (units/atom); NaN: the class's. */
  price: number;
  /** Declared memory (GiB); NaN: atoms * memory.declaredPerAtomGiB. */
  memGiB: number;
}

/** What is wrong with one row (the caller adds where). */
export class RowError extends Error {}
/** A header that lacks a column: no row of the file can be read, whatever badRows says. */
export class HeaderError extends RowError {}

export interface RowParser {
  /** The row on this line, or null when the line holds none (blank, or the header). */
  parse(line: string): TraceRow | null;
}

const CSV_COLUMNS = ["arrivalMs", "durationMs", "atoms", "contiguous"] as const;
const OPENB_COLUMNS = ["cpu_milli", "num_gpu", "gpu_milli", "creation_time", "deletion_time", "scheduled_time"] as const;

function number(name: string, v: unknown): number {
  const x = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (!Number.isFinite(x)) throw new RowError(`${name} is not a number (got ${v === undefined ? "nothing" : JSON.stringify(v).slice(0, 40)})`);
  return x;
}

function flag(name: string, v: unknown): boolean {
  if (typeof v === "boolean") return v;
  const t = typeof v === "string" ? v.trim().toLowerCase() : typeof v === "number" ? String(v) : "";
  if (t === "true" || t === "1" || t === "contiguous") return true;
  if (t === "false" || t === "0" || t === "dispersed") return false;
  throw new RowError(`${name} must be true/false, 1/0 or contiguous/dispersed (got ${v === undefined ? "nothing" : JSON.stringify(v).slice(0, 40)})`);
}

/** An optional token density: NaN when absent or empty. */
function price(v: unknown): number {
  if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return NaN;
  const x = number("price", v);
  if (x <= 0) throw new RowError(`price ${x} is not positive`);
  return x;
}

/** An optional memory figure (GiB, >= 0): NaN when absent or empty. */
function memory(name: string, v: unknown, scale = 1): number {
  if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return NaN;
  const x = number(name, v) * scale;
  if (x < 0) throw new RowError(`${name} ${x} is negative`);
  return x;
}

/** workload.trace.qosPrices ("LS=36,BE=9") as a map; a malformed list is the parameter's error. */
export function qosPrices(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const part of text.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = part.indexOf("="), x = Number(part.slice(eq + 1));
    if (eq <= 0 || !Number.isFinite(x) || x <= 0) throw new ConfigError(`workload.trace.qosPrices: must be qos=price pairs with prices > 0, separated by commas, e.g. LS=36,BE=9 (got ${JSON.stringify(part).slice(0, 40)})`, "workload.trace.qosPrices");
    m.set(part.slice(0, eq).trim(), x);
  }
  return m;
}

/** The row's own rules, whatever its format. */
function checked(r: TraceRow, atomsPerNode: number): TraceRow {
  if (r.arrivalMs < 0) throw new RowError(`arrival ${r.arrivalMs} ms is before 0`);
  if (r.durationMs <= 0) throw new RowError(`duration ${r.durationMs} ms is not positive`);
  if (!Number.isInteger(r.atoms) || r.atoms < 1 || r.atoms > atomsPerNode) throw new RowError(`atoms ${r.atoms} is not an integer from 1 to cluster.atomsPerNode (${atomsPerNode})`);
  return r;
}

/** Columns by name from a header line; every one of `need` must be there. */
function header(line: string, need: readonly string[], format: string): Map<string, number> {
  const cols = new Map(line.split(",").map((h, i) => [h.trim(), i] as [string, number]));
  const missing = need.filter((n) => !cols.has(n));
  if (missing.length > 0) throw new HeaderError(`the ${format} header lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (it must name ${need.join(", ")})`);
  return cols;
}

export function rowParser(c: Config): RowParser {
  const apn = c.cluster.atomsPerNode, t = c.workload.trace;
  switch (t.format) {
    case "jsonl":
      return {
        parse(line) {
          if (line.trim() === "") return null;
          let o: unknown;
          try {
            o = JSON.parse(line);
          } catch {
            throw new RowError("not a JSON object");
          }
          if (typeof o !== "object" || o === null || Array.isArray(o)) throw new RowError("not a JSON object");
          const x = o as Record<string, unknown>;
          return checked({ arrivalMs: number("arrivalMs", x.arrivalMs), durationMs: number("durationMs", x.durationMs), atoms: number("atoms", x.atoms), contiguous: flag("contiguous", x.contiguous), price: price(x.price), memGiB: memory("memGiB", x.memGiB) }, apn);
        },
      };
    case "csv": {
      let cols: Map<string, number> | null = null;
      return {
        parse(line) {
          if (line.trim() === "") return null;
          if (cols === null) {
            cols = header(line, CSV_COLUMNS, "csv");
            return null;
          }
          const f = line.split(","), at = (n: string) => (cols!.has(n) ? f[cols!.get(n)!] : undefined);
          return checked({ arrivalMs: number("arrivalMs", at("arrivalMs")), durationMs: number("durationMs", at("durationMs")), atoms: number("atoms", at("atoms")), contiguous: flag("contiguous", at("contiguous")), price: price(at("price")), memGiB: memory("memGiB", at("memGiB")) }, apn);
        },
      };
    }
    case "openb": {
      const qos = qosPrices(t.qosPrices);
      let cols: Map<string, number> | null = null;
      let t0 = NaN;
      return {
        parse(line) {
          if (line.trim() === "") return null;
          if (cols === null) {
            cols = header(line, OPENB_COLUMNS, "openb");
            return null;
          }
          const f = line.split(","), at = (n: string) => (cols!.has(n) ? f[cols!.get(n)!] : undefined);
          const created = number("creation_time", at("creation_time"));
          const duration = number("deletion_time", at("deletion_time")) - number("scheduled_time", at("scheduled_time"));
          const gpus = number("num_gpu", at("num_gpu")) * number("gpu_milli", at("gpu_milli")) / 1000;
          const cpu = number("cpu_milli", at("cpu_milli"));
          if (cpu < 0 || gpus < 0) throw new RowError("a negative CPU or GPU demand");
          const atoms = Math.ceil(cpu / t.cpuMilliPerAtom) + Math.ceil(gpus * t.gpuAtoms);
          // the first good row's creation is the trace's time 0
          const row = checked({ arrivalMs: (created - (Number.isNaN(t0) ? created : t0)) * 1000, durationMs: duration * 1000, atoms, contiguous: gpus > 0, price: qos.get((at("qos") ?? "").trim()) ?? NaN, memGiB: memory("memory_mib", at("memory_mib"), 1 / 1024) }, apn);
          if (Number.isNaN(t0)) t0 = created;
          return row;
        },
      };
    }
  }
}
