// instantiateCore: every kind of source, the order SIMD -> scalar ->
// TypeScript twins, the reason it gives, and clear errors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { instantiateCore, twins, type LoadedCore } from "../../src/core/index.js";
import { packageRoot } from "../../src/core/paths.js";

const build = join(packageRoot(), "build");
const file = (f: "simd" | "scalar") => join(build, `laminar-${f}.wasm`);
const bytes = (f: "simd" | "scalar") => new Uint8Array(readFileSync(file(f)));
const garbage = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff]); // a header, then nonsense: does not validate

/** Free atoms of two 64-atom rows, by the loaded build and by the twin: must be [36, 2] both. */
function freeCounts(l: LoadedCore): { wasm: number[] | null; twin: number[] } {
  const rows = new Uint32Array([0xffffffff, 0xf, 1, 0x80000000]);
  const twin = new Int32Array(2);
  twins.bitmap.bmFreeCount(rows, 2, 64, twin);
  if (l.core === null) return { wasm: null, twin: [...twin] };
  const t = l.core.arena.put(rows, 8), out = l.core.arena.alloc(8, 4);
  expect(l.core.exports.bmFreeCount(t, 2, 64, out)).toBe(2);
  return { wasm: [...l.core.arena.i32.subarray(out / 4, out / 4 + 2)], twin: [...twin] };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("instantiateCore", () => {
  it("picks SIMD by default (this Node validates it) and says so", async () => {
    const l = await instantiateCore();
    expect(l.flavor).toBe("simd");
    expect(l.reason).toMatch(/validated/);
    expect(l.core?.exports.simdEnabled()).toBe(1);
    expect(freeCounts(l)).toEqual({ wasm: [36, 2], twin: [36, 2] });
  });

  it("loads a build from bytes, a module, a file: URL, a path, a Response and a base URL", async () => {
    const sources = [
      { simd: bytes("simd") },
      { simd: bytes("simd").buffer },
      { simd: new WebAssembly.Module(bytes("simd")) },
      { simd: pathToFileURL(file("simd")) },
      { simd: pathToFileURL(file("simd")).href },
      { simd: file("simd") },
      { simd: new Response(bytes("simd")) },
      { simd: Promise.resolve(new Response(bytes("simd"))) },
      { base: pathToFileURL(`${build}/`) },
    ];
    for (const s of sources) {
      const l = await instantiateCore(s);
      expect(l.flavor).toBe("simd");
      expect(freeCounts(l).wasm).toEqual([36, 2]);
    }
  });

  it("names the build by what it is, not by the key it was given under", async () => {
    const l = await instantiateCore({ simd: bytes("scalar") });
    expect(l.flavor).toBe("scalar");
    expect(l.core?.exports.simdEnabled()).toBe(0);
  });

  it("falls back to scalar when the SIMD build does not validate, then to the twins", async () => {
    const scalar = await instantiateCore({ simd: garbage, scalar: bytes("scalar") });
    expect(scalar.flavor).toBe("scalar");
    expect(scalar.reason).toMatch(/does not validate the simd build.*the scalar build/);
    expect(freeCounts(scalar).wasm).toEqual([36, 2]);
    const ts = await instantiateCore({ simd: garbage, scalar: garbage });
    expect(ts).toMatchObject({ flavor: "ts", core: null });
    expect(ts.reason).toMatch(/simd build; .*scalar build: the TypeScript twins/);
    const simdOnly = await instantiateCore({ simd: garbage });
    expect(simdOnly.flavor).toBe("ts"); // only what was given is loaded
  });

  it("uses the TypeScript twins where the runtime has no WebAssembly", async () => {
    vi.stubGlobal("WebAssembly", undefined);
    const l = await instantiateCore();
    expect(l).toMatchObject({ flavor: "ts", core: null });
    expect(l.reason).toMatch(/no WebAssembly/);
    await expect(instantiateCore({ prefer: "simd" })).rejects.toThrow(/needs WebAssembly/);
  });

  it("loads exactly the build asked for, or fails saying why", async () => {
    expect((await instantiateCore({ prefer: "scalar" })).flavor).toBe("scalar");
    expect((await instantiateCore({ prefer: "ts" })).flavor).toBe("ts");
    await expect(instantiateCore({ prefer: "simd", simd: garbage })).rejects.toThrow(/does not validate the simd build/);
    await expect(instantiateCore({ prefer: "fast" as "simd" })).rejects.toThrow(/prefer must be/);
  });

  it("names a missing file or a failed fetch", async () => {
    await expect(instantiateCore({ simd: "/no/such/laminar-simd.wasm" })).rejects.toThrow(/cannot read \/no\/such\/laminar-simd\.wasm/);
    await expect(instantiateCore({ simd: new Response("", { status: 404, statusText: "Not Found" }) })).rejects.toThrow(/answered 404/);
  });

  it("gives each call its own instance", async () => {
    const a = await instantiateCore(), b = await instantiateCore();
    expect(a.core?.exports.memory).not.toBe(b.core?.exports.memory);
  });
});
