// A Zone partition's replay of the gateway's log, behind its own run
// (docs/parallel.md, "The gateway once": the Zones a window behind). The
// gateway's events touch the Zones only through what they post a message
// delay or more later (DA emissions, a hop later; the next series sample,
// a sampling period later, gatewayOnceOk) and the proxy's
// answers, which a pull reads at least a message delay after its request is
// answered. So a Zone partition may run ahead of the log and replay it
// afterwards, as long as each post takes the place it has in the one run:
// just after the Zone events that ran before the gateway event that made it.
// The Zone engine's lag mode (assembly/engine/history.ts) leaves room for
// these between its own sequence numbers and tells, for any point of the run
// it still remembers, which number came next there.
//
// The partition knows each gateway event's place because the gateway's own
// posts made it: a small queue holds the gateway's pending events with their
// sequence numbers in this engine's space, and each event in the log must be
// the first of that queue (the log is checked as it is read).
import { KeyedHeap } from "../sim/keyed-heap.js";
import { OP_BATCH, OP_EVENT, OP_POST, opWords, type GatewayLog } from "./gateway-log.js";
import type { ZoneEngine } from "./zone-engine.js";
import { EF } from "../core/engine-layout.js";

/** What the replay needs of its partition. */
export interface ReplayHost {
  readonly zoneEngine: ZoneEngine | null;
  readonly hopNs: number;
  ownsZone(z: number): boolean;
  setVerdict(d: number, v: number): void;
}

/** The step between the Zone engine's own sequence numbers: room for this many of the gateway's posts at one point of the run. */
export const LAG_STEP = 2 ** 20;

export class LogReplay {
  /** The gateway's pending events: time, sequence number here, kind (item), subject (tag). */
  private readonly pending = new KeyedHeap();
  /** The counter at the gateway event being replayed, and the gateway's posts there so far. */
  private v = NaN;
  private g = 0;
  private started = false;

  /** `seriesKind`: the gateway's event the Zones act on at its time (the series sample): it is posted on the engine too. */
  constructor(private readonly host: ReplayHost, private readonly seriesKind: number) {}

  /**
   * Replay a log (the gateway's records of events before `until`, all of
   * them run here already): post what they posted, hand over this
   * partition's DAs, set the answers to its pull requests; then the
   * engine's history before `until` is no longer needed.
   */
  replay(log: GatewayLog, until: number): void {
    const ze = this.host.zoneEngine!, o = log.ops, end = log.n;
    if (ze.getf(EF.SEQ) > LogReplay.rebaseAbove) this.rebase(ze);
    let at = 0, t = 0;
    if (!this.started) {
      // the gateway's first posts (its start, before any event): just after the Zones' own start
      this.started = true;
      this.at(ze.seqAt(0, -Infinity));
    }
    while (at < end) {
      const op = o[at];
      if (op === OP_EVENT) {
        t = o[at + 1];
        this.event(t, o[at + 2], o[at + 3]);
      } else if (op === OP_POST) {
        const s = this.take(1);
        if (o[at + 1] < t) throw new Error(`gateway log out of step: a post for ${o[at + 1]} ns from an event at ${t} ns`);
        this.pending.push(o[at + 1], s, o[at + 2], o[at + 3]);
        if (o[at + 2] === this.seriesKind) ze.postSeq(o[at + 1], s, this.seriesKind, o[at + 3]);
      } else if (op === OP_BATCH) {
        // the batch's DAs of this partition's nodes take the next numbers, in order, and address their launchpads a hop after the batch
        const own = ze.stageOwn(o, at + 2, o[at + 1]);
        if (own > 0) {
          if (t + this.host.hopNs < ze.now) throw new Error(`gateway log out of step: DAs handed over at ${t} ns address their launchpads before ${ze.now} ns, where this partition is`);
          ze.emitSeq(t + this.host.hopNs, this.take(own));
        }
      } else throw new Error(`gateway log: record kind ${op}`);
      at += opWords(o, at);
    }
    const v = log.verdicts;
    for (let i = 0; i < log.nv; i += 3) if (this.host.ownsZone(v[i + 1])) this.host.setVerdict(v[i], v[i + 2]);
    ze.trimHistory(until);
  }

  /**
   * The engine's counter past `rebaseAbove` (2^52 by default: some 4 billion
   * posts at 2^20 apart): every sequence number here and in the engine less
   * the same multiple of the step, back to half of it, so that they stay
   * exact integers in a double (an event pending through three such
   * rebases, some 13 billion posts, would not).
   */
  static rebaseAbove = 2 ** 52;

  private rebase(ze: ZoneEngine): void {
    const offset = Math.floor((ze.getf(EF.SEQ) - LogReplay.rebaseAbove / 2) / LAG_STEP) * LAG_STEP;
    ze.rebase(offset);
    const q = this.pending;
    for (let i = 0; i < q.size; i++) q.seq[i] -= offset;
    this.v -= offset;
  }

  /** The gateway's event (time, kind, subject) comes next in the log: the first pending one, whose place gives its posts theirs. */
  private event(time: number, kind: number, subject: number): void {
    const q = this.pending;
    if (q.size === 0 || q.time[0] !== time || q.item[0] !== kind || q.tag[0] !== subject) {
      const here = q.size === 0 ? "nothing" : `(${q.item[0]}, ${q.tag[0]}) at ${q.time[0]} ns`;
      throw new Error(`gateway log out of step: event (${kind}, ${subject}) at ${time} ns recorded, ${here} pending here`);
    }
    const s = q.seq[0];
    q.pop();
    this.at(this.host.zoneEngine!.seqAt(time, s));
  }

  /** The engine's counter at the point being replayed: a new point starts the gateway's posts afresh. */
  private at(v: number): void {
    if (v !== this.v) {
      this.v = v;
      this.g = 0;
    }
  }

  /** Sequence numbers for the gateway's next n posts at this point, the first returned: between the engine's own before and after it. */
  private take(n: number): number {
    const first = this.v - LAG_STEP + this.g + 1;
    this.g += n;
    if (this.g >= LAG_STEP) throw new Error(`gateway log: more than ${LAG_STEP - 1} posts at one point of the run`);
    return first;
  }
}
