// The paper's experiments as data: which points each one runs, at two scales,
// and the paper's reported figures to print beside ours.
//
// quick: the default; the whole set in a few minutes on a 2-core machine.
//   It keeps the paper's cluster sizes (the baselines' behaviour depends on
//   N: the Slurm-like scan grows with it) and shortens the simulated time.
// paper: the paper's sizes and durations.
import { createHash } from "node:crypto";
import { PROFILE_NAMES, type ProfileName } from "../config/profiles.js";
import type { PaperFigures } from "../report/data.js";
import { schedulerEntry, type SchedulerName } from "../schedulers/catalogue.js";

export type Scale = "quick" | "paper";
export const SCALES: readonly Scale[] = ["quick", "paper"];

export interface Point {
  experiment: string;
  scheduler: SchedulerName;
  /**
   * The run profile the point runs under (`--profile`): "paper" is the
   * paper's stated setup, "artifact" the authors' published sweep settings.
   * Exp1 runs under both; a figure or table of an experiment with points of
   * several profiles shows them side by side.
   */
  profile: ProfileName;
  /** --set assignments that define the point (seed excluded). */
  sets: string[];
  /** The parameter this experiment varies, and its value at this point. */
  varied: { name: string; value: number | boolean | string };
  rho: number;
  nodes: number;
  /** The paper's figures at this point, where it reports them. */
  paper?: PaperFigures;
}

export interface Experiment {
  id: string;
  title: string;
  points(scale: Scale): Point[];
}

const RHOS = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/**
 * The settings every point starts from, with the drain its scheduler's entry
 * asks for at this scale (src/schedulers/: drainS). At the quick scale the
 * drain fits each model: Laminar 1 s (its deadline is 0.5 s); the Ray- and
 * Flux-like models the full sim.drainS (5 s, their deadline), so their tasks
 * resolve. The Slurm-like model gets none at either scale, since its queue
 * never drains: serving it for 5 s after the arrival window would add to its
 * success ratio a sixth (30 s) or as much again (the artifact profile's 5 s).
 */
function base(scale: Scale, paperS: number, quickS: number, nodes: number, rho: number, scheduler: SchedulerName = "laminar"): string[] {
  const d = schedulerEntry(scheduler).drainS[scale];
  const drain = d === null ? [] : [`sim.drainS=${d}`];
  return [`cluster.nodes=${nodes}`, `workload.rho=${rho}`, `sim.durationS=${scale === "paper" ? paperS : quickS}`, ...drain];
}

/** The schedulers Exp1 compares, in the order its tables list them. */
/** Exp1's schedulers: the paper's four, and the Sparrow-like model (not in the paper's evaluation; its closest published peer). */
const EXP1_SCHEDULERS: readonly SchedulerName[] = ["laminar", "slurm", "ray", "flux", "sparrow"];

const PAPER_EXP1: Partial<Record<SchedulerName, Record<number, Point["paper"]>>> = {
  laminar: { 0.4: { p99Ms: 3.33, startSuccessRatio: 0.9999, controlWorkUs: 0.0479 }, 0.8: { p99Ms: 11.01, startSuccessRatio: 0.9999 }, 0.9: { p99Ms: 27.84, startSuccessRatio: 0.9918, controlWorkUs: 0.095 } },
  flux: { 0.4: { p99Ms: 27.05 }, 0.8: { p99Ms: 1041 }, 0.9: { p99Ms: 5000, startSuccessRatio: 0.844 } },
  ray: { 0.8: { p99Ms: 5000, startSuccessRatio: 0.969 } },
  slurm: {},
};

