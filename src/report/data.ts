// What the figures are drawn from: plain data, one record per run of one
// point (seed), as \`laminar reproduce\` writes them to results.json. The
// experiment runner's records have this shape; so may anyone else's.
import type { Config } from "../config/params.js";
import type { ProfileName } from "../config/profiles.js";

/** The paper's reported figures at a point, where it reports them. */
export interface PaperFigures {
    startSuccessRatio?: number; p99Ms?: number; controlWorkUs?: number; note?: string;
    // runtime survival (Exp5)
    completedSuccessRatio?: number; executionSurvival?: number; lTaskOomKills?: number; probeDrops?: number;
}

/** Where a run sits: its experiment, scheduler, profile, settings and the value it varies. */
export interface RunPoint {
  experiment: string;
  scheduler: Config["sim"]["scheduler"];
  profile: ProfileName;
  /** --set assignments that define the point (seed excluded). */
  sets: readonly string[];
  varied: { name: string; value: number | boolean | string };
  rho: number;
  nodes: number;
  paper?: PaperFigures;
}

/** One run of a point: its seed and its result record (the fields of \`laminar sim --json\`). */
export interface PointRun {
  point: RunPoint;
  seed: number;
  result: Record<string, unknown>;
}
