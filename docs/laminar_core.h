/*
 * laminar_core.h -- the Laminar core ABI for embedders (C view).
 *
 * The authoritative description of every export, its units and its status
 * codes is docs/abi.md (its "Timing wheel" section covers the wheel).
 * This header restates it in C so that an embedder can bind the exports of
 * build/laminar-simd.wasm or build/laminar-scalar.wasm with any runtime
 * (wasmtime, wasmer, WAMR, wasm2c, a browser, ...). If the two disagree,
 * docs/abi.md wins; please report the difference.
 *
 * The modules have no imports. Each exports one memory ("memory") and the
 * functions below, which take and return plain numbers only (wasm i32, f32,
 * f64; never i64). In this header:
 *
 *   - laminar_ptr (u32) is a byte offset into the module's memory. The host
 *     owns the layout: [heapBase(), memoryBytes()) is free for it to use; below
 *     heapBase() are the core's lookup tables and scratch, among them the Zone
 *     engine's copy of the engine block of the call in progress (docs/abi.md,
 *     "The core's own memory"; any pointer there, including 0, is rejected
 *     with LAMINAR_E_NULL). The core never grows memory; the host
 *     may (memory.grow), after which it must re-fetch the memory's base address.
 *   - int32_t / uint32_t are wasm i32; float is f32; double is f64.
 *   - A non-negative return is a result; a negative return is a status code
 *     (enum laminar_status); utility() is the one exception (any real, no
 *     error path). Every export validates all its arguments before it reads or
 *     writes memory; on an error nothing has been written.
 *   - No output buffer may overlap an input buffer or another output of the
 *     same call (LAMINAR_E_ARG); a NaN result's bit pattern is unspecified.
 *   - scoreCandidates, probeCandidates, zoneAggregate and memTick take one
 *     pointer to a parameter block (struct laminar_*_block below, 8-byte
 *     aligned, read on entry, never written). The block is an input buffer
 *     like any other (buffer codes, no overlap with an output).
 *
 * The prototypes are declarations of the export signatures, named like the
 * exports. They are not linkable symbols: a runtime gives you the functions
 * (wasm2c, for example, names them Z_<module>Z_<export>(instance, ...)). Define
 * LAMINAR_NO_PROTOTYPES to omit them, or use LAMINAR_CORE_EXPORTS(X) below to
 * generate bindings. Compiles as C99 and C++.
 */
#ifndef LAMINAR_CORE_H
#define LAMINAR_CORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Byte offset into the module's linear memory (wasm i32, used as unsigned). */
typedef uint32_t laminar_ptr;

/* ------------------------------------------------------------------------- */
/* Status codes (docs/abi.md, "Status codes")                                */

enum laminar_status {
  LAMINAR_OK = 0,           /* success (for functions with no other result) */
  LAMINAR_E_NULL = -1,      /* pointer is 0 or points below heapBase() (the core's static tables) */
  LAMINAR_E_BOUNDS = -2,    /* buffer runs past the end of memory */
  LAMINAR_E_ALIGN = -3,     /* pointer not aligned to its element size */
  LAMINAR_E_ATOMS = -4,     /* atoms not a multiple of 64 in [64, 1024] */
  LAMINAR_E_COUNT = -5,     /* negative count (or zero where at least one is needed) */
  LAMINAR_E_K = -6,         /* k outside [0, atoms] (or a run mask past the row) */
  LAMINAR_E_CONFLICT = -7,  /* take of an atom that is not free / release of a free atom; wheel: id already scheduled */
  LAMINAR_E_FULL = -8,      /* a Zone engine table needs room: engineRoomBytes, engineGrow, call again */
  LAMINAR_E_ID = -9,        /* an id or index outside its table (also: bad Zone offsets) */
  LAMINAR_E_HORIZON = -10,  /* a deadline beyond the timing wheel's horizon */
  LAMINAR_E_ARG = -11,      /* any other invalid argument (NaN, temperature <= 0, u outside [0,1), bad tick) */
  LAMINAR_E_NOFIT = -12,    /* an expected outcome, not a bad argument: nothing fits, nothing changed */
  LAMINAR_E_DEFER = -13     /* an expected outcome: a step is left to the host, which then calls again (probeCandidates) */
};

/* ------------------------------------------------------------------------- */
/* Memory-layout constants                                                   */

#define LAMINAR_ABI_VERSION 3          /* abiVersion() */
#define LAMINAR_PAGE_BYTES 65536u      /* wasm page (memory.grow unit) */

/* Node bitmaps: a row is atoms/64 little-endian u64 words; bit b of word w is
 * atom 64*w + b; 1 = free, 0 = taken. A table of nodes is rows back to back. */
#define LAMINAR_MIN_ATOMS 64
#define LAMINAR_MAX_ATOMS 1024
#define LAMINAR_ATOMS_PER_WORD 64
#define LAMINAR_ROW_WORDS(atoms) ((atoms) / 64)         /* u64 words per row */
#define LAMINAR_ROW_BYTES(atoms) ((atoms) / 8)          /* bytes per row */
#define LAMINAR_ROW_PTR(table, node, atoms) ((laminar_ptr)((table) + (uint32_t)(node) * ((atoms) / 8)))

/* Utility field (Z-HAF): five f32 arrays of nodeCount entries back to back. */
#define LAMINAR_FIELD_ARRAYS 5
#define LAMINAR_FIELD_S 0       /* slack: free atoms */
#define LAMINAR_FIELD_H 1       /* heat: queued DAs */
#define LAMINAR_FIELD_DS 2      /* dS: smoothed derivative of S, per ms */
#define LAMINAR_FIELD_DH 3      /* dH: smoothed derivative of H, per ms */
#define LAMINAR_FIELD_STAMP 4   /* time the row was last refreshed, ms since a host-chosen epoch */
#define LAMINAR_FIELD_BYTES(nodeCount) ((uint32_t)(nodeCount) * 20u)
#define LAMINAR_FIELD_ARRAY_PTR(field, nodeCount, which) \
  ((laminar_ptr)((field) + (uint32_t)(which) * (uint32_t)(nodeCount) * 4u))

