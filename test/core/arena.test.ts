// The arena lays out buffers above heapBase, grows memory on demand, and its
// typed views follow the memory when growing detaches the old buffer.
import { describe, expect, it } from "vitest";
import { Arena } from "../../src/core/arena.js";
import { loadCore } from "../../src/core/wasm.js";

describe("arena", () => {
  it("aligns, grows memory and rebuilds its views", () => {
    const core = loadCore("simd");
    const a = core.arena;
    expect(a.base).toBe(core.exports.heapBase());
    const p = a.alloc(3, 1);
    const q = a.alloc(8, 64);
    expect(p).toBe(a.base);
    expect(q % 64).toBe(0);
    const before = core.exports.memory.buffer.byteLength;
    a.u32[q >> 2] = 0xdeadbeef;
    const big = a.alloc(before + 65536, 8); // forces memory.grow
    expect(core.exports.memory.buffer.byteLength).toBeGreaterThan(before);
    expect(core.exports.memoryBytes()).toBe(core.exports.memory.buffer.byteLength);
    expect(a.u32[q >> 2]).toBe(0xdeadbeef); // the view was rebuilt over the grown memory
    a.u8[big + before + 65535] = 7; // the whole new buffer is addressable
    expect(a.u8[big + before + 65535]).toBe(7);
    const r = a.put(Float64Array.of(1.5, -2), 8);
    expect(Array.from(a.f64.subarray(r >> 3, (r >> 3) + 2))).toEqual([1.5, -2]);
    expect(() => a.alloc(8, 3)).toThrow(/alignment/);
    expect(() => a.alloc(-1)).toThrow(/size/);
    a.reset();
    expect(a.used).toBe(0);
  });

  it("hands out zeroed memory, writing only what was handed out before (allocZeroed)", () => {
    const memory = new WebAssembly.Memory({ initial: 2 });
    const a = new Arena(memory, 1024);
    const p = a.alloc(100, 8);
    a.u8.fill(0xff, p, p + 100);
    a.reset();
    // the first 100 bytes were handed out and written: cleared; past them the memory was never handed out
    const q = a.allocZeroed(300, 8);
    expect(q).toBe(p);
    expect(a.u8.subarray(q, q + 300).every((b) => b === 0)).toBe(true);
    // memory above the mark is taken as zero, not written: a byte set there behind the arena's back stays
    a.u8[q + 400] = 9;
    const r = a.allocZeroed(200, 8);
    expect(r).toBe(q + 304);
    expect(a.u8[q + 400]).toBe(9);
    // a region that needs a growth: zero, the new pages untouched by the arena
    const big = a.allocZeroed(3 * 65536, 8);
    expect(memory.buffer.byteLength).toBeGreaterThanOrEqual(big + 3 * 65536);
    expect(a.u8.subarray(big, big + 3 * 65536).every((b) => b === 0)).toBe(true);
  });

  it("grows memory by half its size at least, so that many small allocations grow it a few times", () => {
    const memory = new WebAssembly.Memory({ initial: 16 });
    const a = new Arena(memory, 1024);
    let grows = 0, buf = memory.buffer;
    for (let i = 0; i < 200; i++) {
      const p = a.alloc(65536);
      if (memory.buffer !== buf) { grows++; buf = memory.buffer; }
      expect(p + 65536).toBeLessThanOrEqual(memory.buffer.byteLength);
    }
    // 200 pages past the first 16, each growth at least half the size: 16 -> 24 -> 36 -> 54 -> 81 -> 122 -> 183 -> 275
    expect(grows).toBe(7);
    expect(memory.buffer.byteLength / 65536).toBe(275);
  });

  it("grows by exactly what it needs where the host's limit refuses the larger growth", () => {
    const memory = new WebAssembly.Memory({ initial: 4, maximum: 5 });
    const a = new Arena(memory, 4 * 65536 - 16);
    a.alloc(32); // one page more is needed, two would be half the size: the limit allows one
    expect(memory.buffer.byteLength / 65536).toBe(5);
  });

  it("tells its listeners after each growth, and only then, until one says it is done", () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const a = new Arena(memory, 1024);
    const seen: number[] = [];
    let keep = true;
    a.onGrow(() => { seen.push(memory.buffer.byteLength); return keep; });
    a.alloc(1000); // fits: no growth
    expect(seen).toEqual([]);
    a.alloc(65536);
    expect(seen).toEqual([memory.buffer.byteLength]);
    keep = false;
    a.alloc(4 * 65536); // told, and dropped
    a.alloc(8 * 65536);
    expect(seen.length).toBe(2);
  });

  it("says so in one line when memory cannot grow, and keeps what it had", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    const a = new Arena(memory, 1024);
    const p = a.alloc(65536);
    expect(() => a.alloc(2 * 65536)).toThrow(/^core memory: cannot grow to 1 MiB \(one core instance's WebAssembly memory holds at most 4 GiB/);
    expect(a.alloc(8)).toBeGreaterThanOrEqual(p + 65536); // the failed request reserved nothing
    expect(memory.buffer.byteLength).toBe(2 * 65536);
  });
});
