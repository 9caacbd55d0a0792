// The known answer the installed core must give, wherever it runs (Node, a
// worker, a browser page): free atoms per row of a two-row bitmap, 64 atoms
// a row, bit set = atom free, counted by the WASM build (if one was picked)
// and by the TypeScript twin. Plain JavaScript with no imports, so a page
// can load it as it is.
export const TABLE = [0xffffffff, 0x0000000f, 0x00000001, 0x80000000]; // row 0: 32 + 4 free; row 1: 1 + 1
export const EXPECTED = [36, 2];

/** Run the check on a loaded core module (the package's entry): { flavor, reason, wasm, twin, ok }. */
export async function knownAnswer(mod, options = {}) {
  const { flavor, reason, core } = await mod.instantiateCore(options);
  const twinOut = new Int32Array(2);
  const twinRc = mod.twins.bitmap.bmFreeCount(new Uint32Array(TABLE), 2, 64, twinOut);
  let wasm = null;
  if (core !== null) {
    const a = core.arena;
    const table = a.put(new Uint32Array(TABLE), 8);
    const out = a.alloc(8, 4);
    const rc = mod.check(core.exports.bmFreeCount(table, 2, 64, out), "bmFreeCount");
    wasm = { rc, counts: Array.from(a.i32.subarray(out / 4, out / 4 + 2)) };
  }
  const twin = { rc: twinRc, counts: Array.from(twinOut) };
  const same = (x) => x.rc === 2 && x.counts.join() === EXPECTED.join();
  return { flavor, reason, wasm, twin, ok: same(twin) && (wasm === null ? flavor === "ts" : same(wasm)) };
}