/* Alignment of buffers (bytes): u64 rows and masks 8, f32/i32 4, f64 8, the
 * micro-benchmark arrays 16. heapBase() itself is only guaranteed 8-aligned. */
#define LAMINAR_ALIGN_U64 8
#define LAMINAR_ALIGN_F32 4
#define LAMINAR_ALIGN_F64 8
#define LAMINAR_ALIGN_MICRO 16

/* Micro-kernels (assembly/micro.ts). */
#define LAMINAR_MICRO_MASK_RECORDS 16384       /* records of two 256-bit masks (R, D), 64 bytes each */
#define LAMINAR_MICRO_MASK_BYTES 1048576u      /* microMaskBytes() */
#define LAMINAR_MICRO_SCORE_WORDS 262144       /* u32 words: slack (low 16 bits), heat (high 16 bits) */
#define LAMINAR_MICRO_SCORE_BYTES 1048576u     /* microScoreBytes() */
#define LAMINAR_MICRO_ZONE_NODES 256           /* f32 entries of each of O, H, S */

/* Parameter blocks (docs/abi.md, "Parameter blocks"). The structs below have
 * exactly the documented byte layout on any C99 target (every field is 4 or 8
 * bytes at an offset that is a multiple of its size); copy one into the
 * module's memory at an 8-byte-aligned offset and pass that offset. The
 * LAMINAR_*_OFF_* constants give the same offsets for hosts without structs. */
#define LAMINAR_BLOCK_ALIGN 8
#define LAMINAR_CHOICE_BLOCK_BYTES 48
#define LAMINAR_PROBE_BLOCK_BYTES 72
#define LAMINAR_ZONE_BLOCK_BYTES 40
#define LAMINAR_MEM_BLOCK_BYTES 88
/* engineDrain's start-latency histograms (the tasks block's HIST, docs/abi.md "The gateway's task table"):
   double starts-counted at 0; class c's block at 64 + c * LAMINAR_START_HIST_CLASS_BYTES (double count;
   the sum as double units of 2^32 at 8 plus int64 at 16; double min, max at 24, 32; from byte 64
   double counts[LAMINAR_START_HIST_BUCKETS]) */
#define LAMINAR_START_HIST_BUCKETS 6017
#define LAMINAR_START_HIST_CLASS_BYTES 48200
#define LAMINAR_START_HIST_BYTES 144664

/** scoreCandidates' block; also the first 48 bytes of the probe block (n is k there). */
typedef struct laminar_choice_block {
  laminar_ptr field;      /*  0 f32[5 * nodeCount] */
  int32_t nodeCount;      /*  4 */
  laminar_ptr table;      /*  8 nodeCount rows of atoms/64 u64 words */
  int32_t atoms;          /* 12 */
  laminar_ptr cand;       /* 16 i32[n] */
  int32_t n;              /* 20 */
  float now;              /* 24 */
  int32_t m;              /* 28 */
  int32_t contiguous;     /* 32 0 or 1 */
  float gamma;            /* 36 */
  float degradeAge;       /* 40 */
  laminar_ptr noise;      /* 44 f32[n] */
} laminar_choice_block;

/** probeCandidates' block: the choice block (n = k), then the probe's own fields. */
typedef struct laminar_probe_block {
  laminar_choice_block choice; /*  0..47 */
  double sigma;           /* 48 */
  laminar_ptr rng;        /* 56 i32[6] */
  laminar_ptr zig;        /* 60 u32 KN[128] then f64 WN[128], 8-aligned */
  laminar_ptr seen;       /* 64 u32[ceil(nodeCount / 32)] */
  int32_t start;          /* 68 */
} laminar_probe_block;

/** zoneAggregate's block. */
typedef struct laminar_zone_block {
  laminar_ptr field;      /*  0 f32[5 * nodeCount] */
  int32_t nodeCount;      /*  4 */
  laminar_ptr offsets;    /*  8 i32[zones + 1] */
  int32_t zones;          /* 12 */
  float now;              /* 16 */
  float degradeAge;       /* 20 */
  float degradeHeat;      /* 24 */
  laminar_ptr outSlack;   /* 28 f32[zones] */
  laminar_ptr outHeat;    /* 32 f32[zones] */
  uint32_t zero;          /* 36 padding, not read */
} laminar_zone_block;

/** memTick's block. */
typedef struct laminar_mem_block {
  laminar_ptr recs;       /*  0 count records of 6 f64 */
  int32_t count;          /*  4 */
  int32_t nodes;          /*  8 */
  laminar_ptr base;       /* 12 f64[nodes], KiB */
  laminar_ptr usage;      /* 16 f64[nodes], KiB */
  laminar_ptr out;        /* 20 i32[outCap] */
  int32_t outCap;         /* 24 */
  uint32_t zero;          /* 28 padding, not read */
  double tick;            /* 32 */
  double seed;            /* 40 */
  double kappa;           /* 48 */
  double sigma;           /* 56 */
  double burstRate;       /* 64 */
  double burstScale;      /* 72 */
  double threshold;       /* 80 KiB */
} laminar_mem_block;

