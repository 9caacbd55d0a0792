// The task table's columns in core memory (src/laminar/store.ts TaskStore):
// they keep their values when the table grows and when core memory grows
// under them (another table's allocation), and the region they lie in is
// the one the engine's drain reads (assembly/engine/drain.ts's layout).
import { describe, expect, it } from "vitest";
import { loadCore } from "../../src/core/wasm.js";
import { GT } from "../../src/core/engine-layout.js";
import { columnAt, TASK_BYTES, TaskStore } from "../../src/laminar/store.js";

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
    expect(TASK_BYTES).toBe(GT.TASK_BYTES); // the engine's layout (assembly/engine/tasks.ts)
    expect(cap * TASK_BYTES).toBeLessThanOrEqual(u8.length - p);
    const at = (c: Parameters<typeof columnAt>[0]) => p + columnAt(c, cap);
    ids.forEach((t, i) => {
      expect([T.arrival[t], T.live[t], T.state[t], T.timers[t], T.cls[t], T.m[t]]).toEqual([i * 1.5, i % 7 - 1, i % 3, i % 8, i % 3, i]);
      // where the engine reads them
      expect([f64[(at("arrival") >> 3) + t], i32[(at("live") >> 2) + t], u8[at("state") + t], u8[at("timers") + t], u8[at("cls") + t], i32[(at("m") >> 2) + t]])
        .toEqual([i * 1.5, i % 7 - 1, i % 3, i % 8, i % 3, i]);
    });
  });
});
