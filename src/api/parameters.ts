// The parameter registry and the run profiles as plain data: what `laminar
// params --json` prints, for code that builds configs or documents them.
import { PARAMS, paramRecord, type ParamRecord } from "../config/params.js";
import { PROFILES, type Profile } from "../config/profiles.js";

/**
 * Every parameter, in registry order: dotted name, group, type, unit,
 * default, range (as text and as bounds), allowed values (enums), where its
 * value comes from, and what it means.
 *
 * @example
 * for (const p of listParameters()) console.log(p.name, p.default, p.unit, p.range);
 */
export function listParameters(): ParamRecord[] {
  return PARAMS.map(paramRecord);
}

/** The run profiles ("paper", "artifact"): each one's title and the values it sets, with their sources. */
export function listProfiles(): Profile[] {
  return Object.values(PROFILES).map((p) => ({ ...p, values: { ...p.values } }));
}
