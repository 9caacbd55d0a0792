// Registry group of the three baseline paradigms (paper §Baseline modeling).
// The paper fixes the headline costs and limits; the artifact supplies the
// penalty forms (lock convoy, USL, congestion). Costs are in microseconds, as
// the paper quotes them. Hops, redirects and rollbacks use network.hopMs, the
// hop delay the paper says all schedulers share.
import { artifact, bool, enm, int, num, ours, paper, type ParamGroup } from "./params-spec.js";

const slurm = {
  baseMatchUs: num({
    min: 0, max: 1e6, default: 0.1, unit: "µs",
    source: paper("Experimental Setup"),
    description: "base match cost of one decision of the global FIFO",
  }),
  scanPerNodeUs: num({
    min: 0, max: 1e6, default: 0.01, unit: "µs",
    source: paper("Experimental Setup"),
    description: "first-fit scan cost per node; each decision scans the whole cluster",
  }),
  lockUs: num({
    min: 0, max: 1e6, default: 0.5, unit: "µs",
    source: paper("Experimental Setup"),
    description: "global mutex cost per decision, times the lock-convoy factor (see convoy)",
  }),
  convoy: enm({
    values: ["threshold", "linear"] as const, default: "threshold", unit: "choice",
    source: paper("Baseline modeling"),
    description: "lock-convoy factor, q the FIFO's length: 1 + min(convoyCap, (max(0, q - convoyQueue)/convoyQueue)^2), non-linear above the threshold (threshold, the paper's 'when concurrent queue depth exceeds 10,000, a non-linear lock-convoy penalty activates'), or the artifact's 1 + q/convoyQueue over the whole backlog (linear)",
  }),
  convoyQueue: int({
    min: 1, max: 1e9, default: 10000, unit: "tasks",
    source: paper("Baseline modeling"),
    description: "queue depth above which the lock convoy activates (threshold), or its scale (linear)",
  }),
  convoyCap: num({
    min: 0, max: 1e9, default: 10, unit: "factor",
    source: ours("the artifact caps its other penalties: USL at 30, root exponent at 10; an uncapped square of an unbounded backlog would make results a function of the run's length"),
    description: "cap on the non-linear term of the threshold convoy",
  }),
  retries: int({
    min: 0, max: 100, default: 3, unit: "count",
    source: paper("Experimental Setup"),
    description: "retries of a task whose placement failed, with backoff",
  }),
  backoffMs: num({
    min: 0, max: 100000, default: 2, unit: "ms",
    source: paper("Experimental Setup"),
    description: "base backoff; retry r waits backoffMs*2^r (doubling: artifact)",
  }),
  unboundedQueue: bool({
    default: true, unit: "flag",
    source: paper("Experimental Setup"),
    description: "no deadline: the global FIFO keeps every task; false applies baselines.deadlineMs",
  }),
} satisfies ParamGroup;

