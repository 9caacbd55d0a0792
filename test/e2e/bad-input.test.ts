// Bad input to every command, as a table: each case must exit 2 with exactly
// one "laminar: ..." line on stderr that names what was wrong, nothing on
// stdout, no stack trace, and within seconds (counts past their limits are
// refused, not run; a FIFO or /dev/zero as a config file is refused, not
// read). The built CLI in dist/, a real process.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/core/paths.js";

const cli = join(packageRoot(), "dist", "src", "cli", "main.js");
const tmp = mkdtempSync(join(tmpdir(), "laminar-bad-input-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function laminar(args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const SMALL = ["--nodes", "300", "--duration", "0.2", "--no-progress"];

function files() {
  const deep = join(tmp, "deep.json");
  writeFileSync(deep, "[".repeat(100_000) + "]".repeat(100_000));
  const deepObject = join(tmp, "deep-object.json");
  writeFileSync(deepObject, '{"a":'.repeat(40) + "1" + "}".repeat(40));
  const dup = join(tmp, "dup.json");
  writeFileSync(dup, '{"cluster": {"nodes": 300}, "workload": {"rho": 0.5, "rho": 0.9}}');
  const big = join(tmp, "big.json");
  writeFileSync(big, `{"cluster": {"nodes": 300}}${" ".repeat(2 << 20)}`);
  const fifo = join(tmp, "fifo");
  const hasFifo = spawnSync("mkfifo", [fifo]).status === 0;
  return { deep, deepObject, dup, big, fifo: hasFifo ? fifo : null };
}

describe("bad input: one line, exit 2", () => {
  const f = files();
  const cases: Array<[string[], RegExp]> = [
    // commander's own errors
    [[], /no command given/],
    [["nosuchcommand"], /unknown command 'nosuchcommand'/],
    [["sim", "--frobnicate"], /unknown option '--frobnicate'/],
    [["sim", "--nodes"], /option '--nodes <n>' argument missing/],
    [["info", "extra"], /too many arguments/],
    [["params", "--group"], /argument missing/],
    // numbers only in decimal notation
    [["sim", ...SMALL, "--nodes", "0x100"], /cluster\.nodes.*0x100/],
    [["sim", ...SMALL, "--set", "workload.rho=0x1"], /workload\.rho.*0x1/],
    [["sim", ...SMALL, "--rho", "Infinity"], /workload\.rho/],
    [["sim", ...SMALL, "--workers", "0x2"], /--workers/],
    [["bench", "--rounds", "0x3"], /--rounds/],
    [["bench", "--max-time", "0x1"], /--max-time/],
    [["reproduce", "--seeds", "0b11"], /--seeds/],
    // counts past their limits
    [["reproduce", "--seeds", "1000000000"], /--seeds must be an integer from 1 to 100/],
    [["reproduce", "--workers", "1000000000"], /--workers must be an integer from 1 to 64/],
    [["bench", "--rounds", "1000000000"], /--rounds must be an integer from 1 to 50/],
    [["bench", "--max-time", "1e9"], /--max-time must be at most 10/],
    [["bench", "--quick", "--rounds", "x"], /--rounds/],
    [["bench", "--quick", "--max-time", "-1"], /--max-time/],
    [["bench", "--kernels", "mask-update,mask-update"], /kernel "mask-update" named more than once/],
    [["reproduce", "exp4a", "exp4a"], /experiment "exp4a" named more than once/],
    // config files: regular, small and shallow enough, no key twice
    [["sim", ...SMALL, "--config", "/dev/zero"], /config file \/dev\/zero: not a regular file/],
    [["sim", ...SMALL, "--config", tmp], /not a regular file/],
    [["sim", ...SMALL, "--config", f.deep], /deep\.json: nested deeper than 16 levels/],
    [["sim", ...SMALL, "--config", f.deepObject], /deep-object\.json: nested deeper than 16 levels/],
    [["sim", ...SMALL, "--config", f.dup], /dup\.json: key "workload\.rho" given more than once/],
    [["sim", ...SMALL, "--config", f.big], /big\.json: \d+ bytes, more than the 1048576/],
    [["params", "--config", f.dup], /given more than once/],
    // options that would be ignored
    [["params", "--json", "--markdown"], /--json and --markdown/],
    [["params", "--markdown", "--set", "workload.rho=5"], /--markdown/],
    [["params", "--markdown", "--config", f.dup], /--markdown/],
    [["sim", ...SMALL, "--force"], /--force .*--out/],
  ];
  if (f.fifo !== null) cases.push([["sim", ...SMALL, "--config", f.fifo], /fifo: not a regular file/]);
  // sweeps: a sweep file has a config file's limits; counts in decimal and in range; queue options need a queue
  cases.push(
    [["sweep", "--file", "/dev/zero"], /sweep file \/dev\/zero: not a regular file/],
    [["sweep", "--file", f.deep], /deep\.json: nested deeper than 16 levels/],
    [["sweep", "--file", f.dup], /sweep file .*dup\.json: key "workload\.rho" given more than once/],
    [["sweep", "--file", f.big], /big\.json: more than the 1048576 bytes/],
    [["sweep", "--seeds", "0x3"], /--seeds/],
    [["sweep", "--seeds", "101"], /--seeds must be an integer from 1 to 100/],
    [["sweep", "--grid", "cluster.nodes=1,2,3,4,5,6,7,8,9,10,11", "--grid", "workload.rho=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", "--seeds", "100"], /11000 runs \(points x seeds\): more than the 10000/],
    [["sweep", "--no-wait"], /--no-wait .*--queue/],
    [["sweep", "--queue", "redis://127.0.0.1:1", "--workers", "2"], /--workers .* with --queue, each laminar worker has its own/],
    [["sweep", "--queue", "redis://127.0.0.1:1", "--collect", "--fresh"], /--fresh .* --collect .*choose one/],
    [["worker"], /--queue/],
    [["worker", "--queue", "127.0.0.1:6379"], /--queue "127\.0\.0\.1:6379": not a URL \(expected redis:\/\//],
    [["worker", "--queue", "redis://127.0.0.1:1", "--stall-s", "0"], /--stall-s must be an integer from 1 to 3600/],
  );
  if (f.fifo !== null) cases.push([["sweep", "--file", f.fifo], /fifo: not a regular file/]);

  it.each(cases)("laminar %j", (args, names) => {
    const r = laminar(args);
    const what = args.join(" ");
    expect(r.code, `${what}: ${r.err}`).toBe(2);
    expect(r.out, what).toBe("");
    const lines = r.err.trimEnd().split("\n");
    expect(lines, what).toHaveLength(1);
    expect(lines[0], what).toMatch(/^laminar: /);
    expect(lines[0], what).toMatch(names);
    expect(r.err, what).not.toContain("    at ");
  });
});
