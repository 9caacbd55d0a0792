// bench:sim --replay: a threaded run's half windows, every one of them timed
// (ThreadTiming.halves), replayed through the threads' schedule
// (src/run/thread-once.ts) with other splits of the Zones and with the
// halves' spread taken out. The replay is a small discrete-event model of
// the schedule's rule alone: thread 0 runs the gateway's half j once every
// Zone partition has published half j - 2, else its own Zones' half k once
// the gateway has published half k - 2, else waits; every other thread runs
// its Zones' halves on the same condition. A half takes the time it took in
// the run, rescaled by the nodes its partition would hold. What the replay
// leaves out (what the threads cost each other on shared cores, a half's
// time moving with the split) is why it is read against the run it replays
// first: the measured halves, replayed unchanged, should give back about the
// measured wall time and waits (docs/parallel.md, "Where the threads wait").
import type { HalfTimes } from "../src/run/options.js";

/** The time each half of each kind took (ms): the gateway's (thread 0) and each Zone partition's, in thread order. */
export interface HalfDurations {
  gateway: Float64Array;
  zones: Float64Array[];
}

/** What a replay gives: from the first half's start to the last half's end, and each thread's waiting before its halves (ms). */
export interface Replayed {
  wallMs: number;
  waitMs: number[];
}

/** Each kind's durations from the threads' recorded halves (start, end pairs by half index); missing halves take 0. */
export function durationsOf(halves: HalfTimes[]): HalfDurations {
  const dur = (t: Float64Array): Float64Array => {
    const d = new Float64Array(t.length >> 1);
    for (let k = 0; k < d.length; k++) {
      const a = t[2 * k], b = t[2 * k + 1];
      d[k] = Number.isFinite(a) && Number.isFinite(b) ? Math.max(0, b - a) : 0;
    }
    return d;
  };
  const g = halves[0]?.gateway;
  if (g == null) throw new Error("replay: thread 0 kept no gateway halves (a threaded run with the gateway once keeps them)");
  const zones = halves.map((h) => dur(h.zones));
  const K = Math.min(g.length >> 1, ...zones.map((z) => z.length));
  return { gateway: dur(g).subarray(0, K), zones: zones.map((z) => z.subarray(0, K)) };
}

