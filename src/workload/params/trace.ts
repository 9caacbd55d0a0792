// The trace workload's parameters (workload.trace.*; the workload:
// trace.ts, the formats and their mappings: trace-rows.ts, docs/extending.md).
// Plain data, so the parameter registry can list them.
import { enm, int, num, ours, text, type ParamGroup } from "../../config/params-spec.js";

export const traceParams = {
  file: text({
    maxLength: 4096, default: "", unit: "path",
    source: ours("no trace is shipped; the user names one"),
    description: "the trace file, read as a stream (required with workload.kind=trace)",
  }),
  format: enm({
    values: ["csv", "jsonl", "openb"] as const, default: "csv", unit: "choice",
    source: ours("the two plain formats, and the Alibaba openb pod list"),
    description: "csv: a header naming arrivalMs, durationMs, atoms, contiguous; jsonl: one object with those keys per line; openb: the Alibaba openb pod-list columns (times in s)",
  }),
  badRows: enm({
    values: ["fail", "skip"] as const, default: "fail", unit: "choice",
    source: ours("a bad row is an error unless the user accepts losing it"),
    description: "a row that cannot be read, or arrives before the row above it: stop with its line number (fail), or leave it out and count it (skip)",
  }),
  arrivalScale: num({
    gt: 0, max: 1e6, default: 1, unit: "factor",
    source: ours("1 replays the trace's own times"),
    description: "arrival times are multiplied by this (0.1: ten times the arrival rate)",
  }),
  durationScale: num({
    gt: 0, max: 1e6, default: 1, unit: "factor",
    source: ours("1 keeps the trace's durations"),
    description: "task durations are multiplied by this",
  }),
  copies: int({
    min: 1, max: 10000, default: 1, unit: "count",
    source: ours("1 replays each row once"),
    description: "each row arrives this many times at its instant (each copy entering at its own drawn node): copies times the load, so a short trace can load a large cluster",
  }),
  periodS: num({
    min: 0, max: 3600, default: 0, unit: "s",
    source: ours("0 replays the trace once"),
    description: "when > 0, the trace is replayed every periodS seconds (after scaling) until sim.durationS; rows at or after periodS are left out of every replay",
  }),
  qosPrices: text({
    maxLength: 1000, default: "LS=36,Burstable=18,BE=9", unit: "qos=units/atom",
    source: ours("an order, not a measurement: latency-sensitive pods twice the default token density of 18, best-effort half"),
    description: "openb: a pod's qos becomes its token density (Laminar's priority and patience start from price * atoms); a qos not listed keeps its class's (workload.priceF, priceL)",
  }),
  cpuMilliPerAtom: num({
    gt: 0, max: 1e9, default: 1000, unit: "millicores/atom",
    source: ours("one atom per CPU core"),
    description: "openb: CPU demand cpu_milli becomes ceil(cpu_milli / cpuMilliPerAtom) atoms",
  }),
  gpuAtoms: int({
    min: 0, max: 1024, default: 32, unit: "atoms/GPU",
    source: ours("a 256-atom node as 8 GPUs, the usual GPU count of an openb node"),
    description: "openb: GPU demand num_gpu * gpu_milli / 1000 GPUs becomes ceil(that * gpuAtoms) atoms, added to the CPU atoms",
  }),
} satisfies ParamGroup;
