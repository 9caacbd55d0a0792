// Simulated time is an integer number of nanoseconds held in a JS number:
// exact up to 2^53 ns (104 days), so sums and comparisons of times never
// round, and equal times compare equal. Durations are converted once, at the
// edge (configuration, reports); the event loop sees integers only.
//
//   1 us = 1,000 ns    1 ms = 1,000,000 ns    1 s = 1,000,000,000 ns
//
// Rounding: ms(x), us(x) and s(x) round to the nearest nanosecond (halves
// towards +Infinity, as Math.round does), so ms(0.1) === 100_000 exactly even
// though 0.1 is not a binary fraction.

export const NS_PER_US = 1_000;
export const NS_PER_MS = 1_000_000;
export const NS_PER_S = 1_000_000_000;
/** The largest representable time: 2^53 - 1 ns. */
export const MAX_TIME = Number.MAX_SAFE_INTEGER;

/** Nanoseconds in `x` microseconds, rounded to an integer. */
export function us(x: number): number {
  return Math.round(x * NS_PER_US);
}

/** Nanoseconds in `x` milliseconds, rounded to an integer. */
export function ms(x: number): number {
  return Math.round(x * NS_PER_MS);
}

/** Nanoseconds in `x` seconds, rounded to an integer. */
export function s(x: number): number {
  return Math.round(x * NS_PER_S);
}

/** A time or duration in milliseconds, for reports (not exact: a double). */
export function toMs(t: number): number {
  return t / NS_PER_MS;
}

/** A time or duration in microseconds, for reports. */
export function toUs(t: number): number {
  return t / NS_PER_US;
}

/** A time or duration in seconds, for reports. */
export function toS(t: number): number {
  return t / NS_PER_S;
}

/** Whether `t` is a valid time: an integer in [0, 2^53). */
export function isTime(t: number): boolean {
  return Number.isInteger(t) && t >= 0 && t <= MAX_TIME;
}
