// The Flux-like baseline's registration (paper §Baseline modeling; the model:
// src/baselines/flux.ts).
import { defineScheduler } from "./entry.js";
import { artifact, enm, int, num, ours, paper, type ParamGroup } from "../config/params-spec.js";

const params = {
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

export const flux = defineScheduler({
  name: "flux",
  label: "Flux-like",
  color: "#54a24b",
  summary: "a tree of brokers with isolated ledgers, rolling a collision back towards the root (paper §Baseline modeling)",
  params,
  paramsTitle: "Flux-like baseline",
  controlWork: "every broker decision",
  deadlineParam: "baselines.deadlineMs",
  deadlineOwner: "baselines'",
  supports: { memoryModel: false, invariants: true, threads: false },
  drainS: { quick: null, paper: null },
  impl: new URL("./run/flux.js", import.meta.url),
});