/** The run as recorded: from the first half's start to the last half's end, and each thread's gaps between its halves (ms). */
export function measured(halves: HalfTimes[]): Replayed {
  let first = Infinity, last = -Infinity;
  const waitMs = halves.map((h) => {
    // this thread's halves in the order it ran them
    const spans: [number, number][] = [];
    for (const t of h.gateway === null ? [h.zones] : [h.gateway, h.zones]) {
      for (let k = 0; 2 * k + 1 < t.length; k++) if (Number.isFinite(t[2 * k])) spans.push([t[2 * k], t[2 * k + 1]]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    let w = 0;
    for (let i = 0; i < spans.length; i++) {
      first = Math.min(first, spans[i][0]);
      last = Math.max(last, spans[i][1]);
      if (i > 0) w += Math.max(0, spans[i][0] - spans[i - 1][1]);
    }
    return w;
  });
  return { wallMs: last - first, waitMs };
}

/**
 * The schedule's rule (thread-once.ts runUntil) on given durations: thread
 * 0 runs the gateway's halves and Zone partition 0's, thread p > 0 Zone
 * partition p's; all start at 0. A half runs as soon as its thread is free
 * and what it needs is published: the gateway's half j every partition's
 * half j - 2, a Zone half k the gateway's half k - 2; thread 0 takes the
 * gateway's half first when both may run.
 */
export function replay(d: HalfDurations): Replayed {
  const W = d.zones.length, K = d.gateway.length;
  if (W < 1 || d.zones.some((z) => z.length !== K)) throw new Error("replay: every partition needs one duration a half, as many as the gateway's");
  const gPub = new Float64Array(K).fill(Infinity);
  const zPub = d.zones.map(() => new Float64Array(K).fill(Infinity));
  const zNext = new Array<number>(W).fill(0);
  let gNext = 0;
  const free = new Array<number>(W).fill(0), waitMs = new Array<number>(W).fill(0);
  const done = (t: number) => zNext[t] >= K && (t !== 0 || gNext >= K);
  // half n of the gateway, or of every partition, published by time T (n < 0: nothing needed)
  const gateOk = (n: number, T: number) => n < 0 || gPub[n] <= T;
  const zonesOk = (n: number, T: number) => n < 0 || zPub.every((z) => z[n] <= T);
  /** Thread t runs its next half that may run at T, if any. */
  const tryRun = (t: number, T: number): boolean => {
    if (t === 0 && gNext < K && zonesOk(gNext - 2, T)) {
      gPub[gNext] = T + d.gateway[gNext];
      free[0] = gPub[gNext++];
      return true;
    }
    if (zNext[t] < K && gateOk(zNext[t] - 2, T)) {
      const k = zNext[t]++;
      zPub[t][k] = T + d.zones[t][k];
      free[t] = zPub[t][k];
      return true;
    }
    return false;
  };
  for (;;) {
    // the earliest time a thread with halves left is free; one of the threads free then runs a half, in thread order
    let T = Infinity;
    for (let i = 0; i < W; i++) if (!done(i)) T = Math.min(T, free[i]);
    if (T === Infinity) break;
    let ran = false;
    for (let i = 0; i < W && !ran; i++) if (!done(i) && free[i] === T) ran = tryRun(i, T);
    if (ran) continue;
    // none of them may run yet: they wait for the next moment anything is published (a thread done may still be
    // running its last half)
    let next = Infinity;
    for (let i = 0; i < W; i++) if (free[i] > T) next = Math.min(next, free[i]);
    if (next === Infinity) throw new Error(`replay: the threads wait at ${T} ms for halves nobody will run`);
    for (let i = 0; i < W; i++) {
      if (done(i) || free[i] !== T) continue;
      waitMs[i] += next - T;
      free[i] = next;
    }
  }
  return { wallMs: Math.max(...free), waitMs };
}

/** The durations with each Zone partition's halves scaled to `nodes[p]` nodes from the `was[p]` it ran with (none: 0). */
export function rescaled(d: HalfDurations, was: number[], nodes: number[]): HalfDurations {
  return {
    gateway: d.gateway,
    zones: d.zones.map((z, p) => z.map((x) => (was[p] > 0 ? (x * nodes[p]) / was[p] : 0))),
  };
}

/**
 * The durations with every half at the mean of its kind and place in the
 * work's period (`period` halves: replay-summary.ts workPeriod) over blocks
 * of `block` periods (the run's cost a half drifts as the cluster fills):
 * the schedule without the halves' spread.
 */
export function phaseMeans(d: HalfDurations, period: number, block: number): HalfDurations {
  const flat = (x: Float64Array): Float64Array => {
    const out = new Float64Array(x.length), span = period * block;
    for (let b0 = 0; b0 < x.length; b0 += span) {
      const b1 = Math.min(x.length, b0 + span);
      for (let ph = 0; ph < period; ph++) {
        let s = 0, n = 0;
        for (let k = b0 + ph; k < b1; k += period) { s += x[k]; n++; }
        for (let k = b0 + ph; k < b1; k += period) out[k] = s / n;
      }
    }
    return out;
  };
  return { gateway: flat(d.gateway), zones: d.zones.map(flat) };
}

/** Partition nodes for W threads with thread 0's share first (the rest even), of N nodes in all (as fractions, not whole Zones). */
export function splitNodes(N: number, W: number, first: number): number[] {
  return Array.from({ length: W }, (_, p) => (p === 0 ? first * N : ((1 - first) * N) / (W - 1)));
}
