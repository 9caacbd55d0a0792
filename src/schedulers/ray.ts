// The Ray-like baseline's registration (paper §Baseline modeling; the model:
// src/baselines/ray.ts).
import { defineScheduler } from "./entry.js";
import { artifact, enm, int, num, ours, paper, type ParamGroup } from "../config/params-spec.js";

const params = {
  localUs: num({
    min: 0, max: 1e6, default: 20, unit: "µs",
    source: paper("Experimental Setup"),
    description: "local raylet decision, under a per-node commit lock",
  }),
  spillback: enm({
    values: ["gcs", "peers"] as const, default: "gcs", unit: "choice",
    source: paper("Baseline modeling"),
    description: "where a raylet sends a task that does not fit on its node: to the GCS (gcs, the paper's 'local-first design with global spillback via a sharded GCS'), or first to another sampled raylet whose heartbeat view fits it, the GCS only when none does (peers: our earlier reading)",
  }),
  localCandidates: int({
    min: 1, max: 4096, default: 8, unit: "nodes",
    source: artifact(),
    description: "spillback=peers: nodes the raylet samples (its own and localCandidates - 1 others) before spilling back to the GCS",
  }),
  gcsCandidates: int({
    min: 1, max: 4096, default: 8, unit: "nodes",
    source: artifact(),
    description: "nodes a GCS decision samples; it picks the one with the most free atoms in its view",
  }),
  gcsView: enm({
    values: ["heartbeat", "booked"] as const, default: "heartbeat", unit: "choice",
    source: paper("Baseline modeling"),
    description: "the GCS decides from the heartbeat's view only (heartbeat: 'the GCS view synchronizes only via the 10 ms heartbeat'), or also subtracts what it assigned since (booked: our earlier reading)",
  }),
  shardRouting: enm({
    values: ["skew", "entry"] as const, default: "skew", unit: "choice",
    source: paper("Baseline modeling"),
    description: "shard a spilled task goes to: the hot shard 0 with probability shardSkew, else a uniform one (skew: the paper's '32 shards with 0.5 hotspot skew'), or shard = entry node mod shards (entry: the artifact's rule for tasks with an entry node)",
  }),
  rayletQueueCap: int({
    min: 0, max: 1e9, default: 1000, unit: "tasks",
    source: artifact(),
    description: "tasks a raylet holds queued (0: unbounded); an arrival or redirect at a full raylet fails at once (queueFull)",
  }),
  shardQueueCap: int({
    min: 0, max: 1e9, default: 10000, unit: "tasks",
    source: ours("the paper disables infinite queuing but gives no bound for the GCS; ten times the artifact's raylet bound"),
    description: "tasks a GCS shard holds queued (0: unbounded); a spillback to a full shard fails at once (queueFull)",
  }),
  gcsUs: num({
    min: 0, max: 1e6, default: 50, unit: "µs",
    source: paper("Experimental Setup"),
    description: "base GCS decision; decision = (gcsUs + gcsPerNodeUs*N) * USL penalty",
  }),
  gcsPerNodeUs: num({
    min: 0, max: 1e6, default: 0, unit: "µs",
    source: ours("the paper gives a flat 50 µs; the artifact's beta is not recorded"),
    description: "beta: GCS decision cost per node of the cluster",
  }),
  shards: int({
    min: 1, max: 4096, default: 32, unit: "count",
    source: paper("Experimental Setup"),
    description: "shards of the GCS; each has its own spillback queue",
  }),
  shardSkew: num({
    min: 0, max: 1, default: 0.5, unit: "fraction",
    source: paper("Experimental Setup"),
    description: "hotspot skew of spillbacks across shards (0: uniform)",
  }),
  uslQueue: int({
    min: 1, max: 1e9, default: 500, unit: "tasks",
    source: paper("Experimental Setup"),
    description: "USL load unit: n = shard queue / uslQueue",
  }),
  uslAlpha: num({
    min: 0, max: 1000, default: 0.5, unit: "factor",
    source: artifact(),
    description: "USL contention term: penalty = min(uslCap, 1 + uslAlpha*n + uslBeta*n^2)",
  }),
  uslBeta: num({
    min: 0, max: 1000, default: 1.2, unit: "factor",
    source: artifact(),
    description: "USL coherence (quadratic) term of the GCS penalty",
  }),
  uslCap: num({
    min: 1, max: 1e6, default: 30, unit: "factor",
    source: artifact(),
    description: "cap on the USL penalty factor of a GCS decision",
  }),
  maxSpillbacks: int({
    min: 0, max: 1000, default: 16, unit: "count",
    source: artifact(),
    description: "spillbacks (one hop each) before a task gives up",
  }),
} satisfies ParamGroup;

export const ray = defineScheduler({
  name: "ray",
  label: "Ray-like",
  color: "#f58518",
  summary: "local-first raylets with spillback to a sharded GCS whose view the heartbeat refreshes (paper §Baseline modeling)",
  params,
  paramsTitle: "Ray-like baseline",
  controlWork: "every raylet decision and every GCS decision",
  deadlineParam: "baselines.deadlineMs",
  deadlineOwner: "baselines'",
  supports: { memoryModel: false, invariants: true, threads: false },
  drainS: { quick: null, paper: null },
  impl: new URL("./run/ray.js", import.meta.url),
});
