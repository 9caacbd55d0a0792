// Timers that almost never matter: every task arms a deadline (500 ms) and a
// regeneration check (150 ms), and nearly every task has started long before
// either. One engine event per timer would double the event count. Instead a
// TimerSweep keeps the timers in a FIFO ring (pushed in time order) and looks
// at them in sweeps, one engine event per `period` while any are armed: a
// sweep at T hands every timer due before T + period to `due(subject, time)`,
// and the owner posts an exact engine event at `time` only for timers that
// still matter (the task is still pending). So a timer still fires at exactly
// its time, and a moot one costs a ring slot instead of an event.
//
// Each timer carries a tag (say, the generation of the task slot it names),
// handed back with it, so the owner can free and reuse the slot before the
// sweep and recognise the stale timer then.
//
// A push earlier than the ring's tail (out of order) or sooner than one
// period from now is not ringed: push() returns false and the owner posts
// the exact event itself.
import type { Engine } from "./engine.js";
import { growRing } from "./slot-store.js";

export class TimerSweep {
  /** Ring capacity: a power of two (1024, doubled when full), so a position wraps with & (cap - 1). */
  private cap = 1024;
  private head = 0;
  size = 0;
  private time = new Float64Array(this.cap);
  private subject = new Int32Array(this.cap);
  private tag = new Int32Array(this.cap);
  /** Time of the pending sweep event (Infinity: none). */
  private sweepAt = Infinity;

  /** `period`: integer ns > 0; sweep events are (kind, id). */
  constructor(private readonly engine: Engine, readonly period: number, private readonly kind: number, private readonly id: number) {
    if (!Number.isInteger(period) || period <= 0) throw new RangeError(`TimerSweep: period ${period} not a positive integer`);
  }

  /** Arm a timer at `time` (integer ns) for (subject, tag); false when the caller must post the exact event itself. */
  push(time: number, subject: number, tag: number): boolean {
    const now = this.engine.now;
    if (time < now + this.period) return false;
    if (this.size > 0 && time < this.time[(this.head + this.size - 1) & (this.cap - 1)]) return false;
    if (this.size === this.cap) this.grow();
    const j = (this.head + this.size) & (this.cap - 1);
    this.time[j] = time;
    this.subject[j] = subject;
    this.tag[j] = tag;
    this.size++;
    if (this.sweepAt === Infinity) this.arm(Math.max(now, time - this.period + 1));
    return true;
  }

  /** Whether push(time, ...) now would ring the timer without posting anything (the ring holds one already, in order). */
  ringsQuietly(time: number): boolean {
    return this.size > 0 && time >= this.engine.now + this.period && time >= this.time[(this.head + this.size - 1) & (this.cap - 1)];
  }

  /** The sweep event: hand every timer due before now + period to `due`, then arm the next sweep. */
  sweep(due: (subject: number, time: number, tag: number) => void): void {
    const now = this.engine.now;
    if (now !== this.sweepAt) return; // superseded
    this.sweepAt = Infinity;
    const limit = now + this.period;
    while (this.size > 0 && this.time[this.head] < limit) {
      const s = this.subject[this.head], t = this.time[this.head], g = this.tag[this.head];
      this.head = (this.head + 1) & (this.cap - 1);
      this.size--;
      due(s, t, g);
    }
    if (this.size > 0) this.arm(Math.max(limit, this.time[this.head] - this.period + 1));
  }

  private arm(at: number): void {
    this.sweepAt = at;
    this.engine.post(at - this.engine.now, this.kind, this.id);
  }

  /** Double the ring (it is full), its records from the head on. */
  private grow(): void {
    this.time = growRing(this.time, this.head);
    this.subject = growRing(this.subject, this.head);
    this.tag = growRing(this.tag, this.head);
    this.cap *= 2;
    this.head = 0;
  }
}
