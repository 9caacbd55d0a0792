#!/usr/bin/env node
// The `laminar` command line: one file per command under src/cli/.
import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../core/paths.js";
import { benchCommand } from "./bench.js";
import { parserMessage, quietParser } from "./parser-errors.js";
import { UsageError } from "./errors.js";
import { infoCommand } from "./info.js";
import { paramsCommand } from "./params.js";
import { simCommand } from "./sim.js";
import { reproduceCommand } from "./reproduce.js";
import { sweepCommand } from "./sweep.js";
import { workerCommand } from "./worker.js";
import { InvariantError } from "../laminar/invariants.js";
import { ConfigError } from "../config/params-error.js";

const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };

const program = new Command("laminar")
  .description("Laminar: probe-first, execute-later cluster scheduling with the Airlock runtime-survival layer")
  .version(pkg.version);

program.addCommand(benchCommand());
program.addCommand(infoCommand());
program.addCommand(paramsCommand());
program.addCommand(simCommand());
program.addCommand(reproduceCommand());
program.addCommand(sweepCommand());
program.addCommand(workerCommand());
quietParser(program);

try {
  if (process.argv.length <= 2) {
    throw new UsageError(`no command given (choose from: ${program.commands.map((c) => c.name()).join(", ")}; laminar --help lists them)`);
  }
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version printed their text on stdout; a parser error is one line, exit 2
    if (err.exitCode === 0) process.exit(0);
    console.error(`laminar: ${parserMessage(err)}`);
    process.exit(2);
  }
  if (err instanceof UsageError || err instanceof ConfigError) {
    console.error(`laminar: ${err.message}`);
    process.exit(2);
  }
  if (err instanceof InvariantError) {
    console.error(`laminar: ${err.message}`);
    process.exit(3);
  }
  const msg = err instanceof Error ? err.message : String(err);
  console.error(`laminar: ${msg}`);
  if (process.env.LAMINAR_DEBUG) console.error(err);
  process.exit(1);
}
