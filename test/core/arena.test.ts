// The arena lays out buffers above heapBase, grows memory on demand, and its
// typed views follow the memory when growing detaches the old buffer.
import { describe, expect, it } from "vitest";
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
});
