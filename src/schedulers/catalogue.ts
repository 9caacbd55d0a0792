// Every scheduler the simulator knows, in the order tables and figures list
// them. `sim`, `reproduce`, `params` and the report find schedulers only
// here: adding one is its own files and one line in SCHEDULERS
// (docs/extending.md walks through it).
import type { SchedulerEntry } from "./entry.js";
import { laminar } from "./laminar.js";
import { slurm } from "./slurm.js";
import { ray } from "./ray.js";
import { flux } from "./flux.js";
import { sparrow } from "./sparrow.js";

export const SCHEDULERS = [laminar, slurm, ray, flux, sparrow] as const;

type Entries = (typeof SCHEDULERS)[number];
export type SchedulerName = Entries["name"];

/** The parameter groups the schedulers register, by name (those with none left out): the Config's baselines.<name>. */
export type SchedulerGroups = {
  readonly [E in Entries as E["params"] extends null ? never : E["name"]]: Exclude<E["params"], null>;
};

export const SCHEDULER_NAMES = SCHEDULERS.map((e) => e.name) as unknown as readonly [SchedulerName, ...SchedulerName[]];

/** The registered groups, in catalogue order. */
export function schedulerGroups(): SchedulerGroups {
  const out: Record<string, unknown> = {};
  for (const e of SCHEDULERS as readonly SchedulerEntry[]) if (e.params !== null) out[e.name] = e.params;
  return out as SchedulerGroups;
}

/** The entry of a registered scheduler (names come validated from sim.scheduler; anything else is a programming error). */
export function schedulerEntry(name: string): SchedulerEntry {
  const e = (SCHEDULERS as readonly SchedulerEntry[]).find((x) => x.name === name);
  if (e === undefined) throw new Error(`no scheduler called "${name}" is registered (known: ${SCHEDULER_NAMES.join(", ")})`);
  return e;
}