#define LAMINAR_CHOICE_OFF_FIELD 0
#define LAMINAR_CHOICE_OFF_NODE_COUNT 4
#define LAMINAR_CHOICE_OFF_TABLE 8
#define LAMINAR_CHOICE_OFF_ATOMS 12
#define LAMINAR_CHOICE_OFF_CAND 16
#define LAMINAR_CHOICE_OFF_N 20
#define LAMINAR_CHOICE_OFF_NOW 24
#define LAMINAR_CHOICE_OFF_M 28
#define LAMINAR_CHOICE_OFF_CONTIGUOUS 32
#define LAMINAR_CHOICE_OFF_GAMMA 36
#define LAMINAR_CHOICE_OFF_DEGRADE_AGE 40
#define LAMINAR_CHOICE_OFF_NOISE 44
#define LAMINAR_PROBE_OFF_SIGMA 48
#define LAMINAR_PROBE_OFF_RNG 56
#define LAMINAR_PROBE_OFF_ZIG 60
#define LAMINAR_PROBE_OFF_SEEN 64
#define LAMINAR_PROBE_OFF_START 68
#define LAMINAR_ZONE_OFF_FIELD 0
#define LAMINAR_ZONE_OFF_NODE_COUNT 4
#define LAMINAR_ZONE_OFF_OFFSETS 8
#define LAMINAR_ZONE_OFF_ZONES 12
#define LAMINAR_ZONE_OFF_NOW 16
#define LAMINAR_ZONE_OFF_DEGRADE_AGE 20
#define LAMINAR_ZONE_OFF_DEGRADE_HEAT 24
#define LAMINAR_ZONE_OFF_OUT_SLACK 28
#define LAMINAR_ZONE_OFF_OUT_HEAT 32
#define LAMINAR_MEM_OFF_RECS 0
#define LAMINAR_MEM_OFF_COUNT 4
#define LAMINAR_MEM_OFF_NODES 8
#define LAMINAR_MEM_OFF_BASE 12
#define LAMINAR_MEM_OFF_USAGE 16
#define LAMINAR_MEM_OFF_OUT 20
#define LAMINAR_MEM_OFF_OUT_CAP 24
#define LAMINAR_MEM_OFF_TICK 32
#define LAMINAR_MEM_OFF_SEED 40
#define LAMINAR_MEM_OFF_KAPPA 48
#define LAMINAR_MEM_OFF_SIGMA 56
#define LAMINAR_MEM_OFF_BURST_RATE 64
#define LAMINAR_MEM_OFF_BURST_SCALE 72
#define LAMINAR_MEM_OFF_THRESHOLD 80

/* Timing wheel (assembly/wheel.ts): 6 levels of 64 slots, level L slot s covers
 * 2^(6L) ticks. The region is caller-provided, 8-byte aligned, wheelBytes(cap)
 * long: a 1,616-byte header (magic, capacity, pending, time, slot bitmaps, slot
 * heads; docs/abi.md "Region layout") then 20 bytes per id (u64 deadline, i32
 * next, prev, where), padded to 8. The host must not write it between calls.
 * Ticks are integer-valued f64 in [0, 2^53). */
#define LAMINAR_WHEEL_LEVELS 6
#define LAMINAR_WHEEL_SLOTS 64
#define LAMINAR_WHEEL_HEADER_BYTES 1616u
#define LAMINAR_WHEEL_ID_BYTES 20u
#define LAMINAR_WHEEL_BYTES(capacity) ((LAMINAR_WHEEL_HEADER_BYTES + LAMINAR_WHEEL_ID_BYTES * (uint32_t)(capacity) + 7u) & ~7u)
#define LAMINAR_WHEEL_MAX_CAPACITY (1 << 26)
#define LAMINAR_WHEEL_MAX_HORIZON 68719476735.0   /* 2^36 - 1 ticks after the wheel's time */
#define LAMINAR_TICK_LIMIT 9007199254740992.0     /* 2^53 */

/* ------------------------------------------------------------------------- */
/* Exports, as an X-macro: X(return type, export name, (parameters)).        */
/* Use it to generate bindings, e.g. a table of names and wasm signatures.   */

