// docs/abi.md, docs/laminar_core.h and src/core/exports.ts describe exactly
// the functions the builds export, the parameter blocks' layouts, and (for
// the utility field) the status codes and out-of-domain answers they document.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
import { CHOICE, MEM, PROBE, ZONE } from "../../src/core/blocks.js";
import { Status } from "../../src/core/status.js";
import { builds, positional } from "./harness.js";

const read = (p: string) => readFileSync(join(packageRoot(), p), "utf8");
const exported = (i: number) =>
  Object.keys(builds[i][1].exports).filter((k) => k !== "memory").sort();

describe("ABI documents match the exports", () => {
  it("both builds export the same functions", () => {
    expect(exported(0)).toEqual(exported(1));
  });

  it("docs/abi.md documents every export, and nothing else", () => {
    const doc = read("docs/abi.md");
    const documented = [...new Set([...doc.matchAll(/^\| `([a-z][A-Za-z0-9]*)\(/gm)].map((m) => m[1]))].sort();
    expect(documented).toEqual(exported(0));
  });

  it("the C header declares every export", () => {
    const h = read("docs/laminar_core.h");
    const declared = [...new Set([...h.matchAll(/^\s*X\([^,]+,\s*([A-Za-z0-9]+),/gm)].map((m) => m[1]))].sort();
    expect(declared).toEqual(exported(0));
  });

  it("the TypeScript interface names every export", () => {
    const ts = read("src/core/exports.ts");
    const named = [...new Set([...ts.matchAll(/^\s+([a-z][A-Za-z0-9]*)\(/gm)].map((m) => m[1]))].sort();
    expect(named).toEqual(exported(0));
  });
});

// The parameter blocks: docs/abi.md's layout tables, assembly/blocks.ts,
// src/core/blocks.ts and the header's offsets all say the same.
describe("parameter block layouts", () => {
  const doc = read("docs/abi.md"), asm = read("assembly/blocks.ts"), h = read("docs/laminar_core.h");
  /** The rows `| offset | type | field |` of the table after `heading` in docs/abi.md. */
  const table = (heading: string) => {
    const at = doc.indexOf(heading);
    expect(at, heading).toBeGreaterThanOrEqual(0);
    const rows: Array<[number, string]> = [];
    for (const line of doc.slice(at).split("\n").slice(1)) {
      const m = /^\| (\d+) \| (?:u32|i32|f32|f64|4) \| ([A-Za-z]+)/.exec(line);
      if (m) rows.push([Number(m[1]), m[2]]);
      else if (rows.length > 0 && !line.startsWith("|")) break;
    }
    return rows;
  };
  const upper = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  const asmConst = (name: string) => Number(new RegExp(`export const ${name}: (?:usize|i32) = (\\d+);`).exec(asm)?.[1]);
  const hDefine = (name: string) => Number(new RegExp(`#define ${name} (\\d+)`).exec(h)?.[1]);
  const blocks: Array<[string, Record<string, number>, string, string, string]> = [
    ["Choice block (`scoreCandidates`)", CHOICE, "C_", "CHOICE", "CHOICE"],
    ["Probe block (`probeCandidates`)", PROBE, "P_", "PROBE", "PROBE"],
    ["Zone block (`zoneAggregate`)", ZONE, "Z_", "ZONE", "ZONE"],
    ["Memory block (`memTick`)", MEM, "M_", "MEM", "MEM"],
  ];
  it.each(blocks)("%s", (heading, ts, asmPrefix, asmSize, hName) => {
    const rows = table(heading);
    const named = rows.filter(([, f]) => f !== "zero").map(([o, f]) => [o, f.replace(/ .*/, "")] as [number, string]);
    const fields = Object.entries(ts).filter(([k]) => k !== "BYTES").map(([k, o]) => [o, k] as [number, string]);
    // every documented field at its offset in the TypeScript layout, and no other field there
    expect(named.map(([o, f]) => [o, upper(f === "n" ? "n" : f)])).toEqual(fields.sort((a, b) => a[0] - b[0]));
    for (const [o, k] of fields) {
      expect(asmConst(asmPrefix + k), `assembly ${asmPrefix}${k}`).toBe(o);
      expect(hDefine(`LAMINAR_${hName}_OFF_${k}`), `header ${hName} ${k}`).toBe(o);
    }
    expect(asmConst(`${asmSize}_BYTES`)).toBe(ts.BYTES);
    expect(hDefine(`LAMINAR_${hName === "CHOICE" ? "CHOICE" : hName}_BLOCK_BYTES`)).toBe(ts.BYTES);
    expect(doc).toContain(`${heading}, ${ts.BYTES} bytes`);
  });

  it("the ABI version: abiVersion(), docs/abi.md and the header", () => {
    const [, core] = builds[0];
    expect(doc).toContain(`| \`abiVersion()\` | ${core.exports.abiVersion()} `);
    expect(hDefine("LAMINAR_ABI_VERSION")).toBe(core.exports.abiVersion());
    expect(core.exports.abiVersion()).toBe(3);
  });
});

// Every status code docs/abi.md gives for scoreCandidates, zoneAggregate and
// tegWeights, and the behaviour it documents outside their domain, is what
// the core does (both builds).
describe.each(builds)("documented answers of the utility field (%s)", (_name, core) => {
  const doc = read("docs/abi.md");
  const row = (name: string) => doc.split("\n").find((l) => l.startsWith(`| \`${name}(`))!;

  it("scoreCandidates: every code its row names, and n = 0", () => {
    const r = row("scoreCandidates");
    for (const code of ["E_ATOMS", "E_COUNT", "E_K", "E_ARG", "E_ID", "E_NOFIT"]) expect(r, code).toContain(`\`${code}\``);
    expect(r).toContain("`n = 0`");
    core.arena.reset();
    const a = core.arena, P = positional(core), n = 2;
    const field = a.alloc(5 * n * 4), table = a.alloc(n * 32, 8), cand = a.alloc(8), noise = a.alloc(8);
    a.u8.fill(0, field, field + 5 * n * 4);
    a.u8.fill(0xff, table, table + n * 32);
    a.i32.set([0, 1], cand >> 2);
    a.f32.set([0, 0], noise >> 2);
    const sc = (o: Partial<Record<string, number>> = {}) => {
      const v = { nodeCount: n, atoms: 256, n: 2, now: 0, m: 4, c: 0, gamma: 1, da: 30, ...o };
      return P.scoreCandidates(field, v.nodeCount, table, v.atoms, cand, v.n, v.now, v.m, v.c, v.gamma, v.da, noise);
    };
    expect(sc()).toBe(0);
    expect(sc({ n: 0 })).toBe(Status.E_NOFIT);
    expect(sc({ atoms: 100 })).toBe(Status.E_ATOMS);
    expect(sc({ n: -1 })).toBe(Status.E_COUNT);
    expect(sc({ m: 257 })).toBe(Status.E_K);
    expect(sc({ m: -1 })).toBe(Status.E_K);
    expect(sc({ c: 2 })).toBe(Status.E_ARG);
    expect(sc({ now: NaN })).toBe(Status.E_ARG);
    expect(sc({ da: NaN })).toBe(Status.E_ARG);
    expect(sc({ gamma: -Infinity })).toBe(Status.E_ARG);
    a.i32[(cand >> 2) + 1] = 2;
    expect(sc()).toBe(Status.E_ID);
    a.i32[(cand >> 2) + 1] = 1;
    a.f32[(noise >> 2) + 1] = Infinity;
    expect(sc()).toBe(Status.E_ARG);
  });

  it("zoneAggregate: offsets[0] > nodeCount is E_ID when zones = 0", () => {
    expect(row("zoneAggregate")).toContain("`offsets[0]` too when `zones = 0`");
    core.arena.reset();
    const a = core.arena, P = positional(core);
    const field = a.alloc(5 * 4 * 4), offsets = a.alloc(8), out = a.alloc(8);
    a.i32.set([5, 0], offsets >> 2);
    expect(P.zoneAggregate(field, 4, offsets, 0, 0, 30, 100, out, out + 4)).toBe(Status.E_ID);
    a.i32[offsets >> 2] = 4;
    expect(P.zoneAggregate(field, 4, offsets, 0, 0, 30, 100, out, out + 4)).toBe(0);
  });

  it("utility outside its domain: the examples of docs/abi.md", () => {
    const examples = [...doc.matchAll(/`utility\(([^,]+), ([^,]+), ([^)]+)\) =\s+(-?[0-9]+)`/g)];
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const [text, s, h, g, want] of examples) {
      expect(core.exports.utility(Number(s), Number(h), Number(g)), text).toBe(Number(want));
    }
    // every f32 input, however large or NaN, gives a finite utility for a finite gamma
    for (const s of [NaN, -Infinity, -1, -0.5, 0, 3.4e38, Infinity]) {
      for (const h of [NaN, -Infinity, -7, 0, 1e30, Infinity]) expect(Number.isFinite(core.exports.utility(s, h, 0.5)), `${s} ${h}`).toBe(true);
    }
  });

  it("tegWeights flushes a weight below 2^-126 to 0", () => {
    expect(doc).toContain("is flushed to 0 (the table exp2 has no subnormal results)");
    core.arena.reset();
    const a = core.arena, sl = a.alloc(8), ht = a.alloc(8), cum = a.alloc(16, 8);
    // U_0 = 0, U_1 = log2(1 + 2^20 - 1) = 20 (the max): Zone 0's exponent is -20 / tau
    a.f32.set([0, 2 ** 20 - 1], sl >> 2);
    a.f32.set([0, 0], ht >> 2);
    expect(core.exports.tegWeights(sl, ht, 2, 1, 20 / 127, cum)).toBe(2); // exponent about -127: flushed
    expect([...a.f64.slice(cum >> 3, (cum >> 3) + 2)]).toEqual([0, 1]);
    expect(core.exports.tegWeights(sl, ht, 2, 1, 20 / 125, cum)).toBe(2); // about -125: kept
    expect(a.f64[cum >> 3]).toBeGreaterThan(2 ** -126);
    expect(a.f64[cum >> 3]).toBeLessThan(2 ** -124);
  });
});
