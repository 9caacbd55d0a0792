#!/usr/bin/env node
// The core and the simulator in other JavaScript runtimes than Node: Bun
// (JavaScriptCore's WebAssembly) and Deno (a newer V8), each given as a
// command on the command line (scripts/test-embed.sh installs pinned
// versions from the npm registry).
//
//   node test/embed/runtimes.mjs --bun PATH --deno PATH
//
// Checks, for each runtime:
//  1. the Zone engine driven through test/embed/zone-script.txt,
//     zone-script-mem.txt and zone-script-airlock.txt (the loader-free
//     driver, zone-script.mjs) prints their .expected transcripts, on both
//     builds, as Node does;
//  2. the simulator's log, log1p, exp, sin and cos (src/sim/fdlibm.ts) give
//     Node's results bit for bit on a million arguments each
//     (fdlibm-hash.mjs), while the runtime's own Math.* may not;
//  3. `laminar sim` (the built CLI, dist/) gives Node's result for the same
//     seed, field for field, on one thread and on two worker threads, apart
//     from what measures the run itself.
// Prints PASS/FAIL lines and `RESULT <passed> <failed>`.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstDifference } from "./zone-script.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
/** The zone scripts (the second with the memory model) and the transcripts Node prints for them. */
const SCRIPTS = ["zone-script", "zone-script-mem", "zone-script-airlock"].map((name) => ({ name, expected: readFileSync(join(HERE, `${name}.expected`), "utf8") }));
/** Result fields that measure the run itself (its machine, its runtime), not what it simulated. */
const MEASURED = ["wallSeconds", "tasksPerWallSecond", "peakRssMiB", "manifest", "profile"];
const SIM = ["sim", "--no-progress", "--json", "--nodes", "600", "--duration", "0.2", "--set", "sim.drainS=0.4"];

let passed = 0, failed = 0;
const pass = (name) => { passed++; console.log(`PASS   ${name}`); };
const fail = (name, why) => { failed++; console.log(`FAIL   ${name}: ${why}`); };

const args = process.argv.slice(2);
const runtimes = [];
for (let i = 0; i < args.length; i += 2) {
  const name = args[i].replace(/^--/, ""), bin = args[i + 1];
  if (!["bun", "deno"].includes(name) || !bin) {
    console.error("usage: node test/embed/runtimes.mjs --bun PATH --deno PATH");
    process.exit(2);
  }
  runtimes.push({ name, bin, run: name === "deno" ? ["run", "-A"] : [] });
}

/** Run a script under a runtime (Node: this process's). */
function exec(cmd, pre, script, rest) {
  return spawnSync(cmd, [...pre, script, ...rest], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20, timeout: 300_000 });
}

function simResult(out) {
  const r = JSON.parse(out);
  for (const k of MEASURED) delete r[k];
  return r;
}

const HASH = join(HERE, "fdlibm-hash.mjs");
const nodeHashes = exec(process.execPath, [], HASH, []);
if (nodeHashes.status !== 0) fail("node: fdlibm-hash.mjs", (nodeHashes.stderr || "").trim().split("\n")[0]);
/** Each function's hash of the port's results under Node: `name port math` lines. */
const portHashes = (out) => out.trim().split("\n").map((l) => l.split(" ").slice(0, 2).join(" ")).join(", ");

const nodeSims = new Map();
for (const workers of [1, 2]) {
  const r = exec(process.execPath, [], CLI, [...SIM, "--workers", String(workers)]);
  if (r.status !== 0) {
    fail(`node: laminar sim --workers ${workers}`, (r.stderr || "").trim().split("\n")[0]);
    continue;
  }
  nodeSims.set(workers, simResult(r.stdout));
}

for (const rt of runtimes) {
  const v = spawnSync(rt.bin, ["--version"], { encoding: "utf8" });
  if (v.status !== 0) {
    fail(`${rt.name}: --version`, `cannot run ${rt.bin}`);
    continue;
  }
  console.log(`${rt.name} ${v.stdout.trim().split("\n")[0]}`);
  for (const build of ["simd", "scalar"]) {
    for (const { name: script, expected } of SCRIPTS) {
      const name = `${rt.name}: ${script}.txt on laminar-${build}.wasm prints ${script}.expected`;
      const r = exec(rt.bin, rt.run, join(HERE, "zone-script.mjs"), [join(ROOT, "build", `laminar-${build}.wasm`), join(HERE, `${script}.txt`)]);
      if (r.status !== 0) { fail(name, `exit ${r.status}: ${(r.stderr || "").trim().split("\n")[0]}`); continue; }
      const diff = firstDifference(r.stdout, expected);
      if (diff === undefined) pass(name);
      else fail(name, diff);
    }
  }
  if (nodeHashes.status === 0) {
    const name = `${rt.name}: src/sim/fdlibm.ts gives Node's results`;
    const r = exec(rt.bin, rt.run, HASH, []);
    if (r.status !== 0) fail(name, `exit ${r.status}: ${(r.stderr || "").trim().split("\n")[0]}`);
    else if (portHashes(r.stdout) === portHashes(nodeHashes.stdout)) pass(name);
    else fail(name, `${portHashes(r.stdout)} against Node's ${portHashes(nodeHashes.stdout)}`);
  }
  for (const [workers, ref] of nodeSims) {
    const name = `${rt.name}: laminar sim --workers ${workers} gives Node's result`;
    const r = exec(rt.bin, rt.run, CLI, [...SIM, "--workers", String(workers)]);
    if (r.status !== 0) { fail(name, `exit ${r.status}: ${(r.stderr || "").trim().split("\n")[0]}`); continue; }
    let got;
    try { got = simResult(r.stdout); } catch (e) { fail(name, `not one JSON object (${e.message})`); continue; }
    const off = Object.keys({ ...ref, ...got }).filter((k) => JSON.stringify(got[k]) !== JSON.stringify(ref[k]));
    if (off.length === 0 && got.started > 1000) pass(name);
    else fail(name, off.length > 0 ? `fields differ: ${off.join(", ")}` : `only ${got.started} starts`);
  }
}
console.log(`RESULT ${passed} ${failed}`);
