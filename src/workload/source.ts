// What every workload hands a model: its tasks in arrival order, one at a
// time, as a lazy iterator (peek the next arrival time, then take it into the
// fields). Two sources built from the same config walk the same sequence, so
// a model may count arrivals with one and serve them with another.

export interface ArrivalSource {
  /** The current task (after next()): arrival time (ns), class (CLASS_F dispersed, CLASS_L contiguous), service time (ns), demand (atoms). */
  readonly time: number;
  readonly cls: number;
  readonly service: number;
  readonly atoms: number;
  /** The current task's token density (units/atom): what Laminar's patience and priority start from (E = price * atoms). */
  readonly price: number;
  /** The current task's declared memory (GiB) for the memory model; NaN: its atoms times memory.declaredPerAtomGiB. */
  readonly memGiB: number;
  /** The current task's entry node (sources built withEntry). */
  readonly entry: number;
  /** Tasks taken so far. */
  readonly count: number;
  /** Time of the next task (integer ns), Infinity when the arrival window is over. */
  peek(): number;
  /** Take the next task into the fields (call only when peek() is finite). */
  next(): void;
}
