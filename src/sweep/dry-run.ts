// `laminar sweep --dry-run`: the points a sweep would run and what each
// costs, before anything runs. A run's work is its tasks: the expected
// arrivals (the offered rate, workload/bimodal.ts, times the arrival window),
// which is also how the runner orders points (longest first) and what the
// progress bar counts. Time per task differs by scheduler and machine, so
// the estimate is given in tasks, with each point's share of the whole.
import { formatTable } from "../report/table.js";
import { arrivalRates } from "../workload/bimodal.js";
import { PROFILE_AXIS, type Axis, type SweepPoint } from "./grid.js";

/** Expected arrivals of one run of the point. */
export function expectedTasks(sp: SweepPoint): number {
  return arrivalRates(sp.config).lambda * sp.config.sim.durationS;
}

const count = (x: number) => Math.round(x).toLocaleString("en-US");

export function dryRunText(points: SweepPoint[], axes: Axis[], seeds: number): string {
  const tasks = points.map(expectedTasks);
  const total = tasks.reduce((a, b) => a + b, 0) * seeds;
  const names = axes.map((a) => a.name);
  const rows = points.map((sp, i) => [
    String(i + 1),
    ...names.map((n) => (n === PROFILE_AXIS ? sp.point.profile : sp.assign.find((a) => a.name === n)?.value ?? "")),
    sp.config.sim.scheduler, String(sp.config.cluster.nodes), String(sp.config.sim.durationS),
    count(tasks[i]), total > 0 ? `${((100 * tasks[i] * seeds) / total).toFixed(1)}%` : "-",
  ]);
  const head = ["#", ...names, "scheduler", "nodes", "seconds", "tasks per seed", "share"];
  return `${formatTable(head, rows)}\n\n${points.length} point(s) x ${seeds} seed(s) = ${points.length * seeds} runs, about ${count(total)} tasks to simulate in all (nothing was run)`;
}