const ray = {
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

const flux = {
  fanout: int({
    min: 2, max: 1024, default: 16, unit: "children",
    source: paper("Experimental Setup"),
    description: "children per broker in the Flux-like broker tree",
  }),
  leafNodes: int({
    min: 1, max: 1000000, default: 32, unit: "nodes",
    source: paper("Experimental Setup"),
    description: "nodes under one leaf broker of the tree",
  }),
  dispatchUs: num({
    min: 0, max: 1e6, default: 1, unit: "µs",
    source: paper("Experimental Setup"),
    description: "base cost of one broker decision (artifact: 2 µs)",
  }),
  scanUs: num({
    min: 0, max: 1e6, default: 0.005, unit: "µs",
    source: paper("Experimental Setup"),
    description: "cost per unit scanned; decision = (dispatchUs + scanUs*units) * congestion",
  }),
  entry: enm({
    values: ["root", "leaf"] as const, default: "root", unit: "choice",
    source: paper("Baseline modeling"),
    description: "broker a new task reaches first: the root (root: 'all dispatches and retries pass through high-level brokers'), or the leaf broker over its entry node, climbing on a miss (leaf: the artifact's)",
  }),
  brokerQueueCap: int({
    min: 0, max: 1e9, default: 10000, unit: "tasks",
    source: ours("the paper disables infinite queuing but gives no bound for a broker; as the GCS shard's"),
    description: "tasks a broker holds queued (0: unbounded); a task sent to a full broker fails at once (queueFull)",
  }),
  rootQueue: int({
    min: 1, max: 1e9, default: 4000, unit: "tasks",
    source: paper("Experimental Setup"),
    description: "root congestion = exp(min(q/rootQueue, rootCap)), q as rootLoad says",
  }),
  rootLoad: enm({
    values: ["queue", "inFlight"] as const, default: "inFlight", unit: "choice",
    source: paper("Baseline modeling"),
    description: "q of the root's congestion: every task not yet started anywhere in the tree (inFlight: 'above 4,000 concurrent tasks', all of whose dispatches and retries pass through the high-level brokers), or the root's own queue (queue: our earlier reading)",
  }),
  rootOnset: int({
    min: 0, max: 1e9, default: 4000, unit: "tasks",
    source: paper("Baseline modeling"),
    description: "q up to which the root does not congest ('above 4,000 concurrent tasks an exponential congestion penalty activates'): congestion = exp(min(max(0, q - rootOnset)/rootQueue, rootCap)); 0 is the notes' form",
  }),
  rootService: enm({
    values: ["serial", "pipelined"] as const, default: "serial", unit: "choice",
    source: ours("a Flux instance's scheduler runs as one module on its rank-0 broker and decides one request at a time"),
    description: "the root decides one task at a time from its FIFO (serial), or every task after its own decision time with no queue (pipelined: congestion is latency, not lost throughput)",
  }),
  childPick: enm({
    values: ["mostFree", "first", "roundRobin", "random"] as const, default: "mostFree", unit: "choice",
    source: ours("the paper and the notes do not say how a parent picks a child"),
    description: "child an inner broker sends a task to, among those whose view fits it: most free atoms, lowest index, the next in turn, or uniformly random",
  }),
  booking: enm({
    values: ["none", "total"] as const, default: "none", unit: "choice",
    source: paper("Experimental Setup"),
    description: "brokers decide from views updated only by the heartbeat (none, the paper's isolated ledgers), or also subtract what they sent to a child since (total)",
  }),
  rollbackTo: enm({
    values: ["parent", "root"] as const, default: "parent", unit: "choice",
    source: ours("the paper: displaced tasks traverse back toward the root, paying a hop and the backoff per level"),
    description: "a leaf collision goes back to the parent, which decides again and climbs further only when no child fits (parent), or all the way to the root (root); one retry either way",
  }),
  rootCap: num({
    min: 0, max: 100, default: 10, unit: "exponent",
    source: artifact(),
    description: "cap on the exponent of the root broker's congestion factor",
  }),
  brokerQueue: int({
    min: 1, max: 1e9, default: 256, unit: "tasks",
    source: artifact(),
    description: "other brokers' congestion = 1 + brokerSlope*min(q/brokerQueue, brokerCap)",
  }),
  brokerSlope: num({
    min: 0, max: 1000, default: 0.1, unit: "factor",
    source: artifact(),
    description: "slope of a non-root broker's linear congestion factor",
  }),
  brokerCap: num({
    min: 0, max: 1e6, default: 5, unit: "factor",
    source: artifact(),
    description: "cap on q/brokerQueue in a non-root broker's congestion",
  }),
  backoffMs: num({
    min: 0, max: 100000, default: 10, unit: "ms",
    source: paper("Experimental Setup"),
    description: "backoff per level climbed after a leaf collision, plus one hop per level",
  }),
  maxRetries: int({
    min: 0, max: 100, default: 5, unit: "count",
    source: artifact(),
    description: "rollbacks towards the root before a task gives up",
  }),
} satisfies ParamGroup;

export const baselines = {
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
  slurm,
  ray,
  flux,
} satisfies ParamGroup;
