// Throughput of the whole Laminar simulation (issue target: >= 300,000
// simulated tasks per wall second on one core at 5,000 nodes, rho = 0.8).
//
//   npx tsc -p tsconfig.json && node dist/bench/sim-laminar.js
//        [--nodes=5000] [--rho=0.8] [--duration=2] [--rounds=3] [--set=name=value ...] [--json]
//
// Each round runs one simulation in its own child process (a cold JIT, as a
// user's run has) and reads the run's own figures from its result: simulated
// tasks per wall second and per CPU second (CPU time is steadier on a shared
// machine), events processed, peak RSS. Rounds of the same configuration
// must agree on every count (the run is deterministic), and the bench fails
// if they do not. Reported: the median of each figure over the rounds.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

interface Round {
  arrived: number;
  started: number;
  eventsProcessed: number;
  wallSeconds: number;
  cpuSeconds: number;
  tasksPerWallSecond: number;
  tasksPerCpuSecond: number;
  peakRssMiB: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function child(sets: string[]): Promise<void> {
  const { applySets, defaultConfig } = await import("../src/model/params-config.js");
  const { runLaminar } = await import("../src/laminar/run.js");
  const cpu0 = process.cpuUsage();
  const r = runLaminar(applySets(defaultConfig(), sets));
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const out: Round = {
    arrived: r.arrived, started: r.started, eventsProcessed: r.eventsProcessed,
    wallSeconds: r.wallSeconds, cpuSeconds, tasksPerWallSecond: r.tasksPerWallSecond,
    tasksPerCpuSecond: r.arrived / cpuSeconds, peakRssMiB: r.peakRssMiB,
  };
  process.stdout.write(JSON.stringify(out));
}

function main(): void {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
  const json = args.includes("--json");
  const nodes = opt("nodes", "5000"), rho = opt("rho", "0.8"), duration = opt("duration", "2"), rounds = Number(opt("rounds", "3"));
  const extra = args.filter((a) => a.startsWith("--set=")).map((a) => a.slice(6));
  const sets = [`cluster.nodes=${nodes}`, `workload.rho=${rho}`, `sim.durationS=${duration}`, "sim.drainS=0", ...extra];
  const self = fileURLToPath(import.meta.url);
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = execFileSync(process.execPath, [self, "--child", ...sets], { encoding: "utf8", maxBuffer: 1 << 20 });
    const r = JSON.parse(out) as Round;
    if (results.length > 0 && (r.arrived !== results[0].arrived || r.started !== results[0].started || r.eventsProcessed !== results[0].eventsProcessed)) {
      throw new Error("bench: rounds of the same configuration disagree: the run is not deterministic");
    }
    results.push(r);
    if (!json) process.stderr.write(`round ${i + 1}/${rounds}: ${Math.round(r.tasksPerWallSecond)} tasks/wall-s, ${Math.round(r.tasksPerCpuSecond)} tasks/CPU-s\n`);
  }
  const pick = (k: keyof Round) => median(results.map((r) => r[k]));
  const summary = {
    config: { nodes: Number(nodes), rho: Number(rho), durationS: Number(duration), sets },
    rounds,
    arrived: results[0].arrived,
    eventsProcessed: results[0].eventsProcessed,
    eventsPerTask: results[0].eventsProcessed / results[0].arrived,
    medianWallSeconds: pick("wallSeconds"),
    medianTasksPerWallSecond: pick("tasksPerWallSecond"),
    medianTasksPerCpuSecond: pick("tasksPerCpuSecond"),
    medianPeakRssMiB: pick("peakRssMiB"),
  };
  if (json) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(`laminar sim, ${nodes} nodes, rho ${rho}, ${duration} s simulated, ${results[0].arrived} tasks, ${summary.eventsPerTask.toFixed(2)} events/task`);
    console.log(`median over ${rounds} rounds: ${Math.round(summary.medianTasksPerWallSecond)} tasks/wall-s, ${Math.round(summary.medianTasksPerCpuSecond)} tasks/CPU-s, ${summary.medianWallSeconds.toFixed(2)} s wall, peak ${summary.medianPeakRssMiB.toFixed(0)} MiB`);
  }
}

if (process.argv[2] === "--child") await child(process.argv.slice(3));
else main();
