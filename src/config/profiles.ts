// Named run profiles (`--profile` on sim, reproduce and params): a profile is
// a set of parameter values, nothing more. It is applied over the defaults,
// under a config file and --set, which still override it.
//
//   paper     the paper's stated setup (§Experimental Setup, §Baseline
//             modeling): 0.5 ms hop and 1% control-packet loss for every
//             scheduler, 30 s per point, no submission hotspot, every
//             Flux-like task entering at the root, no crash rule. These are
//             the registry's defaults, written out so a profile says them.
//   artifact  the authors' published sweep settings (their simulator's run
//             matrix for Exp1/Exp2, shared/docs model notes): no loss, a
//             submission hotspot of 0.2, 0.1 ms hops for Laminar and 0.5 ms
//             for the baselines, 5 s per point, entry at the raylet and the
//             leaf broker over the entry node, spillback to shard
//             entry mod shards, and the crash rule at 5 s.
import type { ParamValue } from "./params-spec.js";

export const PROFILE_NAMES = ["paper", "artifact"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface ProfileValue {
  value: ParamValue;
  /** Where the value comes from. */
  source: string;
}

export interface Profile {
  name: ProfileName;
  title: string;
  values: Readonly<Record<string, ProfileValue>>;
}

const SETUP = "paper §Experimental Setup";
const BASELINES = "paper §Baseline modeling";
const SWEEP = "the authors' published sweep settings";

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  paper: {
    name: "paper",
    title: "the paper's stated setup",
    values: {
      "network.hopMs": { value: 0.5, source: `${SETUP}: 0.5 ms network RTT` },
      "baselines.hopMs": { value: 0, source: `${BASELINES}: the baselines share the same network ground rules (0 = network.hopMs)` },
      "network.loss": { value: 0.01, source: `${SETUP}: 1% physical control-packet loss` },
      "workload.hotspotShare": { value: 0, source: "the paper gives no hotspot share" },
      "sim.durationS": { value: 30, source: "paper §Exp1: 30 s" },
      "baselines.ray.shardRouting": { value: "skew", source: `${BASELINES}: 32 shards with 0.5 hotspot skew` },
      "baselines.flux.entry": { value: "root", source: `${BASELINES}: all dispatches and retries pass through high-level brokers` },
      "baselines.crashDecisionMs": { value: 0, source: "the paper states no crash rule" },
    },
  },
  artifact: {
    name: "artifact",
    title: "the authors' published sweep settings",
    values: {
      "network.hopMs": { value: 0.1, source: `${SWEEP}: 0.1 ms hop for Laminar` },
      "baselines.hopMs": { value: 0.5, source: `${SWEEP}: 0.5 ms RTT for the baselines` },
      "network.loss": { value: 0, source: `${SWEEP}: loss 0 in the Exp1 and Exp2 sweeps` },
      "workload.hotspotShare": { value: 0.2, source: `${SWEEP}: hotspot 0.2 (Exp1, Exp2)` },
      "workload.hotNodeShare": { value: 0.05, source: `${SWEEP}: hot entry nodes are the first 5% of node ids` },
      "sim.durationS": { value: 5, source: `${SWEEP}: 5 s per point` },
      "baselines.ray.shardRouting": { value: "entry", source: `${SWEEP}: a spillback goes to shard entry node mod shards` },
      "baselines.ray.rayletQueueCap": { value: 1000, source: `${SWEEP}: a raylet holds at most 1,000 queued tasks` },
      "baselines.flux.entry": { value: "leaf", source: `${SWEEP}: a task enters at the leaf broker over its entry node` },
      "baselines.crashDecisionMs": { value: 5000, source: `${SWEEP}: a decision longer than 5 s crashes the control plane` },
    },
  },
};

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

/** The profile's values as --set assignments. */
export function profileSets(name: ProfileName): string[] {
  return Object.entries(PROFILES[name].values).map(([k, v]) => `${k}=${String(v.value)}`);
}
