// A consumer of laminar-core alone, in Node: the core picked by default, the
// scalar build asked for, the SIMD build given as bytes, and the core in a
// worker thread; with "jitless" (node --jitless, no WebAssembly) the
// TypeScript twins. Prints one JSON line for the package test to check.
import * as core from "laminar-core";
import { readFile } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { knownAnswer } from "./known-answer.mjs";

if (process.argv[2] === "jitless") {
  console.log(JSON.stringify({ jitless: await knownAnswer(core) }));
} else {
  const bytes = await readFile(new URL(import.meta.resolve("laminar-core/laminar-simd.wasm")));
  const worker = await new Promise((resolve, reject) => {
    const w = new Worker(new URL("./core-worker.mjs", import.meta.url));
    w.once("message", (m) => { resolve(m); void w.terminate(); });
    w.once("error", reject);
  });
  console.log(JSON.stringify({
    auto: await knownAnswer(core),
    scalar: await knownAnswer(core, { prefer: "scalar" }),
    bytes: await knownAnswer(core, { simd: bytes }),
    worker,
  }));
}
