// A consumer's TypeScript against the installed laminar package, checked with
// tsc --noEmit under strict mode: every public entry point, with its types.
import {
  ConfigError, instantiateCore, listExperiments, listParameters, listProfiles, parseConfig, runExperiment, runSimulation,
  type Config, type ExperimentRun, type LoadedCore, type ParamRecord, type SimulationResult,
} from "laminar";
import { Status, twins, type CoreExports } from "laminar/core";

export async function main(): Promise<void> {
  const config: Config = parseConfig({ "cluster.nodes": 64 }, { profile: "artifact", sets: ["sim.durationS=0.2"] });
  const nodes: number = config.cluster.nodes;
  const r: SimulationResult = await runSimulation(config, { threads: 1, onProgress: (now, end) => void (now / end) });
  if (r.scheduler === "laminar") {
    const probes: number = r.probeActions; // only a Laminar result has it
    console.log(nodes, probes);
  }
  const p99: number | null = r.p99StartedMs;
  // @ts-expect-error: a baseline's result has no probe counter
  if (r.scheduler === "slurm") console.log(r.probeActions);
  const params: ParamRecord[] = listParameters();
  const ids: string[] = listExperiments().map((e) => e.id);
  const run: ExperimentRun = await runExperiment("exp4a", { seeds: 1, sets: ["sim.durationS=0.1"], workers: 2 });
  console.log(p99, params.length, ids, run.table, listProfiles()[0].values);
  const loaded: LoadedCore = await instantiateCore({ prefer: "auto" });
  if (loaded.core !== null) {
    const e: CoreExports = loaded.core.exports;
    console.log(loaded.flavor, e.abiVersion(), Status.OK);
  } else {
    const free = twins.bitmap.bmFreeCount(new Uint32Array(2), 1, 64, new Int32Array(1));
    console.log(free);
  }
  try {
    parseConfig({ "workload.rho": "high" });
  } catch (e) {
    if (e instanceof ConfigError) console.log(e.param);
  }
  // @ts-expect-error: profiles are "paper" or "artifact"
  parseConfig({}, { profile: "fast" });
}

// @ts-expect-error: internal modules are not exported
import("laminar/dist/src/run/schedulers.js");
