// bench:sim --replay's figures from one threaded run (bench/replay.ts does
// the replaying): computed in the run's own process, where the halves are,
// and handed back as a few numbers.
import type { ThreadTiming } from "../src/run/options.js";
import { durationsOf, measured, phaseMeans, replay, rescaled, splitNodes, type HalfDurations } from "./replay.js";

/** Halves over which --replay's phase means are taken, at least (100 ms at the paper's hop: the cost of a half drifts as the cluster fills). */
export const MEAN_BLOCK_HALVES = 800;

/**
 * The period of the halves' work in halves: the least common multiple of
 * the gateway's batch period and the Zones' snapshot period (each a whole
 * number of halves; 80 at the paper's settings, where every Zone applies
 * its nodes' reports and publishes a version every 10 ms), or the batch
 * period alone where that is larger than 1,000 halves or not whole; 0 when
 * the batch period is not a whole number of halves either.
 */
export function workPeriod(halfNs: number, batchNs: number, broadcastNs: number): number {
  const whole = (x: number) => (Number.isInteger(x) && x >= 1 ? x : 0);
  const b = whole(batchNs / halfNs), s = whole(broadcastNs / halfNs);
  if (b === 0) return 0;
  if (s === 0) return b;
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  const l = (b / gcd(b, s)) * s;
  return l <= 1000 ? l : b;
}

/** The gateway shares --replay prints a column for (thread 0 holds (1/W - g) / (1 - g) of the nodes). */
export const PRINTED_SHARES = [0.02, 0.06, 0.1, 0.14, 0.18, 0.22, 0.26, 0.3];

export interface ReplaySummary {
  threads: number;
  halves: number;
  /** Thread 0's share of the nodes in the run, and the gateway share that gives it. */
  firstShare: number;
  gatewayShare: number;
  /** All the halves' time over the threads (ms): the wall time of a perfect balance, no thread ever waiting. */
  workMs: number;
  /** The run as recorded, and the schedule's rule replayed on its halves unchanged (ms; waits per thread). */
  measured: { wallMs: number; waitMs: number[] };
  replayed: { wallMs: number; waitMs: number[] };
  /** workPeriod's period the phase means are taken over (0: none). */
  period: number;
  /** Replayed wall time (ms) with thread 0's share set by each gateway share g, the halves as measured and at their phase's mean (null: no period). */
  byShare: { gatewayShare: number; wallMs: number; meanMs: number | null }[];
  /** The best gateway share from 0 to 0.4 in steps of 0.01, for the measured halves and for the phase means. */
  best: { gatewayShare: number; wallMs: number };
  bestMean: { gatewayShare: number; wallMs: number } | null;
}

/** The gateway share g that gives thread 0 the share `first` of the nodes on W threads (firstShare's inverse). */
const shareOf = (first: number, W: number) => (1 / W - first) / (1 - first);

/** The shares replayed: 0 to 0.40 in steps of 0.01 (PRINTED_SHARES among them, as the same doubles). */
const FINE_SHARES = Array.from({ length: 41 }, (_, i) => i / 100);

/**
 * Every kept half of a threaded run, replayed (needs ThreadTiming.halves and
 * .nodes on every thread); `firstShare` is the run's own split
 * (src/run/thread-once.ts), thread 0's share of the nodes on W threads for
 * a gateway share g.
 */
export function replaySummary(timing: ThreadTiming[], period: number, firstShare: (W: number, g: number) => number): ReplaySummary {
  const halves = timing.map((t) => t.halves!);
  const nodes = timing.map((t) => t.nodes ?? 0), N = nodes.reduce((a, x) => a + x, 0), W = timing.length;
  const d = durationsOf(halves);
  const flat = period > 0 ? phaseMeans(d, period, Math.max(1, Math.round(MEAN_BLOCK_HALVES / period))) : null;
  // each share's replayed wall time, once for every share: the printed columns and the best are read from it
  const byShareOf = (x: HalfDurations) => new Map(FINE_SHARES.map((g) => [g, replay(rescaled(x, nodes, splitNodes(N, W, firstShare(W, g)))).wallMs]));
  const bestOf = (m: Map<number, number>) => [...m].map(([gatewayShare, wallMs]) => ({ gatewayShare, wallMs })).reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const measuredShares = byShareOf(d), meanShares = flat === null ? null : byShareOf(flat);
  const first = nodes[0] / N;
  return {
    threads: W,
    halves: d.gateway.length,
    period,
    firstShare: first,
    workMs: [d.gateway, ...d.zones].reduce((a, x) => a + x.reduce((b, y) => b + y, 0), 0) / W,
    gatewayShare: shareOf(first, W),
    measured: measured(halves),
    replayed: replay(d),
    byShare: PRINTED_SHARES.map((g) => ({ gatewayShare: g, wallMs: measuredShares.get(g)!, meanMs: meanShares === null ? null : meanShares.get(g)! })),
    best: bestOf(measuredShares),
    bestMean: meanShares === null ? null : bestOf(meanShares),
  };
}

/** The summary as a few lines for the round's report. */
export function replayText(s: ReplaySummary): string {
  const sec = (ms: number) => (ms / 1000).toFixed(2);
  const pct = (w: number[], wall: number) => w.map((x) => `${((100 * x) / wall).toFixed(1)}%`).join(", ");
  const row = (name: string, xs: (number | null)[]) => `  ${name.padEnd(44)}${xs.map((x) => (x === null ? "-" : sec(x)).padStart(7)).join("")}\n`;
  return `replay of every half (${s.halves} a kind): measured ${sec(s.measured.wallMs)} s from the first half to the last, ` +
    `the threads waiting ${pct(s.measured.waitMs, s.measured.wallMs)}; the schedule's rule on the same halves ${sec(s.replayed.wallMs)} s ` +
    `(${(s.replayed.wallMs / s.measured.wallMs).toFixed(3)} of measured), waiting ${pct(s.replayed.waitMs, s.replayed.wallMs)}; ` +
    `thread 0 held ${(100 * s.firstShare).toFixed(1)}% of the nodes (gateway share ${s.gatewayShare.toFixed(3)})\n` +
    `  ${"gateway share".padEnd(44)}${s.byShare.map((b) => b.gatewayShare.toFixed(2).padStart(7)).join("")}\n` +
    row("replayed, s", s.byShare.map((b) => b.wallMs)) +
    row(`each half at its phase's mean (${s.period} halves), s`, s.byShare.map((b) => b.meanMs)) +
    `  best share ${s.best.gatewayShare.toFixed(2)} (${sec(s.best.wallMs)} s)` +
    (s.bestMean === null ? "" : `; with each half at its phase's mean ${s.bestMean.gatewayShare.toFixed(2)} (${sec(s.bestMean.wallMs)} s)`) +
    `; all the halves' time over ${s.threads} threads ${sec(s.workMs)} s\n`;
}
