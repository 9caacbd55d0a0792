// A bump allocator over the core's linear memory. The core itself never
// allocates: the host lays out every buffer, and this class is where that
// layout lives. Typed views are rebuilt whenever memory has grown (growing
// detaches the old ArrayBuffer), so callers must read views through the
// getters here, not keep them across an alloc().

const PAGE = 65536;
/** Pages of a 32-bit WebAssembly memory at most (4 GiB). */
const MAX_PAGES = 65536;

export class Arena {
  private top: number;
  private buf: ArrayBuffer;
  private _u8!: Uint8Array;
  private _i32!: Int32Array;
  private _u32!: Uint32Array;
  private _f32!: Float32Array;
  private _f64!: Float64Array;
  private _u64!: BigUint64Array;

  /** Called after memory has grown (its old views are detached): owners of views that live across allocations rebuild them. */
  private grown: (() => boolean)[] = [];

  /**
   * The end of the highest allocation ever handed out: memory from here up
   * has never been a buffer of the host's, so it is still as the instance
   * made it or a growth added it, zero (the core writes only into buffers
   * it is given, and its own data lies below base).
   */
  private clean: number;

  constructor(readonly memory: WebAssembly.Memory, readonly base: number) {
    this.top = base;
    this.clean = base;
    this.buf = memory.buffer;
    this.views();
  }

  /** Reserve `bytes` (aligned to `align`, a power of two), growing memory if needed. */
  alloc(bytes: number, align = 16): number {
    if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError(`arena: bad size ${bytes}`);
    if (!Number.isInteger(align) || align < 1 || (align & (align - 1)) !== 0) throw new RangeError(`arena: bad alignment ${align}`);
    const p = Math.ceil(this.top / align) * align; // not bit masks: they go negative past 2 GiB
    const end = p + bytes;
    const have = this.memory.buffer.byteLength;
    if (end > have) this.grow(Math.ceil((end - have) / PAGE), have / PAGE);
    this.top = end;
    if (end > this.clean) this.clean = end;
    if (end > have) this.grown = this.grown.filter((f) => f());
    return p;
  }

  /**
   * alloc, the bytes zeroed. Only what lies below the clean mark is written:
   * the rest is zero already, and its pages stay untouched until used, so a
   * table that grows in the middle of a run is neither cleared nor faulted
   * in all at once.
   */
  allocZeroed(bytes: number, align = 16): number {
    const clean = this.clean, p = this.alloc(bytes, align);
    if (p < clean) this.u8.fill(0, p, Math.min(p + bytes, clean));
    return p;
  }

  /** Call `f` whenever memory grows, after the growth (its old views read as empty then), until it returns false. */
  onGrow(f: () => boolean): void {
    this.grown.push(f);
  }

  /**
   * Grow memory by at least `need` pages: by half its size (`pages`) when
   * that is more, so that a run whose tables grow step by step grows memory
   * a few times rather than hundreds (each growth makes a new buffer, which
   * the JavaScript engine counts as new external memory: hundreds of them
   * set off a full garbage collection every few milliseconds). Pages grown
   * and not used are not touched, so they cost address space, not memory.
   * Falls back to exactly `need` where the larger growth is refused.
   */
  private grow(need: number, pages: number): void {
    const ahead = Math.min(Math.max(need, Math.ceil(pages / 2)), MAX_PAGES - pages);
    if (ahead > need) {
      try {
        this.memory.grow(ahead);
        return;
      } catch {
        // the host's limit is below the larger growth: the exact one below may still fit
      }
    }
    try {
      this.memory.grow(need);
    } catch (e) {
      throw new RangeError(`core memory: cannot grow to ${Math.ceil(((pages + need) * PAGE) / 2 ** 20)} MiB (one core instance's WebAssembly memory holds at most 4 GiB, less where the host limits it): the simulated state is too large for it`, { cause: e });
    }
  }

  /** Copy a typed array into freshly allocated memory; returns its pointer. */
  put(src: ArrayBufferView, align = 16): number {
    const p = this.alloc(Math.max(src.byteLength, 1), align);
    this.u8.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), p);
    return p;
  }

  /** Release everything allocated so far (memory stays at its size). */
  reset(): void {
    this.top = this.base;
  }

  /** Bytes in use above the core's static data. */
  get used(): number {
    return this.top - this.base;
  }

  private views(): void {
    this._u8 = new Uint8Array(this.buf);
    this._i32 = new Int32Array(this.buf);
    this._u32 = new Uint32Array(this.buf);
    this._f32 = new Float32Array(this.buf);
    this._f64 = new Float64Array(this.buf);
    this._u64 = new BigUint64Array(this.buf);
  }

  private refresh(): void {
    if (this.buf !== this.memory.buffer) {
      this.buf = this.memory.buffer;
      this.views();
    }
  }

  get u8(): Uint8Array { this.refresh(); return this._u8; }
  get i32(): Int32Array { this.refresh(); return this._i32; }
  get u32(): Uint32Array { this.refresh(); return this._u32; }
  get f32(): Float32Array { this.refresh(); return this._f32; }
  get f64(): Float64Array { this.refresh(); return this._f64; }
  get u64(): BigUint64Array { this.refresh(); return this._u64; }
}