#define LAMINAR_CORE_EXPORTS(X)                                                                         \
  X(laminar_ptr, heapBase, (void))                                                                      \
  X(double, memoryBytes, (void))                                                                        \
  X(int32_t, simdEnabled, (void))                                                                       \
  X(int32_t, abiVersion, (void))                                                                        \
  X(int32_t, microMaskBytes, (void))                                                                    \
  X(int32_t, microScoreBytes, (void))                                                                   \
  X(double, microMaskUpdate, (laminar_ptr base, int32_t iters, int32_t start, uint32_t seed))           \
  X(double, microFastlogScore, (laminar_ptr table, int32_t iters, int32_t start, float gamma))          \
  X(int32_t, microZoneUpdate,                                                                           \
    (laminar_ptr o, laminar_ptr h, laminar_ptr s, int32_t iters, float gamma, float beta, float eps))   \
  X(int32_t, bmFreeCount, (laminar_ptr table, int32_t count, int32_t atoms, laminar_ptr out))           \
  X(int32_t, bmCountAtLeast, (laminar_ptr table, int32_t count, int32_t atoms, int32_t k, laminar_ptr out)) \
  X(int32_t, bmFirstRun, (laminar_ptr table, int32_t count, int32_t atoms, int32_t k, laminar_ptr out)) \
  X(int32_t, bmFitsAt, (laminar_ptr table, int32_t count, int32_t atoms, laminar_ptr demand, laminar_ptr out)) \
  X(int32_t, bmTakeAny, (laminar_ptr row, int32_t atoms, int32_t k, laminar_ptr outMask))               \
  X(int32_t, bmTakeRun, (laminar_ptr row, int32_t atoms, int32_t k, laminar_ptr outMask))               \
  X(int32_t, bmTake, (laminar_ptr row, int32_t atoms, laminar_ptr mask))                                \
  X(int32_t, bmRelease, (laminar_ptr row, int32_t atoms, laminar_ptr mask))                             \
  X(int32_t, bmRunMask, (int32_t atoms, int32_t offset, int32_t k, laminar_ptr outMask))                \
  X(float, utility, (float s, float h, float gamma))                                                    \
  X(int32_t, scoreCandidates, (laminar_ptr block))                                                      \
  X(int32_t, probeCandidates, (laminar_ptr block))                                                      \
  X(int32_t, zoneAggregate, (laminar_ptr block))                                                        \
  X(int32_t, tegWeights, (laminar_ptr slack, laminar_ptr heat, int32_t zones, float gamma, float tau, laminar_ptr outCum)) \
  X(int32_t, tegSample, (laminar_ptr cum, int32_t zones, laminar_ptr u, int32_t n, laminar_ptr out))    \
  X(int32_t, wheelBytes, (int32_t capacity))                                                            \
  X(int32_t, wheelInit, (laminar_ptr w, int32_t capacity, double now))                                  \
  X(int32_t, wheelSchedule, (laminar_ptr w, int32_t id, double deadline))                               \
  X(int32_t, wheelReschedule, (laminar_ptr w, int32_t id, double deadline))                             \
  X(int32_t, wheelCancel, (laminar_ptr w, int32_t id))                                                  \
  X(int32_t, wheelAdvance, (laminar_ptr w, double now, laminar_ptr out, int32_t outCap))                \
  X(double, wheelNextDeadline, (laminar_ptr w))                                                         \
  X(double, wheelDeadlineOf, (laminar_ptr w, int32_t id))                                               \
  X(int32_t, wheelPending, (laminar_ptr w))                                                             \
  X(double, wheelNow, (laminar_ptr w))                                                                  \
  X(int32_t, memRecordBytes, (void))                                                                    \
  X(int32_t, memTick, (laminar_ptr block))                                                              \
  X(int32_t, streamDraw, (int32_t kind, laminar_ptr state, laminar_ptr zig, laminar_ptr out, int32_t n, double arg)) \
  X(int32_t, arrivalsBlockBytes, (void))                                                                 \
  X(int32_t, arrivalsDraw, (laminar_ptr block, laminar_ptr out, int32_t n))                            \
  X(int32_t, mergeRecords, (laminar_ptr dst, laminar_ptr a, int32_t na, laminar_ptr b, int32_t nb, int32_t words)) \
  X(int32_t, engineBlockBytes, (void))                                                                  \
  X(int32_t, engineDaBytes, (void))                                                                     \
  X(int32_t, engineEmitBytes, (void))                                                                   \
  X(int32_t, engineEventBytes, (void))                                                                  \
  X(double, engineBytes, (laminar_ptr block))                                                           \
  X(int32_t, engineInit, (laminar_ptr block, laminar_ptr base, double bytes))                          \
  X(double, engineRoomBytes, (laminar_ptr block))                                                       \
  X(int32_t, engineGrow, (laminar_ptr block, laminar_ptr base, double bytes))                          \
  X(int32_t, engineRun, (laminar_ptr block, double until, double msgAt))                               \
  X(int32_t, enginePost, (laminar_ptr block, double delay, int32_t kind, int32_t subject))             \
  X(int32_t, enginePostBatch, (laminar_ptr block, laminar_ptr src, int32_t n))                         \
  X(int32_t, engineEmit, (laminar_ptr block, laminar_ptr src, int32_t n))                              \
  X(int32_t, engineDispatch, (laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr cum, laminar_ptr rng, laminar_ptr lost)) \
  X(int32_t, engineDispatchAll, (laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr cum, laminar_ptr rng, laminar_ptr lost)) \
  X(int32_t, engineEmitAt, (laminar_ptr block, laminar_ptr src, int32_t n, double time, double seq0)) \
  X(int32_t, engineStageOwn, (laminar_ptr block, laminar_ptr src, int32_t n)) \
  X(int32_t, engineStagePulls, (laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr dst)) \
  X(int32_t, enginePostAt, (laminar_ptr block, double time, double seq, int32_t kind, int32_t subject)) \
  X(int32_t, engineLagMode, (laminar_ptr block, double step))                                          \
  X(double, engineSeqAt, (laminar_ptr block, double time, double seq))                                 \
  X(int32_t, engineHistoryTrim, (laminar_ptr block, double time))                                      \
  X(int32_t, engineHistoryRecords, (laminar_ptr block))                                                \
  X(int32_t, engineSeqRebase, (laminar_ptr block, double offset))                                      \
  X(int32_t, engineTrace, (laminar_ptr block, int32_t on))                                             \
  X(int32_t, engineTraceState, (laminar_ptr block, laminar_ptr out))                                   \
  X(int32_t, engineExchange, (laminar_ptr block))                                                      \
  X(int32_t, engineDrain, (laminar_ptr block, laminar_ptr gt, double now))                           \
  X(int32_t, engineArrive, (laminar_ptr block, laminar_ptr gt, laminar_ptr src, int32_t n, laminar_ptr ids)) \
  X(int32_t, engineSweep, (laminar_ptr block, laminar_ptr gt, int32_t which))                          \
  X(int32_t, engineTasksBlockBytes, (void))                                                            \
  X(int32_t, engineSetVerdict, (laminar_ptr block, int32_t d, int32_t v))                             \
  X(int32_t, engineSetVerdicts, (laminar_ptr block, laminar_ptr src, int32_t n))                       \
  X(int32_t, engineTaskState, (laminar_ptr block, int32_t t, int32_t home, int32_t awaiting))           \
  X(int32_t, engineLandRequest, (laminar_ptr block, int32_t home, int32_t t, int32_t pd, int32_t pz, double computeNs)) \
  X(int32_t, engineLandAnswer, (laminar_ptr block, int32_t d, int32_t ok, double computeNs, double remaining, double target, double drift, int32_t started))

#ifndef LAMINAR_NO_PROTOTYPES

/* ---- Module ------------------------------------------------------------- */

/** First byte the host may use (everything below holds the core's static tables). */
laminar_ptr heapBase(void);
/** Current size of memory in bytes (f64; changes only when the host grows memory). */
double memoryBytes(void);
/** 1 in the SIMD build, 0 in the scalar build. Both return bit-identical results. */
int32_t simdEnabled(void);
/** LAMINAR_ABI_VERSION (3). */
int32_t abiVersion(void);

/* ---- Bitmaps (assembly/bitmap.ts) --------------------------------------- */
/* Batch forms take `table` (the first node's row) and `count` nodes; to work on
 * nodes a..a+count-1 of a larger table pass LAMINAR_ROW_PTR(table, a, atoms).
 * Errors: E_ATOMS, E_COUNT, buffer codes (E_NULL, E_ALIGN, E_BOUNDS), E_K. */

/** out: i32[count] = free atoms of each node. Returns count. */
int32_t bmFreeCount(laminar_ptr table, int32_t count, int32_t atoms, laminar_ptr out);
/** out: u8[count] = 1 where a node has >= k free atoms, else 0. Returns how many have. k in [0, atoms]. */
int32_t bmCountAtLeast(laminar_ptr table, int32_t count, int32_t atoms, int32_t k, laminar_ptr out);
/** out: i32[count] = lowest offset (atom index) of k contiguous free atoms (runs may cross
 *  words), or -1; k = 0 gives 0. Returns how many nodes have such a run. */
