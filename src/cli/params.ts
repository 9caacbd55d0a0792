// `laminar params`: the parameter reference from the registry, as a table,
// JSON records or the Markdown of docs/parameters.md. With --config/--set it
// also shows the values a run with those settings would use.
import { Command } from "commander";
import { renderParamsMarkdown } from "../config/params-doc.js";
import { GROUP_NAMES, PARAMS, paramRecord, type ParamEntry } from "../config/params.js";
import { rangeText } from "../config/params-spec.js";
import { formatTable } from "../report/table.js";
import { UsageError } from "./errors.js";
import { PROFILES, type ProfileName } from "../config/profiles.js";
import { profileOption } from "./profile-option.js";

interface Options {
  json?: boolean;
  markdown?: boolean;
  group?: string;
  config?: string;
  set: string[];
  profile?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Parameters named `group` or inside it (on a dot boundary). */
function select(group: string | undefined): readonly ParamEntry[] {
  if (group === undefined) return PARAMS;
  const picked = PARAMS.filter((p) => p.name === group || p.name.startsWith(`${group}.`));
  if (picked.length === 0) {
    const top = [...new Set(GROUP_NAMES.map((g) => g.split(".")[0]))];
    throw new UsageError(`unknown parameter group "${group}" (groups: ${top.join(", ")})`);
  }
  return picked;
}

/** Loaded on demand: zod costs ~0.1 s of start-up that listing the registry does not need. */
async function resolvedValues(file: string | undefined, sets: string[], profile?: ProfileName) {
  const { flattenConfig, resolveConfig } = await import("../config/params-config.js");
  return flattenConfig(resolveConfig(file, sets, profile));
}

export function paramsCommand(): Command {
  return new Command("params")
    .description("list every model parameter: name, default, unit, allowed range, source of the default, description")
    .option("--json", "print a JSON array of parameter records")
    .option("--markdown", "print the Markdown parameter reference (docs/parameters.md)")
    .option("--group <prefix>", "only the parameters of one group, e.g. workload or baselines.ray")
    .option("--config <file>", "also show the values a run with this JSON config file would use (a regular file of at most 1 MiB, nested at most 16 levels, no key given twice)")
    .option("--set <name=value>", "also show the values with this override (repeatable)", collect, [])
    .option("--profile <name>", "only the values a run profile sets (paper: the paper's stated setup; artifact: the authors' published sweep settings), each with its source; --config and --set still apply")
    .action(async (o: Options) => {
      if (o.markdown && o.json) throw new UsageError("--json and --markdown: choose one");
      if (o.markdown && o.profile !== undefined) throw new UsageError("--markdown prints the reference of defaults; --profile does not apply to it (use --json or the table)");
      const profile = profileOption(o.profile);
      if (profile !== undefined) {
        const values = await resolvedValues(o.config, o.set, profile);
        const set = PROFILES[profile].values;
        const records = select(o.group).filter((e) => e.name in set)
          .map((e) => ({ name: e.name, value: values[e.name], default: e.spec.default, unit: e.spec.unit, source: set[e.name].source }));
        if (o.json) console.log(JSON.stringify({ profile, title: PROFILES[profile].title, values: records }, null, 2));
        else {
          console.log(`profile ${profile}: ${PROFILES[profile].title}; every other parameter keeps its default, and --config/--set override the profile\n`);
          console.log(formatTable(["name", "value", "default", "unit", "source"], records.map((r) => [r.name, String(r.value), String(r.default), r.unit, r.source])));
        }
        return;
      }
      const entries = select(o.group);
      if (o.markdown && (o.config !== undefined || o.set.length > 0)) throw new UsageError("--markdown prints the reference of defaults; --config and --set do not apply to it (use --json or the table to see their values)");
      if (o.markdown) {
        process.stdout.write(renderParamsMarkdown(entries));
        return;
      }
      const resolved = o.config !== undefined || o.set.length > 0 ? await resolvedValues(o.config, o.set) : undefined;
      if (o.json) {
        const records = entries.map((e) => (resolved ? { ...paramRecord(e), value: resolved[e.name] } : paramRecord(e)));
        console.log(JSON.stringify(records, null, 2));
        return;
      }
      const head = ["name", ...(resolved ? ["value"] : []), "default", "unit", "range", "source", "description"];
      const rows = entries.map(({ name, spec }) => [
        name,
        ...(resolved ? [String(resolved[name]) + (resolved[name] === spec.default ? "" : " *")] : []),
        String(spec.default), spec.unit, rangeText(spec), spec.source, spec.description,
      ]);
      console.log(formatTable(head, rows));
      if (resolved) console.log("\n* differs from the default");
    });
}
