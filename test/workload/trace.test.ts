// The trace workload (src/workload/trace.ts, trace-rows.ts): each format read
// as a stream, the openb mapping, bad rows (line numbers, or skipped and
// counted), and the effect of every workload.trace parameter. Each test
// writes its own small file; no trace data is shipped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applySets, defaultConfig } from "../../src/config/params-config.js";
import { ConfigError } from "../../src/config/params-error.js";
import { checkTrace, TraceArrivals } from "../../src/workload/trace.js";
import { LineReader } from "../../src/workload/lines.js";
import { CLASS_F, CLASS_L } from "../../src/workload/bimodal.js";
import { runScheduler } from "../../src/run/schedulers.js";
import { runLaminar } from "../../src/run/laminar.js";

const dir = mkdtempSync(join(tmpdir(), "laminar-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (text: string): string => {
  const p = join(dir, `t${n++}`);
  writeFileSync(p, text);
  return p;
};

const CSV = "arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n0.5,40,64,true\n\n1.25,3,8,dispersed\n";
const OPENB = [
  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time",
  "openb-pod-0000,12000,16384,1,1000,,LS,Running,1000,1900,1010",
  "openb-pod-0001,4000,8192,0,0,,BE,Succeeded,1002,1100,1003",
  "openb-pod-0002,8000,8192,1,500,V100M16,Burstable,Running,1005,1006.5,1005",
  "openb-pod-0003,2000,4096,0,0,,BE,Pending,1007,,",
].join("\n") + "\n";

const config = (path: string, ...sets: string[]) =>
  applySets(defaultConfig(), ["cluster.nodes=64", "sim.durationS=1", "workload.kind=trace", `workload.trace.file=${path}`, ...sets]);

/** Every task of a source: [time ns, class, service ns, atoms]. */
function all(path: string, ...sets: string[]): number[][] {
  const c = config(path, ...sets);
  const s = new TraceArrivals(c, Math.round(c.sim.durationS * 1e9));
  const out: number[][] = [];
  while (s.peek() < Infinity) {
    s.next();
    out.push([s.time, s.cls, s.service, s.atoms]);
  }
  return out;
}

describe("trace workload: formats", () => {
  it("csv: the named columns, in any order, blank lines skipped", () => {
    expect(all(file(CSV))).toEqual([[0, CLASS_F, 5e6, 4], [5e5, CLASS_L, 40e6, 64], [1.25e6, CLASS_F, 3e6, 8]]);
    const reordered = "contiguous,atoms,extra,durationMs,arrivalMs\nfalse,4,x,5,0\r\ntrue,64,y,40,0.5";
    expect(all(file(reordered))).toEqual([[0, CLASS_F, 5e6, 4], [5e5, CLASS_L, 40e6, 64]]);
  });

  it("jsonl: one object per line", () => {
    const p = file('{"arrivalMs":0,"durationMs":5,"atoms":4,"contiguous":false}\n{"arrivalMs":2,"durationMs":1,"atoms":64,"contiguous":true}\n');
    expect(all(p, "workload.trace.format=jsonl")).toEqual([[0, CLASS_F, 5e6, 4], [2e6, CLASS_L, 1e6, 64]]);
  });

  it("openb: CPU and GPU to atoms, deletion - scheduled to duration, creation to arrival from the first row; a pod never scheduled is a bad row", () => {
    const p = file(OPENB);
    expect(() => all(p, "workload.trace.format=openb", "sim.durationS=10")).toThrow(/line 5: deletion_time is not a number/);
    const rows = all(p, "workload.trace.format=openb", "sim.durationS=10", "workload.trace.badRows=skip");
    expect(rows).toEqual([
      [0, CLASS_L, 890e9, 12 + 32], // 12 cores, one whole GPU
      [2e9, CLASS_F, 97e9, 4], // CPU only: dispersed
      [5e9, CLASS_L, 1.5e9, 8 + 16], // half a GPU
    ]);
    expect(all(p, "workload.trace.format=openb", "sim.durationS=10", "workload.trace.badRows=skip", "workload.trace.cpuMilliPerAtom=2000", "workload.trace.gpuAtoms=8").map((r) => r[3])).toEqual([6 + 8, 2, 4 + 4]);
  });

  it("reads a file far larger than one read chunk, with multi-byte text split across chunks, as a stream", () => {
    const lines = ["arrivalMs,durationMs,atoms,contiguous,note"];
    for (let i = 0; i < 20000; i++) lines.push(`${i * 0.01},1,1,false,é${"x".repeat(i % 7)}`);
    const p = file(lines.join("\n"));
    const r = new LineReader(p);
    let count = 0;
    while (r.next() !== null) count++;
    expect(count).toBe(20001);
    expect(all(p, "sim.durationS=1000")).toHaveLength(20000);
  });
});

describe("trace workload: bad input", () => {
  const fails = (text: string, re: RegExp, ...sets: string[]) => {
    const p = file(text);
    let err: unknown;
    try {
      all(p, ...sets);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(re);
    expect((err as Error).message).not.toContain("\n");
  };

  it("names the line of a bad row", () => {
    fails("arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n1,-5,4,false\n", /line 3: duration -5 ms is not positive/);
    fails("arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n1,5,300,false\n", /line 3: atoms 300 is not an integer from 1 to cluster.atomsPerNode \(256\)/);
    fails("arrivalMs,durationMs,atoms,contiguous\n0,5,4,maybe\n", /line 2: contiguous must be/);
    fails("arrivalMs,durationMs,atoms,contiguous\n2,5,4,false\n1,5,4,false\n", /line 3: arrives at 1 ms, before the row above it \(2 ms\)/);
    fails("{\"arrivalMs\":0}\nnot json\n", /line 1: durationMs is not a number/, "workload.trace.format=jsonl");
    fails("arrivalMs,durationMs\n0,5\n", /line 1: the csv header lacks the columns atoms, contiguous/);
  });

  it("a header without its columns fails even when bad rows are skipped", () => {
    fails("a,b\n0,5\n", /header lacks/, "workload.trace.badRows=skip");
  });

  it("skips and counts bad rows under badRows=skip", () => {
    const p = file("arrivalMs,durationMs,atoms,contiguous\n0,5,4,false\n1,x,4,false\n0.5,5,4,false\n2,5,999,true\n");
    expect(checkTrace(config(p, "workload.trace.badRows=skip"))).toEqual({ rows: 2, skipped: 2, tasks: 2 });
  });

  it("a missing file or a folder is one line, not a stack", () => {
    expect(() => checkTrace(config(join(dir, "none.csv")))).toThrow(/workload.trace.file .*none.csv: cannot read \(no such file\)/);
    expect(() => checkTrace(config(dir))).toThrow(/not a regular file/);
    expect(() => checkTrace(config("/dev/null"))).toThrow(/not a regular file/);
    expect(() => applySets(defaultConfig(), ["workload.kind=trace"])).toThrow(/workload.trace.file: must be the path of a trace file with workload.kind=trace/);
  });
});

describe("trace workload: each parameter has an effect", () => {
  const p = file(CSV);
  it("arrivalScale and durationScale scale times", () => {
    expect(all(p, "workload.trace.arrivalScale=2").map((r) => r[0])).toEqual([0, 1e6, 2.5e6]);
    expect(all(p, "workload.trace.durationScale=0.5").map((r) => r[2])).toEqual([2.5e6, 20e6, 1.5e6]);
  });
  it("copies hands out each row that many times at its instant", () => {
    expect(all(p, "workload.trace.copies=3").map((r) => r[0])).toEqual([0, 0, 0, 5e5, 5e5, 5e5, 1.25e6, 1.25e6, 1.25e6]);
  });
  it("periodS replays the trace until the arrival window ends, leaving out rows at or after the period", () => {
    const r = all(p, "workload.trace.periodS=0.001", "sim.durationS=0.0035");
    // rows at 0 and 0.5 ms each period (1.25 ms is past the 1 ms period); the window ends at 3.5 ms
    expect(r.map((x) => x[0])).toEqual([0, 5e5, 1e6, 1.5e6, 2e6, 2.5e6, 3e6]);
  });
  it("badRows, format, file, cpuMilliPerAtom and gpuAtoms: tested above", () => {
    expect(all(p)).toHaveLength(3);
  });
});

describe("trace workload: token density (price)", () => {
  const prices = (path: string, ...sets: string[]): number[] => {
    const c = config(path, ...sets);
    const s = new TraceArrivals(c, Math.round(c.sim.durationS * 1e9));
    const out: number[] = [];
    while (s.peek() < Infinity) {
      s.next();
      out.push(s.price);
    }
    return out;
  };

  it("csv and jsonl: an optional price column, else the class's", () => {
    expect(prices(file("arrivalMs,durationMs,atoms,contiguous,price\n0,5,4,false,40\n1,5,64,true,\n"), "workload.priceL=7")).toEqual([40, 7]);
    expect(prices(file('{"arrivalMs":0,"durationMs":5,"atoms":4,"contiguous":false,"price":3}\n{"arrivalMs":1,"durationMs":5,"atoms":4,"contiguous":false}\n'), "workload.trace.format=jsonl")).toEqual([3, 18]);
    expect(() => prices(file("arrivalMs,durationMs,atoms,contiguous,price\n0,5,4,false,-1\n"))).toThrow(/line 2: price -1 is not positive/);
  });

  it("openb: qos through workload.trace.qosPrices; a qos not listed keeps its class's", () => {
    const p = file(OPENB);
    const base = ["workload.trace.format=openb", "sim.durationS=10", "workload.trace.badRows=skip"];
    expect(prices(p, ...base)).toEqual([36, 9, 18]);
    expect(prices(p, ...base, "workload.trace.qosPrices=BE=2")).toEqual([18, 2, 18]);
    expect(() => prices(p, ...base, "workload.trace.qosPrices=LS")).toThrow(/workload.trace.qosPrices: must be qos=price pairs/);
  });

  it("reaches Laminar: a higher token density gives more patience, so fewer tasks fail under overload", async () => {
    const rows = ["arrivalMs,durationMs,atoms,contiguous,price"];
    for (let i = 0; i < 400; i++) rows.push(`${i * 0.001},40,64,true,PRICE`);
    const run = (price: number) => runScheduler(config(file(rows.join("\n").replaceAll("PRICE", String(price))), "cluster.nodes=16", "sim.durationS=0.5", "sim.drainS=1", "workload.trace.copies=4"));
    const cheap = await run(0.5), rich = await run(500);
    expect(cheap.arrived).toBe(rich.arrived);
    expect(JSON.stringify(cheap.failedBy)).not.toBe(JSON.stringify(rich.failedBy));
  }, 60_000);
});

describe("trace workload: declared memory", () => {
  const mems = (path: string, ...sets: string[]): number[] => {
    const c = config(path, ...sets);
    const s = new TraceArrivals(c, Math.round(c.sim.durationS * 1e9));
    const out: number[] = [];
    while (s.peek() < Infinity) {
      s.next();
      out.push(s.memGiB);
    }
    return out;
  };

  it("csv and jsonl: an optional memGiB column; openb: memory_mib / 1024", () => {
    expect(mems(file("arrivalMs,durationMs,atoms,contiguous,memGiB\n0,5,4,false,2.5\n1,5,4,false,\n"))).toEqual([2.5, NaN]);
    expect(mems(file('{"arrivalMs":0,"durationMs":5,"atoms":4,"contiguous":false,"memGiB":1}\n'), "workload.trace.format=jsonl")).toEqual([1]);
    expect(mems(file(OPENB), "workload.trace.format=openb", "sim.durationS=10", "workload.trace.badRows=skip")).toEqual([16, 8, 8]);
    expect(() => mems(file("arrivalMs,durationMs,atoms,contiguous,memGiB\n0,5,4,false,-1\n"))).toThrow(/line 2: memGiB -1 is negative/);
  });

  it("reaches Laminar's memory model: tasks that declare more memory press the nodes harder", async () => {
    const rows = ["arrivalMs,durationMs,atoms,contiguous,memGiB"];
    for (let i = 0; i < 300; i++) rows.push(`${i * 0.01},200,16,true,MEM`);
    const run = (mem: number) => runScheduler(config(file(rows.join("\n").replaceAll("MEM", String(mem))), "cluster.nodes=16", "sim.durationS=1", "sim.drainS=1", "memory.enabled=true", "airlock.enabled=false", "memory.overclaimProb=1", "workload.trace.copies=2"));
    const light = await run(0.1), heavy = await run(40);
    expect(light.arrived).toBe(heavy.arrived);
    const kills = (r: Record<string, unknown>) => (r.lTaskOomKills as number) + (r.fTaskOomKills as number);
    expect(kills(heavy as unknown as Record<string, unknown>)).toBeGreaterThan(kills(light as unknown as Record<string, unknown>));
  }, 60_000);
});

describe("trace workload: runs", () => {
  it("every scheduler runs a trace, deterministically, and starts what fits", async () => {
    const p = file(CSV);
    for (const s of ["laminar", "slurm", "ray", "flux", "sparrow"]) {
      const c = config(p, `sim.scheduler=${s}`, "workload.trace.copies=50", "workload.trace.periodS=0.01", "sim.durationS=0.2", "sim.drainS=1", "network.loss=0");
      const a = await runScheduler(c), b = await runScheduler(c);
      expect(a.arrived, s).toBe(150 * 20);
      expect(a.started + a.failed + a.inFlightAtEnd, s).toBe(a.arrived);
      expect(a.started, s).toBeGreaterThan(0);
      expect({ ...a, wallSeconds: 0, tasksPerWallSecond: 0, peakRssMiB: 0 }, s).toEqual({ ...b, wallSeconds: 0, tasksPerWallSecond: 0, peakRssMiB: 0 });
      expect(a.lambdaPerS, s).toBeNaN();
    }
  }, 60_000);

  it("a Laminar run over a trace gives the same result in any number of Zone partitions (each reads the file itself)", () => {
    const c = config(file(CSV), "cluster.nodes=300", "cluster.zoneSize=64", "workload.trace.copies=30", "workload.trace.periodS=0.002", "sim.durationS=0.2");
    const strip = (r: ReturnType<typeof runLaminar>) => JSON.stringify({ ...r, wallSeconds: 0, tasksPerWallSecond: 0, peakRssMiB: 0, eventsProcessed: 0 });
    const one = runLaminar(c), two = runLaminar(c, { partitions: 2 }), four = runLaminar(c, { partitions: 4 });
    expect(one.arrived).toBe(3 * 30 * 100);
    expect(strip(two)).toBe(strip(one));
    expect(strip(four)).toBe(strip(one));
  }, 60_000);
});
