// A consumer's JavaScript (ESM) script against the installed laminar package:
// a small simulation of Laminar and of a baseline, the parameter list, and the
// core; prints one JSON line for the package test to check.
import { instantiateCore, listExperiments, listParameters, parseConfig, runSimulation } from "laminar";
import * as core from "laminar/core";
import { knownAnswer } from "./known-answer.mjs";

const config = parseConfig({ cluster: { nodes: 64 }, "sim.durationS": 0.2 }, { profile: "paper", sets: ["sim.seed=3"] });
const laminar = await runSimulation(config);
const slurm = await runSimulation({ "sim.scheduler": "slurm", "cluster.nodes": 64, "sim.durationS": 0.2 });
let badConfig = "";
try {
  parseConfig({ "workload.rho": 7 });
} catch (e) {
  badConfig = `${e.name}: ${e.message}`;
}
let deepImport = "";
try {
  await import("laminar/dist/src/run/schedulers.js");
} catch (e) {
  deepImport = e.code;
}
const loaded = await instantiateCore();
console.log(JSON.stringify({
  laminar: { scheduler: laminar.scheduler, arrived: laminar.arrived, started: laminar.started, probeActions: laminar.probeActions },
  slurm: { scheduler: slurm.scheduler, arrived: slurm.arrived, started: slurm.started },
  parameters: listParameters().length,
  experiments: listExperiments().map((e) => e.id),
  badConfig,
  deepImport,
  flavor: loaded.flavor,
  core: await knownAnswer(core),
}));
