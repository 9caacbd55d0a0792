// Throughput of the simulator's event list (src/sim/): CalendarQueue against
// the 4-ary HeapQueue baseline, on a "hold" model with the workload's delay
// mix, plus the engine loop and the RNG. Not wired into the CLI:
//
//   npx tsc -p tsconfig.json && node dist/bench/sim-engine.js [--quick] [--json]
//        [--rounds=5] [--steps=5000000] [--shift=14] [--bits=8]
//
// Hold model: N events pending; each step pops the earliest and posts one
// new event a delay from the mix later, so N stays constant. Mix (share of
// events): hop U(50 us, 1 ms) 45%, window 1 ms 15%, report 10 ms 10%, TTL
// U(150, 500 ms) 10%, service exp(5 ms) 12%, service lognormal(mean 112 ms,
// sigma 1.5) 8%. TTLs are posted with a handle (postInto) and 80% of them are
// cancelled a few ms of simulated time later (cancelIn), each cancel posting a
// replacement. Delays come from a table drawn beforehand, so the figures time
// the queue, not the RNG. One op = one pop + one post (+ the occasional
// cancel). Times are CPU seconds (process.cpuUsage), steadier than wall time
// on a shared machine. Every (impl, N) runs in its own child process, for a
// cold and unshared JIT, in interleaved rounds. The two queues must pop the
// same events in the same order: each child fingerprints the pops of its
// warm-up, and the bench fails if they differ.
import { execFileSync } from "node:child_process";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Engine } from "../src/sim/engine.js";
import { CalendarQueue } from "../src/sim/calendar-queue.js";
import type { EventQueue } from "../src/sim/event-queue.js";
import { Fingerprint } from "../src/sim/fingerprint.js";
import { HeapQueue } from "../src/sim/heap-queue.js";
import { lognormalMu, streamRng } from "../src/sim/rng.js";
import { ms, us } from "../src/sim/time.js";

type Impl = "calendar" | "heap" | "engine";
interface ChildResult { impl: string; n: number; opsPerSec: number; wallOpsPerSec: number; gcs: number; fp: string }

const TABLE = 1 << 20;
/** Ops run (and fingerprinted) before timing starts. */
const WARMUP = 300_000;
const KIND_TTL = 3;

/** The workload's delay mix (ns) and each delay's kind, from a fixed stream. */
function delayTable(): { delay: Float64Array; kind: Int32Array } {
  const r = streamRng(42, "bench.delays");
  const delay = new Float64Array(TABLE), kind = new Int32Array(TABLE);
  const mu = lognormalMu(ms(112), 1.5);
  for (let i = 0; i < TABLE; i++) {
    const u = r.float();
    let d: number, k: number;
    if (u < 0.45) { d = r.uniform(us(50), ms(1)); k = 0; } // network hop
    else if (u < 0.6) { d = ms(1); k = 1; } // window
    else if (u < 0.7) { d = ms(10); k = 2; } // report
    else if (u < 0.8) { d = r.uniform(ms(150), ms(500)); k = KIND_TTL; } // TTL / deadline
    else if (u < 0.92) { d = r.exp(ms(5)); k = 4; } // short service
    else { d = Math.min(r.lognormal(mu, 1.5), ms(60_000)); k = 5; } // long service, heavy tail
    delay[i] = Math.round(d);
    kind[i] = k;
  }
  return { delay, kind };
}

