// Loading the core in any JavaScript runtime: Node, Deno, Bun, a browser page
// or a worker. Everything is asynchronous, because browsers refuse to compile
// a module of this size synchronously on their main thread, and nothing here
// imports a Node module statically, so a browser can load this file as is.
// The build is chosen by what the runtime accepts: SIMD where it validates,
// else scalar, else (no WebAssembly at all) the TypeScript twins.
import { CoreInstance, type Flavor } from "./instance.js";

/**
 * Where a build comes from: its bytes, a compiled module, a fetch Response
 * (or its promise), a URL (http:, https:, file:, data:, blob:), or a file
 * path (Node, Deno and Bun; a browser fetches it relative to the page).
 */
export type CoreSource = BufferSource | WebAssembly.Module | Response | PromiseLike<Response> | URL | string;

/** What instantiateCore may pick: a WebAssembly build, or the TypeScript twins. */
export type CoreChoice = Flavor | "ts";

export interface InstantiateOptions {
  /** The SIMD build (default: laminar-simd.wasm from `base`). */
  simd?: CoreSource;
  /** The scalar build (default: laminar-scalar.wasm from `base`). */
  scalar?: CoreSource;
  /**
   * The folder that holds laminar-simd.wasm and laminar-scalar.wasm, as a URL
   * (default: the package's build/ folder, found from this module's own URL).
   * Used only for the builds not given as `simd` or `scalar`; when either of
   * those is given, the other is not loaded unless `base` is given too.
   */
  base?: URL | string;
  /** "auto" (the default): SIMD, else scalar, else the TypeScript twins; or exactly one of them (an error if it cannot be had). */
  prefer?: "auto" | CoreChoice;
}

/** The core instantiateCore loaded: which one, why, and the instance (null for the TypeScript twins). */
export type LoadedCore =
  | { flavor: Flavor; reason: string; core: CoreInstance }
  | { flavor: "ts"; reason: string; core: null };

type Bytes = Uint8Array<ArrayBuffer>;

interface NodeLike { process?: { versions?: { node?: string } } }
const inNode = (): boolean => typeof (globalThis as NodeLike).process?.versions?.node === "string";

/** The package's build/ folder: this file is <package>/src/core/ (sources) or <package>/dist/src/core/ (built). */
function defaultBase(): URL {
  const built = /\/dist\/src\/core\/[^/]*$/.test(new URL(import.meta.url).pathname);
  return new URL(built ? "../../../build/" : "../../build/", import.meta.url);
}

const hasScheme = (s: string): boolean => /^[a-z][a-z0-9+.-]+:/i.test(s); // two letters at least: "C:\..." is a path

/** A build's bytes or compiled module, from any CoreSource. */
async function fetchBuild(src: CoreSource): Promise<Bytes | WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength).slice(); // a copy: the caller's buffer may be shared or reused
  if (typeof src === "string" && !hasScheme(src) && inNode()) return readFile(src);
  if (typeof src === "string" || src instanceof URL) {
    const url = typeof src === "string" && !hasScheme(src) ? src : new URL(src);
    // Node's fetch has no file: scheme; Deno's and Bun's have it, and a browser has no files
    if (url instanceof URL && url.protocol === "file:" && inNode()) return readFile(url);
    return responseBytes(fetch(url), String(url));
  }
  return responseBytes(src, "the Response given");
}

async function readFile(path: string | URL): Promise<Bytes> {
  const fs = await import("node:fs/promises");
  try {
    return new Uint8Array(await fs.readFile(path));
  } catch (e) {
    throw new Error(`core: cannot read ${String(path)} (${e instanceof Error ? e.message : String(e)}); in a clone, npm ci builds it`, { cause: e });
  }
}

async function responseBytes(response: Response | PromiseLike<Response>, what: string): Promise<Bytes> {
  let r: Response;
  try {
    r = await response;
  } catch (e) {
    throw new Error(`core: cannot fetch ${what} (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (!r.ok) throw new Error(`core: fetching ${what} answered ${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** Compile and instantiate a build; null when this runtime does not validate it (a SIMD build where SIMD is off). */
async function tryBuild(src: CoreSource): Promise<CoreInstance | null> {
  const got = await fetchBuild(src);
  if (!(got instanceof WebAssembly.Module) && !WebAssembly.validate(got)) return null;
  const module = got instanceof WebAssembly.Module ? got : await WebAssembly.compile(got);
  const instance = await WebAssembly.instantiate(module, {});
  const exports = instance.exports as { simdEnabled?: () => number };
  // the build says which it is, whichever name it was given under
  return new CoreInstance(exports.simdEnabled?.() === 1 ? "simd" : "scalar", instance);
}

/**
 * Load the core. With no options, in Node it reads the package's build/
 * files and in a browser or worker it fetches them from beside this module;
 * `simd`, `scalar` and `base` say where else they are. Picks the SIMD build
 * where the runtime validates it, else the scalar build, else the
 * TypeScript twins (runtimes without WebAssembly), and says which in
 * `flavor` and why in `reason`.
 *
 * @example
 * const { flavor, core } = await instantiateCore();
 * if (core) console.log(flavor, core.exports.abiVersion());
 */
export async function instantiateCore(options: InstantiateOptions = {}): Promise<LoadedCore> {
  const prefer = options.prefer ?? "auto";
  if (!["auto", "simd", "scalar", "ts"].includes(prefer)) throw new RangeError(`core: prefer must be auto, simd, scalar or ts, got ${String(prefer)}`);
  const ts = (reason: string): LoadedCore => ({ flavor: "ts", reason, core: null });
  if (prefer === "ts") return ts("the TypeScript twins, as asked");
  if (typeof WebAssembly !== "object") {
    if (prefer !== "auto") throw new Error(`core: the ${prefer} build needs WebAssembly, which this runtime lacks`);
    return ts("this runtime has no WebAssembly: the TypeScript twins");
  }
  const given = options.simd !== undefined || options.scalar !== undefined;
  const base = options.base !== undefined ? new URL(options.base) : given ? undefined : defaultBase();
  const source = (f: Flavor): CoreSource | undefined => options[f] ?? (base && new URL(`laminar-${f}.wasm`, base));
  const rejected: string[] = [];
  for (const f of ["simd", "scalar"] as const) {
    if (prefer !== "auto" && prefer !== f) continue;
    const src = source(f);
    if (src === undefined) continue;
    const core = await tryBuild(src);
    if (core !== null) {
      const why = rejected.length === 0 ? (prefer === "auto" ? "validated by this runtime" : "as asked") : `${rejected.join("; ")}: the ${core.flavor} build`;
      return { flavor: core.flavor, reason: why, core };
    }
    rejected.push(`this runtime does not validate the ${f} build`);
  }
  if (prefer !== "auto") throw new Error(`core: ${rejected[0] ?? `no ${prefer} build given`}`);
  return ts(`${rejected.length > 0 ? rejected.join("; ") : "no build given"}: the TypeScript twins`);
}
