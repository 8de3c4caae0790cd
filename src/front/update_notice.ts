/**
 * The update notice's decision that every run takes: whether this run looks for a newer release at all
 * (never in CI, when not on a terminal, or with DIAZO_NO_UPDATE_NOTIFIER). When and what to tell is
 * update_plan.ts, loaded with the check (update_check.ts) only in a run that has one.
 */

/** The repository whose releases diazo is published as. */
export const RELEASES_REPO = "diazo-cli/diazo";

/** Where the newest release is read from unless DIAZO_UPDATE_URL says otherwise (GitHub's JSON). */
export const DEFAULT_UPDATE_URL = `https://api.github.com/repos/${RELEASES_REPO}/releases/latest`;

/** What decides whether the check runs at all. */
export interface UpdateEnvironment {
  env: Record<string, string | undefined>;
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
}

function set(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

/** Why there is no update check in this run, or undefined when there is one. */
export function updateCheckDisabled(e: UpdateEnvironment): string | undefined {
  if (set(e.env.DIAZO_NO_UPDATE_NOTIFIER)) return "DIAZO_NO_UPDATE_NOTIFIER is set";
  for (const name of ["CI", "BUILD_NUMBER", "RUN_ID", "GITHUB_ACTIONS"]) {
    if (set(e.env[name])) return `running in CI (${name} is set)`;
  }
  if (!e.stdoutIsTerminal || !e.stderrIsTerminal) return "not a terminal";
  return undefined;
}
