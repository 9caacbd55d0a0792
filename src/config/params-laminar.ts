// Registry groups of Laminar's admission path: gateway (TEG), Zone state field
// (Z-HAF), Decentralized Agent, node arbitration, two-phase reservation,
// regeneration, the task deadline and the modelled hot-path costs.
// The paper's "Laminar parameterization" paragraph (§Experimental Setup) fixes
// the DA, reservation, regeneration and deadline figures; the artifact fills
// most of the rest.
import { artifact, bool, int, num, ours, paper, type ParamGroup } from "./params-spec.js";

export const teg = {
  batchMs: num({
    gt: 0, max: 1000, default: 1, unit: "ms",
    source: artifact(),
    description: "micro-batch dispatch period; arrivals leave the gateway at the next batch (paper: 'a high-frequency micro-batch loop')",
  }),
  gamma: num({
    gt: 0, max: 100, default: 1, unit: "weight",
    source: artifact(),
    description: "Heat repulsion in the Zone utility U_z = log2(1+S_z) - gamma*log2(1+H_z) (paper: gamma > 0, value unstated)",
  }),
  tau: num({
    gt: 0, max: 100, default: 1, unit: "temperature",
    source: paper("TEG"),
    description: "routing temperature in P(z) = 2^(U_z/tau) / sum_r 2^(U_r/tau)",
  }),
  missingZoneHeat: num({
    min: 0, max: 1e9, default: 1000, unit: "DAs",
    source: artifact(),
    description: "Heat added to a Zone aggregate older than zhaf.degradeFactor broadcast periods plus one hop (its Slack reads 0): never more attractive",
  }),
} satisfies ParamGroup;

export const zhaf = {
  reportIntervalMs: num({
    min: 0.001, max: 10000, default: 10, unit: "ms",
    source: paper("Experimental Setup"),
    description: "base period of each node's S/H report (the paper's 10 ms heartbeat; its projection's tau_i is read as each row's age, docs/laminar-model.md)",
  }),
  reportJitter: num({
    min: 0, max: 1, default: 0.1, unit: "fraction",
    source: ours("the paper says 'a fraction of the base interval' without a value"),
    description: "sigma of the Gaussian jitter added to each report time, as a fraction of reportIntervalMs",
  }),
  broadcastMs: num({
    min: 0.001, max: 10000, default: 10, unit: "ms",
    source: artifact(),
    description: "period of the Z-HAF snapshot broadcast to the Zone's nodes (one hop; each node's copy lost with network.loss) and of the aggregate upload to TEG",
  }),
  syncDelayMs: num({
    min: 0, max: 10000, default: 0, unit: "ms",
    source: paper("Exp3"),
    description: "extra delay injected into the Z-HAF update path; Exp3 sweeps 0-100 (the artifact never wires this knob)",
  }),
  degradeFactor: num({
    min: 1, max: 1000, default: 1.5, unit: "periods",
    source: artifact(),
    description: "long-degrade threshold: a node silent for this many report intervals is published as missing (S 0, H + degradeHeat); a replica or Zone aggregate older than this many broadcastMs plus one hop is stale. Delay alone is projected, not degraded",
  }),
  degradeHeat: num({
    min: 0, max: 1e9, default: 100, unit: "DAs",
    source: artifact(),
    description: "Heat added to a degraded node row, whose Slack then reads 0 (Zone level: teg.missingZoneHeat)",
  }),
  smoothing: num({
    gt: 0, max: 1, default: 0.3, unit: "weight",
    source: ours("the paper smooths the derivatives without saying how"),
    description: "EWMA weight of the newest sample in a row's smoothed dS/dt and dH/dt",
  }),
  projection: bool({
    default: true, unit: "flag",
    source: paper("Exp1"),
    description: "Taylor projection S_pred = max(0, S + tau_i*dS/dt) with tau_i the row's age; off uses the last visible values",
  }),
  missingnessGuard: bool({
    default: true, unit: "flag",
    source: paper("Exp1"),
    description: "apply the long-degrade rule to stale rows and Zones; off uses stale state as it is",
  }),
} satisfies ParamGroup;

