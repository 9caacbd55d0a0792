#!/usr/bin/env node
// The published packages as a user gets them (npm run test:package; .ci/run
// runs it): `npm run packages`, then each tarball installed into a fresh
// temporary project by `npm ci --offline` (npm's cache only, no network):
//
//   laminar       a JavaScript ESM script runs small simulations and loads
//                 the core; a TypeScript file using the public API passes
//                 tsc --noEmit under strict mode; the CLI runs, and says what
//                 is missing where figures or bench need an absent package.
//   laminar-core  the core alone, in Node (default, scalar, bytes, a worker
//                 thread, and the TypeScript twins under --jitless) and in
//                 headless Chromium (/usr/bin/chromium, Debian's package;
//                 skipped with the reason when it is absent), page and
//                 module worker, each checking a known answer.
//
// Reports install sizes, and ends with one line `N passed, N failed, N skipped`.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { offlineLock } from "./offline-lock.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const here = join(root, "test", "package");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const counts = { passed: 0, failed: 0, skipped: 0 };
const say = (s) => console.log(`test-package: ${s}`);

function check(name, ok, detail = "") {
  counts[ok ? "passed" : "failed"]++;
  say(`${ok ? "ok  " : "FAIL"} ${name}${!ok && detail ? `\n  ${String(detail).slice(0, 3000).replace(/\n/g, "\n  ")}` : ""}`);
  return ok;
}

