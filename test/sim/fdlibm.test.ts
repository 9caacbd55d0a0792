// src/sim/fdlibm.ts: the simulator's log, log1p, exp, sin and cos, bit for
// bit Node 20's Math.* (V8's fdlibm port) in every runtime. The ports'
// results on a fixed million arguments per function, pinned (the same in
// any runtime: test/embed/runtimes.mjs checks Bun and Deno against Node),
// against Math.* itself where this is Node 20, and the edges.
import { describe, expect, it } from "vitest";
import * as fdlibm from "../../src/sim/fdlibm.js";
import { NODE20_MATH, portCos, portExp, portLog, portLog1p, portSin } from "../../src/sim/fdlibm.js";
// @ts-expect-error: a plain .mjs script of the embedding checks, without types
import { fdlibmHashes } from "../embed/fdlibm-hash.mjs";

/** The port's hashes, taken under Node 20, where they equal Math.*'s. */
const PINNED: Record<string, string> = { log: "23c7ad67", log1p: "827fc796", exp: "8dea0925", sin: "19362c95", cos: "ff61890f" };
const NODE20 = process.versions.v8.startsWith("11.3.");

const F = new Float64Array(1), W = new Uint32Array(F.buffer);
const bits = (x: number): string => {
  F[0] = x;
  return `${W[1].toString(16)}:${W[0].toString(16)}`;
};
/** Same value, NaN payloads aside (V8 returns 0x7ff4... for the log of a negative; no JavaScript value shows it). */
const same = (a: number, b: number): boolean => (Number.isNaN(a) ? Number.isNaN(b) : bits(a) === bits(b));

describe("fdlibm ports", () => {
  const rows = fdlibmHashes(fdlibm) as [string, string, string][];

  it("give the pinned results on a million arguments each", () => {
    expect(Object.fromEntries(rows.map(([name, port]) => [name, port]))).toEqual(PINNED);
  });

  it.skipIf(!NODE20)("equal Node 20's Math.* on the same arguments (skipped: not Node 20)", () => {
    for (const [name, port, math] of rows) expect(port, name).toBe(math);
  });

  it("are what the simulator calls, except under Node 20, where it calls Math.* (the same code, compiled)", () => {
    expect(NODE20_MATH).toBe(NODE20);
    const chosen = [fdlibm.fdLog, fdlibm.fdLog1p, fdlibm.fdExp, fdlibm.fdSin, fdlibm.fdCos];
    const expected = NODE20 ? [Math.log, Math.log1p, Math.exp, Math.sin, Math.cos] : [portLog, portLog1p, portExp, portSin, portCos];
    expect(chosen).toEqual(expected);
  });

  it("keep the edges", () => {
    const edges = [0, -0, 1, -1, 2, 0.5, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** -1022, 1e-300, 1e300, Number.MAX_VALUE,
      Infinity, -Infinity, NaN, 709.782712893384, 709.79, -745.1332191019411, -745.2, 2 ** -28, -(2 ** -28), 2 ** -54, 1e-20,
      Math.PI / 4, Math.PI / 2, Math.PI, 3 * Math.PI / 4, 2 * Math.PI, -Math.PI / 2, 2 ** 19 * Math.PI / 2 - 1];
    for (const x of edges) {
      expect(same(portLog(x), Math.log(x)), `log ${x}`).toBe(true);
      expect(same(portLog1p(x), Math.log1p(x)), `log1p ${x}`).toBe(true);
      expect(same(portExp(x), Math.exp(x)), `exp ${x}`).toBe(true);
      if (!(Math.abs(x) > 2 ** 19 * Math.PI / 2) || !Number.isFinite(x)) {
        expect(same(portSin(x), Math.sin(x)), `sin ${x}`).toBe(true);
        expect(same(portCos(x), Math.cos(x)), `cos ${x}`).toBe(true);
      }
    }
  });

  it("refuse to reduce sin and cos arguments past 2^19 pi / 2", () => {
    expect(() => portSin(1e7)).toThrow(RangeError);
    expect(() => portCos(-1e7)).toThrow(/past 2\^19 pi \/ 2/);
  });
});
