// `laminar info`: what core build this runtime loads, and its ABI.
import { Command } from "commander";
import { loadCore, simdSupported, wasmPath } from "../core/wasm.js";

export function infoCommand(): Command {
  return new Command("info")
    .description("show the WebAssembly core this runtime loads (SIMD or scalar), its ABI version and exports")
    .option("--json", "print JSON")
    .action((o: { json?: boolean }) => {
      const core = loadCore("auto");
      const exports = Object.keys(core.exports).filter((k) => k !== "memory").sort();
      const info = {
        build: core.flavor,
        simdSupported: simdSupported(),
        wasm: wasmPath(core.flavor),
        abiVersion: core.exports.abiVersion(),
        heapBase: core.exports.heapBase(),
        memoryBytes: core.exports.memoryBytes(),
        exports,
      };
      if (o.json) console.log(JSON.stringify(info, null, 2));
      else {
        console.log(`core build:    ${info.build} (${info.wasm})`);
        console.log(`SIMD support:  ${info.simdSupported ? "yes" : "no"}`);
        console.log(`ABI version:   ${info.abiVersion}`);
        console.log(`heap base:     ${info.heapBase} bytes; memory ${info.memoryBytes} bytes`);
        console.log(`exports (${exports.length}): ${exports.join(", ")}`);
      }
    });
}
