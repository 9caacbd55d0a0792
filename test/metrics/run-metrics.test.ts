// RunMetrics records a start's latency once, in its class's histogram of the
// current series interval; the histograms a result reads (every start, each
// class, every admission with failures at the deadline) and each interval's
// p99 are what recording every value directly would give, also across a
// JSON round trip and the merge of partitions.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LatencyHistogram } from "../../src/metrics/histogram.js";
import { RunMetrics } from "../../src/metrics/run-metrics.js";

const DEADLINE = 500_000_000;

/** A run's events: starts (latency, class 0 F, 1 L, 2 squatter), failures, and series samples. */
type Ev = { start: [number, number] } | { fail: true } | { sample: true };

const events = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.integer({ min: 0, max: DEADLINE }), fc.integer({ min: 0, max: 2 })).map((start): Ev => ({ start })) },
    { weight: 1, arbitrary: fc.constant<Ev>({ fail: true }) },
    { weight: 1, arbitrary: fc.constant<Ev>({ sample: true }) },
  ),
  { maxLength: 200 },
);

function play(m: RunMetrics, evs: Ev[]): { all: LatencyHistogram; started: LatencyHistogram; f: LatencyHistogram; l: LatencyHistogram; p99: (number | null)[] } {
  const all = new LatencyHistogram(), started = new LatencyHistogram(), f = new LatencyHistogram(), l = new LatencyHistogram();
  let win = new LatencyHistogram();
  const p99: (number | null)[] = [];
  let t = 0;
  for (const e of evs) {
    if ("start" in e) {
      const [v, cls] = e.start;
      m.onStart(v, cls);
      for (const h of [all, started, win]) h.record(v);
      if (cls === 0) f.record(v);
      if (cls === 1) l.record(v);
    } else if ("fail" in e) {
      m.onFail(0);
      all.record(DEADLINE);
    } else {
      m.sample((t += 1_000_000), 0, 0);
      p99.push(win.count > 0 ? win.quantile(0.99) / 1e6 : null);
      win = new LatencyHistogram();
    }
  }
  return { all, started, f, l, p99 };
}

const same = (a: LatencyHistogram, b: LatencyHistogram) => expect(JSON.stringify(a.toJSON())).toBe(JSON.stringify(b.toJSON()));

describe("RunMetrics' start latencies", () => {
  it("by class and interval give the histograms and series of recording every value directly", () => {
    fc.assert(fc.property(events, (evs) => {
      const m = new RunMetrics(DEADLINE);
      const ref = play(m, evs);
      same(m.startedHist, ref.started);
      same(m.allHist, ref.all);
      same(m.startedHistF, ref.f);
      same(m.startedHistL, ref.l);
      expect(m.series.map((p) => p.p99StartedMs)).toEqual(ref.p99);
    }), { numRuns: 200 });
  });

  it("survive a JSON round trip and add up across partitions", () => {
    fc.assert(fc.property(events, events, (a, b) => {
      const ma = new RunMetrics(DEADLINE), mb = new RunMetrics(DEADLINE);
      const ra = play(ma, a), rb = play(mb, b);
      const merged = RunMetrics.fromJSON(JSON.parse(JSON.stringify(ma.toJSON())), DEADLINE);
      // the merge adds counts and histograms (series of different lengths are refused; compare those apart)
      const { series: _s, ...counts } = mb.toJSON();
      void _s;
      merged.add({ ...counts, series: merged.series.map((p) => ({ ...p })) });
      ra.all.merge(rb.all); ra.started.merge(rb.started); ra.f.merge(rb.f); ra.l.merge(rb.l);
      same(merged.startedHist, ra.started);
      same(merged.allHist, ra.all);
      same(merged.startedHistF, ra.f);
      same(merged.startedHistL, ra.l);
    }), { numRuns: 100 });
  });
});
