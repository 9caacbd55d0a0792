// The sweep's parts without a process or a Redis: the grid's syntax and
// expansion, the sweep file, the queue's address, and the checks that refuse
// a result of another build or a point that resolves differently on a worker.
import { describe, expect, it } from "vitest";
import { UnrecoverableError } from "bullmq";
import { flattenConfig } from "../../src/config/params-config.js";
import { EXPERIMENTS, pointKey, SCALES } from "../../src/experiments/specs.js";
import { MAX_RUNS, parseGrid, sweepPoints, SweepError, withAxis } from "../../src/sweep/grid.js";
import { parseSweepFile } from "../../src/sweep/sweep-file.js";
import { acceptResult, parseRedisUrl, QueueError, showUrl, type PointJobData } from "../../src/sweep/queue.js";
import { checkJob } from "../../src/sweep/queue-worker.js";

describe("the grid", () => {
  it("parses name=v1,v2 and lays the command line over a file's axes", () => {
    expect(parseGrid("workload.rho=0.4, 0.6,0.8")).toEqual({ name: "workload.rho", values: ["0.4", "0.6", "0.8"] });
    expect(() => parseGrid("workload.rho")).toThrow(SweepError);
    expect(() => parseGrid("=1,2")).toThrow(SweepError);
    const axes = [{ name: "a", values: ["1"] }, { name: "b", values: ["2"] }];
    expect(withAxis(axes, { name: "a", values: ["3"] })).toEqual([{ name: "a", values: ["3"] }, { name: "b", values: ["2"] }]);
    expect(withAxis(axes, { name: "c", values: ["4"] }).map((a) => a.name)).toEqual(["a", "b", "c"]);
  });

  it("expands to the product, first axis slowest, every point resolved; the profile axis sets the point's profile", () => {
    const pts = sweepPoints({
      axes: [{ name: "workload.rho", values: ["0.4", "0.8"] }, { name: "profile", values: ["paper", "artifact"] }, { name: "sim.scheduler", values: ["laminar", "ray"] }],
      sets: ["cluster.nodes=200"], seeds: 1,
    });
    expect(pts).toHaveLength(8);
    expect(pts.map((p) => `${p.point.varied.value} ${p.point.profile} ${p.point.scheduler}`)).toEqual([
      "0.4 paper laminar", "0.4 paper ray", "0.4 artifact laminar", "0.4 artifact ray",
      "0.8 paper laminar", "0.8 paper ray", "0.8 artifact laminar", "0.8 artifact ray",
    ]);
    expect(pts[2].point.sets).toEqual(["cluster.nodes=200", "workload.rho=0.4", "sim.scheduler=laminar"]);
    expect(pts[2].config.sim.durationS).toBe(5); // the artifact profile's
    expect(pts[2].profile).toBe("artifact");
    expect(pts[0].point.nodes).toBe(200);
    // no profile given: the result names none, as sim without --profile
    expect(sweepPoints({ axes: [], sets: [], seeds: 1 })[0].profile).toBeNull();
    expect(sweepPoints({ axes: [], sets: [], seeds: 1, profile: "artifact" })[0].profile).toBe("artifact");
  });

  it("refuses what cannot run, naming the point", () => {
    const bad = (spec: Parameters<typeof sweepPoints>[0]) => () => sweepPoints(spec);
    expect(bad({ axes: [{ name: "workload.rho", values: ["0.4", "-1"] }], sets: [], seeds: 1 })).toThrow(/point workload\.rho=-1/);
    expect(bad({ axes: [{ name: "workload.rho", values: ["0.5", "5e-1"] }], sets: [], seeds: 1 })).toThrow(/the same run/);
    expect(bad({ axes: [{ name: "a", values: ["1"] }, { name: "a", values: ["2"] }], sets: [], seeds: 1 })).toThrow(/named twice/);
    expect(bad({ axes: [{ name: "profile", values: ["nope"] }], sets: [], seeds: 1 })).toThrow(/unknown profile/);
    expect(bad({ axes: [{ name: "profile", values: ["paper"] }], sets: [], seeds: 1, profile: "paper" })).toThrow(/choose one/);
    expect(bad({ axes: [], sets: ["sim.seed=3"], seeds: 1 })).toThrow(/--seeds/);
    const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
    expect(bad({ axes: [{ name: "cluster.nodes", values: many }], sets: [], seeds: 100 })).toThrow(new RegExp(`more than the ${MAX_RUNS}`));
    const check = () => { throw new Error("not here"); };
    expect(() => sweepPoints({ axes: [], sets: [], seeds: 1 }, check)).toThrow(/not here/);
  });
});

