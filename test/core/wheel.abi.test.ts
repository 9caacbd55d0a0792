// Timing-wheel ABI: every bad argument of every export gives its status code,
// never traps, and leaves the region (and the output buffer) unchanged.
import { describe, expect, it } from "vitest";
import { loadCore, type Core, type Flavor } from "../../src/core/wasm.js";
import { CoreError, Status } from "../../src/core/status.js";
import { TimingWheel, wheelBytes as twinBytes, WHEEL_LAYOUT } from "../../src/core/reference/wheel.js";

const BAD_TICKS = [NaN, -1, -0.5, 0.5, Infinity, -Infinity, 2 ** 53, 1e300];

function setup(flavor: Flavor, capacity: number, now: number): { core: Core; w: number; bytes: number; snap: () => string } {
  const core = loadCore(flavor);
  const bytes = core.exports.wheelBytes(capacity);
  core.arena.alloc(64, 8); // keep w - 8 above heapBase (an overlap test uses it)
  const w = core.arena.alloc(bytes, 8);
  expect(core.exports.wheelInit(w, capacity, now)).toBe(0);
  const snap = () => Buffer.from(core.arena.u8.subarray(w, w + bytes)).toString("hex");
  return { core, w, bytes, snap };
}

describe.each(["simd", "scalar"] as const)("wheel ABI errors (%s)", (flavor) => {
  const make = (capacity = 8, now = 10) => setup(flavor, capacity, now);

  it("wheelBytes: 1616 + 20 per id, rounded to 8; E_COUNT outside [0, 2^26]", () => {
    const { core } = make();
    const x = core.exports;
    expect(x.wheelBytes(0)).toBe(1616);
    expect(x.wheelBytes(1)).toBe(1640);
    expect(x.wheelBytes(2)).toBe(1656);
    expect(x.wheelBytes(2 ** 26)).toBe(1616 + 20 * 2 ** 26);
    expect(x.wheelBytes(-1)).toBe(Status.E_COUNT);
    expect(x.wheelBytes(2 ** 26 + 1)).toBe(Status.E_COUNT);
    for (const c of [0, 1, 2, 3, 1000, 2 ** 26]) expect(twinBytes(c)).toBe(x.wheelBytes(c));
    expect(twinBytes(-1)).toBe(Status.E_COUNT);
  });

  it("wheelInit validates the region, capacity and time before writing", () => {
    const { core } = make();
    const x = core.exports;
    const bytes = x.wheelBytes(4);
    const p = core.arena.alloc(bytes + 64, 8);
    core.arena.u8.fill(0xab, p, p + bytes + 64);
    const before = Buffer.from(core.arena.u8.subarray(p, p + bytes + 64)).toString("hex");
    expect(x.wheelInit(0, 4, 0)).toBe(Status.E_NULL);
    expect(x.wheelInit(x.heapBase() - 8, 4, 0)).toBe(Status.E_NULL);
    expect(x.wheelInit(p + 4, 4, 0)).toBe(Status.E_ALIGN);
    expect(x.wheelInit(x.memoryBytes() - 8, 4, 0)).toBe(Status.E_BOUNDS);
    expect(x.wheelInit(x.memoryBytes() - bytes + 8, 4, 0)).toBe(Status.E_BOUNDS);
    expect(x.wheelInit(p, -1, 0)).toBe(Status.E_COUNT);
    expect(x.wheelInit(p, 2 ** 26 + 1, 0)).toBe(Status.E_COUNT);
    for (const t of BAD_TICKS) expect(x.wheelInit(p, 4, t), `now ${t}`).toBe(Status.E_ARG);
    expect(Buffer.from(core.arena.u8.subarray(p, p + bytes + 64)).toString("hex")).toBe(before);
    expect(x.wheelInit(x.memoryBytes() - bytes, 4, 0)).toBe(0); // exactly at the end of memory
    expect(x.wheelInit(p, 4, 2 ** 53 - 1)).toBe(0);
    expect(x.wheelNow(p)).toBe(2 ** 53 - 1);
    expect(core.arena.u8[p + bytes]).toBe(0xab); // nothing past the region
  });

  it("every export rejects a bad or uninitialised region", () => {
    const { core, w } = make();
    const x = core.exports;
    const zero = core.arena.alloc(x.wheelBytes(8), 8); // never initialised: no magic word
    const out = core.arena.alloc(64, 4);
    const calls: Array<[string, (p: number) => number]> = [
      ["schedule", (p) => x.wheelSchedule(p, 0, 20)],
      ["reschedule", (p) => x.wheelReschedule(p, 0, 20)],
      ["cancel", (p) => x.wheelCancel(p, 0)],
      ["advance", (p) => x.wheelAdvance(p, 20, out, 16)],
      ["nextDeadline", (p) => x.wheelNextDeadline(p)],
      ["deadlineOf", (p) => x.wheelDeadlineOf(p, 0)],
      ["pending", (p) => x.wheelPending(p)],
      ["now", (p) => x.wheelNow(p)],
    ];
    for (const [name, f] of calls) {
      expect(f(0), name).toBe(Status.E_NULL);
      expect(f(x.heapBase() - 8), name).toBe(Status.E_NULL);
      expect(f(w + 4), name).toBe(Status.E_ALIGN);
      expect(f(x.memoryBytes() - 8), name).toBe(Status.E_BOUNDS);
      expect(f(zero), name).toBe(Status.E_ARG);
    }
    // A header whose capacity no longer fits in memory is caught before any access.
    const hdr = core.arena.alloc(1616, 8);
    expect(x.wheelInit(hdr, 0, 0)).toBe(0);
    core.arena.i32[(hdr >> 2) + 1] = 2 ** 26;
    expect(x.wheelSchedule(hdr, 0, 20)).toBe(Status.E_BOUNDS);
    core.arena.i32[(hdr >> 2) + 1] = -3;
    expect(x.wheelPending(hdr)).toBe(Status.E_ARG);
  });

  it("schedule, reschedule, cancel, deadlineOf: bad ids and ticks change nothing", () => {
    const { core, w, snap } = make(8, 10);
    const x = core.exports;
    expect(x.wheelSchedule(w, 2, 500)).toBe(0);
    const s0 = snap();
    for (const id of [-1, 8, 2 ** 31 - 1, -(2 ** 31)]) {
      expect(x.wheelSchedule(w, id, 20)).toBe(Status.E_ID);
      expect(x.wheelReschedule(w, id, 20)).toBe(Status.E_ID);
      expect(x.wheelCancel(w, id)).toBe(Status.E_ID);
      expect(x.wheelDeadlineOf(w, id)).toBe(Status.E_ID);
    }
    for (const t of BAD_TICKS) {
      expect(x.wheelSchedule(w, 0, t), `${t}`).toBe(Status.E_ARG);
      expect(x.wheelReschedule(w, 2, t), `${t}`).toBe(Status.E_ARG);
    }
    expect(x.wheelSchedule(w, 2, 600)).toBe(Status.E_CONFLICT);
    expect(x.wheelSchedule(w, 0, 10 + 2 ** 36)).toBe(Status.E_HORIZON);
    expect(x.wheelReschedule(w, 2, 10 + 2 ** 36)).toBe(Status.E_HORIZON);
    expect(snap()).toBe(s0);
    expect(x.wheelDeadlineOf(w, 2)).toBe(500);
    expect(x.wheelDeadlineOf(w, 3)).toBe(Infinity);
  });

  it("advance: bad out buffer, count, overlap and time change nothing", () => {
    const { core, w, bytes, snap } = make(8, 10);
    const x = core.exports;
    expect(x.wheelSchedule(w, 1, 15)).toBe(0);
    const out = core.arena.alloc(64, 4);
    core.arena.i32.fill(-7, out >> 2, (out >> 2) + 16);
    const s0 = snap();
    expect(x.wheelAdvance(w, 20, out, -1)).toBe(Status.E_COUNT);
    expect(x.wheelAdvance(w, 20, 0, 4)).toBe(Status.E_NULL);
    expect(x.wheelAdvance(w, 20, 0, 0)).toBe(Status.E_NULL); // null even when nothing would be written
    expect(x.wheelAdvance(w, 20, x.heapBase() - 4, 1)).toBe(Status.E_NULL);
    expect(x.wheelAdvance(w, 20, out + 2, 4)).toBe(Status.E_ALIGN);
    expect(x.wheelAdvance(w, 20, x.memoryBytes() - 8, 4)).toBe(Status.E_BOUNDS);
    expect(x.wheelAdvance(w, 20, w + 16, 4)).toBe(Status.E_ARG); // out inside the region
    expect(x.wheelAdvance(w, 20, w - 8, 4)).toBe(Status.E_ARG); // out runs into the region
    for (const t of BAD_TICKS) expect(x.wheelAdvance(w, t, out, 4), `${t}`).toBe(Status.E_ARG);
    expect(x.wheelAdvance(w, 9, out, 4)).toBe(Status.E_ARG); // backwards
    expect(snap()).toBe(s0);
    expect(Array.from(core.arena.i32.subarray(out >> 2, (out >> 2) + 16))).toEqual(Array(16).fill(-7));
    expect(x.wheelAdvance(w, 10, out, 0)).toBe(0); // same time, zero capacity: fine
    expect(x.wheelAdvance(w, 20, out, 1)).toBe(1);
    expect(core.arena.i32[out >> 2]).toBe(1);
    expect(core.arena.i32[(out >> 2) + 1]).toBe(-7); // nothing past what was returned
    // out right after the region touches it but does not overlap
    const after = w + bytes;
    if (after + 16 <= x.memoryBytes()) expect(x.wheelAdvance(w, 30, after, 4)).toBe(0);
  });

  it("a full slot list never writes past outCap", () => {
    const { core, w } = make(100, 0);
    const x = core.exports;
    for (let id = 99; id >= 0; id--) expect(x.wheelSchedule(w, id, 5)).toBe(0);
    const out = core.arena.alloc(4 * 12, 4);
    core.arena.i32.fill(-7, out >> 2, (out >> 2) + 12);
    expect(x.wheelAdvance(w, 5, out, 10)).toBe(10);
    const got = Array.from(core.arena.i32.subarray(out >> 2, (out >> 2) + 12));
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -7, -7]);
    expect(x.wheelPending(w)).toBe(90);
    expect(x.wheelNextDeadline(w)).toBe(5);
  });
});