int32_t bmFirstRun(laminar_ptr table, int32_t count, int32_t atoms, int32_t k, laminar_ptr out);
/** demand: one row (atoms bits). out: i32[count] = smallest shift s >= 0 such that every set
 *  bit b of demand has b + s < atoms and atom b + s free; -1 if none; an empty demand gives 0.
 *  Returns how many nodes it fits. */
int32_t bmFitsAt(laminar_ptr table, int32_t count, int32_t atoms, laminar_ptr demand, laminar_ptr out);

/* Single-node forms change `row` (one node's row) in place; masks are one row wide. */

/** Takes the k lowest-numbered free atoms; writes the mask taken to outMask. Returns k,
 *  or E_NOFIT (row unchanged) if fewer than k are free. */
int32_t bmTakeAny(laminar_ptr row, int32_t atoms, int32_t k, laminar_ptr outMask);
/** Takes the lowest run of k contiguous free atoms; mask in outMask. Returns its offset,
 *  or E_NOFIT (row unchanged) if there is none. */
int32_t bmTakeRun(laminar_ptr row, int32_t atoms, int32_t k, laminar_ptr outMask);
/** Takes every atom of mask. Returns popcount(mask), or E_CONFLICT (row unchanged) if any
 *  atom of mask is not free. */
int32_t bmTake(laminar_ptr row, int32_t atoms, laminar_ptr mask);
/** Releases every atom of mask. Returns popcount(mask), or E_CONFLICT (row unchanged) if any
 *  atom of mask is already free. */
int32_t bmRelease(laminar_ptr row, int32_t atoms, laminar_ptr mask);
/** Writes the mask of atoms [offset, offset + k) to outMask. Returns k; E_K if it does not fit. */
int32_t bmRunMask(int32_t atoms, int32_t offset, int32_t k, laminar_ptr outMask);

/* ---- Utility field (assembly/score.ts) ---------------------------------- */
/* Projection: age = max(0, now - stamp); S_pred = max(0, S + age*dS);
 * H_pred = max(0, H + age*dH). Long-degrade: age > degradeAge gives S_pred = 0,
 * H_pred = H + degradeHeat, never placable. Times in ms (f32), derivatives per ms.
 * U = log2(1 + S_pred) - gamma * log2(1 + H_pred) (table log2, abs. error < 3e-5). */

/** U (f32) for already projected slack s and heat h. No error path. Outside the domain
 *  (s, h >= 0) each log2 argument, 1 + s and 1 + h, is clamped to [1, 2^128]: a negative or
 *  NaN s or h counts as 0, +Infinity as 2^128 - 1 (log2 = 128), so for a finite gamma the
 *  result is always finite; a non-finite gamma may give NaN or an infinity. */
float utility(float s, float h, float gamma);
/** Choice block (laminar_choice_block) at `block`. cand: i32[n] node ids (< nodeCount);
 *  noise: f32[n], caller-drawn. Returns the index i into cand of the best placable candidate
 *  by U + noise[i] (ties: lowest i), or E_NOFIT (also for n = 0). Placable: not degraded and,
 *  on the node's row in table, popcount >= m (contiguous = 0) or a run of m contiguous free
 *  atoms (contiguous = 1). Errors, in order: buffer codes for the block, E_ATOMS (atoms),
 *  E_COUNT (negative nodeCount or n), buffer codes for field, table, cand, noise, E_K (m outside
 *  [0, atoms]), E_ARG (contiguous not 0/1, NaN now or degradeAge, non-finite gamma), then per
 *  candidate E_ID (an id outside [0, nodeCount)) or E_ARG (a non-finite noise). Writes nothing. */
int32_t scoreCandidates(laminar_ptr block);
/** Probe block (laminar_probe_block) at `block`. One DA probe action: sample k distinct candidates of [0, nodeCount) (nodeCount <= 65536; all of
 *  them in order when k = nodeCount) into cand: i32[k] with the xoshiro128** stream rng: i32[6]
 *  (s0..s3, not all 0), using seen: u32[ceil(nodeCount/32)] (all 0 on entry, left 0), then draw
 *  noise: f32[k] = sigma * N(0,1) (ziggurat, tables zig: u32 KN[128] then f64 WN[128], 8-aligned;
 *  0 <= sigma <= 1e30) and return scoreCandidates' choice over them (or E_NOFIT). A draw off the
 *  ziggurat's fast path returns E_DEFER with rng[0..3] the stream after word rng[5] (an i32) drawn
 *  for candidate rng[4]: the host finishes that draw, stores its noise, and calls again with
 *  start = rng[4] + 1 (cand and noise[0, start) are then kept). Written buffers overlap nothing.
 *  Errors: E_COUNT (negative nodeCount or k), E_ARG (nodeCount > 65536, k > nodeCount, start
 *  outside [0, k], sigma, overlaps, an all-zero stream, seen not clear), E_ID (a kept candidate
 *  id on resume), and scoreCandidates' E_K and E_ARG; an error writes nothing. The tables in zig
 *  are not checked: other contents give meaningless noise, never a write outside the buffers. */
int32_t probeCandidates(laminar_ptr block);
/** Zone block (laminar_zone_block) at `block`. Zone z is nodes offsets[z] .. offsets[z+1]-1
 *  (offsets: i32[zones+1], non-decreasing, every offset in [0, nodeCount], offsets[0] too when
 *  zones = 0; else E_ID). Writes outSlack: f32[zones] = mean projected slack and
 *  outHeat: f32[zones] = total projected heat (an empty Zone gives 0 and 0). Sums use four
 *  interleaved f32 lanes (node j of a Zone adds to lane j mod 4; (l0 + l1) + (l2 + l3)).
 *  Returns zones. E_ARG on NaN now/degradeAge/degradeHeat. */
