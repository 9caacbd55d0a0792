// Progress: rate limiting, bar/percent/ETA text, silence when disabled, the
// final line and newline, truncation to the width, and total = 0.
import { describe, expect, it } from "vitest";
import { formatDuration, plainEveryMsDefault, Progress, type ProgressOptions } from "../../src/cli/progress.js";

/** A fake stream that records writes, and a clock the test moves by hand. */
function setup(opts: Partial<ProgressOptions> = {}, stream: { isTTY?: boolean; columns?: number } = { isTTY: true }) {
  const writes: string[] = [];
  const fake = { ...stream, write: (s: string) => void writes.push(s) };
  const clock = { t: 1000 };
  const p = new Progress({ total: 100, label: "sim", now: () => clock.t, ...opts }, fake);
  /** The last drawn line, without the leading \r and trailing padding. */
  const last = () => (writes.filter((w) => w.startsWith("\r")).at(-1) ?? "").slice(1).trimEnd();
  return { p, writes, clock, last };
}

describe("formatDuration", () => {
  it("formats seconds, minutes and hours", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(7_400)).toBe("7s");
    expect(formatDuration(65_000)).toBe("1m05s");
    expect(formatDuration(7_387_000)).toBe("2h03m07s");
    expect(formatDuration(NaN)).toBe("--");
    expect(formatDuration(Infinity)).toBe("--");
  });
});

