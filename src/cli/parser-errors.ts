// commander's own parse errors (an unknown option or command, a missing
// value, an extra argument) go through the same path as every other bad
// input: one "laminar: ..." line and exit 2. commander is told to throw
// instead of exiting and to print nothing on stderr itself; main.ts prints
// the message.
import type { Command, CommanderError } from "commander";

/** The command a parse error came from ("laminar sim"), set by quietParser. */
const commandOf = new WeakMap<Error, string>();

/** Make `cmd` and its subcommands throw on a parse error, writing nothing to stderr themselves. */
export function quietParser(cmd: Command, path = cmd.name()): void {
  cmd.exitOverride((err) => {
    commandOf.set(err, path);
    throw err;
  }).configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const sub of cmd.commands) quietParser(sub, `${path} ${sub.name()}`);
}

/** The parse error as one line, without commander's "error: ", pointing at the command's --help. */
export function parserMessage(err: CommanderError): string {
  const text = err.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").trim();
  return `${text} (${commandOf.get(err) ?? "laminar"} --help for usage)`;
}
