// Parameter blocks: the entry points with long argument lists take one
// pointer to a fixed-layout block in core memory instead (docs/abi.md,
// "Parameter blocks"). A host keeps one block per caller, writes the fields
// that are constant for a run (pointers, gamma, degradeAge, sigma, ...) once,
// and rewrites only the per-call fields (now, m, k, start, ...) before each
// call; the core reads the block once, on entry, and never writes it.
//
// Byte offsets from the block's start; every block is 8-byte aligned. Pointers
// are u32, counts and flags i32; the rest are f32 or f64 as named. Bytes marked
// "zero" are padding, not read.

/** Alignment of every block. */
export const BLOCK_ALIGN: i32 = 8;

// Choice block (scoreCandidates), 48 bytes; also the first 48 bytes of the
// probe block, so one block serves both calls of a DA over the same buffers.
export const C_FIELD: usize = 0; //       u32  field: f32[5 * nodeCount]
export const C_NODE_COUNT: usize = 4; //  i32
export const C_TABLE: usize = 8; //       u32  table: nodeCount rows of atoms/64 u64
export const C_ATOMS: usize = 12; //      i32
export const C_CAND: usize = 16; //       u32  cand: i32[n]
export const C_N: usize = 20; //          i32  n (probeCandidates: k)
export const C_NOW: usize = 24; //        f32
export const C_M: usize = 28; //          i32
export const C_CONTIGUOUS: usize = 32; // i32  0 or 1
export const C_GAMMA: usize = 36; //      f32
export const C_DEGRADE_AGE: usize = 40; // f32
export const C_NOISE: usize = 44; //      u32  noise: f32[n]
export const CHOICE_BYTES: i32 = 48;

// Probe block (probeCandidates), 72 bytes: the choice block, then
export const P_SIGMA: usize = 48; //      f64
export const P_RNG: usize = 56; //        u32  rng: i32[6]
export const P_ZIG: usize = 60; //        u32  zig: 1,536 bytes, 8-aligned
export const P_SEEN: usize = 64; //       u32  seen: u32[ceil(nodeCount / 32)]
export const P_START: usize = 68; //      i32
export const PROBE_BYTES: i32 = 72;

// Zone block (zoneAggregate), 40 bytes.
export const Z_FIELD: usize = 0; //       u32  field: f32[5 * nodeCount]
export const Z_NODE_COUNT: usize = 4; //  i32
export const Z_OFFSETS: usize = 8; //     u32  offsets: i32[zones + 1]
export const Z_ZONES: usize = 12; //      i32
export const Z_NOW: usize = 16; //        f32
export const Z_DEGRADE_AGE: usize = 20; // f32
export const Z_DEGRADE_HEAT: usize = 24; // f32
export const Z_OUT_SLACK: usize = 28; //  u32  outSlack: f32[zones]
export const Z_OUT_HEAT: usize = 32; //   u32  outHeat: f32[zones]
// 36: zero
export const ZONE_BYTES: i32 = 40;

// Memory block (memTick), 88 bytes.
export const M_RECS: usize = 0; //        u32  recs: count records of 6 f64
export const M_COUNT: usize = 4; //       i32
export const M_NODES: usize = 8; //       i32
export const M_BASE: usize = 12; //       u32  base: f64[nodes]
export const M_USAGE: usize = 16; //      u32  usage: f64[nodes]
export const M_OUT: usize = 20; //        u32  out: i32[outCap]
export const M_OUT_CAP: usize = 24; //    i32
// 28: zero
export const M_TICK: usize = 32; //       f64
export const M_SEED: usize = 40; //       f64
export const M_KAPPA: usize = 48; //      f64
export const M_SIGMA: usize = 56; //      f64
export const M_BURST_RATE: usize = 64; // f64
export const M_BURST_SCALE: usize = 72; // f64
export const M_THRESHOLD: usize = 80; //  f64
export const MEM_BYTES: i32 = 88;