int32_t zoneAggregate(laminar_ptr block);
/** TEG sampling table: U_z = utility(slack[z], heat[z], gamma), w_z = 2^((U_z - max U) / tau),
 *  outCum: f64[zones] = running sum w_0 + ... + w_z (sequential f64). zones >= 1 (E_COUNT);
 *  tau > 0 and finite, gamma finite (E_ARG). Returns zones. A weight below 2^-126 (an exponent
 *  below -126) is flushed to 0, so the Zone adds nothing to the sum; the largest weight is 1,
 *  so the total is always >= 1. */
int32_t tegWeights(laminar_ptr slack, laminar_ptr heat, int32_t zones, float gamma, float tau, laminar_ptr outCum);
/** u: f64[n] in [0, 1) (else E_ARG). out: i32[n] = the first z with cum[z] > u[i] * cum[zones-1].
 *  zones >= 1; cum[zones-1] must be > 0 and finite (E_ARG). Returns n. */
int32_t tegSample(laminar_ptr cum, int32_t zones, laminar_ptr u, int32_t n, laminar_ptr out);

/* ---- Micro-kernels (assembly/micro.ts; C twins in bench/native/) -------- */

/** Bytes of the mask-update working set: 1,048,576. */
int32_t microMaskBytes(void);
/** Bytes of the fastlog-score table: 1,048,576. */
int32_t microScoreBytes(void);
/** iters dependent residual-mask updates over 16,384 records of (R, D) 256-bit masks at base,
 *  from record start (E_ID outside [0, 16384)) with dependency value seed. Returns lo32 of the
 *  last dependency value as a non-negative f64 holding a u32, or a negative error code. */
double microMaskUpdate(laminar_ptr base, int32_t iters, int32_t start, uint32_t seed);
/** iters dependent node scores over the 262,144-word table from word start. Returns the xor of
 *  all score bit patterns as a non-negative f64 holding a u32, or a negative error code. */
double microFastlogScore(laminar_ptr table, int32_t iters, int32_t start, float gamma);
/** iters zone updates of the f32[256] arrays O, H, S (16-byte aligned):
 *  O[j] += gamma*(H[j]^3) + beta*S[j]; H[j] += eps (no FMA). Returns 0 or an error code. */
int32_t microZoneUpdate(laminar_ptr o, laminar_ptr h, laminar_ptr s, int32_t iters, float gamma, float beta, float eps);

/* ---- Timing wheel (assembly/wheel.ts) ------------------------------------ */
/* Ids are [0, capacity). Ticks are integer-valued f64 in [0, 2^53) (else E_ARG).
 * Every call on a region first checks it (E_ARG if not initialised). */

/** Bytes of a wheel region for capacity ids (a multiple of 8); E_COUNT outside [0, 2^26]. */
int32_t wheelBytes(int32_t capacity);
/** Initialises (or resets) the region at w (8-byte aligned, wheelBytes(capacity) long) at time now. */
int32_t wheelInit(laminar_ptr w, int32_t capacity, double now);
/** 0 scheduled; 1 already due (deadline <= now: not inserted, the caller fires it); E_ID,
 *  E_ARG (bad tick), E_CONFLICT (already scheduled), E_HORIZON (deadline - now > 2^36 - 1). */
int32_t wheelSchedule(laminar_ptr w, int32_t id, double deadline);
/** Moves id to deadline whether or not it is scheduled: codes of wheelSchedule without
 *  E_CONFLICT; 1 means the old entry (if any) is cancelled and the caller fires it. On
 *  E_HORIZON the old entry is kept. */
int32_t wheelReschedule(laminar_ptr w, int32_t id, double deadline);
/** 1 cancelled, 0 was not scheduled, E_ID. */
int32_t wheelCancel(laminar_ptr w, int32_t id);
/** Moves the wheel's time to now, writing due ids to out: i32[outCap] by deadline, ascending
 *  id within a tick; returns how many. If more are due than fit, the time stops at the
 *  earliest deadline still due and the next call continues there. E_COUNT (outCap < 0),
 *  buffer codes, E_ARG (out overlaps the region, bad tick, now before the wheel's time). */
int32_t wheelAdvance(laminar_ptr w, double now, laminar_ptr out, int32_t outCap);
/** Exact earliest deadline among scheduled ids (f64), +Infinity if none is scheduled (so it is
 *  never mistaken for a status code), or a negative error code. */
double wheelNextDeadline(laminar_ptr w);
/** Deadline of id (f64), +Infinity if it is not scheduled, E_ID. */
double wheelDeadlineOf(laminar_ptr w, int32_t id);
/** Ids scheduled now: scheduled - fired - cancelled (an "already due" answer is not counted). */
int32_t wheelPending(laminar_ptr w);
/** The wheel's time (f64 holding an integer tick). */
double wheelNow(laminar_ptr w);

/* ---- Runtime memory (docs/abi.md, "Runtime memory") ---------------------- */

/** Bytes of one memory record: 48 (6 doubles: node, declared, target, drift, resident, key). */
int32_t memRecordBytes(void);
/** Memory block (laminar_mem_block) at `block`. One runtime tick over `count` records; writes
 *  usage (KiB) per node and the nodes above `threshold` (ascending, at most outCap); returns
 *  how many nodes are above it, or a status < 0. recs (in/out), usage and out are written:
 *  none may overlap another buffer or the block (E_ARG). */
int32_t memTick(laminar_ptr block);

/* ---- Random streams (docs/abi.md, "Random streams") ---------------------- */

/** Ziggurat tables in the core's layout: KN uint32[128] at 0, WN double[128] at 512, FN double[128] at 1536. */
#define LAMINAR_ZIG_BYTES 2560u

/** n draws of `kind` from the xoshiro128** stream at `state` (uint32[4], s0..s3, not all zero;
 *  written back) into out: double[n]: 0 nextU32, 1 float (53 bits), 2 float32 (32 bits),
 *  3 int(arg) (arg an integer in [1, 2^32]), 4 exponential of mean arg (finite), 5 standard
 *  normal (ziggurat; tables at zig, 8-aligned, LAMINAR_ZIG_BYTES). Kinds 6, 7, 8, 9, 10 replace
 *  each out[i] by log, log1p, exp, sin, cos of it (V8's fdlibm results; sin and cos NaN past
 *  2^19 pi / 2) and ignore state and zig. Returns n, E_COUNT (n < 0), E_ARG (bad kind or arg,
 *  all-zero state, overlapping buffers) or a buffer code. */
