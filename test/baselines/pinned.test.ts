// Pinned results of the baselines: small fixed-seed runs, each pinned
// by a hash of its result record without the fields that measure the run
// itself and without the configuration (an input, and one that grows as
// parameters are added), and by its events dispatched. Taken before the
// schedulers moved onto the registry (src/schedulers/); a change of any of
// them is a change of behaviour and must be a conscious one.
//
// To re-pin after an intended change: PIN_PRINT=<file> npx vitest run
// test/baselines/pinned.test.ts appends the new values to <file>.
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { runScheduler } from "../../src/run/schedulers.js";
import { outcomeDigest } from "./digest.js";

const base = ["cluster.nodes=600", "sim.durationS=0.2", "sim.drainS=0.5", "workload.rho=0.85", "network.loss=0.05", "workload.hotspotShare=0.2"];

const cases: [string, string[]][] = [
  ["slurm", ["sim.scheduler=slurm", ...base]],
  ["slurm, bounded queue", ["sim.scheduler=slurm", ...base, "baselines.slurm.unboundedQueue=false", "baselines.deadlineMs=50"]],
  ["ray", ["sim.scheduler=ray", ...base]],
  ["ray, peers, booked", ["sim.scheduler=ray", ...base, "baselines.ray.spillback=peers", "baselines.ray.gcsView=booked", "baselines.fullQueue=retry"]],
  ["flux", ["sim.scheduler=flux", ...base]],
  ["sparrow", ["sim.scheduler=sparrow", ...base]],
  ["sparrow, per-task jobs, d = 3", ["sim.scheduler=sparrow", ...base, "baselines.sparrow.jobSize=1", "baselines.sparrow.probeRatio=3"]],
  ["flux, leaf entry, rollback to root", ["sim.scheduler=flux", ...base, "baselines.flux.entry=leaf", "baselines.flux.rollbackTo=root", "baselines.flux.booking=total"]],
];

const PINS: Record<string, { result: string; events: number; started: number }> = {
  "slurm": {"result":"3500bd41a640f7e2","events":63304,"started":18216},
  "slurm, bounded queue": {"result":"e6ab89085abe74ae","events":60627,"started":17314},
  "ray": {"result":"0e8a8b0569700bdf","events":77288,"started":18221},
  "ray, peers, booked": {"result":"0b5a9629bf047ca6","events":75928,"started":18221},
  "flux": {"result":"b2375ba58c60b20b","events":164885,"started":18202},
  "flux, leaf entry, rollback to root": {"result":"fdca39c3987d65bc","events":93906,"started":18213},
  // pinned when the Sparrow-like model was added
  "sparrow": {"result":"73f8ba096b779b5b","events":146200,"started":18222},
  "sparrow, per-task jobs, d = 3": {"result":"579b42b8695038b4","events":200313,"started":18221},
};

describe("pinned results of small fixed-seed baseline runs", () => {
  for (const [name, sets] of cases) {
    it(name, async () => {
      const r = await runScheduler(applySets(defaultConfig(), sets));
      const pinned = { result: outcomeDigest(r), events: r.eventsProcessed, started: r.started };
      if (process.env.PIN_PRINT) appendFileSync(process.env.PIN_PRINT, `  ${JSON.stringify(name)}: ${JSON.stringify(pinned)},\n`);
      expect(r.started).toBeGreaterThan(500);
      expect(pinned, name).toEqual(PINS[name]);
    }, 60_000);
  }
});
