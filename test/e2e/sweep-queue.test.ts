// A sweep through a real Redis and BullMQ, as on several machines: this test
// starts its own redis-server (127.0.0.1, a free port, no persistence), puts
// a 2-parameter grid with 2 seeds on the queue, starts a worker, kills it
// with SIGKILL in the middle of its first point, starts a second worker, and
// checks that the submitting `laminar sweep` gathers every point, the killed
// one run again by the second worker, with results equal to a local run of
// the same sweep (apart from the run-cost fields). Everything it started is
// stopped at the end. Skipped, saying why, where redis-server is absent
// (.ci/run installs Debian's package).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { packageRoot } from "../../src/core/paths.js";
import { TIMING_FIELDS } from "../../src/metrics/result.js";
import { Queue } from "bullmq";
import { flattenConfig } from "../../src/config/params-config.js";
import { buildId } from "../../src/experiments/build-id.js";
import { pointKey } from "../../src/experiments/specs.js";
import { sweepPoints } from "../../src/sweep/grid.js";
import { queueName } from "../../src/sweep/queue.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
const hasRedis = spawnSync("redis-server", ["--version"], { encoding: "utf8" }).status === 0;
if (!hasRedis) console.warn("sweep-queue test skipped: redis-server is not installed (Debian package redis-server; .ci/run installs it)");

const SWEEP = ["--grid", "workload.rho=0.4,0.8", "--grid", "da.candidates=8,16", "--seeds", "2", "--set", "cluster.nodes=200", "--set", "sim.durationS=0.2", "--no-progress"];

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.once("error", reject);
  s.listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => resolve(port));
  });
});

/** A child's stderr and stdout as they come, and its end. */
function start(args: string[]): { child: ChildProcess; text: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (d: Buffer) => { text += d.toString(); });
  child.stderr!.on("data", (d: Buffer) => { text += d.toString(); });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, text: () => text, exit };
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const runs = (dir: string) => (JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { runs: Array<Record<string, unknown>> }).runs
  .map((r) => {
    const o = { ...r };
    for (const k of TIMING_FIELDS) delete o[k];
    return JSON.stringify(o);
  });

