// bench:sim --timeline's chart (bench/timeline.ts) on spans written here:
// where each half's bar lies, its colour and label by its place in the
// batch period, the rows, and the thread timings' flat span lists read back.
// The run that writes one is in test/e2e/bench-sim.test.ts.
import { describe, expect, it } from "vitest";
import { spansOf, timelineSvg, type Span } from "../../bench/timeline.js";
import { halfPhases } from "../../src/run/thread-once.js";

/** Each bar's title and x extent, in document order. */
function bars(svg: string): { title: string; x: number; w: number; fill: string }[] {
  return [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="(#[0-9a-f]{6})"><title>([^<]*)<\/title>/g)]
    .map((m) => ({ x: Number(m[1]), w: Number(m[2]), fill: m[3], title: m[4] }));
}

describe("bench:sim --timeline", () => {
  const spans: Span[] = [
    { thread: 0, kind: 0, half: 16, start: 1000, end: 1002 },
    { thread: 0, kind: 1, half: 17, start: 1002, end: 1003 },
    { thread: 1, kind: 1, half: 17, start: 1001, end: 1010 },
  ];

  it("draws a bar per half on a shared wall-time axis, a row per thread and part", () => {
    const svg = timelineSvg(spans, 8, "two threads <test>")!;
    expect(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    // the title is escaped
    expect(svg).toContain("two threads &lt;test&gt;");
    expect(svg).toContain(">thread 0, the gateway's<");
    expect(svg).toContain(">thread 0, the Zones'<");
    expect(svg).toContain(">thread 1, the Zones'<");
    const b = bars(svg);
    expect(b.map((x) => x.title)).toEqual(["half 16 (place 0): 2.000 ms", "half 17 (place 1): 1.000 ms", "half 17 (place 1): 9.000 ms"]);
    // 10 ms over the plot's 790 pixels from x = 190: the first bar at the left edge, the last reaching the right one
    expect(b[0].x).toBeCloseTo(190, 2);
    expect(b[0].w).toBeCloseTo(158, 2);
    expect(b[2].x + b[2].w).toBeCloseTo(980, 2);
    // the same place, the same colour; another place, another
    expect(b[1].fill).toBe(b[2].fill);
    expect(b[0].fill).not.toBe(b[1].fill);
    // a tick every ms (about ten over the span), labelled from 0
    expect(svg).toMatch(/>0<\/text>/);
    expect(svg).toMatch(/>10<\/text>/);
  });

  it("draws nothing without spans or without a batch period", () => {
    expect(timelineSvg([], 8, "x")).toBeNull();
    expect(timelineSvg(spans, 0, "x")).toBeNull();
  });

  it("reads each thread's flat span list (kind, half, start, end) back, skipping threads without one", () => {
    const a = halfPhases(8), b = halfPhases(8);
    expect(a.spans).toEqual([]);
    a.spans.push(0, 16, 1000, 1002, 1, 17, 1002, 1003);
    b.spans.push(1, 17, 1001, 1010);
    expect(spansOf([a, null, b])).toEqual([spans[0], spans[1], { ...spans[2], thread: 2 }]);
  });
});