/** Seconds of CPU time (user + system) since `c0`: steadier than wall time on a shared machine. */
function cpuSince(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

interface Timing { wall: number; cpu: number; t0: number; t1: number }

/**
 * The hold model on a bare queue: pop, then post the next event (postInto,
 * keeping a handle, for TTLs); every `lag` TTLs later, cancel the oldest
 * outstanding TTL 4 times in 5 and post a replacement.
 */
function holdQueue(q: EventQueue, n: number, steps: number, fp: Fingerprint): Timing {
  const { delay, kind } = delayTable();
  const mask = TABLE - 1;
  const ttl = new Float64Array(1 << 20);
  const lag = Math.max(1, Math.floor(n / 100));
  let ttlHead = 0, ttlTail = 0, j = 0;
  const next = (): void => {
    const k = kind[j & mask];
    if (k === KIND_TTL) q.postInto(delay[j & mask], k, j, ttl, ttlHead++ & 0xfffff);
    else q.post(delay[j & mask], k, j);
    j++;
  };
  for (let i = 0; i < n; i++) next();
  const loop = (count: number, record: boolean): void => {
    for (let i = 0; i < count; i++) {
      q.popBefore(Infinity);
      if (record) fp.add(q.now, q.kind, q.subject);
      next();
      while (ttlHead - ttlTail > lag) {
        const i = ttlTail++ & 0xfffff;
        if (ttlTail % 5 !== 0 && q.cancelIn(ttl, i)) next();
      }
    }
  };
  loop(WARMUP, true); // warm-up, fingerprinted: the impls must agree
  const t0 = performance.now(), c0 = process.cpuUsage();
  loop(steps, false);
  const t1 = performance.now();
  return { cpu: cpuSince(c0), wall: (t1 - t0) / 1000, t0, t1 };
}

/**
 * The same model through Engine.run: a dispatch switch calling one handler
 * per kind, as model code would; post() for plain events, scheduleInto() for
 * TTLs, cancel() from the hop handler.
 */
function holdEngine(n: number, steps: number, fp: Fingerprint): Timing {
  const { delay, kind } = delayTable();
  const mask = TABLE - 1;
  const e = new Engine();
  const ttl = new Float64Array(1 << 20);
  const lag = Math.max(1, Math.floor(n / 100));
  let ttlHead = 0, ttlTail = 0, j = 0, record = false;
  const next = (): void => {
    const k = kind[j & mask];
    if (k === KIND_TTL) e.scheduleInto(delay[j & mask], k, j, ttl, ttlHead++ & 0xfffff);
    else e.post(delay[j & mask], k, j);
    j++;
  };
  const reap = (): void => {
    while (ttlHead - ttlTail > lag) {
      const i = ttlTail++ & 0xfffff;
      if (ttlTail % 5 !== 0 && e.cancelIn(ttl, i)) next();
    }
  };
  const onEvent = (): void => { next(); reap(); };
  const dispatch = (k: number, subject: number): void => {
    if (record) fp.add(e.now, k, subject);
    switch (k) {
      case 0: onEvent(); break;
      case 1: onEvent(); break;
      case KIND_TTL: onEvent(); break;
      default: onEvent(); break;
    }
  };
  for (let i = 0; i < n; i++) next();
  // run() in 1 ms windows, as a partitioned run would, until `count` events.
  const loop = (count: number): void => {
    const stop = e.processed + count;
    while (e.processed < stop) e.run(e.now + 1_000_000, dispatch);
  };
  record = true;
  loop(WARMUP);
  record = false;
  const p0 = e.processed;
  const t0 = performance.now(), c0 = process.cpuUsage();
  loop(steps);
  const done = e.processed - p0;
  const cpu = cpuSince(c0), t1 = performance.now(), wall = (t1 - t0) / 1000;
  return { cpu: (cpu * steps) / done, wall: (wall * steps) / done, t0, t1 };
}

async function child(impl: Impl, n: number, steps: number, shift: number, bits: number): Promise<ChildResult> {
  // Young-generation collections (scavenges) only: they measure short-lived
  // allocation; a major collection follows growth of the typed arrays.
  const gcTimes: number[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcTimes.push(e.startTime);
    }
  });
  obs.observe({ entryTypes: ["gc"] });
  const fp = new Fingerprint();
  let t: Timing;
  if (impl === "engine") t = holdEngine(n, steps, fp);
  else {
    const q = impl === "heap" ? new HeapQueue(n + 1024) : new CalendarQueue({ bucketShift: shift, levelBits: bits, initialCapacity: n + 1024 });
    t = holdQueue(q, n, steps, fp);
  }
  await new Promise((r) => setTimeout(r, 50)); // let the observer deliver
  obs.disconnect();
  const gcs = gcTimes.filter((x) => x >= t.t0 && x <= t.t1).length;
  return { impl, n, opsPerSec: steps / t.cpu, wallOpsPerSec: steps / t.wall, gcs, fp: impl === "engine" ? "-" : fp.hex() };
}

