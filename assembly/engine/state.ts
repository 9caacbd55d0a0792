// The engine's state block, at a fixed address in the core's own memory
// (below heapBase): each export that takes a block copies the host's block
// in (`enter`, through `ready` or setup's check) and back out as it returns
// (`leave`), so that every field the mechanisms read and write is a
// constant address. The tables' pointers are loaded from the block once per
// call into the module globals here. Engines that share an instance take
// turns: a call holds its own block's copy from its start to its end.
import { E_FULL } from "../abi";
import {
  BLOCK_BYTES, F_ATOMS, F_BITMAPS, F_DAS, F_DAS_COLD, F_FREE, F_MASKS, F_MEMX, F_OFFSETS, F_Q_HEAD, F_Q_TAIL, F_ROOM_NEED, F_ROOM_WHAT, F_ROW_BYTES, F_ZONE_OF,
  DA_BYTES, DA_COLD_BYTES, DX_BYTES, MX_DAX, MX_PRESSURED,
} from "./layout";

/** The block of the call in progress: the host's block, copied in. */
export const E: usize = memory.data(BLOCK_BYTES, 16);
/** The host's block the copy at E goes back to when the call returns (0: none). */
let HOST: usize = 0;
export let DAS: usize = 0, DAS_COLD: usize = 0, MASKS: usize = 0, ZONE_OF: usize = 0, OFFSETS: usize = 0, BITMAPS: usize = 0, FREE: usize = 0;
export let Q_HEAD: usize = 0, Q_TAIL: usize = 0;
export let ATOMS: i32 = 0, ROW_BYTES: i32 = 0;
/** The memory extension block (0: the memory model is off) and the DAs' memory records. */
export let MX: usize = 0, DAX: usize = 0;

/** Start a call on the host's block (checked by the caller: BLOCK_BYTES, 8-aligned): copy it in, load its pointers. */
export function enter(block: usize): void {
  copyBlock(E, block);
  HOST = block;
  refresh();
}

/** The call's block copy back to the host's block (a no-op when no block was entered since the last). */
export function leave(): void {
  if (HOST != 0) copyBlock(HOST, E);
  HOST = 0;
}

/** No block to copy back (a check failed before or after enter, with nothing written). */
export function forget(): void {
  HOST = 0;
}

/** The block's table pointers into the globals again (after setup moved a table). */
export function refresh(): void {
  DAS = ptr(F_DAS);
  DAS_COLD = ptr(F_DAS_COLD);
  MASKS = ptr(F_MASKS);
  ZONE_OF = ptr(F_ZONE_OF);
  OFFSETS = ptr(F_OFFSETS);
  BITMAPS = ptr(F_BITMAPS);
  FREE = ptr(F_FREE);
  Q_HEAD = ptr(F_Q_HEAD);
  Q_TAIL = ptr(F_Q_TAIL);
  ATOMS = geti(F_ATOMS);
  ROW_BYTES = geti(F_ROW_BYTES);
  MX = ptr(F_MEMX);
  DAX = MX != 0 ? <usize>load<u32>(MX + (<usize>MX_DAX << 3)) : 0;
}

/** BLOCK_BYTES from src to dst (two blocks, 8-aligned; they do not overlap), 64 bytes a step. */
function copyBlock(dst: usize, src: usize): void {
  for (let o: usize = 0; o < <usize>BLOCK_BYTES; o += 64) {
    if (ASC_FEATURE_SIMD) {
      v128.store(dst + o, v128.load(src + o));
      v128.store(dst + o, v128.load(src + o, 16), 16);
      v128.store(dst + o, v128.load(src + o, 32), 32);
      v128.store(dst + o, v128.load(src + o, 48), 48);
    } else {
      for (let w: usize = 0; w < 64; w += 8) store<u64>(dst + o + w, load<u64>(src + o + w));
    }
  }
}

