// The public way to build a Config: an object (nested, dotted or mixed keys,
// as in a config file), laid over a profile's values if one is named, then
// `name=value` overrides. The same order as `laminar sim --profile --config --set`.
import { applySets, defaultConfig, dottedLeaves, flattenConfig, parseConfig as parseObject } from "../config/params-config.js";
import { ConfigError } from "../config/params-error.js";
import type { Config } from "../config/params.js";
import { isProfileName, PROFILE_NAMES, profileSets, type ProfileName } from "../config/profiles.js";

export interface ConfigOptions {
  /** A run profile whose values come before the object's: "paper" or "artifact" (`laminar params --profile NAME` lists them). */
  profile?: ProfileName;
  /** `name=value` overrides applied last, in order, with the text read as the parameter's type (as `--set`). */
  sets?: readonly string[];
}

/**
 * Validate a configuration and fill in every default. `input` is an object
 * as a config file holds it: nested (`{ workload: { rho: 0.9 } }`), dotted
 * (`{ "workload.rho": 0.9 }`) or both; values keep their JSON types.
 * Returns a deeply frozen Config; throws a ConfigError whose one-line
 * message names the parameter, the value and what is allowed.
 *
 * @example
 * const config = parseConfig({ "cluster.nodes": 256, "sim.durationS": 0.5 }, { profile: "paper", sets: ["sim.seed=7"] });
 */
export function parseConfig(input: unknown = {}, options: ConfigOptions = {}): Config {
  const { profile, sets = [] } = options;
  if (profile !== undefined && !isProfileName(profile)) throw new ConfigError(`profile must be one of ${PROFILE_NAMES.join(", ")}, got ${JSON.stringify(profile)}`);
  const own = parseObject(input); // checks the object alone, so errors name what the caller wrote
  if (profile === undefined) return applySets(own, sets);
  const base = applySets(defaultConfig(), profileSets(profile));
  const given = typeof input === "object" && input !== null ? dottedLeaves(input as Record<string, unknown>, "") : {};
  return applySets(parseObject({ ...flattenConfig(base), ...given }), sets);
}