/** RNG draws per second of CPU time, best of 3 repetitions. */
function rngBench(): Array<[string, number]> {
  const r = streamRng(1, "bench.rng");
  const out: Array<[string, number]> = [];
  const cases: Array<[string, () => number]> = [
    ["nextU32", () => r.nextU32()],
    ["float (53 bit)", () => r.float()],
    ["int(1000)", () => r.int(1000)],
    ["exp", () => r.exp(5)],
    ["normal", () => r.normal()],
    ["lognormal", () => r.lognormal(0, 1.5)],
  ];
  let acc = 0;
  for (const [name, f] of cases) {
    const reps = 5_000_000;
    for (let i = 0; i < 200_000; i++) acc += f();
    let best = 0;
    for (let k = 0; k < 3; k++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < reps; i++) acc += f();
      best = Math.max(best, reps / cpuSince(c0));
    }
    out.push([name, best]);
  }
  if (acc === -1) console.log(acc); // keep the draws alive
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    const [impl, n, steps, shift, bits] = JSON.parse(args[1]) as [Impl, number, number, number, number];
    process.stdout.write(JSON.stringify(await child(impl, n, steps, shift, bits)));
    return;
  }
  if (args[0] === "--rng") { process.stdout.write(JSON.stringify(rngBench())); return; }
  const quick = args.includes("--quick"), json = args.includes("--json");
  const num = (name: string, dflt: number): number => {
    const a = args.find((x) => x.startsWith(`--${name}=`));
    return a ? Number(a.slice(name.length + 3)) : dflt;
  };
  const shift = num("shift", 14), bits = num("bits", 8);
  const sizes = quick ? [100_000] : [10_000, 100_000, 1_000_000];
  const steps = num("steps", quick ? 2_000_000 : 5_000_000);
  const rounds = num("rounds", quick ? 1 : 5);
  const impls: Impl[] = ["heap", "calendar", "engine"];
  const self = fileURLToPath(import.meta.url);
  const results = new Map<string, ChildResult[]>();
  for (let round = 0; round < rounds; round++) {
    for (const n of sizes) {
      for (const impl of impls) {
        const out = execFileSync(process.execPath, [self, "--child", JSON.stringify([impl, n, steps, shift, bits])], { encoding: "utf8" });
        const r = JSON.parse(out) as ChildResult;
        const key = `${impl}/${n}`;
        results.set(key, [...(results.get(key) ?? []), r]);
      }
    }
    if (!json) process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  const rows = [];
  for (const n of sizes) {
    const fps = new Set([...results.get(`heap/${n}`)!, ...results.get(`calendar/${n}`)!].map((r) => r.fp));
    if (fps.size !== 1) throw new Error(`N=${n}: calendar and heap popped different sequences (${[...fps].join(", ")})`);
    for (const impl of impls) {
      const rs = results.get(`${impl}/${n}`)!;
      rows.push({
        impl, pending: n,
        opsPerSec: median(rs.map((r) => r.opsPerSec)),
        bestOpsPerSec: Math.max(...rs.map((r) => r.opsPerSec)),
        wallOpsPerSec: median(rs.map((r) => r.wallOpsPerSec)),
        gcs: Math.max(...rs.map((r) => r.gcs)),
        fingerprint: impl === "engine" ? "-" : rs[0].fp,
      });
    }
  }
  const rng = JSON.parse(execFileSync(process.execPath, [self, "--rng"], { encoding: "utf8" })) as Array<[string, number]>;
  if (json) {
    console.log(JSON.stringify({ steps, rounds, bucketShift: shift, levelBits: bits, queue: rows, rng: rng.map(([name, perSec]) => ({ name, perSec })) }, null, 2));
    return;
  }
  console.log(`hold model, ${steps.toLocaleString()} timed ops per run, ${rounds} round(s); calendar: W = 2^${shift} ns, 2^${bits} buckets per level`);
  console.log("Mops/s = millions of (pop + post) per second of CPU time: median [best] of the rounds, then the median by wall time;");
  console.log("GCs = most young-generation collections during one timed run; the fingerprint covers the warm-up's pops (heap and calendar must agree)\n");
  console.log("impl       pending   Mops/s median [best]   wall   GCs  fingerprint");
  for (const r of rows) {
    const f = (x: number): string => (x / 1e6).toFixed(2).padStart(6);
    console.log(`${r.impl.padEnd(9)} ${String(r.pending).padStart(8)}   ${f(r.opsPerSec)} [${f(r.bestOpsPerSec)}]   ${f(r.wallOpsPerSec)}  ${String(r.gcs).padStart(4)}  ${r.fingerprint}`);
  }
  console.log("\nrng             Mdraws/s (CPU, best of 3)");
  for (const [name, perSec] of rng) console.log(`${name.padEnd(15)} ${(perSec / 1e6).toFixed(1).padStart(6)}`);
}

await main();