describe("point keys", () => {
  it("keep every experiment's key as it was, and hash a long sweep's settings within a file name's length", () => {
    for (const e of EXPERIMENTS) for (const s of SCALES) for (const p of e.points(s)) expect(pointKey(p, 1)).toContain(p.sets.join("__").replace(/[^A-Za-z0-9_.=-]/g, "_"));
    const [p] = sweepPoints({ axes: [], sets: Array.from({ length: 12 }, (_, i) => `zhaf.syncDelayMs=${i}`).concat(["cluster.nodes=200"]), seeds: 1 }).map((x) => x.point);
    const long = { ...p, sets: [...p.sets, ...Array.from({ length: 10 }, () => "baselines.flux.brokerQueueCap=10000")] };
    const k = pointKey(long, 100);
    expect(k.length + ".json".length).toBeLessThan(255);
    expect(k).not.toBe(pointKey({ ...long, sets: [...long.sets.slice(0, -1), "baselines.flux.brokerQueueCap=10001"] }, 100));
  });
});

describe("the sweep file", () => {
  it("reads grid, set, schedulers, profile(s) and seeds", () => {
    const f = parseSweepFile({ grid: { "workload.rho": [0.4, 0.8], "reservation.enabled": [false, true] }, set: { "cluster.nodes": 200, "baselines.flux.entry": "leaf" }, schedulers: ["laminar"], profiles: ["paper", "artifact"], seeds: 3 });
    expect(f.axes).toEqual([{ name: "workload.rho", values: ["0.4", "0.8"] }, { name: "reservation.enabled", values: ["false", "true"] }]);
    expect(f.sets).toEqual(["cluster.nodes=200", "baselines.flux.entry=leaf"]);
    expect(f.schedulers).toEqual(["laminar"]);
    expect(f.profiles).toEqual(["paper", "artifact"]);
    expect(f.seeds).toBe(3);
  });
  it("refuses what it does not know, in one line", () => {
    expect(() => parseSweepFile([])).toThrow(/a JSON object/);
    expect(() => parseSweepFile({ grids: {} })).toThrow(/unknown key "grids"/);
    expect(() => parseSweepFile({ grid: { a: [] } })).toThrow(/grid\.a: expected a non-empty array/);
    expect(() => parseSweepFile({ grid: { a: [{}] } })).toThrow(/grid\.a\[0\]/);
    expect(() => parseSweepFile({ seeds: 1.5 })).toThrow(/seeds: expected an integer/);
  });
});

describe("the queue", () => {
  it("reads a redis:// address, and hides its password when shown", () => {
    expect(parseRedisUrl("redis://10.0.0.5:6380")).toMatchObject({ host: "10.0.0.5", port: 6380, maxRetriesPerRequest: null });
    expect(parseRedisUrl("redis://localhost")).toMatchObject({ host: "localhost", port: 6379 });
    expect(parseRedisUrl("rediss://u:p%40ss@h:1/2")).toMatchObject({ host: "h", port: 1, username: "u", password: "p@ss", db: 2, tls: {} });
    expect(parseRedisUrl("redis://[::1]:7000")).toMatchObject({ host: "::1", port: 7000 });
    expect(() => parseRedisUrl("localhost:6379")).toThrow(QueueError);
    expect(() => parseRedisUrl("http://h:1")).toThrow(/redis:\/\//);
    expect(() => parseRedisUrl("redis://h:1/x")).toThrow(/database number/);
    expect(showUrl("redis://u:secret@h:1")).not.toContain("secret");
  });

  it("refuses a result of another build or for another point", () => {
    expect(acceptResult({ build: "b1", key: "k", result: { a: 1 } }, "b1", "k")).toEqual({ result: { a: 1 } });
    expect(acceptResult({ build: "b0", key: "k", result: { a: 1 } }, "b1", "k")).toMatchObject({ refused: expect.stringMatching(/another build/) });
    expect(acceptResult({ build: "b1", key: "j", result: { a: 1 } }, "b1", "k")).toMatchObject({ refused: expect.stringMatching(/another point/) });
    expect(acceptResult(null, "b1", "k")).toMatchObject({ refused: expect.any(String) });
    expect(acceptResult({ build: "b1", key: "k", result: [] }, "b1", "k")).toMatchObject({ refused: expect.any(String) });
  });

  it("a worker refuses, without retrying, a point of another build or one whose settings resolve differently", () => {
    const [sp] = sweepPoints({ axes: [{ name: "workload.rho", values: ["0.5"] }], sets: ["cluster.nodes=200"], seeds: 1 });
    const job: PointJobData = {
      build: "b1", key: "k", point: sp.point, seed: 1, sets: [...sp.point.sets, "sim.seed=1"], profile: "paper", recordProfile: null,
      config: { ...flattenConfig(sp.config), "sim.seed": 1 },
    };
    expect(() => checkJob(job, "b1")).not.toThrow();
    expect(() => checkJob(job, "b2")).toThrow(UnrecoverableError);
    expect(() => checkJob({ ...job, config: { ...job.config, "workload.rho": 0.6 } }, "b1")).toThrow(/another configuration/);
    expect(() => checkJob({ ...job, sets: ["workload.nope=1"] }, "b1")).toThrow(UnrecoverableError);
  });
});
