// The gateway side run once for every partition (docs/parallel.md, "The
// gateway once"). One instance, holding no Zone, runs the gateway side and
// records what it does to the Zones: each event it posts (its own next
// batches, sweeps, timers, series samples), each DA it emits, with the
// batch's hand-over, and each answer of the proxy. The partitions that hold
// the Zones run no gateway side of their own: they replay its record behind
// their own run (log-replay.ts). Only the gateway's events schedule
// gateway events, so a partition knows each of them, in the gateway's own
// (time, sequence) order, from the record of the event that posted it; each
// event's records start with the event itself, which the replay checks.
//
// The log holds one window's records at a time (one half window's on
// threads), and the proxy's answers in message order.

import { growTyped } from "../sim/slot-store.js";

/** Record kinds: an event of the gateway's starts; a post; a DA emitted (to any Zone); the batch handed over. */
export const OP_EVENT = 1, OP_POST = 2, OP_EMIT = 3, OP_FLUSH = 4;
/** Words of each record: kind, then (time, kind, subject); (time, kind, subject); 13 of an emission; none. */
const WORDS = [0, 4, 4, 14, 1];

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

  emit(z: number, task: number, node: number, cls: number, m: number, emitted: number, arrival: number, ev: number, budget: number, service: number, key: number, flags: number, declaredGiB: number): void {
    const at = this.room(14), o = this.ops;
    o[at] = OP_EMIT; o[at + 1] = z; o[at + 2] = task; o[at + 3] = node; o[at + 4] = cls; o[at + 5] = m; o[at + 6] = emitted;
    o[at + 7] = arrival; o[at + 8] = ev; o[at + 9] = budget; o[at + 10] = service; o[at + 11] = key; o[at + 12] = flags; o[at + 13] = declaredGiB;
  }

  flush(): void {
    const at = this.room(1); // first: room() may replace ops
    this.ops[at] = OP_FLUSH;
  }

  verdict(d: number, z: number, v: number): void {
    if (this.nv + 3 > this.verdicts.length) this.verdicts = growTyped(this.verdicts, this.verdicts.length * 2);
    const f = this.verdicts, at = this.nv;
    f[at] = d; f[at + 1] = z; f[at + 2] = v;
    this.nv += 3;
  }

  /** The end of a window: every Zone partition has replayed it (log-replay.ts), and the log starts again empty. */
  endWindow(): void {
    this.n = 0;
    this.nv = 0;
  }
}

/** Words of the record at `at` of `ops`. */
export function opWords(ops: Float64Array<ArrayBufferLike>, at: number): number {
  return WORDS[ops[at]];
}

/** A Zone partition's view of the gateway's log: the log it replays (log-replay.ts). */
export class LogReader {
  constructor(readonly log: GatewayLog) {}
}
