// Parameter blocks of the core's long-argument entry points (assembly/blocks.ts,
// docs/abi.md "Parameter blocks"): byte offsets, sizes, and writers. A hot
// caller writes a block's run-constant fields once (the write* functions) and
// then only its per-call fields, with the offsets below, before each call.

/** Alignment of every block. */
export const BLOCK_ALIGN = 8;

/** Choice block (scoreCandidates); also the first 48 bytes of the probe block. */
export const CHOICE = {
  FIELD: 0, NODE_COUNT: 4, TABLE: 8, ATOMS: 12, CAND: 16, N: 20, NOW: 24, M: 28,
  CONTIGUOUS: 32, GAMMA: 36, DEGRADE_AGE: 40, NOISE: 44, BYTES: 48,
} as const;

/** Probe block (probeCandidates): the choice block (N = k), then these. */
export const PROBE = { SIGMA: 48, RNG: 56, ZIG: 60, SEEN: 64, START: 68, BYTES: 72 } as const;

/** Zone block (zoneAggregate); bytes 36..39 are padding. */
export const ZONE = {
  FIELD: 0, NODE_COUNT: 4, OFFSETS: 8, ZONES: 12, NOW: 16, DEGRADE_AGE: 20, DEGRADE_HEAT: 24,
  OUT_SLACK: 28, OUT_HEAT: 32, BYTES: 40,
} as const;

/** Memory block (memTick); bytes 28..31 are padding. */
export const MEM = {
  RECS: 0, COUNT: 4, NODES: 8, BASE: 12, USAGE: 16, OUT: 20, OUT_CAP: 24,
  TICK: 32, SEED: 40, KAPPA: 48, SIGMA: 56, BURST_RATE: 64, BURST_SCALE: 72, THRESHOLD: 80, BYTES: 88,
} as const;

/** Views over the core's memory (Views and Arena both fit). */
export interface BlockViews {
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
}

export interface ChoiceArgs {
  field: number; nodeCount: number; table: number; atoms: number; cand: number; n: number;
  now: number; m: number; contiguous: number; gamma: number; degradeAge: number; noise: number;
}

export interface ProbeArgs extends Omit<ChoiceArgs, "n"> {
  k: number; sigma: number; rng: number; zig: number; seen: number; start: number;
}

export interface ZoneArgs {
  field: number; nodeCount: number; offsets: number; zones: number; now: number;
  degradeAge: number; degradeHeat: number; outSlack: number; outHeat: number;
}

export interface MemArgs {
  recs: number; count: number; nodes: number; base: number; usage: number; out: number; outCap: number;
  tick: number; seed: number; kappa: number; sigma: number; burstRate: number; burstScale: number; threshold: number;
}

// Typed-array stores convert as a wasm parameter of the same type would
// (ToInt32 for i32 and u32 pointers, round to nearest for f32), so a block
// carries exactly the bits the positional arguments of ABI version 1 did.

/** Write every field of a choice block at byte offset b (8-aligned). */
export function writeChoice(v: BlockViews, b: number, a: ChoiceArgs): void {
  const i = b >> 2;
  v.i32[i] = a.field; v.i32[i + 1] = a.nodeCount; v.i32[i + 2] = a.table; v.i32[i + 3] = a.atoms;
  v.i32[i + 4] = a.cand; v.i32[i + 5] = a.n; v.f32[i + 6] = a.now; v.i32[i + 7] = a.m;
  v.i32[i + 8] = a.contiguous; v.f32[i + 9] = a.gamma; v.f32[i + 10] = a.degradeAge; v.i32[i + 11] = a.noise;
}

/** Write every field of a probe block at byte offset b (8-aligned). */
export function writeProbe(v: BlockViews, b: number, a: ProbeArgs): void {
  writeChoice(v, b, { ...a, n: a.k });
  const i = b >> 2;
  v.f64[(b + PROBE.SIGMA) >> 3] = a.sigma;
  v.i32[i + 14] = a.rng; v.i32[i + 15] = a.zig; v.i32[i + 16] = a.seen; v.i32[i + 17] = a.start;
}

/** Write every field of a zone block at byte offset b (8-aligned). */
export function writeZone(v: BlockViews, b: number, a: ZoneArgs): void {
  const i = b >> 2;
  v.i32[i] = a.field; v.i32[i + 1] = a.nodeCount; v.i32[i + 2] = a.offsets; v.i32[i + 3] = a.zones;
  v.f32[i + 4] = a.now; v.f32[i + 5] = a.degradeAge; v.f32[i + 6] = a.degradeHeat;
  v.i32[i + 7] = a.outSlack; v.i32[i + 8] = a.outHeat; v.i32[i + 9] = 0;
}

/** Write every field of a memory block at byte offset b (8-aligned). */
export function writeMem(v: BlockViews, b: number, a: MemArgs): void {
  const i = b >> 2, d = b >> 3;
  v.i32[i] = a.recs; v.i32[i + 1] = a.count; v.i32[i + 2] = a.nodes; v.i32[i + 3] = a.base;
  v.i32[i + 4] = a.usage; v.i32[i + 5] = a.out; v.i32[i + 6] = a.outCap; v.i32[i + 7] = 0;
  v.f64[d + 4] = a.tick; v.f64[d + 5] = a.seed; v.f64[d + 6] = a.kappa; v.f64[d + 7] = a.sigma;
  v.f64[d + 8] = a.burstRate; v.f64[d + 9] = a.burstScale; v.f64[d + 10] = a.threshold;
}
