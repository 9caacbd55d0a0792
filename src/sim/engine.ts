// The discrete-event engine, SimPy's core in miniature: a clock, a pending
// set, and schedule / peek / step / run. It knows nothing of the domain: an
// event is (time, kind, subject), two integers the model chooses (kind, in
// [0, 2^31), picks a handler; subject, any int32, names a task, node,
// Zone...), and the model supplies one dispatch function, typically a switch
// on kind.
//
// Ordering: events run in (time, seq) order, seq counting the calls that
// scheduled them (post, schedule, scheduleInto, at), so simultaneous events
// run in the order they were scheduled (FIFO) and the same calls give the
// same run. Time is integer nanoseconds (time.ts).
//
// run(until) is half-open: it runs the events with time < until, then sets
// now = until. An event at exactly `until` stays pending for the next call.
// This matches windowed parallel execution, where a window [T, T + L) is run
// and messages for T + L onwards are exchanged before the next window.
//
//   run(10):   events at 3, 7, 9 run; the event at 10 waits; now = 10
//   run(20):   the event at 10 runs first
//
// stop() ends the current run() after the handler that called it returns;
// now then stays at that event's time. Nothing else is cleared.
//
// No allocation per event. V8 boxes a double (any time past 2^31 ns, and
// every handle) into a fresh heap object when it crosses a call it does not
// inline, so: dispatch gets (kind, subject) and reads engine.now; post()
// takes a small integer delay and returns nothing; scheduleInto() writes the
// handle of a cancellable event into a Float64Array. schedule() and at()
// return the handle, and cancel() takes one, which costs a 16-byte
// young-generation allocation when V8 does not inline them; cancelIn() reads
// the handle from the column instead. Convenient, then, not for hot paths.
// (run(until) itself boxes its bound once per call: per window, not per event.)
import { CalendarQueue } from "./calendar-queue.js";
import { checkDelay, type EventQueue } from "./event-queue.js";
import type { Fingerprint } from "./fingerprint.js";

/** Called once per event, in order; the event's time is engine.now. */
export type Dispatch = (kind: number, subject: number) => void;

export interface EngineOptions {
  /** The pending set and clock (default: a CalendarQueue with its default options, starting at 0). */
  queue?: EventQueue;
  /** When given, every dispatched event is folded into it. */
  fingerprint?: Fingerprint;
}

export class Engine {
  /** Events dispatched since construction. */
  processed = 0;
  readonly queue: EventQueue;
  private readonly fp: Fingerprint | null;
  private stopping = false;
  private running = false;

  constructor(opts: EngineOptions = {}) {
    this.queue = opts.queue ?? new CalendarQueue();
    this.fp = opts.fingerprint ?? null;
  }

  /** Current simulated time, ns. */
  get now(): number {
    return this.queue.now;
  }

  /** When set, told of every post (absolute time, kind, subject) before it is made: the gateway side's record (src/laminar/gateway-log.ts). */
  onPost: ((time: number, kind: number, subject: number) => void) | null = null;

  /** Schedule (kind, subject) `delay` ns from now (an integer >= 0), with no handle: the cheapest path. */
  post(delay: number, kind: number, subject: number): void {
    if (this.onPost !== null) this.onPost(this.queue.now + delay, kind, subject);
    this.queue.post(delay, kind, subject);
  }

  /** Schedule (kind, subject) `delay` ns from now (an integer >= 0); returns a handle for cancel(). */
  schedule(delay: number, kind: number, subject: number): number {
    checkDelay(delay);
    return this.queue.push(this.queue.now + delay, kind, subject);
  }

  /**
   * schedule(), writing the handle to out[index] (a Float64Array column of
   * the model's store, say) instead of returning it: never allocates.
   */
  scheduleInto(delay: number, kind: number, subject: number, out: Float64Array, index: number): void {
    this.queue.postInto(delay, kind, subject, out, index);
  }

  /** Schedule (kind, subject) at absolute time `time` (an integer >= now); returns a handle for cancel(). */
  at(time: number, kind: number, subject: number): number {
    return this.queue.push(time, kind, subject);
  }

  /** Cancel a pending event; false when the handle is stale, fired or already cancelled. */
  cancel(handle: number): boolean {
    return this.queue.cancel(handle);
  }

  /** cancel(column[index]): the allocation-free form, for handles kept by scheduleInto. */
  cancelIn(column: Float64Array, index: number): boolean {
    return this.queue.cancelIn(column, index);
  }

  isPending(handle: number): boolean {
    return this.queue.isPending(handle);
  }

  /** Events pending. */
  get pending(): number {
    return this.queue.size;
  }

  /** Time of the next event; Infinity when none. */
  peek(): number {
    return this.queue.peekTime();
  }

  /** End the current run() after the running handler returns. */
  stop(): void {
    this.stopping = true;
  }

  /** Dispatch the next event, whatever its time; false when none is pending. */
  step(dispatch: Dispatch): boolean {
    this.enter();
    try {
      const q = this.queue;
      q.limit = Infinity;
      if (!q.pop()) return false;
      this.processed++;
      if (this.fp !== null) this.fp.addEvent(q);
      dispatch(q.kind, q.subject);
      return true;
    } finally {
      this.running = false;
    }
  }

  /**
   * Dispatch every event with time < until, in order, including events the
   * handlers schedule meanwhile; then now = until (unless stopped early, or
   * until is Infinity, which runs until nothing is pending). Returns the
   * number of events dispatched by this call.
   */
  run(until: number, dispatch: Dispatch): number {
    const q = this.queue;
    if (!(until >= q.now) || (until !== Infinity && Math.floor(until) !== until)) {
      throw new RangeError(`engine: run until ${until}`);
    }
    this.enter();
    const before = this.processed;
    try {
      // The bound goes into a field once; no double is passed per event to a
      // call V8 might not inline (it would be boxed: an allocation).
      q.limit = until;
      while (!this.stopping && q.pop()) {
        this.processed++;
        if (this.fp !== null) this.fp.addEvent(q);
        dispatch(q.kind, q.subject);
      }
      if (!this.stopping && until !== Infinity) q.advance(until);
    } finally {
      this.running = false;
    }
    return this.processed - before;
  }

  private enter(): void {
    if (this.running) throw new Error("engine: run() or step() called from inside a handler");
    this.running = true;
    this.stopping = false;
  }
}
