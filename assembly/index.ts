// The export surface of the Laminar core: numbers and pointers only.
// See docs/abi.md for every export, its units, and its error codes.
import { memBytes } from "./abi";
export * from "./micro";

/** First byte a host may use: everything below holds the core's static tables. */
export function heapBase(): usize { return __heap_base; }

/** 1 for the SIMD build, 0 for the scalar build. */
export function simdEnabled(): i32 { return ASC_FEATURE_SIMD ? 1 : 0; }

/** ABI version: bumped on any incompatible change of an export. */
export function abiVersion(): i32 { return 3; }

/** Bytes of linear memory now (grows only when the host calls memory.grow). */
export function memoryBytes(): f64 { return <f64>memBytes(); }
export * from "./bitmap";
export * from "./score";
export * from "./probe";
export * from "./wheel";
export { memRecordBytes, memTick } from "./memory";
export { streamDraw } from "./streamdraw";
export { arrivalsBlockBytes, arrivalsDraw } from "./arrivals";
export { mergeRecords } from "./merge";
export * from "./engine/run";
export { engineDispatch, engineDispatchAll } from "./engine/gateway";
export { engineBytes, engineInit, engineRoomBytes, engineGrow } from "./engine/setup";
export { engineTrace, engineTraceState } from "./engine/trace";
export { engineLagMode, engineSeqAt, engineHistoryTrim, engineHistoryRecords, engineSeqRebase } from "./engine/lag";