int32_t streamDraw(int32_t kind, laminar_ptr state, laminar_ptr zig, laminar_ptr out, int32_t n, double arg);

/* Arrivals (docs/abi.md, "Arrivals"): the bimodal workload's tasks in arrival order. block:
 * LAMINAR_ARRIVALS_BLOCK_BYTES, 16-aligned; out: double[5 n] (time, class, service, atoms, price). */
#define LAMINAR_ARRIVALS_BLOCK_BYTES 176u
int32_t arrivalsBlockBytes(void);
/** Up to n tasks into out; fewer only when the window is over. */
int32_t arrivalsDraw(laminar_ptr block, laminar_ptr out, int32_t n);

/* Merging records (docs/abi.md, "Merging records"): two runs of double[words] records, each in
 * (word 0, word 1) order, merged into dst; b's record first only when strictly before a's. */
/** na + nb; E_COUNT (a count below 0), E_ARG (words outside [2, 64], dst overlapping a or b) or a buffer code. */
int32_t mergeRecords(laminar_ptr dst, laminar_ptr a, int32_t na, laminar_ptr b, int32_t nb, int32_t words);

/* --- Zone admission engine (docs/abi.md, "Zone engine") ---
 * block: LAMINAR_ENGINE_BLOCK_BYTES, 8-aligned, zeroed, then the parameter fields written
 * (field i at byte 8 * i; an int32 or pointer in the field's first 4 bytes). */
#define LAMINAR_ENGINE_BLOCK_BYTES 1280u
#define LAMINAR_ENGINE_DA_BYTES 64u
#define LAMINAR_ENGINE_EMIT_BYTES 64u
/** With the memory model (field 95 MEMX: a zeroed 512-byte extension block), emissions are 80 bytes: the declared GiB (double) at 64. */
#define LAMINAR_ENGINE_MEMX_FIELD 95
#define LAMINAR_ENGINE_MEMX_BYTES 512u
#define LAMINAR_ENGINE_EMIT_MEM_BYTES 80u
#define LAMINAR_ENGINE_EVENT_BYTES 24u
/* engineRun's outcomes besides status codes */
#define LAMINAR_ENGINE_RAN_TO 0
#define LAMINAR_ENGINE_HOST_EVENT 1
#define LAMINAR_ENGINE_HOST_MESSAGE 2
/* block fields */
enum laminar_engine_field {
  LAMINAR_EF_NOW = 0, LAMINAR_EF_SEQ = 1, LAMINAR_EF_HEAP_SIZE = 3, LAMINAR_EF_HEAP_CAP = 4,
  LAMINAR_EF_HOST_KIND = 5, LAMINAR_EF_HOST_SUBJECT = 6,
  LAMINAR_EF_HOP = 9, LAMINAR_EF_DELTA = 10, LAMINAR_EF_WINDOW = 11, LAMINAR_EF_SILENCE = 12, LAMINAR_EF_DEADLINE = 13,
  LAMINAR_EF_REPORT = 14, LAMINAR_EF_MIN_GAP = 15, LAMINAR_EF_BROADCAST = 16, LAMINAR_EF_STALE = 17, LAMINAR_EF_TTL = 18,
  LAMINAR_EF_REPORT_DELAY = 19, LAMINAR_EF_ROW_SILENCE = 20, LAMINAR_EF_LOSS = 21, LAMINAR_EF_OS_JITTER_MS = 22,
  LAMINAR_EF_PATIENCE_FLOOR = 23, LAMINAR_EF_ACTION_COST = 24, LAMINAR_EF_REDIRECT_COST = 25, LAMINAR_EF_BOUNCE_COST = 26,
  LAMINAR_EF_RESERVE = 27, LAMINAR_EF_DEPOSIT = 28, LAMINAR_EF_BITMAP_NS = 29, LAMINAR_EF_CANDIDATES = 30,
  LAMINAR_EF_REPORT_JITTER = 31, LAMINAR_EF_ALPHA = 32, LAMINAR_EF_GUARD = 33, LAMINAR_EF_PROJECTION = 34,
  LAMINAR_EF_RING = 35, LAMINAR_EF_COPIES = 36, LAMINAR_EF_ATOMS = 37, LAMINAR_EF_ROW_BYTES = 38, LAMINAR_EF_NODES = 39,
  LAMINAR_EF_ZONES = 40, LAMINAR_EF_N0 = 41, LAMINAR_EF_N1 = 42, LAMINAR_EF_Z0 = 43, LAMINAR_EF_Z1 = 44,
  LAMINAR_EF_OFFSETS = 46, LAMINAR_EF_BITMAPS = 47, LAMINAR_EF_AGG_S = 60, LAMINAR_EF_AGG_H = 61, LAMINAR_EF_FORFEIT = 65,
  LAMINAR_EF_R_ZONE = 66, LAMINAR_EF_R_NET = 67, LAMINAR_EF_R_REPORT = 68, LAMINAR_EF_DA_CAP = 72, LAMINAR_EF_DA_LIVE = 73,
  LAMINAR_EF_OUTBOX = 83, LAMINAR_EF_OUT_N = 84, LAMINAR_EF_SIGMA = 94,
  LAMINAR_EF_PROBE_ACTIONS = 100, LAMINAR_EF_BOUNCES = 103, LAMINAR_EF_COMPLETED = 110, LAMINAR_EF_RUNNING = 111,
  LAMINAR_EF_PROCESSED = 118, LAMINAR_EF_DA_ENDS = 120, LAMINAR_EF_GAMMA = 148, LAMINAR_EF_DEGRADE_HEAT = 149,
  LAMINAR_EF_ACCEPT_PROJECTED = 150
};

