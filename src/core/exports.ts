// The typed export surface of build/laminar-*.wasm (docs/abi.md).
// Pointers are byte offsets; every function returns a status code < 0 on bad input.
export interface CoreExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  memoryBytes(): number;
  simdEnabled(): number;
  abiVersion(): number;

  // micro-kernels (assembly/micro.ts)
  microMaskBytes(): number;
  microScoreBytes(): number;
  microMaskUpdate(base: number, iters: number, start: number, seed: number): number;
  microFastlogScore(table: number, iters: number, start: number, gamma: number): number;
  microZoneUpdate(o: number, h: number, s: number, iters: number, gamma: number, beta: number, eps: number): number;
}
