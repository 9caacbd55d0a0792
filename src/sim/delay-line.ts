// A delay line: many timers that all share one fixed delay (a task's deadline,
// a regeneration quiet interval). Entries are pushed in time order, so they
// leave in time order: a FIFO ring, with one engine event for its head
// instead of one per timer. The owner calls push() and, when the engine
// dispatches the line's kind, drain(); the line then calls `fire` for every
// entry due at the current time and re-posts one event for the new head.
// Exact: each entry fires at its own time (push time + delay).
import type { Engine } from "./engine.js";

export class DelayLine {
  private cap = 1024;
  private head = 0;
  size = 0;
  private draining = false;
  private time = new Float64Array(this.cap);
  private subject = new Int32Array(this.cap);

  /** `delay`: integer ns > 0; events of `kind` with subject `id` belong to this line. */
  constructor(private readonly engine: Engine, readonly delay: number, private readonly kind: number, private readonly id: number) {
    if (!Number.isInteger(delay) || delay <= 0) throw new RangeError(`DelayLine: delay ${delay} not a positive integer`);
  }

  push(subject: number): void {
    if (this.size === this.cap) this.grow();
    const j = (this.head + this.size) % this.cap;
    this.time[j] = this.engine.now + this.delay;
    this.subject[j] = subject;
    if (this.size++ === 0 && !this.draining) this.engine.post(this.delay, this.kind, this.id);
  }

  /** Fire every entry due now, in push order (a push from `fire` joins the tail); then schedule the next head. */
  drain(fire: (subject: number) => void): void {
    const now = this.engine.now;
    this.draining = true;
    while (this.size > 0 && this.time[this.head] <= now) {
      const s = this.subject[this.head];
      this.head = (this.head + 1) % this.cap;
      this.size--;
      fire(s);
    }
    this.draining = false;
    if (this.size > 0) this.engine.post(this.time[this.head] - now, this.kind, this.id);
  }

  private grow(): void {
    const cap = this.cap * 2;
    const time = new Float64Array(cap), subject = new Int32Array(cap);
    for (let i = 0; i < this.size; i++) {
      const j = (this.head + i) % this.cap;
      time[i] = this.time[j];
      subject[i] = this.subject[j];
    }
    this.cap = cap;
    this.head = 0;
    this.time = time;
    this.subject = subject;
  }
}
