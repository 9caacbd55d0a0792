// Which points run under a chosen profile: shared by `laminar reproduce
// --profile` and the library's runExperiment.
import type { ProfileName } from "../config/profiles.js";
import type { Point } from "./specs.js";

/**
 * The points under one profile: an experiment that runs under several (Exp1)
 * keeps that profile's points, every other one runs its points under it.
 */
export function pointsUnder(points: Point[], profile: ProfileName | undefined): Point[] {
  if (profile === undefined) return points;
  const several = new Set(points.filter((p) => points.some((q) => q.experiment === p.experiment && q.profile !== p.profile)).map((p) => p.experiment));
  return points.filter((p) => !several.has(p.experiment) || p.profile === profile).map((p) => ({ ...p, profile }));
}
