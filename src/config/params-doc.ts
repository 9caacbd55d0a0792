// docs/parameters.md, rendered from the registry. `laminar params --markdown`
// prints it; test/config/params-doc.test.ts fails when the committed file
// differs, so the reference cannot drift from the code.
import { GROUP_TITLES, PARAMS, type ParamEntry } from "./params.js";
import { rangeText } from "./params-spec.js";

const INTRO = `# Parameter reference

<!-- Generated from src/config/params-*.ts by \`laminar params --markdown > docs/parameters.md\`.
     Do not edit by hand: test/config/params-doc.test.ts fails when this file is stale. -->

Every model parameter of the simulation, its baselines and its experiments.
The registry in \`src/config/params.ts\` is the single source of truth: the
validation schema, the error messages, \`laminar params\` and this page are all
derived from it.

## Setting parameters

A run starts from the defaults below, then applies a JSON config file
(\`--config file.json\`), then each \`--set name=value\` in order; a later
setting wins. \`laminar params --config file.json --set name=value\` shows the
result without running anything.

A config file is a JSON object. Nested and dotted keys mean the same thing and
may be mixed; giving one parameter twice is an error:

\`\`\`json
{
  "cluster": { "nodes": 10000, "preoccupancy.enabled": true },
  "workload.rho": 0.9,
  "reservation": { "enabled": true, "deposit": 20 }
}
\`\`\`

Values in a file keep their JSON types (\`"0.9"\` is not a number). \`--set\`
reads its text by the parameter's type: numbers accept \`1e3\` and \`32_000\`;
booleans accept \`true\`/\`false\`, \`on\`/\`off\`, \`yes\`/\`no\`, \`1\`/\`0\`;
enums take one of their listed names; text (a file path) is taken as written.

Bad input (an unknown name, a wrong type, a value out of range, an unreadable
or malformed file) stops the command with exit code 2 and one line that names
the parameter and what it allows, for example
\`workload.rho: must be > 0 and <= 2 (got -1)\` or
\`unknown parameter "workload.rhoo" (did you mean workload.rho?)\`.
Besides its own range, a parameter may be checked against another:
task demands (\`workload.fAtoms\`, \`lAtoms\`, \`squatterAtoms\`) must fit
\`cluster.atomsPerNode\`, and \`airlock.safeWatermark\` must be below
\`airlock.highWatermark\`.

In code: \`parseConfig(object)\`, \`loadConfigFile(path)\`, \`applySets(config,
["name=value"])\` and \`resolveConfig(file, sets)\` in
\`src/config/params-config.ts\` return a deeply frozen, fully populated,
typed \`Config\` (\`config.workload.rho\`) or throw a \`ConfigError\`.

## Conventions

- **Units.** Times are in milliseconds unless the name says otherwise:
  \`sim.durationS\` and \`sim.drainS\` are in seconds, \`*Ns\` in nanoseconds and
  \`*Us\` in microseconds (as the paper quotes those costs). Patience and
  deposits are in the paper's abstract units (p per atom times atoms).
- **Ranges.** \`[a, b]\` includes its ends, \`(a, b)\` excludes them. The bounds
  reject nonsense, they are not a claim that every value in them is sensible.
- **Source of the default.** \`paper §<section>\`: fixed by the paper's text
  (the paper wins where it and the artifact disagree; the description then
  gives the artifact's value, which stays reachable). \`artifact\`: the
  authors' public simulator (Laminar-Sim), where the paper is silent.
  \`ours (<reason>)\`: neither fixes it; the reason says why we chose it.
- **Defaults reproduce the paper's main setting** (Exp1 at rho = 0.8: 5,000
  nodes, 30 s, two-phase reservation off, regeneration on, memory model off).
  The experiment specs set what each experiment changes.
`;

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\*/g, "\\*");

function summary(entries: readonly ParamEntry[]): string {
  const count = (prefix: string) => entries.filter((e) => e.spec.source.startsWith(prefix)).length;
  return `${entries.length} parameters: ${count("paper")} from the paper, ${count("artifact")} from the artifact, ${count("cited")} cited from other publications, ${count("ours")} ours.`;
}

/** The parameter reference as Markdown; by default the whole registry. */
export function renderParamsMarkdown(entries: readonly ParamEntry[] = PARAMS): string {
  const out = [INTRO, "## Parameters", "", summary(entries), ""];
  const groups = [...new Set(entries.map((e) => e.group))];
  for (const g of groups) {
    out.push(`### \`${g}\`: ${GROUP_TITLES[g] ?? g}`, "");
    out.push("| name | default | unit | range | source | description |", "| --- | --- | --- | --- | --- | --- |");
    for (const { name, spec } of entries.filter((e) => e.group === g)) {
      out.push(`| \`${name}\` | ${esc(String(spec.default))} | ${esc(spec.unit)} | ${esc(rangeText(spec))} | ${esc(spec.source)} | ${esc(spec.description)} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
