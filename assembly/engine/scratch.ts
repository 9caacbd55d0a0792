// The probe action's scratch and the engine's ziggurat tables (for the probe
// action's noise and the node reports' jitter), and the event queue's counts
// while a big bucket opens, in the core's own memory
// (below heapBase) rather than in the host's engine region: at fixed
// addresses, the probe action's loops (chooseTarget, with probeCore inlined)
// hold them as constants, and the registers they took before go to the
// stream and the loops' values (fewer spills). Sized for the largest inputs
// engineInit accepts (k <= 4096 candidates, Zones of at most 65536 nodes).
// Transient within one probe action, except the ziggurat's tables, which are
// the same for every engine: engines in one instance share them.
import { ZIG_BYTES } from "../stream";

/** The ziggurat's tables (KN, WN, FN: stream.ts ZIG_*), written by engineInit. */
export const ENGINE_ZIG: usize = memory.data(ZIG_BYTES, 16);
/** The sampling's `seen` bitmap: a bit per node of the largest Zone, clear between probe actions. */
export const PROBE_SEEN: usize = memory.data(65536 >> 3, 16);
/** The candidates (i32) and their noise (f32), k of each. */
export const PROBE_CAND: usize = memory.data(4096 << 2, 16);
export const PROBE_NOISE: usize = memory.data(4096 << 2, 16);
/** The event queue's counts while a big bucket opens (events.ts openBig): one i32 per nanosecond of a bucket. */
export const QUEUE_COUNTS: usize = memory.data(512 << 2, 16);
