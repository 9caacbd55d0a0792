// The gateway side run once for all partitions (src/laminar/gateway-log.ts,
// docs/parallel.md "The gateway once"): one instance without Zones runs it
// and records its effects on the Zones; the Zone partitions replay them. The
// result is the same, field for field, as with a replica of the gateway in
// every partition; the Zone partitions really run no gateway of their own;
// and a log that is not the gateway's is caught, not silently replayed.
import { describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import type { Config } from "../../src/config/params.js";
import { loadCore } from "../../src/core/wasm.js";
import { runSlices } from "../../src/run/slices.js";
import { gatewayOnceOk, PartitionSet } from "../../src/run/partitions.js";
import { laminarResult, type SimResult } from "../../src/laminar/result.js";
import { OP_EMIT } from "../../src/laminar/gateway-log.js";

/** The result without the fields that measure the run itself or count its partitions' work. */
function outcome(r: SimResult): string {
  const { wallSeconds, tasksPerWallSecond, peakRssMiB, eventsProcessed, invariantChecks, ...rest } = r;
  void wallSeconds; void tasksPerWallSecond; void peakRssMiB; void eventsProcessed; void invariantChecks;
  return JSON.stringify(rest);
}

function run(c: Config, P: number, once: boolean, tamper?: (set: PartitionSet) => void): { result: SimResult; set: PartitionSet } {
  const cores = Array.from({ length: P + (once ? 1 : 0) }, () => loadCore("auto"));
  const set = new PartitionSet(c, cores, once);
  tamper?.(set);
  set.start();
  runSlices(set, c.sim.drainS, {});
  set.finish();
  return { result: laminarResult(c, set.reports(), cores[0].flavor, 0), set };
}

const base = ["cluster.nodes=700", "sim.durationS=0.25", "sim.drainS=0.5", "sim.engine=core"];
const cases: [string, string[]][] = [
  ["admission path (the paper's network)", base],
  ["heavy loss and regeneration", [...base, "network.loss=0.25", "workload.rho=0.95"]],
  ["two-phase reservations with squatters", [...base, "reservation.enabled=true", "workload.squatterRatio=0.08"]],
  ["no loss, no jitter, no noise, no regeneration", [...base, "network.loss=0", "network.osJitterMs=0", "da.noiseSigma=0", "zhaf.reportJitter=0", "regeneration.enabled=false"]],
  ["short deadlines and quiet intervals, hotspots", [...base, "workload.hotspotShare=0.3", "task.deadlineMs=20", "regeneration.quietMs=5"]],
  ["1,024 atoms per node, the artifact's wider acceptance", [...base, "cluster.atomsPerNode=1024", "da.acceptProjected=true", "workload.rho=0.9"]],
];

describe("the gateway once gives the replicas' result", () => {
  for (const [name, sets] of cases) {
    it(name, () => {
      const c = applySets(defaultConfig(), sets);
      expect(gatewayOnceOk(c)).toBe(true);
      const ref = run(c, 1, false).result;
      expect(ref.started).toBeGreaterThan(5000);
      for (const P of [1, 2, 4]) {
        const { result, set } = run(c, P, true);
        expect(outcome(result)).toBe(outcome(ref));
        // the Zone partitions created no task: every one came from the gateway's run
        for (const m of set.models.slice(1)) expect(m.tasks.slots.live + m.inFlight + m.metrics.arrived).toBe(0);
        expect(set.models[0].z1 - set.models[0].z0).toBe(0);
      }
    });
  }
});

describe("the gateway once", () => {
  it("is refused where it cannot run: the TypeScript Zones, the memory model, the invariant checker", () => {
    for (const extra of [["sim.engine=ts"], ["sim.engine=auto", "memory.enabled=true"], ["sim.engine=auto", "sim.checkInvariants=true"]]) {
      const c = applySets(defaultConfig(), [...base.filter((s) => !s.startsWith("sim.engine")), ...extra]);
      expect(gatewayOnceOk(c)).toBe(false);
      expect(() => new PartitionSet(c, [loadCore("auto"), loadCore("auto")], true)).toThrow(/gateway once/);
    }
  });

  it("stops with a clear error when a partition's queue and the log disagree", () => {
    const c = applySets(defaultConfig(), base);
    // a DA emission recorded for another node than the gateway chose: the Zone partition's run diverges
    expect(() => run(c, 2, true, (set) => {
      const log = set.models[0].gatewayLog!, emit = log.emit.bind(log);
      let k = 0;
      log.emit = (z, task, node, ...rest) => emit(z, task, ++k === 500 ? -1 : node, ...rest);
    })).toThrow(/zone engine|gateway log/);
    // a record dropped: the next event's record is not where the partition's queue says
    expect(() => run(c, 2, true, (set) => {
      const log = set.models[0].gatewayLog!, event = log.event.bind(log);
      let k = 0;
      log.event = (t, kind, s) => { if (++k !== 30) event(t, kind, s); };
    })).toThrow(/gateway log out of step/);
    expect(OP_EMIT).toBe(3);
  });
});