describe("Progress", () => {
  it("draws the first update at once, then at most every minIntervalMs", () => {
    const { p, writes, clock } = setup({ minIntervalMs: 250 });
    p.update(1);
    expect(writes).toHaveLength(1);
    clock.t += 100;
    p.update(2);
    clock.t += 149;
    p.update(3);
    expect(writes).toHaveLength(1);
    clock.t += 1;
    p.update(4);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain("  4.0%");
    for (const w of writes) {
      expect(w.startsWith("\r")).toBe(true);
      expect(w).not.toContain("\n");
    }
  });

  it("shows label, bar, percent, elapsed, a linear ETA and the extra text", () => {
    const { p, clock, last } = setup();
    clock.t += 65_000; // 65 s for a quarter: 195 s to go
    p.update(25, "1234 ev/s");
    expect(last()).toBe("sim [#####---------------]  25.0% 1m05s ETA 3m15s 1234 ev/s");
  });

  it("shows an unknown ETA before any progress, and clamps done to [0, total]", () => {
    const { p, clock, last } = setup({ minIntervalMs: 0 });
    clock.t += 5_000;
    p.update(0);
    expect(last()).toBe("sim [--------------------]   0.0% 5s ETA --");
    p.update(-3);
    expect(last()).toContain("  0.0%");
    p.update(250);
    expect(last()).toBe("sim [####################] 100.0% 5s ETA 0s");
  });

  it("finish draws the 100% line and one newline", () => {
    const { p, writes, clock, last } = setup();
    p.update(10);
    clock.t += 42_000;
    p.finish("done");
    expect(writes.at(-1)).toBe("\n");
    expect(last()).toBe("sim [####################] 100.0% 42s ETA 0s done");
    // Finishing ignores the rate limit, and later calls write nothing.
    const n = writes.length;
    p.update(50);
    p.finish();
    expect(writes).toHaveLength(n);
  });

  it("finish writes nothing when nothing was drawn", () => {
    const { p, writes } = setup();
    p.finish();
    expect(writes).toEqual([]);
  });

  it("writes nothing at all when disabled", () => {
    const { p, writes } = setup({ enabled: false });
    p.update(1);
    p.update(50, "x");
    p.finish("y");
    expect(writes).toEqual([]);
  });

  it("is on by default: a bar on a terminal, plain lines anywhere else or on a 0-column terminal", () => {
    expect(setup({}, { isTTY: true }).p.mode).toBe("bar");
    expect(setup({}, { isTTY: false }).p.mode).toBe("plain");
    expect(setup({}, {}).p.mode).toBe("plain");
    expect(setup({}, { isTTY: true, columns: 0 }).p.mode).toBe("plain");
    for (const stream of [{ isTTY: true }, {}]) expect(setup({}, stream).p.enabled).toBe(true);
  });

  it("off a terminal, writes a plain line with the ETA every plainEveryMs, the first after one interval", () => {
    const { p, writes, clock } = setup({ plainEveryMs: 10_000 }, { isTTY: false });
    p.update(5);
    clock.t += 9_999;
    p.update(10);
    expect(writes).toEqual([]); // a short run prints nothing
    clock.t += 1;
    p.update(25, "3/12 points");
    expect(writes).toEqual(["sim 25.0% elapsed 10s ETA 30s 3/12 points\n"]);
    clock.t += 5_000;
    p.update(40);
    expect(writes).toHaveLength(1);
    clock.t += 5_000;
    p.update(50);
    expect(writes[1]).toBe("sim 50.0% elapsed 20s ETA 20s\n");
    p.finish();
    expect(writes[2]).toBe("sim 100.0% elapsed 20s ETA 0s\n");
    expect(writes.join("")).not.toContain("\r");
  });

  it("on a terminal that reports 0 columns, a plain line rather than an empty one", () => {
    const { p, writes, clock } = setup({ plainEveryMs: 1000 }, { isTTY: true, columns: 0 });
    clock.t += 1000;
    p.update(50);
    expect(writes).toEqual(["sim 50.0% elapsed 1s ETA 1s\n"]);
  });

  it("takes the plain interval from LAMINAR_PROGRESS_EVERY_S, else 30 s", () => {
    expect(plainEveryMsDefault({})).toBe(30_000);
    expect(plainEveryMsDefault({ LAMINAR_PROGRESS_EVERY_S: "5" })).toBe(5_000);
    expect(plainEveryMsDefault({ LAMINAR_PROGRESS_EVERY_S: "x" })).toBe(30_000);
  });

  it("keeps lines shorter than the width, from the option or the stream's columns", () => {
    const long = "x".repeat(200);
    const a = setup({ width: 30 });
    a.p.update(50, long);
    expect(a.last().length).toBe(29);
    const b = setup({}, { isTTY: true, columns: 50 });
    b.p.update(50, long);
    b.p.finish(long);
    expect(b.writes.every((w) => w.replace(/^\r/, "").replace(/\n$/, "").length <= 49)).toBe(true);
    const c = setup({}, { isTTY: true });
    c.p.update(50, long);
    expect(c.last().length).toBe(79);
    const tiny = setup({ width: 1 });
    tiny.p.update(50);
    expect(tiny.writes).toEqual(["\r"]);
  });

  it("pads over the rest of a longer previous line", () => {
    const { p, writes } = setup({ minIntervalMs: 0 });
    p.update(10, "a long extra text");
    p.update(20);
    expect(writes[1].length).toBe(writes[0].length);
    expect(writes[1].trimEnd()).toBe(writes[1].slice(0, writes[1].trimEnd().length));
  });

  it("keeps extra text on one line", () => {
    const { p, last } = setup();
    p.update(10, "a\nb\rc");
    expect(last()).toMatch(/ a b c$/);
  });

  it("never throws on total = 0 (or nonsense totals)", () => {
    for (const total of [0, -5, NaN, Infinity]) {
      const { p, writes, last } = setup({ total });
      expect(() => {
        p.update(0);
        p.update(10);
        p.finish();
      }).not.toThrow();
      expect(last()).toContain("100.0%");
      expect(writes.at(-1)).toBe("\n");
    }
  });

  it("defaults to process.stderr and the real clock", () => {
    const p = new Progress({ total: 10, label: "x", enabled: false });
    expect(() => {
      p.update(5);
      p.finish();
    }).not.toThrow();
  });
});
