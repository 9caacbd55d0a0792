// Names the figures show: schedulers by their model's name, with one colour
// each across every figure, and run profiles by what they stand for.
// Both come from the schedulers' entries (src/schedulers/catalogue.ts).
import type { RunPoint } from "./data.js";
import { SCHEDULERS } from "../schedulers/catalogue.js";

export const SCHEDULER_LABEL = Object.fromEntries(SCHEDULERS.map((e) => [e.name, e.label])) as Record<RunPoint["scheduler"], string>;

/** The colour of each scheduler, the same in every figure. */
export const SCHEDULER_COLOR: Record<string, string> = Object.fromEntries(SCHEDULERS.map((e) => [e.label, e.color]));

/** Facet titles: the profile a point runs under (`--profile`). */
export const PROFILE_LABEL: Record<RunPoint["profile"], string> = {
  paper: "paper's stated setup",
  artifact: "authors' published sweep settings",
};

/** Profiles in the order their facets appear. */
export const PROFILE_ORDER = [PROFILE_LABEL.paper, PROFILE_LABEL.artifact];

/** Colours of a setting compared off and on (e.g. "Airlock off", "Airlock on"), in legend order. */
export function onOffColors(name: string): Record<string, string> {
  return { [`${name} off`]: "#e45756", [`${name} on`]: "#4c78a8" };
}
