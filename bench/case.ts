// What every micro-benchmark case is: a kernel in one implementation, run by
// the harness (run.ts) and checked by its checksum. Its own file, so the
// case builders (cases.ts, wheel-case.ts) import it without importing each
// other.
export type Impl = "wasm-simd" | "wasm-scalar" | "ts";

export interface Case {
  name: string;
  /** Ops done by one call of run(). */
  opsPerCall: number;
  run(): void;
  /** Checksum of the kernel on fresh inputs (computed once, before timing). */
  checksum: number;
}
