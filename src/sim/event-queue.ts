// The contract of the pending-event set. Events are (time, kind, subject)
// records kept in typed arrays; they pop in (time, seq) order, where seq
// counts push(), post() and postInto() calls. Two runs that make the same calls therefore
// pop the same events in the same order, whatever the structure underneath.
//
// Implementations: CalendarQueue (calendar-queue.ts), the one the simulator
// uses, and HeapQueue (heap-queue.ts), a plain 4-ary heap that serves as the
// benchmark's baseline and the property tests' oracle.
//
// Units and ranges: times are integers in [0, 2^53) (nanoseconds in the
// simulator); kind is an integer in [0, 2^31) (a handler index); subject is
// any int32. Bad arguments are bugs and throw RangeError.

export interface EventQueue {
  /**
   * The clock: the time of the last pop, or a later time set by advance();
   * it never decreases. The queue keeps it (not the engine) so that post()
   * takes a small integer delay: a time past 2^31 ns handed to a call V8
   * does not inline is boxed into a fresh heap number, an allocation per event.
   */
  readonly now: number;
  /** Events pending: pushed, not yet popped or cancelled. */
  readonly size: number;
  /** Events pushed or posted so far; the next one gets this sequence number. */
  readonly pushes: number;
  /** Kind and subject of the last popped event (its time is `now`). */
  readonly kind: number;
  readonly subject: number;
  /**
   * Add an event at `time` (now <= time); returns its handle for cancel(),
   * an integer below 2^53 (keep it in a Float64Array).
   */
  push(time: number, kind: number, subject: number): number;
  /**
   * Add an event `delay` (an integer >= 0) after now, with no handle: it
   * cannot be cancelled, and in exchange costs no slot and allocates nothing.
   */
  post(delay: number, kind: number, subject: number): void;
  /**
   * Add an event `delay` after now and write its handle to out[index] (a
   * Float64Array column of the model's store, say): the allocation-free
   * cancellable path. push() returns its handle instead, and a returned
   * double is boxed (allocated) whenever V8 does not inline the call.
   */
  postInto(delay: number, kind: number, subject: number, out: Float64Array, index: number): void;
  /** Cancel a pending event: true if it was pending, false for a stale, fired or cancelled handle. */
  cancel(handle: number): boolean;
  /** cancel(column[index]): the handle never crosses a call as a (boxed) double. */
  cancelIn(column: Float64Array, index: number): boolean;
  /** Whether the handle names a pending event. */
  isPending(handle: number): boolean;
  /** Time of the earliest pending event; Infinity when none. */
  peekTime(): number;
  /** Pop the earliest event if its time is < limit: now, kind, subject become its; false otherwise. */
  popBefore(limit: number): boolean;
  /**
   * The bound of pop(): pop() is popBefore(limit). A loop sets it once and
   * calls pop(), so no double is passed per event (Engine.run does this).
   */
  limit: number;
  /** popBefore(this.limit). */
  pop(): boolean;
  /** Move the clock to t, with now <= t <= peekTime(). */
  advance(t: number): void;
  /** Drop every pending event (the clock stays); every handle becomes stale. */
  clear(): void;
}

/** Largest time a queue accepts: times are exact integers below 2^53. */
export const MAX_QUEUE_TIME = Number.MAX_SAFE_INTEGER;

/** Throws for an argument the caller got wrong: a bug, not an outcome. */
export function badEvent(what: string, v: number): never {
  throw new RangeError(`event queue: bad ${what} ${v}`);
}

// The hot methods (push, post, postInto) validate with one boolean expression
// written out at the call site, so that no double (a time past 2^31 ns) is
// passed to a helper V8 might not inline; the throwing helpers below run only
// on error.

/** Whether kind is an integer in [0, 2^31) and subject an int32. */
export function okPayload(kind: number, subject: number): boolean {
  return kind >= 0 && (kind | 0) === kind && (subject | 0) === subject;
}

/** Throws the RangeError for a push(t, kind, subject) that failed its check. */
export function badPush(now: number, t: number, kind: number, subject: number): never {
  if (!(t >= now && t <= MAX_QUEUE_TIME && Math.floor(t) === t)) badEvent("time", t);
  return badPayload(kind, subject);
}

/** Throws the RangeError for a post(delay, kind, subject) that failed its check. */
export function badPost(now: number, delay: number, kind: number, subject: number): never {
  if (!(delay >= 0 && Math.floor(delay) === delay && now + delay <= MAX_QUEUE_TIME)) badEvent("delay", delay);
  return badPayload(kind, subject);
}

function badPayload(kind: number, subject: number): never {
  if (!(kind >= 0 && (kind | 0) === kind)) badEvent("kind", kind);
  return badEvent("subject", subject);
}

/** Validate an event, for cold paths. */
export function checkEvent(now: number, t: number, kind: number, subject: number): void {
  if (!(t >= now && t <= MAX_QUEUE_TIME && Math.floor(t) === t && okPayload(kind, subject))) badPush(now, t, kind, subject);
}

/** Validate a delay: an integer >= 0. */
export function checkDelay(delay: number): void {
  if (!(delay >= 0 && Math.floor(delay) === delay)) badEvent("delay", delay);
}

/** Validate a clock value for a constructor or advance(). */
export function checkClock(t: number): void {
  if (!(t >= 0 && t <= MAX_QUEUE_TIME && Math.floor(t) === t)) badEvent("clock", t);
}
