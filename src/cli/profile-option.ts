// The --profile option of sim, reproduce and params: a named run profile
// (src/config/profiles.ts), checked here so a bad name is one line and exit 2.
import { isProfileName, PROFILE_NAMES, type ProfileName } from "../config/profiles.js";
import { UsageError } from "./errors.js";

export const PROFILE_HELP = `run profile: ${PROFILE_NAMES.join(" or ")} (paper: the paper's stated setup; artifact: the authors' published sweep settings; laminar params --profile <name> lists its values)`;

/** The profile named by --profile, undefined when none was given. */
export function profileOption(value: string | undefined): ProfileName | undefined {
  if (value === undefined) return undefined;
  if (!isProfileName(value)) throw new UsageError(`--profile: unknown profile "${value}" (choose from: ${PROFILE_NAMES.join(", ")})`);
  return value;
}
