// Typed views over the core's memory that hot paths can read as plain
// fields. Arena's getters check on every access whether memory has grown
// (WebAssembly.Memory's buffer accessor is a runtime call); here the owner
// calls sync() after anything that may have grown memory (an alloc), and
// reads views in between for free.
export class Views {
  u8!: Uint8Array;
  u32!: Uint32Array;
  i32!: Int32Array;
  f32!: Float32Array;
  f64!: Float64Array;
  private buf: ArrayBuffer | null = null;

  constructor(private readonly memory: WebAssembly.Memory) {
    this.sync();
  }

  /** sync(), for an owner that follows its memory's growth (src/sim/timer-sweep.ts followGrowth). */
  rebind(): void {
    this.sync();
  }

  /** Rebuild the views if memory has grown since the last call. */
  sync(): void {
    const b = this.memory.buffer;
    if (b === this.buf) return;
    this.buf = b;
    this.u8 = new Uint8Array(b);
    this.u32 = new Uint32Array(b);
    this.i32 = new Int32Array(b);
    this.f32 = new Float32Array(b);
    this.f64 = new Float64Array(b);
  }
}