describe("TypeScript twin argument errors", () => {
  it("constructor throws CoreError as wheelInit would return", () => {
    expect(() => new TimingWheel(-1)).toThrow(CoreError);
    expect(() => new TimingWheel(1.5)).toThrow(CoreError);
    expect(() => new TimingWheel(4, NaN)).toThrow(CoreError);
    expect(() => new TimingWheel(4, -1)).toThrow(CoreError);
    try { new TimingWheel(-1); } catch (e) { expect((e as CoreError).code).toBe(Status.E_COUNT); }
    try { new TimingWheel(4, 0.5); } catch (e) { expect((e as CoreError).code).toBe(Status.E_ARG); }
  });
  it("non-integer ids are E_ID, an out array shorter than outCap is E_BOUNDS", () => {
    const t = new TimingWheel(4, 0);
    expect(t.schedule(1.5, 10)).toBe(Status.E_ID);
    expect(t.cancel(NaN)).toBe(Status.E_ID);
    expect(t.levelOf(9)).toBe(Status.E_ID);
    expect(t.advance(5, new Int32Array(2), 3)).toBe(Status.E_BOUNDS);
    expect(t.advance(5, new Int32Array(2), 1.5)).toBe(Status.E_COUNT);
    expect(t.advance(5, new Int32Array(2), -1)).toBe(Status.E_COUNT);
    expect(t.bytes.length).toBe(twinBytes(4));
    expect(new DataView(t.bytes.buffer).getUint32(WHEEL_LAYOUT.magic, true)).toBe(0x4c57484c);
  });
});
