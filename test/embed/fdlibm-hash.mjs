#!/usr/bin/env node
// Prints, for each function of src/sim/fdlibm.ts, a hash of its results on a
// fixed million arguments over the ranges the simulator uses, as
// `NAME PORT_HASH MATH_HASH`: the port's and the runtime's own Math.*'s.
// Under Node 20 the two are equal; under another runtime (runtimes.mjs) the
// port's must equal Node's, whatever the runtime's Math.* gives.
//
//   node test/embed/fdlibm-hash.mjs          # after `npm run build`
//
// test/sim/fdlibm.test.ts imports fdlibmHashes and pins the hashes.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * For each function: [name, hash of the port's results, hash of Math.*'s]
 * on a fixed million arguments (`ports`: the module, whose portLog,
 * portLog1p, portExp, portSin and portCos are the ports whatever the runtime).
 */
export function fdlibmHashes(ports) {
  const { portCos: fdCos, portExp: fdExp, portLog: fdLog, portLog1p: fdLog1p, portSin: fdSin } = ports;
  let s = 987654321;
  /** A uniform in (0, 1) from xorshift32: the same arguments in every runtime. */
  const u = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  const F = new Float64Array(1), W = new Uint32Array(F.buffer);
  /** A double of random mantissa and a binary exponent in [-1000, 1000) (only exact operations: the same in every runtime). */
  const wide = () => {
    W[0] = (u() * 4294967296) >>> 0;
    W[1] = (((1023 - 1000 + Math.floor(u() * 2000)) << 20) | Math.floor(u() * 1048576)) >>> 0;
    return F[0];
  };
  /** NaN as one pattern: runtimes differ in its payload (V8 returns 0x7ff4... for the log of a negative), which no JavaScript value shows. */
  const canonical = (v) => (v === v ? v : NaN);
  const CASES = [
    ["log", fdLog, Math.log, () => (u() < 0.5 ? 1 - u() : wide())],
    ["log1p", fdLog1p, Math.log1p, () => (u() - 0.5) * (u() < 0.5 ? 1 : 1e6)],
    ["exp", fdExp, Math.exp, () => (u() < 0.5 ? (u() - 0.5) * 40 : (u() - 0.5) * 1500)],
    ["sin", fdSin, Math.sin, () => (u() < 0.5 ? 2 * Math.PI * u() : (u() - 0.5) * 2e5)],
    ["cos", fdCos, Math.cos, () => (u() < 0.5 ? 2 * Math.PI * u() : (u() - 0.5) * 2e5)],
  ];
  const out = [];
  for (const [name, port, math, arg] of CASES) {
    let hp = 0, hm = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const x = arg();
      F[0] = canonical(port(x));
      hp = (Math.imul(hp, 31) + (W[0] ^ Math.imul(W[1], 0x9e3779b1))) >>> 0;
      F[0] = canonical(math(x));
      hm = (Math.imul(hm, 31) + (W[0] ^ Math.imul(W[1], 0x9e3779b1))) >>> 0;
    }
    out.push([name, hp.toString(16), hm.toString(16)]);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  for (const row of fdlibmHashes(await import(join(ROOT, "dist", "src", "sim", "fdlibm.js")))) console.log(row.join(" "));
}