// @ts-ignore: decorator
@inline export function getf(i: i32): f64 { return load<f64>(E + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function setf(i: i32, v: f64): void { store<f64>(E + (<usize>i << 3), v); }
// @ts-ignore: decorator
@inline export function addf(i: i32, v: f64): void { store<f64>(E + (<usize>i << 3), load<f64>(E + (<usize>i << 3)) + v); }
// @ts-ignore: decorator
@inline export function geti(i: i32): i32 { return load<i32>(E + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function seti(i: i32, v: i32): void { store<i32>(E + (<usize>i << 3), v); }
// @ts-ignore: decorator
@inline export function ptr(i: i32): usize { return <usize>load<u32>(E + (<usize>i << 3)); }

/** DA d's record. */
// @ts-ignore: decorator
@inline export function da(d: i32): usize { return DAS + <usize>d * DA_BYTES; }
/** DA d's cold record (deposit, service time, first atom, key). */
// @ts-ignore: decorator
@inline export function dc(d: i32): usize { return DAS_COLD + <usize>d * DA_COLD_BYTES; }
/** DA d's memory record (with the memory model on). */
// @ts-ignore: decorator
@inline export function dx(d: i32): usize { return DAX + <usize>d * DX_BYTES; }
// memory extension fields
// @ts-ignore: decorator
@inline export function xf(i: i32): f64 { return load<f64>(MX + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function setxf(i: i32, v: f64): void { store<f64>(MX + (<usize>i << 3), v); }
// @ts-ignore: decorator
@inline export function addxf(i: i32, v: f64): void { store<f64>(MX + (<usize>i << 3), load<f64>(MX + (<usize>i << 3)) + v); }
// @ts-ignore: decorator
@inline export function xi(i: i32): i32 { return load<i32>(MX + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function setxi(i: i32, v: i32): void { store<i32>(MX + (<usize>i << 3), v); }
// @ts-ignore: decorator
@inline export function xp(i: i32): usize { return <usize>load<u32>(MX + (<usize>i << 3)); }
/** Whether node n reports under pressure (the memory model's Airlock: its use above the high watermark; no free atoms). */
// @ts-ignore: decorator
@inline export function pressured(n: i32): bool { return MX != 0 && load<u8>(xp(MX_PRESSURED) + <usize>n) != 0; }
/** DA d's mask row (the atoms it holds). */
// @ts-ignore: decorator
@inline export function mask(d: i32): usize { return MASKS + <usize>d * <usize>ROW_BYTES; }
/** Node n's bitmap row. */
// @ts-ignore: decorator
@inline export function row(n: i32): usize { return BITMAPS + <usize>n * <usize>ROW_BYTES; }
// @ts-ignore: decorator
@inline export function zoneOf(n: i32): i32 { return load<i32>(ZONE_OF + (<usize>n << 2)); }
// @ts-ignore: decorator
@inline export function offset(z: i32): i32 { return load<i32>(OFFSETS + (<usize>z << 2)); }
// @ts-ignore: decorator
@inline export function freeOf(n: i32): i32 { return load<i32>(FREE + (<usize>n << 2)); }
// @ts-ignore: decorator
@inline export function setFree(n: i32, v: i32): void { store<i32>(FREE + (<usize>n << 2), v); }
// @ts-ignore: decorator
@inline export function i32At(table: i32, i: i32): i32 { return load<i32>(ptr(table) + (<usize>i << 2)); }
// @ts-ignore: decorator
@inline export function setI32At(table: i32, i: i32, v: i32): void { store<i32>(ptr(table) + (<usize>i << 2), v); }
// @ts-ignore: decorator
@inline export function f64At(table: i32, i: i32): f64 { return load<f64>(ptr(table) + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline export function setF64At(table: i32, i: i32, v: f64): void { store<f64>(ptr(table) + (<usize>i << 3), v); }

/** JavaScript's Math.round (libm.ts), for the mechanisms that import their helpers from here. */
export { jsRound } from "../libm";

/** Copy `bytes` (a multiple of 8, a bitmap row or a report record) in 8-byte words: no bulk-memory call for a few words. */
// @ts-ignore: decorator
@inline export function copyWords(dst: usize, src: usize, bytes: usize): void {
  for (let o: usize = 0; o < bytes; o += 8) store<u64>(dst + o, load<u64>(src + o));
}

/** Ask the host for room: `what` (ROOM_*; for a Zone's ring, ROOM_RING + 16 * zone) and how many records. */
export function room(what: i32, need: i32): i32 {
  seti(F_ROOM_WHAT, what);
  seti(F_ROOM_NEED, need);
  return E_FULL;
}
