// Registry group of the baselines (paper §Baseline modeling): what they all
// share here, and each registered baseline's own group beside it
// (baselines.<name>, from its entry in src/schedulers/). The paper fixes the
// headline costs and limits; the artifact supplies the penalty forms (lock
// convoy, USL, congestion). Costs are in microseconds, as the paper quotes
// them. Hops, redirects and rollbacks use network.hopMs, the hop delay the
// paper says all schedulers share.
import { schedulerGroups, type SchedulerGroups } from "../schedulers/catalogue.js";
import { artifact, enm, num, ours, paper, type ParamGroup } from "./params-spec.js";




const shared = {
  hopMs: num({
    min: 0, max: 1000, default: 0, unit: "ms",
    source: artifact(),
    description: "delay of every baseline control message; 0: network.hopMs, the hop all schedulers share (the artifact: 0.5 ms for the baselines, 0.1 ms for Laminar)",
  }),
  lossRecoveryMs: num({
    min: 0, max: 100000, default: 200, unit: "ms",
    source: ours("Slurm's RPCs, Ray's gRPC and Flux's ZeroMQ all run over TCP, which resends a lost segment after its retransmission timeout: at least 200 ms on Linux, TCP_RTO_MIN; RFC 6298 asks for 1 s"),
    description: "a baseline control message lost with network.loss is sent again after this long (and may be lost again); a lost heartbeat report leaves that view stale until the next heartbeat",
  }),
  crashDecisionMs: num({
    min: 0, max: 1e9, default: 0, unit: "ms",
    source: artifact(),
    description: "crash rule (0: off; the artifact: 5,000): a scheduling decision that would take longer means the control plane has crashed, and every queued and later task fails (crashed)",
  }),
  fullQueue: enm({
    values: ["fail", "retry"] as const, default: "fail", unit: "choice",
    source: artifact(),
    description: "what becomes of a task sent to a full bounded queue (a raylet, a GCS shard, a broker): it fails at once (fail, queueFull: the artifact's raylet), or its sender sends it again after fullQueueRetryMs until its deadline (retry)",
  }),
  fullQueueRetryMs: num({
    gt: 0, max: 100000, default: 10, unit: "ms",
    source: ours("as the Flux-like backoff per level; the paper gives none"),
    description: "fullQueue=retry: the wait before a task refused by a full queue is sent again (plus the message's own delay)",
  }),
  deadlineMs: num({
    gt: 0, max: 1e6, default: 5000, unit: "ms",
    source: paper("Experimental Setup"),
    description: "start deadline from arrival for the Ray- and Flux-like baselines (and Slurm-like when its queue is bounded)",
  }),
  heartbeatMs: num({
    min: 0.001, max: 100000, default: 10, unit: "ms",
    source: paper("Experimental Setup"),
    description: "global heartbeat that refreshes the Ray-like GCS view and the Flux-like sibling views",
  }),
} satisfies ParamGroup;

export const baselines: typeof shared & SchedulerGroups = { ...shared, ...schedulerGroups() } satisfies ParamGroup;