export const da = {
  silenceTtlMs: num({
    gt: 0, max: 100000, default: 150, unit: "ms",
    source: paper("Experimental Setup"),
    description: "probe lifetime: a DA older than this dies at the launchpad or at admission instead of landing",
  }),
  patienceFloor: num({
    min: 0, max: 1e6, default: 1, unit: "units",
    source: paper("Experimental Setup"),
    description: "Fast-Fail: the DA dissipates once its patience is below this floor",
  }),
  actionCost: num({
    min: 0, max: 1e6, default: 3, unit: "units",
    source: paper("Experimental Setup"),
    description: "patience paid per addressing action (candidate evaluation)",
  }),
  bounceCost: num({
    min: 0, max: 1e6, default: 6, unit: "units",
    source: paper("Experimental Setup"),
    description: "patience paid per bounce to a random node of the same Zone",
  }),
  redirectCost: num({
    min: 0, max: 1e6, default: 6, unit: "units",
    source: paper("Implementation, DA: the redirection (bounce) to j* is charged like any bounce; cost as da.bounceCost"),
    description: "patience paid for the single hop from the launchpad to the chosen node j* (0: the hop is free, as before)",
  }),
  candidates: int({
    min: 1, max: 4096, default: 16, unit: "nodes",
    source: artifact(),
    description: "k, Zone nodes sampled per addressing action (paper: 'bounded candidate sampling')",
  }),
  lambda: num({
    min: 0, max: 100, default: 1, unit: "weight",
    source: ours("the paper leaves lambda open; equal to teg.gamma"),
    description: "Heat repulsion in Addr_j = log2(1+S_pred) - lambda*log2(1+H_pred) + eps_j",
  }),
  noiseSigma: num({
    min: 0, max: 100, default: 0.5, unit: "score",
    source: artifact(),
    description: "sigma of the symmetry-breaking Gaussian noise eps_j on each candidate's score (paper: value unstated)",
  }),
  acceptProjected: bool({
    default: false, unit: "flag",
    source: paper("Z-HAF: Zone-State Aggregation"),
    description: "also count a candidate placable when S_pred >= m, not only when its bitmap row fits the mask (artifact: true)",
  }),
} satisfies ParamGroup;

export const arbiter = {
  windowMs: num({
    gt: 0, max: 1000, default: 1, unit: "ms",
    source: artifact(),
    description: "a node settles its DA queue once per window; batch compute time = queue length * costs.bitmapNs",
  }),
} satisfies ParamGroup;

export const reservation = {
  enabled: bool({
    default: false, unit: "flag",
    source: paper("Exp1"),
    description: "two-phase reservation (deposit, TTL, start on pull); off in Exp1-3, Exp4b, Exp5, toggled in Exp4a; off: start after the pull",
  }),
  deposit: num({
    min: 0, max: 1e6, default: 50, unit: "units",
    source: paper("Experimental Setup"),
    description: "patience frozen on a win and forfeited when the reservation expires (artifact: 20)",
  }),
  ttlMs: num({
    gt: 0, max: 100000, default: 200, unit: "ms",
    source: paper("Experimental Setup"),
    description: "payload-pull TTL on the node's timing wheel; expiry returns the atoms",
  }),
} satisfies ParamGroup;

export const regeneration = {
  enabled: bool({
    default: true, unit: "flag",
    source: paper("Exp1"),
    description: "re-emit a DA for a task that has not started; on in Exp1-3, toggled in Exp4b, off in Exp4a and Exp5",
  }),
  quietMs: num({
    min: 0.001, max: 100000, default: 150, unit: "ms",
    source: paper("Experimental Setup"),
    description: "time since the task's last DA emission after which a new instance is emitted",
  }),
  maxInstances: int({
    min: 1, max: 1000, default: 5, unit: "DAs",
    source: paper("Experimental Setup"),
    description: "cap on DA instances per task, the first one included",
  }),
} satisfies ParamGroup;

export const task = {
  deadlineMs: num({
    gt: 0, max: 1e6, default: 500, unit: "ms",
    source: paper("Experimental Setup"),
    description: "Laminar's absolute start deadline from arrival; later the task fails (baselines: baselines.deadlineMs)",
  }),
} satisfies ParamGroup;

export const costs = {
  bitmapNs: num({
    min: 0, max: 1e9, default: 4.02, unit: "ns",
    source: paper("Experimental Setup"),
    description: "bitmap feasibility check (AVX2), charged per queued probe at arbitration",
  }),
  scoreNs: num({
    min: 0, max: 1e9, default: 13.7, unit: "ns",
    source: paper("Experimental Setup"),
    description: "DA utility scoring, charged per addressing action",
  }),
  zoneAggNs: num({
    min: 0, max: 1e9, default: 29.3, unit: "ns",
    source: paper("Experimental Setup"),
    description: "Zone-level aggregation, charged once per DA the gateway dispatches (regenerated instances too)",
  }),
} satisfies ParamGroup;