/** Bytes of the engine's region for the block's parameters (or a status code, as a double). */
double engineBytes(laminar_ptr block);
/** Lay the engine out in [base, base + bytes) and start it: snapshot 0, first reports, first snapshots. */
int32_t engineInit(laminar_ptr block, laminar_ptr base, double bytes);
/** Run the events before until: 0 ran to until, 1 a host event (HOST_KIND, HOST_SUBJECT), 2 at msgAt, E_FULL, or a fault. */
int32_t engineRun(laminar_ptr block, double until, double msgAt);
/** Schedule (kind, subject) delay ns from now on the engine's queue; E_FULL when it needs room. */
int32_t enginePost(laminar_ptr block, double delay, int32_t kind, int32_t subject);
/** n DA emissions (LAMINAR_ENGINE_EMIT_BYTES records at src), each addressing its launchpad a hop from now. */
int32_t engineEmit(laminar_ptr block, laminar_ptr src, int32_t n);
/** The gateway's batch: each emission's Zone (TEG weights cum) and launchpad drawn from rng, lossy hop; lost tasks to lost; returns how many were lost. */
int32_t engineDispatch(laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr cum, laminar_ptr rng, laminar_ptr lost);
/** engineDispatch's draws for a gateway that runs once for engines elsewhere: every launchpad kept (a lost DA's -1), none taken. */
int32_t engineDispatchAll(laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr cum, laminar_ptr rng, laminar_ptr lost);
/** Lag mode: emissions as engineEmit's, addressing at absolute time with sequence numbers seq0, seq0 + 1, ... */
int32_t engineEmitAt(laminar_ptr block, laminar_ptr src, int32_t n, double time, double seq0);
/** A batch of engineDispatchAll's records at a Zone partition: those whose launchpad is one of this engine's nodes moved to the front, in order; returns how many. */
int32_t engineStageOwn(laminar_ptr block, laminar_ptr src, int32_t n);
/** A Zone partition's own messages (10-f64 records for the gateway side): each pull request of its Zones as a post record of its completion at dst; returns how many. */
int32_t engineStagePulls(laminar_ptr block, laminar_ptr src, int32_t n, laminar_ptr dst);
/** Lag mode: schedule (kind, subject) at absolute time with sequence number seq (the engine's counter unmoved). */
int32_t enginePostAt(laminar_ptr block, double time, double seq, int32_t kind, int32_t subject);
/** Lag mode on: the engine's own sequence numbers in steps of step (a power of two), and a history of its counter. */
int32_t engineLagMode(laminar_ptr block, double step);
/** Lag mode: the sequence counter just before the point (time, seq) of the run (or a status code, as a double). */
double engineSeqAt(laminar_ptr block, double time, double seq);
/** Lag mode: drop the history before time. */
int32_t engineHistoryTrim(laminar_ptr block, double time);
/** Lag mode: records the history holds. */
int32_t engineHistoryRecords(laminar_ptr block);
/** Lag mode: every sequence number the engine holds less offset (a multiple of the step), their order unchanged. */
int32_t engineSeqRebase(laminar_ptr block, double offset);
/** The event trace: on = 1 starts it afresh, 0 stops it (docs/abi.md, "The event trace"). */
int32_t engineTrace(laminar_ptr block, int32_t on);
/** The trace's state at out (16 bytes, 8-aligned): int32 lane 0, int32 lane 1, double events folded in. */
int32_t engineTraceState(laminar_ptr block, laminar_ptr out);
/** Every Zone, no memory model: the outbox into the inbox (after OUT_CAP records; IN_N, field 119) in canonical order, the pulls' completions scheduled; the records moved. */
int32_t engineExchange(laminar_ptr block);
/** The inbox's pull requests and DA ends from gt's HEAD on, delivered at or before now, applied to the task table (the tasks block at gt, docs/abi.md "The gateway's task table"); the messages applied. */
int32_t engineDrain(laminar_ptr block, laminar_ptr gt, double now);
/** n arrivalsDraw records at src materialised on the task table, in the slots at ids (int32 pairs: slot, generation; 0: the engine takes them from GEN and the SLOT_* fields): first DAs staged, timers armed; n. */
int32_t engineArrive(laminar_ptr block, laminar_ptr gt, laminar_ptr src, int32_t n, laminar_ptr ids);
/** A timer ring's sweep event (which: 0 deadlines, 1 regeneration checks) on the task table (docs/abi.md "The gateway's task table"): the timers handed over. */
int32_t engineSweep(laminar_ptr block, laminar_ptr gt, int32_t which);
/** 280: the tasks block engineArrive, engineDrain and engineSweep read. */
int32_t engineTasksBlockBytes(void);
/** The proxy's answer to DA d's pull request: 1 start, 2 duplicate, 3 late. */
int32_t engineSetVerdict(laminar_ptr block, int32_t d, int32_t v);
/** n answers at once: int32 pairs (DA, verdict) at src. */
int32_t engineSetVerdicts(laminar_ptr block, laminar_ptr src, int32_t n);
/** Memory model (MEMX): the gateway side's word on task t (its image's Zone; whether its secondary probes may still land). */
int32_t engineTaskState(laminar_ptr block, int32_t t, int32_t home, int32_t awaiting);
/** Memory model: message 7 (a secondary probe's request for task t's image) delivered to Zone home at the clock. */
int32_t engineLandRequest(laminar_ptr block, int32_t home, int32_t t, int32_t pd, int32_t pz, double computeNs);
/** Memory model: message 8 (the answer) delivered to secondary probe d at the clock; started: the task has started. */
int32_t engineLandAnswer(laminar_ptr block, int32_t d, int32_t ok, double computeNs, double remaining, double target, double drift, int32_t started);
/** n events at once, in order: 16-byte records (double absolute time, int32 kind, int32 subject) at src. */
int32_t enginePostBatch(laminar_ptr block, laminar_ptr src, int32_t n);
/** Bytes of the region the last E_FULL asked for (or a status code, as a double). */
double engineRoomBytes(laminar_ptr block);
/** Move the table the last E_FULL asked room for to [base, base + bytes). */
int32_t engineGrow(laminar_ptr block, laminar_ptr base, double bytes);
int32_t engineBlockBytes(void);
int32_t engineDaBytes(void);
int32_t engineEmitBytes(void);
int32_t engineEventBytes(void);

#endif /* LAMINAR_NO_PROTOTYPES */

#ifdef __cplusplus
}
#endif

#endif /* LAMINAR_CORE_H */