describe.skipIf(!hasRedis)("laminar sweep --queue with laminar worker, on a real redis-server", () => {
  const started: ChildProcess[] = [];
  let redis: ChildProcess | undefined;
  let url = "";
  const tmp = mkdtempSync(join(tmpdir(), "laminar-sweep-queue-"));

  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tmp], { stdio: "ignore" });
    const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on("error", () => {});
    const end = Date.now() + 10_000;
    for (;;) {
      try {
        await client.connect();
        await client.ping();
        break;
      } catch (e) {
        if (Date.now() > end) throw e;
        client.disconnect();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    client.disconnect();
  }, 20_000);

  // a test's processes end with it, even when it fails: a worker left running would take the next test's points
  afterEach(() => {
    for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });

  afterAll(async () => {
    if (redis && redis.exitCode === null) {
      const gone = new Promise((r) => redis!.once("exit", r));
      redis.kill("SIGTERM");
      await gone;
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  it("gathers a 2-parameter grid with seeds from two workers, one killed mid-point, equal to a local run", async () => {
    const local = spawnSync(process.execPath, [cli, "sweep", ...SWEEP, "--out", join(tmp, "local")], { encoding: "utf8", timeout: 120_000 });
    expect(local.status, local.stderr).toBe(0);

    const out = join(tmp, "queued");
    const submit = start(["sweep", ...SWEEP, "--out", out, "--queue", url]);
    started.push(submit.child);
    // the first worker takes one point at a time; killed as soon as it says it started one
    const a = start(["worker", "--queue", url, "--workers", "1", "--stall-s", "2"]);
    started.push(a.child);
    await until("the first worker to start a point", () => /point (\S+) started/.test(a.text()));
    a.child.kill("SIGKILL");
    await a.exit;
    const killed = /point (\S+) started/.exec(a.text())![1];
    expect(a.text()).not.toMatch(new RegExp(`point ${killed} done`)); // it died mid-point
    const b = start(["worker", "--queue", url, "--workers", "2", "--stall-s", "2"]);
    started.push(b.child);
    const code = await submit.exit;
    expect(code, submit.text()).toBe(0);
    // the killed point went back to the queue and the second worker ran it
    expect(b.text()).toContain(`point ${killed} done`);
    expect(submit.text()).toMatch(/8 runs \(0 from earlier runs/);
    expect(runs(out)).toEqual(runs(join(tmp, "local")));
    // a worker stops on SIGTERM once its points end
    b.child.kill("SIGTERM");
    expect(await b.exit).toBe(0);

    // gathered points resume: collecting again runs nothing and finds every point in --out
    const again = spawnSync(process.execPath, [cli, "sweep", ...SWEEP, "--out", out, "--queue", url, "--collect"], { encoding: "utf8", timeout: 60_000 });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/8 runs \(8 from earlier runs/);
  }, 180_000);

  it("reports a point that fails on its own with its error, without retrying it for ever, and runs it again when resubmitted", async () => {
    const grid = ["--grid", "workload.rho=0.5,0.7", "--set", "cluster.nodes=200", "--set", "sim.durationS=0.2", "--no-progress"];
    // a job for the sweep's first point whose settings resolve to another configuration than it carries: it can never run
    const [sp] = sweepPoints({ axes: [{ name: "workload.rho", values: ["0.5", "0.7"] }], sets: ["cluster.nodes=200", "sim.durationS=0.2"], seeds: 1 });
    const key = pointKey(sp.point, 1);
    const port = Number(new URL(url).port);
    const queue = new Queue(queueName(buildId()), { connection: { host: "127.0.0.1", port, maxRetriesPerRequest: null } });
    await queue.add("point", {
      build: buildId(), key, point: sp.point, seed: 1, sets: [...sp.point.sets, "sim.seed=1"], profile: "paper", recordProfile: null,
      config: { ...flattenConfig(sp.config), "sim.seed": 1, "workload.rho": 0.9 },
    }, { jobId: key, attempts: 2 });
    const out = join(tmp, "failing");
    const first = start(["sweep", ...grid, "--out", out, "--queue", url]);
    started.push(first.child);
    // the worker starts once the sweep has found the job and added the other point (else it would replace the failed job)
    const other = pointKey(sweepPoints({ axes: [{ name: "workload.rho", values: ["0.7"] }], sets: ["cluster.nodes=200", "sim.durationS=0.2"], seeds: 1 })[0].point, 1);
    for (let i = 0; (await queue.getJob(other)) === undefined && (await queue.getJob(key)) !== undefined; i++) {
      if (i > 600) throw new Error("the sweep added nothing");
      await new Promise((r) => setTimeout(r, 50));
    }
    await queue.close();
    const w = start(["worker", "--queue", url, "--workers", "1", "--stall-s", "2"]);
    started.push(w.child);
    expect(await first.exit).toBe(1);
    const lines = first.text().trim().split("\n");
    expect(lines[lines.length - 1]).toMatch(/^laminar: 1 of 2 runs failed \(sweep__\S+: its settings resolve to another configuration/);
    expect(w.text().match(new RegExp(`point ${key} started`, "g"))).toHaveLength(1); // no retry: it would fail the same way
    expect(runs(out)).toHaveLength(1); // the other point's results are written
    // submitting again replaces the failed job with one built here, which runs
    const again = start(["sweep", ...grid, "--out", out, "--queue", url]);
    expect(await again.exit, again.text()).toBe(0);
    expect(again.text()).toMatch(/2 runs \(1 from earlier runs/);
    w.child.kill("SIGTERM");
    expect(await w.exit).toBe(0);
  }, 120_000);

  it("refuses an address where no Redis answers, in one line", async () => {
    const port = await freePort();
    const r = spawnSync(process.execPath, [cli, "sweep", ...SWEEP, "--out", join(tmp, "nowhere"), "--queue", `redis://127.0.0.1:${port}`], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^laminar: --queue redis:\/\/127\.0\.0\.1:\d+\/?: cannot reach Redis/);
  }, 40_000);
});
