// Laminar's run module (its entry: ../laminar.ts): the one-thread run, the run
// over worker threads, and its rows of `laminar sim`'s table.
import type { CommonResult } from "../../metrics/result.js";
import type { SimResult } from "../../laminar/result.js";
import { fmt, type Rows, type SchedulerImpl } from "../../run/impl.js";
import { runLaminar } from "../../run/laminar.js";
import { engineUnsupported } from "../../config/params-rules.js";

function rows(r: CommonResult): Rows {
  const l = r as SimResult;
  const why = engineUnsupported(l.config);
  const side = l.config.sim.engine === "ts" ? "the TypeScript model" : why === null ? "the core's Zone engine" : `the TypeScript model (the engine does not run ${why.split(" (")[0]})`;
  return [
    ["Zone side ran on", `${side} (sim.engine=${l.config.sim.engine})`],
    ["control work per start", `${fmt(l.controlWorkPerSuccessUs, 4)} us`],
    ["probe actions / bounces / Fast-Fails", `${l.probeActions} / ${l.bounces} / ${l.fastFails}`],
    ["regenerations / duplicate winners", `${l.regenerations} / ${l.duplicateWinners}`],
    ["reservations / expired", `${l.reservations} / ${l.reservationsExpired}`],
    ...(l.suspensions === undefined ? [] : [
      ["completed success / execution survival", `${(100 * l.completedSuccessRatio!).toFixed(3)}% / ${l.executionSurvival === null ? "-" : (100 * l.executionSurvival!).toFixed(3) + "%"}`],
      ["OOM kills, L-tasks / F-tasks", `${l.lTaskOomKills} / ${l.fTaskOomKills}`],
      ["Airlock: probe drops / suspensions / resumed in place", `${l.probeDrops} / ${l.suspensions} / ${l.resumedInPlace}`],
      ["Airlock: reactivated / landed / reclaimed / still suspended", `${l.secondaryReactivations} / ${l.secondaryLandings} / ${l.reclaimed} / ${l.suspendedAtEnd}`],
    ] as Rows),
  ];
}

const impl: SchedulerImpl = {
  run: runLaminar,
  // the threaded runner starts a thread pool: loaded only when asked for
  runThreaded: async (config, threads, opts) => (await import("../../run/threads.js")).runLaminarParallel(config, threads, opts),
  rows,
};
export default impl;
