// Status codes of the core ABI (mirrors assembly/abi.ts; see docs/abi.md).
export const Status = {
  OK: 0,
  E_NULL: -1,
  E_BOUNDS: -2,
  E_ALIGN: -3,
  E_ATOMS: -4,
  E_COUNT: -5,
  E_K: -6,
  E_CONFLICT: -7,
  E_FULL: -8,
  E_ID: -9,
  E_HORIZON: -10,
  E_ARG: -11,
  E_NOFIT: -12,
  E_DEFER: -13,
} as const;

const MESSAGES: Record<number, string> = {
  [Status.E_NULL]: "null pointer or pointer into the core's static data",
  [Status.E_BOUNDS]: "buffer runs past the end of WASM memory",
  [Status.E_ALIGN]: "pointer not aligned to its element size",
  [Status.E_ATOMS]: "atoms per node must be a multiple of 64 in [64, 1024]",
  [Status.E_COUNT]: "count must not be negative",
  [Status.E_K]: "k outside [0, atoms]",
  [Status.E_CONFLICT]: "atom already taken (take) or already free (release)",
  [Status.E_FULL]: "capacity exhausted (reserved, not returned by ABI version 1)",
  [Status.E_ID]: "id or index outside its table",
  [Status.E_HORIZON]: "deadline beyond the timing wheel's horizon",
  [Status.E_ARG]: "invalid argument",
  [Status.E_NOFIT]: "nothing fits",
  [Status.E_DEFER]: "a step is left to the caller, which then calls again",
};

/** Human-readable text for a status code. */
export function statusText(code: number): string {
  return MESSAGES[code] ?? (code >= 0 ? "ok" : `unknown status ${code}`);
}

/** An error raised by the TypeScript side when a kernel reports a bad argument. */
export class CoreError extends Error {
  constructor(readonly code: number, readonly kernel: string) {
    super(`${kernel}: ${statusText(code)} (status ${code})`);
    this.name = "CoreError";
  }
}

/** Return `r` when it is a result (>= 0); throw a CoreError for a status code. */
export function check(r: number, kernel: string): number {
  if (r < 0) throw new CoreError(r, kernel);
  return r;
}
