// The gateway side run once for every partition (docs/parallel.md, "The
// gateway once"). One instance, holding no Zone, runs the gateway side and
// records what it does to the Zones: each event it posts (its own next
// batches, sweeps, timers, series samples), each batch of DAs it hands
// over (the Zone engine's emission records, each DA's launchpad drawn: every
// Zone partition takes those of its own nodes), and each answer of the
// proxy. The partitions that hold the Zones run no gateway side of their
// own: they replay its record behind their own run (log-replay.ts). Only the gateway's events schedule
// gateway events, so a partition knows each of them, in the gateway's own
// (time, sequence) order, from the record of the event that posted it; each
// event's records start with the event itself, which the replay checks.
//
// The log holds one window's records at a time (one half window's on
// threads), and the proxy's answers in message order.

import { growTyped } from "../sim/slot-store.js";

/** Record kinds: an event of the gateway's starts; a post; a batch of DAs handed over (to any Zone). */
export const OP_EVENT = 1, OP_POST = 2, OP_BATCH = 3;
/** Words of each record: kind, then (time, kind, subject); (time, kind, subject); the count n and n emission records. */
const WORDS = [0, 4, 4, 2];
/** Words of an emission record in a batch: the Zone engine's (src/core/engine-layout.ts EMIT_BYTES), launchpad drawn. */
export const EMIT_WORDS = 8;

export class GatewayLog {
  ops: Float64Array<ArrayBufferLike> = new Float64Array(1024);
  n = 0;
  /** The proxy's answers, in the order of the pull requests: DA, Zone, verdict. */
  verdicts: Float64Array<ArrayBufferLike> = new Float64Array(384);
  nv = 0;

  private room(words: number): number {
    if (this.n + words > this.ops.length) this.ops = growTyped(this.ops, Math.max(this.ops.length * 2, this.n + words));
    const at = this.n;
    this.n += words;
    return at;
  }

  /** A record of (time, kind, subject): an event's start or a post. */
  private triple(op: number, time: number, kind: number, subject: number): void {
    const at = this.room(4), o = this.ops;
    o[at] = op; o[at + 1] = time; o[at + 2] = kind; o[at + 3] = subject;
  }

  event(time: number, kind: number, subject: number): void {
    this.triple(OP_EVENT, time, kind, subject);
  }

  post(time: number, kind: number, subject: number): void {
    this.triple(OP_POST, time, kind, subject);
  }

  /**
   * The gateway's batch handed over: n emission records at word `at` of
   * `src` (the engine's staging, engineDispatchAll's output: each DA's
   * launchpad drawn, -1 for one lost on the hop), copied whole, bit for bit.
   */
  batch(src: Float64Array<ArrayBufferLike>, at: number, n: number): void {
    const to = this.room(2 + EMIT_WORDS * n); // first: room() may replace ops
    this.ops[to] = OP_BATCH;
    this.ops[to + 1] = n;
    this.ops.set(src.subarray(at, at + EMIT_WORDS * n), to + 2);
  }

  /** n answers (DA, Zone, verdict triples) at word `at` of `src`, in order (the engine's drain: model.ts drainLogged). */
  verdictsFrom(src: Float64Array<ArrayBufferLike>, at: number, n: number): void {
    while (this.nv + 3 * n > this.verdicts.length) this.verdicts = growTyped(this.verdicts, this.verdicts.length * 2);
    this.verdicts.set(src.subarray(at, at + 3 * n), this.nv);
    this.nv += 3 * n;
  }

  /** The end of a window: every Zone partition has replayed it (log-replay.ts), and the log starts again empty. */
  endWindow(): void {
    this.n = 0;
    this.nv = 0;
  }
}

/** Words of the record at `at` of `ops`. */
export function opWords(ops: Float64Array<ArrayBufferLike>, at: number): number {
  return ops[at] === OP_BATCH ? 2 + EMIT_WORDS * ops[at + 1] : WORDS[ops[at]];
}

/** A Zone partition's view of the gateway's log: the log it replays (log-replay.ts). */
export class LogReader {
  constructor(readonly log: GatewayLog) {}
}
