// bench:instr's join of a callgrind output with V8's perf jitdump
// (bench/instr-functions.ts), on files written here: a jitdump with two
// pieces of compiled code, one of them the core's function 1 with four
// x86-64 instructions, and a callgrind output that counts them. The run
// under valgrind is test/e2e/bench-instr.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { annotate, functionCosts, jitRanges } from "../../bench/instr-functions.js";

const objdump = spawnSync("objdump", ["--version"]).status === 0;

/** A JIT_CODE_LOAD record (perf's jitdump format, version 1) for `code` at `addr`, named `name`. */
function load(addr: number, name: string, code: number[]): Buffer {
  const n = Buffer.from(`${name}\0`, "utf8"), size = 56 + n.length + code.length, b = Buffer.alloc(size);
  b.writeUInt32LE(0, 0); // id: code load
  b.writeUInt32LE(size, 4);
  b.writeBigUInt64LE(0n, 8); // timestamp
  b.writeUInt32LE(1, 16); b.writeUInt32LE(1, 20); // pid, tid
  b.writeBigUInt64LE(BigInt(addr), 24); // vma
  b.writeBigUInt64LE(BigInt(addr), 32); // code address
  b.writeBigUInt64LE(BigInt(code.length), 40);
  b.writeBigUInt64LE(7n, 48); // code index
  n.copy(b, 56);
  Buffer.from(code).copy(b, 56 + n.length);
  return b;
}

const dir = mkdtempSync(join(tmpdir(), "laminar-jit-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// push %rbp; mov %rsp,%rbp; add $0x1,%eax; ret (1 + 3 + 3 + 1 bytes) at 0x1000, and 2 bytes of JavaScript at 0x2000
const F = 0x1000, JS = 0x2000;
{
  const header = Buffer.alloc(40);
  header.writeUInt32LE(0x4a695444, 0); header.writeUInt32LE(1, 4); header.writeUInt32LE(40, 8);
  writeFileSync(join(dir, "jit-1.dump"), Buffer.concat([header, load(F, "wasm-function[1]", [0x55, 0x48, 0x89, 0xe5, 0x83, 0xc0, 0x01, 0xc3]), load(JS, "JS:*step file:///x/dist/src/laminar/zone-engine.js:1:1", [0x90, 0xc3])]));
  // the loop's instruction 10 times, a call's inclusive cost (not the caller's own), code outside the JIT's
  writeFileSync(join(dir, "callgrind.out"), [
    "events: Ir", "fn=0x1000", `0x${F.toString(16)} 0 2`, `0x${(F + 1).toString(16)} 0 2`, `0x${(F + 4).toString(16)} 0 10`,
    "calls=1 0x2000", `0x${(F + 4).toString(16)} 0 99`, `0x${(F + 7).toString(16)} 0 2`,
    "fn=0x2000", `0x${JS.toString(16)} 0 3`, "fn=memcpy [/usr/lib/x86_64-linux-gnu/libc.so.6]", "0x7000 0 5", "",
  ].join("\n"));
}
const wasm = ["$a/other", "$assembly/engine/agent/chooseTarget"];

describe("bench:instr's join of callgrind and the jitdump", () => {
  it("reads each piece of code's range, name and bytes", () => {
    const r = jitRanges(join(dir, "jit-1.dump"));
    expect(r.map((x) => [x.start, x.end, x.name, [...x.code]])).toEqual([
      [F, F + 8, "wasm-function[1]", [0x55, 0x48, 0x89, 0xe5, 0x83, 0xc0, 0x01, 0xc3]],
      [JS, JS + 2, "JS:*step file:///x/dist/src/laminar/zone-engine.js:1:1", [0x90, 0xc3]],
    ]);
  });

  it("counts by function, a call's inclusive cost left to its callee", () => {
    expect([...functionCosts(dir, wasm)].sort()).toEqual([
      ["js step src/laminar/zone-engine.js", 3],
      ["native memcpy", 5],
      ["wasm $assembly/engine/agent/chooseTarget", 16],
    ]);
  });

  it.skipIf(!objdump)("lists a function's instructions, each with its count per task (needs objdump)", () => {
    const [c, ...rest] = annotate(dir, wasm, "agent/chooseTarget", 2);
    expect(rest).toEqual([]);
    expect([c.name, c.start, c.bytes, c.total]).toEqual(["wasm $assembly/engine/agent/chooseTarget", F, 8, 8]);
    expect(c.lines.map((l) => [l.address, l.per, l.text])).toEqual([
      [F, 1, "push %rbp"], [F + 1, 1, "mov %rsp,%rbp"], [F + 4, 5, "add $0x1,%eax"], [F + 7, 1, "ret"],
    ]);
    expect(annotate(dir, wasm, "noSuchFunction", 2)).toEqual([]);
  });
});
if (!objdump) console.log("bench:instr: objdump is not installed, so the --annotate listing test is skipped (Debian: apt-get install binutils)");