function run(cmd, args, cwd, extra = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 180_000, ...extra });
  return { ok: r.status === 0, status: r.status, out: r.stdout ?? "", err: `${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

/** Bytes and packages under node_modules (apparent sizes, as a tarball unpacks). */
function installSize(dir) {
  let bytes = 0, packages = 0;
  const walk = (d, depth) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (basename(d) === "node_modules" && !e.name.startsWith(".") && !e.name.startsWith("@")) packages++;
        if (basename(d).startsWith("@") && basename(dirname(d)) === "node_modules") packages++;
        walk(p, depth + 1);
      } else if (e.isFile()) bytes += statSync(p).size;
    }
  };
  walk(join(dir, "node_modules"), 0);
  return { bytes, packages, text: `${packages} package${packages === 1 ? "" : "s"}, ${(bytes / 2 ** 20).toFixed(2)} MiB` };
}

/** A fresh project in `dir` depending on `tarball` alone, installed offline; the install's output. */
function install(dir, tarball, lock) {
  mkdirSync(dir, { recursive: true });
  cpSync(tarball, join(dir, basename(tarball)));
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
  const name = `consumer-of-${manifest.name}`;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module", dependencies: { [manifest.name]: `file:${basename(tarball)}` } }, null, 2));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(offlineLock(name, join(dir, basename(tarball)), manifest, lock), null, 2));
  return run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], dir);
}

const json = (text) => {
  try {
    return JSON.parse(text.trim().split("\n").pop());
  } catch {
    return null;
  }
};
const answered = (x) => x !== null && x !== undefined && x.ok === true;

const work = mkdtempSync(join(tmpdir(), "laminar-package-"));
try {
  // ------------------------------------------------------------ pack
  const packed = run("npm", ["run", "packages", "--silent"], root, { timeout: 300_000 });
  process.stdout.write(packed.out);
  if (!check("npm run packages builds and packs laminar and laminar-core", packed.ok, packed.err)) throw new Error("nothing to install");
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const mainTgz = join(root, "out", "pack", `laminar-${version}.tgz`);
  const coreTgz = join(root, "out", "pack", `laminar-core-${version}.tgz`);

  // ------------------------------------------------------------ laminar
  const app = join(work, "app");
  const inst = install(app, mainTgz, lock);
  check("laminar installs from npm's cache alone (npm ci --offline)", inst.ok, inst.err);
  check("the install runs no script and npm warns of none", inst.ok && !/install-scripts|prepare/.test(inst.out + inst.err), inst.err);
  if (inst.ok) {
    const size = installSize(app);
    say(`laminar install: ${size.text}`);
    const mods = readdirSync(join(app, "node_modules"));
    check("the plotting stack and benchmark.js are not installed with laminar", !mods.some((m) => ["vega", "vega-lite", "benchmark", "lodash", "assemblyscript"].includes(m)), mods.join(" "));
    for (const f of ["consumer/simulate.mjs", "consumer/example.ts", "consumer/tsconfig.json", "known-answer.mjs"]) cpSync(join(here, f), join(app, basename(f)));
    const sim = run(process.execPath, ["simulate.mjs"], app);
    const s = json(sim.out);
    check("JS (ESM): runSimulation runs Laminar and a baseline from parseConfig and a plain object",
      sim.ok && s?.laminar.scheduler === "laminar" && s.laminar.started > 0 && s.laminar.probeActions > 0 && s?.slurm.scheduler === "slurm" && s.slurm.arrived > 0, sim.out + sim.err);
    check("JS (ESM): listParameters, listExperiments, and a ConfigError naming the parameter",
      s !== null && s.parameters > 50 && s.experiments.includes("exp4a") && /^ConfigError: workload\.rho/.test(s.badConfig), JSON.stringify(s));
    check("JS (ESM): internal modules are closed by the exports map", s?.deepImport === "ERR_PACKAGE_PATH_NOT_EXPORTED", JSON.stringify(s));
    check("JS (ESM): instantiateCore from laminar and laminar/core gives the known answer", s !== null && s.flavor === "simd" && answered(s.core), JSON.stringify(s));
    const tsc = run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], app);
    check("TS: the public API type-checks under strict mode (tsc --noEmit, no skipLibCheck, no @types/node)", tsc.ok, tsc.out + tsc.err);
    const bin = join(app, "node_modules", ".bin", "laminar");
    const ver = run(bin, ["--version"], app);
    check("CLI: laminar --version from the install", ver.ok && ver.out.trim() === version, ver.out + ver.err);
    const bench = run(bin, ["bench", "--quick"], app);
    check("CLI: laminar bench says it needs benchmark.js", !bench.ok && /bench needs benchmark\.js/.test(bench.err), bench.out + bench.err);
    const rep = run(bin, ["reproduce", "exp4a", "--no-progress", "--out", "results"], app);
    check("CLI: laminar reproduce without vega writes the results and says why there are no figures",
      rep.ok && /no SVG figures: drawing them needs the packages vega and vega-lite/.test(rep.err) && existsSync(join(app, "results", "report.html"))
      && !readdirSync(join(app, "results")).some((f) => f.endsWith(".svg")), rep.out.slice(-1500) + rep.err);
    const sw = run(bin, ["sweep", "--grid", "workload.rho=0.4,0.8", "--set", "cluster.nodes=64", "--set", "sim.durationS=0.05", "--no-progress", "--out", "sweep"], app);
    check("CLI: laminar sweep without vega writes the results and says why there are no figures",
      sw.ok && /no SVG figures/.test(sw.err) && existsSync(join(app, "sweep", "results.csv")), sw.out.slice(-1500) + sw.err);
    const q = run(bin, ["worker", "--queue", "redis://127.0.0.1:1"], app);
    check("CLI: laminar worker without bullmq and ioredis says what is missing, exit 2",
      q.status === 2 && /--queue needs the packages bullmq and ioredis/.test(q.err) && q.err.trim().split("\n").length === 1, q.out + q.err);
  }

  // ------------------------------------------------------------ laminar-core
  const lean = join(work, "core");
  const cinst = install(lean, coreTgz, null);
  check("laminar-core installs from npm's cache alone", cinst.ok, cinst.err);
  if (cinst.ok) {
    const size = installSize(lean);
    say(`laminar-core install: ${size.text}`);
    check("laminar-core brings no other package", size.packages === 1, size.text);
    for (const f of ["core/core.mjs", "core/core-worker.mjs", "core/page.html", "core/page-worker.mjs", "known-answer.mjs"]) cpSync(join(here, f), join(lean, basename(f)));
    const node = run(process.execPath, ["core.mjs"], lean);
    const n = json(node.out);
    check("core in Node: SIMD picked by default, with the known answer", node.ok && n?.auto.flavor === "simd" && answered(n.auto), node.out + node.err);
    check("core in Node: the scalar build when asked, the SIMD build from bytes", n !== null && n.scalar.flavor === "scalar" && answered(n.scalar) && n.bytes.flavor === "simd" && answered(n.bytes), JSON.stringify(n));
    check("core in a Node worker thread", answered(n?.worker) && n.worker.flavor === "simd", JSON.stringify(n?.worker));
    const jit = run(process.execPath, ["--jitless", "core.mjs", "jitless"], lean);
    const j = json(jit.out);
    check("core without WebAssembly (node --jitless): the TypeScript twins, saying so", jit.ok && j?.jitless.flavor === "ts" && /no WebAssembly/.test(j.jitless.reason) && answered(j.jitless), jit.out + jit.err);
    await browser(lean);
  }
} catch (e) {
  check("the package test ran to the end", false, e instanceof Error ? e.stack : String(e));
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed === 0 && counts.passed > 0 ? 0 : 1);

/** The installed laminar-core in headless Chromium: served over HTTP (pages cannot fetch file: URLs), driven by playwright-core. */
async function browser(dir) {
  if (!existsSync(CHROMIUM)) {
    counts.skipped++;
    say(`skip core in headless Chromium: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it where it can)`);
    return;
  }
  const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(dir + sep) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/page.html`;
  let chromium;
  try {
    ({ chromium } = await import("playwright-core"));
    const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"], timeout: 60_000 });
    try {
      const page = await b.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(url);
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
      const r = await page.evaluate(() => window.result);
      check(`core in headless Chromium (${b.version()}): a page instantiates it from its default URL`, r.page?.flavor === "simd" && answered(r.page), JSON.stringify(r) + errors.join("\n"));
      check("core in headless Chromium: from a base URL given", answered(r.base), JSON.stringify(r.base));
      check("core in headless Chromium: in a module worker", answered(r.worker), JSON.stringify(r.worker));
    } finally {
      await b.close();
    }
  } catch (e) {
    check("core in headless Chromium", false, e instanceof Error ? e.stack : String(e));
  } finally {
    server.close();
  }
}
