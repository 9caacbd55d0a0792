// Synthetic results of `laminar reproduce` for the figure tests: every
// experiment's quick-scale points (specs.ts) with made-up, deterministic
// result fields, K seeds each, and optionally Exp1's points again under the
// "artifact" profile. Built in: a Ray-like point with no failures at rho 0.4,
// a Flux-like p99 at its 5,000 ms deadline at rho 0.9 (a cap), and a Laminar
// p99 at its 500 ms deadline at rho 0.9 under the artifact profile.
import type { PointResult } from "../../src/experiments/runner.js";
import { EXPERIMENTS, pointKey, type Point } from "../../src/experiments/specs.js";

const CONFIG = { task: { deadlineMs: 500 }, baselines: { deadlineMs: 5000 } };

function result(p: Point, seed: number): Record<string, unknown> {
  const jitter = 1 + 0.01 * seed;
  const arrived = 100_000;
  let success = 0.999 - 0.01 * (p.rho - 0.4) * jitter;
  let p99 = 10 * p.rho * jitter;
  if (p.scheduler === "ray" && p.rho === 0.4) success = 1;
  if (p.scheduler === "slurm") success = 0.03 * jitter;
  if (p.scheduler === "flux" && p.rho === 0.9) (success = 0.9), (p99 = 5000);
  if (p.profile === "artifact" && p.scheduler === "laminar" && p.rho === 0.9) (success = 0.97), (p99 = 500);
  const started = Math.round(arrived * success), failed = arrived - started;
  const r: Record<string, unknown> = {
    scheduler: p.scheduler, config: CONFIG, arrived, arrivedL: arrived / 5, started, failed, lambdaPerS: arrived,
    startSuccessRatio: started / arrived, p99StartMs: p99, p99StartedMs: Math.min(p99, 400), controlWorkPerSuccessUs: 0.05 * p.rho * jitter,
  };
  if (p.experiment === "exp5") {
    const on = p.varied.value === true;
    Object.assign(r, { completedSuccessRatio: on ? 0.94 : 0.96, lTaskOomKills: on ? 0 : 700 * seed, probeDrops: on ? 1000 * seed : 0 });
    r.series = Array.from({ length: 10 }, (_, i) => ({ tMs: 100 * (i + 1), oomKillsL: on ? 0 : 70, probeDrops: on ? 100 : 0, executionSurvival: on ? (i === 0 ? 1 : 0.999) : 0.96 }));
  }
  return r;
}

/**
 * Synthetic results of every experiment (or those named), `seeds` seeds per
 * point; `artifact`: Exp1's points (or those of the experiments named) under
 * both profiles.
 */
export function syntheticResults(o: { seeds?: number; artifact?: boolean | string[]; experiments?: string[] } = {}): PointResult[] {
  const out: PointResult[] = [];
  for (const e of EXPERIMENTS) {
    if (o.experiments && !o.experiments.includes(e.id)) continue;
    // the paper profile's points; under both, the specs' own artifact points where they have them (Exp1), else copies
    const points = e.points("quick").filter((p) => p.profile === "paper");
    const specArtifact = e.points("quick").filter((p) => p.profile === "artifact");
    const both = Array.isArray(o.artifact) ? o.artifact.includes(e.id) : o.artifact === true && e.id === "exp1";
    const artifact = specArtifact.length > 0 ? specArtifact : points.map((p) => ({ ...p, profile: "artifact" as const, sets: [...p.sets, "workload.hotspotShare=0.2"] }));
    const all = both ? [...points, ...artifact] : points;
    for (const point of all) {
      for (let seed = 1; seed <= (o.seeds ?? 1); seed++) out.push({ point, seed, key: pointKey(point, seed), result: result(point, seed), resumed: false });
    }
  }
  return out;
}
