// The design card lists @assemblyscript/loader. The core does not use it (see
// docs/architecture.md, "The AssemblyScript loader"); this test only pins
// that hosts which still use the deprecated loader can load our builds: no
// imports, no runtime, plain-number exports.
import * as loader from "@assemblyscript/loader";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wasmPath } from "../../src/core/wasm.js";

describe("@assemblyscript/loader compatibility", () => {
  it.each(["simd", "scalar"] as const)("instantiates the %s build and calls an export", (flavor) => {
    const { exports } = loader.instantiateSync<Record<string, unknown>>(readFileSync(wasmPath(flavor)), {});
    const e = exports as unknown as { abiVersion(): number; utility(s: number, h: number, g: number): number; __newString(s: string): number };
    expect(e.abiVersion()).toBe(3);
    expect(e.utility(3, 0, 1)).toBeCloseTo(2, 4);
    // no managed runtime is exported: the loader's string/array helpers, its reason to exist, do not apply
    expect(() => e.__newString("x")).toThrow();
  });
});
