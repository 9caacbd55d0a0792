// Every finished point in an output folder (DIR/points/*.json), whichever
// `reproduce` command wrote it, so results.json, results.csv and report.html
// are rebuilt from all of them: exp1 then exp4a into one folder ends with
// both. A point file names its point and seed (since this version); an older
// one is matched to the experiments' points by its file name (pointKey).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PROFILE_NAMES } from "../config/profiles.js";
import { readPoint, type PointResult } from "./runner.js";
import { EXPERIMENTS, pointKey, SCALES, type Point } from "./specs.js";

/** Every point the specs define, at both scales, under its own profile and each other one, by pointKey without the seed. */
function knownPoints(): Map<string, Point> {
  const out = new Map<string, Point>();
  for (const e of EXPERIMENTS) {
    for (const scale of SCALES) {
      for (const p of e.points(scale)) {
        for (const q of [p, ...PROFILE_NAMES.map((profile) => ({ ...p, profile }))]) {
          const k = pointKey(q, 0).replace(/__seed=0$/, "");
          if (!out.has(k)) out.set(k, q);
        }
      }
    }
  }
  return out;
}

export interface Collected {
  results: PointResult[];
  /** Point files that could not be read or that name no point (left alone, not in the results). */
  skipped: string[];
}

/**
 * The points in `dir`/points, ordered as the experiments list them (then by
 * seed). `ran` (this command's results) win over files of the same key.
 */
export function collectPoints(dir: string, ran: PointResult[] = []): Collected {
  const pdir = join(dir, "points");
  const byKey = new Map(ran.map((r) => [r.key, r]));
  const skipped: string[] = [];
  const known = knownPoints();
  const names = existsSync(pdir) ? readdirSync(pdir).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort() : [];
  for (const f of names) {
    const key = f.slice(0, -".json".length);
    if (byKey.has(key)) continue;
    const got = readPoint(join(pdir, f));
    const m = /__seed=(\d+)$/.exec(key);
    const spec = known.get(key.replace(/__seed=\d+$/, ""));
    const point = spec ?? got?.point;
    const seed = got?.seed ?? (m ? Number(m[1]) : undefined);
    if (got === null || point === undefined || seed === undefined) {
      skipped.push(f);
      continue;
    }
    byKey.set(key, { point, seed, key, result: got.result, resumed: true });
  }
  // the specs' order (experiments, then their points), then the seed; unknown points last
  const rank = new Map([...known.keys()].map((k, i) => [k, i]));
  const at = (r: PointResult) => rank.get(r.key.replace(/__seed=\d+$/, "")) ?? rank.size;
  const results = [...byKey.values()].sort((a, b) => at(a) - at(b) || a.key.localeCompare(b.key, "en") || a.seed - b.seed);
  return { results, skipped };
}
