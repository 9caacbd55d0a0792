// The Zone engine driven from outside the project's own code: the Node
// driver of test/embed/zone-script.mjs (the reference the Python and C
// harnesses of `npm run test:embed` are compared with) runs the fixed
// scripts of DA emissions on both builds and prints
// test/embed/zone-script.expected, zone-script-mem.expected (the memory
// model and the kernel's OOM rule) and zone-script-airlock.expected (the
// memory model and Airlock, the host its gateway side), line for line; the scripts are the ones
// their generator writes for the default configuration, and they make
// every outcome the harnesses should see happen.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";
// @ts-expect-error: the plain .mjs driver, without types
import { firstDifference as firstDiff } from "./zone-script.mjs";

/** The first line where two transcripts differ (undefined when equal), for a readable failure: the driver's own. */
const firstDifference = firstDiff as (got: string, want: string) => string | undefined;

const root = packageRoot();
const dir = join(root, "test", "embed");
const expected = readFileSync(join(dir, "zone-script.expected"), "utf8");

function node(...args: string[]): string {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", timeout: 60_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The generator, run with `flags` into a temporary file, writes `name` exactly as it is in test/embed. */
function regenerates(name: string, ...flags: string[]): void {
  const tmp = mkdtempSync(join(tmpdir(), "zone-script-"));
  try {
    node(join(dir, "make-zone-script.mjs"), ...flags, "--out", join(tmp, name));
    expect(readFileSync(join(tmp, name), "utf8")).toBe(readFileSync(join(dir, name), "utf8"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** On both builds, the Node driver runs test/embed/NAME.txt and prints NAME.expected, line for line. */
function printsExpected(name: string): void {
  const want = readFileSync(join(dir, `${name}.expected`), "utf8");
  for (const build of ["simd", "scalar"]) {
    it(`prints ${name}.expected on the ${build} build`, () => {
      const got = node(join(dir, "zone-script.mjs"), join(root, "build", `laminar-${build}.wasm`), join(dir, `${name}.txt`));
      expect(firstDifference(got, want)).toBeUndefined();
    });
  }
}


describe("the Zone engine driven through zone-script.txt", () => {
  printsExpected("zone-script");

  it("runs the script its generator writes from the default configuration", () => regenerates("zone-script.txt"));

  it("has starts, bounces and every failure the harnesses compare, and the trace of every event run", () => {
    const lines = expected.trimEnd().split("\n");
    const counters = lines[lines.length - 2].split(" "), trace = lines[lines.length - 1].split(" ");
    expect(counters[0]).toBe("counters");
    expect(trace[0]).toBe("trace");
    const [, , bounces, completed, , processed, fastFail, lost, , deadline, duplicate, late] = counters.map(Number);
    // the trace folds the engine's events and the host's (one per gateway batch)
    const batches = new Set(readFileSync(join(dir, "zone-script.txt"), "utf8").split("\n").filter((l) => l.startsWith("emit ")).map((l) => l.split(" ")[1]));
    expect(Number(trace[3])).toBe(processed + batches.size);
    const records = lines.slice(0, -2).map((l) => l.split(" "));
    const kinds = new Map<string, number>();
    for (const r of records) kinds.set(r[2], (kinds.get(r[2]) ?? 0) + 1);
    expect(kinds.get("3")).toBeGreaterThan(1000); // pull requests
    expect(kinds.get("6")).toBeGreaterThan(0); // uploads
    expect(completed).toBeGreaterThan(1000);
    for (const n of [bounces, fastFail, lost, deadline, duplicate, late]) expect(n).toBeGreaterThan(0);
    // every DA end is a record of kind 1
    expect(kinds.get("1")).toBe(counters.slice(6).reduce((a, v) => a + Number(v), 0));
  });
});

describe("the Zone engine with the memory model driven through zone-script-mem.txt", () => {
  const expectedMem = readFileSync(join(dir, "zone-script-mem.expected"), "utf8");
  printsExpected("zone-script-mem");

  it("runs the script its generator writes with the memory model and the kernel's OOM rule", () => regenerates("zone-script-mem.txt", "--memory"));

  it("kills over capacity, and its trace folds every event run", () => {
    const lines = expectedMem.trimEnd().split("\n");
    const [counters, memory, trace] = lines.slice(-3).map((l) => l.split(" "));
    expect([counters[0], memory[0], trace[0]]).toEqual(["counters", "memory", "trace"]);
    expect(Number(memory[1]) + Number(memory[2])).toBeGreaterThan(5); // OOM kills of L- and F-tasks
    const batches = new Set(readFileSync(join(dir, "zone-script-mem.txt"), "utf8").split("\n").filter((l) => l.startsWith("emit ")).map((l) => l.split(" ")[1]));
    // the engine's events (the runtime ticks among them) and the host's batches
    expect(Number(trace[3])).toBe(Number(counters[5]) + batches.size);
    // the same DA emissions as zone-script.txt, each with its declared memory
    const plain = readFileSync(join(dir, "zone-script.txt"), "utf8").split("\n").filter((l) => l.startsWith("emit "));
    const mem = readFileSync(join(dir, "zone-script-mem.txt"), "utf8").split("\n").filter((l) => l.startsWith("emit "));
    expect(mem.map((l) => l.split(" ").slice(0, 11).join(" "))).toEqual(plain);
  });
});


describe("the Zone engine with the memory model and Airlock driven through zone-script-airlock.txt", () => {
  const expectedAirlock = readFileSync(join(dir, "zone-script-airlock.expected"), "utf8");
  printsExpected("zone-script-airlock");

  it("runs the script its generator writes with the memory model and Airlock", () => regenerates("zone-script-airlock.txt", "--airlock"));

  it("suspends, resumes in place, reactivates and lands, with the host as Airlock's gateway side", () => {
    const lines = expectedAirlock.trimEnd().split("\n");
    const [counters, memory, airlock, trace] = lines.slice(-4).map((l) => l.split(" "));
    expect([counters[0], memory[0], airlock[0], trace[0]]).toEqual(["counters", "memory", "airlock", "trace"]);
    const [suspensions, resumed, reactivations, landings, , probeDrops] = airlock.slice(1).map(Number);
    for (const n of [suspensions, resumed, reactivations, landings, probeDrops]) expect(n).toBeGreaterThan(0);
    const kinds = new Map<string, number>();
    for (const r of lines.slice(0, -4).map((l) => l.split(" "))) kinds.set(r[2], (kinds.get(r[2]) ?? 0) + 1);
    // each reactivation is a message to the gateway side, each secondary win a landing request, each request an answer
    expect(kinds.get("4")).toBe(reactivations);
    expect(kinds.get("7")).toBeGreaterThanOrEqual(landings);
    expect(kinds.get("8")).toBe(kinds.get("7"));
    // the trace folds the engine's events, the host's batches and its deliveries of messages 4, 7 and 8
    const batches = new Set(readFileSync(join(dir, "zone-script-airlock.txt"), "utf8").split("\n").filter((l) => l.startsWith("emit ")).map((l) => l.split(" ")[1]));
    expect(Number(trace[3])).toBe(Number(counters[5]) + batches.size + kinds.get("4")! + kinds.get("7")! + kinds.get("8")!);
  });
});
