// commander's own parse errors (an unknown option or command, a missing
// value, an extra argument) go through the same path as every other bad
// input: one "laminar: ..." line and exit 2. commander is told to throw
// instead of exiting and to print nothing on stderr itself; main.ts prints
// the message.
import type { Command, CommanderError } from "commander";

/** Make `cmd` and its subcommands throw on a parse error, writing nothing to stderr themselves. */
export function quietParser(cmd: Command): void {
  cmd.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const sub of cmd.commands) quietParser(sub);
}

/** The parse error as one line, with the command's name and without commander's "error: ". */
export function parserMessage(err: CommanderError): string {
  const text = err.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").trim();
  if (err.code === "commander.help" || err.code === "commander.helpDisplayed") return "a command is needed (laminar --help lists them)";
  return `${text} (laminar --help for usage)`;
}