export const EXPERIMENTS: readonly Experiment[] = [
  {
    id: "exp1",
    title: "Exp1: start success and p99 vs load, the paper's four schedulers and the Sparrow-like model, 5,000 nodes",
    // under both profiles: the paper's stated setup (30 s, 1% loss for all)
    // and the authors' published sweep (5 s, no loss, a submission hotspot)
    points: (scale) => PROFILE_NAMES.flatMap((profile) => EXP1_SCHEDULERS.flatMap((scheduler) => RHOS.map((rho) => ({
      experiment: "exp1", scheduler, profile, rho, nodes: 5000,
      sets: [`sim.scheduler=${scheduler}`, ...base(scale, profile === "paper" ? 30 : 5, 1, 5000, rho, scheduler)],
      varied: { name: "workload.rho", value: rho },
      paper: PAPER_EXP1[scheduler]?.[rho],
    })))),
  },
  {
    id: "exp2",
    title: "Exp2: Laminar scale-out at rho = 0.8",
    points: (scale) => [5000, 10000, 20000, 32000].map((nodes) => ({
      experiment: "exp2", scheduler: "laminar" as const, profile: "paper" as const, rho: 0.8, nodes,
      sets: base(scale, 30, 0.5, nodes, 0.8),
      varied: { name: "cluster.nodes", value: nodes },
      paper: ({ 5000: { p99Ms: 11.16, startSuccessRatio: 0.9999, controlWorkUs: 0.0609 }, 20000: { p99Ms: 9.24, startSuccessRatio: 0.9999 }, 32000: { startSuccessRatio: 0.9999, controlWorkUs: 0.0528 } } as Record<number, Point["paper"]>)[nodes] ?? { startSuccessRatio: 0.9999 },
    })),
  },
  {
    id: "exp3",
    title: "Exp3: Laminar under Z-HAF synchronisation delay, 5,000 nodes, rho = 0.8",
    points: (scale) => [0, 5, 10, 20, 50, 100].map((d) => ({
      experiment: "exp3", scheduler: "laminar" as const, profile: "paper" as const, rho: 0.8, nodes: 5000,
      sets: [...base(scale, 30, 1, 5000, 0.8), `zhaf.syncDelayMs=${d}`],
      varied: { name: "zhaf.syncDelayMs", value: d },
      paper: { note: "p99 10.47-10.53 ms, 99.98-99.99% over 0-100 ms" },
    })),
  },
  {
    id: "exp4a",
    title: "Exp4a: squatters with and without two-phase reservation (rho = 0.5, no regeneration)",
    points: (scale) => [0.05, 0.1].flatMap((sq) => [false, true].map((on) => ({
      experiment: "exp4a", scheduler: "laminar" as const, profile: "paper" as const, rho: 0.5, nodes: 5000,
      sets: [...base(scale, 5, 1, 5000, 0.5), "regeneration.enabled=false", `workload.squatterRatio=${sq}`, `reservation.enabled=${on}`],
      varied: { name: "reservation.enabled", value: on },
      paper: { startSuccessRatio: ({ "0.05:false": 0.7727, "0.1:false": 0.7227, "0.05:true": 0.9495, "0.1:true": 0.8977 } as Record<string, number>)[`${sq}:${on}`] },
    }))),
  },
  {
    id: "exp4b",
    title: "Exp4b: packet loss with and without DA regeneration (rho = 0.8, no two-phase)",
    points: (scale) => [0.1, 0.2, 0.3].flatMap((loss) => [false, true].map((on) => ({
      experiment: "exp4b", scheduler: "laminar" as const, profile: "paper" as const, rho: 0.8, nodes: 5000,
      sets: [...base(scale, 30, 1, 5000, 0.8), `network.loss=${loss}`, `regeneration.enabled=${on}`],
      varied: { name: "regeneration.enabled", value: on },
      paper: { startSuccessRatio: ({ "0.1:false": 0.876, "0.2:false": 0.7766, "0.3:false": 0.6823, "0.1:true": 0.9943, "0.2:true": 0.9759, "0.3:true": 0.9547 } as Record<string, number>)[`${loss}:${on}`] },
    }))),
  },
  {
    id: "exp5",
    title: "Exp5: runtime survival with and without Airlock (rho = 0.8, memory pressure, no two-phase, no regeneration)",
    points: (scale) => [false, true].map((on) => ({
      experiment: "exp5", scheduler: "laminar" as const, profile: "paper" as const, rho: 0.8, nodes: 5000,
      sets: [
        ...base(scale, 30, 1, 5000, 0.8), "memory.enabled=true", "reservation.enabled=false", "regeneration.enabled=false",
        "network.loss=0", `airlock.enabled=${on}`, `sim.seriesIntervalMs=${scale === "paper" ? 500 : 50}`,
      ],
      varied: { name: "airlock.enabled", value: on },
      paper: on
        ? { completedSuccessRatio: 0.943, executionSurvival: 0.999, lTaskOomKills: 0, probeDrops: 1039385, note: "execution survival about 99.9%" }
        : { completedSuccessRatio: 0.9608, executionSurvival: 0.961, lTaskOomKills: 733284, probeDrops: 0, note: "execution survival about 96.1%" },
    })),
  },
];

export const EXPERIMENT_IDS: readonly string[] = EXPERIMENTS.map((e) => e.id);

/** The longest settings part a key spells out (the experiments' longest, Exp5's, is 207): beyond it, a hash, so the file name stays within the 255 bytes file systems allow. */
const MAX_KEY_SETS = 208;

/** A point's key: stable across runs, used for resuming. */
export function pointKey(p: Point, seed: number): string {
  let sets = p.sets.join("__").replace(/[^A-Za-z0-9_.=-]/g, "_");
  if (sets.length > MAX_KEY_SETS) sets = `${sets.slice(0, MAX_KEY_SETS - 20)}__${createHash("sha256").update(p.sets.join("\n")).digest("hex").slice(0, 16)}`;
  return `${p.experiment}__profile=${p.profile}__${sets}__seed=${seed}`;
}
