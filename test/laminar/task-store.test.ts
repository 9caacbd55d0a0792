// The task table's columns in core memory (src/laminar/store.ts TaskStore):
// they keep their values when the table grows and when core memory grows
// under them (another table's allocation), and the region they lie in is
// the one the engine's drain reads (assembly/engine/drain.ts's layout).
import { describe, expect, it } from "vitest";
import { loadCore } from "../../src/core/wasm.js";
import { GT } from "../../src/core/engine-layout.js";
import { TaskStore } from "../../src/laminar/store.js";

describe("TaskStore's core-memory columns", () => {
  it("keep every task's values across the table's growth and memory's", () => {
    const core = loadCore("auto"), T = new TaskStore(core.arena);
    const n = 3 * T.capacity + 5, ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = T.alloc();
      ids.push(t);
      T.arrival[t] = i * 1.5; T.live[t] = i % 7 - 1; T.state[t] = i % 3; T.timers[t] = i % 8; T.cls[t] = i % 3; T.m[t] = i;
      // another owner's allocation grows memory now and then: the views follow
      if (i % 5000 === 0) core.arena.alloc(4 * 65536 * (1 + i / 5000), 16);
    }
    expect(T.capacity).toBeGreaterThanOrEqual(n);
    const u8 = core.arena.u8, i32 = core.arena.i32, f64 = core.arena.f64, p = T.columnsAt, cap = T.capacity;
    expect(cap * GT.TASK_BYTES).toBeLessThanOrEqual(u8.length - p);
    ids.forEach((t, i) => {
      expect([T.arrival[t], T.live[t], T.state[t], T.timers[t], T.cls[t], T.m[t]]).toEqual([i * 1.5, i % 7 - 1, i % 3, i % 8, i % 3, i]);
      // where the engine reads them
      expect([f64[(p >> 3) + t], i32[(p >> 2) + 2 * cap + t], u8[p + 12 * cap + t], u8[p + 13 * cap + t], u8[p + 14 * cap + t]])
        .toEqual([i * 1.5, i % 7 - 1, i % 3, i % 8, i % 3]);
    });
  });
});
