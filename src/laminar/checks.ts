// What the model's mechanisms call on the invariant checker: the bottom of
// src/laminar with timings.ts, so that the state can hold the checker without
// importing it (invariants.ts reads the state).
/**
 * The checks the mechanisms call before or after each transition when the
 * invariant checker is on (invariants.ts implements them; it reads the
 * state, so the state knows the checker only by this interface).
 */
export interface TransitionChecks {
  readonly checks: number;
  took(n: number, d: number, m: number): void;
  releasing(n: number, d: number, m: number): void;
  node(n: number): void;
  queue(n: number): void;
  arbitrating(n: number, d: number, i: number): void;
  started(t: number): void;
  executing(d: number): void;
  stopped(d: number): void;
  suspending(n: number, d: number, forEntry?: number): void;
  resuming(n: number, d: number, ordered?: boolean): void;
  resumeOrder(n: number, e: number): void;
  reactivating(n: number, d: number): void;
  reclaiming(n: number, d: number): void;
  landing(a: number): void;
  all(): void;
  end(): void;
}
