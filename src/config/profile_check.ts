/** The refusal of a profile named for a run that config.json does not have (with the closest name). */
import { usageError } from "../core/errors.ts";
import { suggest } from "../core/suggest.ts";
import { DEFAULT_PROFILE, explicitProfile, type Resolved } from "./config.ts";

/**
 * Refuses a run whose explicitly named profile does not exist (a typo must not fall back to other
 * credentials); "default" always exists. A usage error with the closest name.
 */
export function checkProfileExists(r: Resolved): void {
  if (r.profileExists || r.profileName === DEFAULT_PROFILE || !explicitProfile(r.profileSource)) return;
  const known = r.knownProfiles ?? [];
  const close = suggest(r.profileName, [DEFAULT_PROFILE, ...known]);
  const from = r.profileSource === "flag" ? "--profile" : "DIAZO_PROFILE";
  throw usageError(
    `unknown profile '${r.profileName}' (from ${from})`,
    `${close ? `Did you mean ${close}? ` : ""}Profiles: ${
      [DEFAULT_PROFILE, ...known.filter((n) => n !== DEFAULT_PROFILE)].join(", ")
    }; create it with \`diazo config profile create ${r.profileName}\`.`,
  );
}
