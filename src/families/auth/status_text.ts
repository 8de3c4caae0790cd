/**
 * `auth status` for a person, as `gh auth status` reads: the profile and why it is the one in use,
 * the app's credentials and where they come from, the user login (who, scopes, expiry) and the app
 * token cache, one fact a line. json/yaml keep the record (families/auth/verbs.ts `AuthStatus`).
 */
import { humanTime } from "../../core/output_human.ts";
import type { AuthStatus, TokenView } from "./verbs.ts";

/** Where a profile was chosen, in words. */
const PROFILE_SOURCES: Record<string, string> = {
  flag: "chosen with --profile",
  env: "chosen by DIAZO_PROFILE",
  ".env": "chosen by DIAZO_PROFILE in .env",
  config: "the active profile of config.json",
  default: "no profile chosen",
};

/** Where a value came from, in words: a variable's name, the profile, or the default. */
function origin(source: string, profile: string): string {
  if (source === "profile") return `profile ${profile}`;
  if (source === "default") return "default";
  return source;
}

function expiry(t: TokenView, now: number): string {
  const at = Date.parse(t.expires_at);
  if (!t.expired) return `expires ${humanTime(at, now)}`;
  return t.refreshable
    ? `expired ${humanTime(at, now)}, renewed on next use`
    : `expired ${humanTime(at, now)}`;
}

function scopesText(scopes: readonly string[]): string {
  return scopes.length ? scopes.join(" ") : "(none)";
}

/** The lines of the summary (no trailing newline on the last). */
export function statusSummary(st: AuthStatus, now = Date.now()): string {
  const lines = [
    `Profile ${st.profile} (${PROFILE_SOURCES[st.profile_source] ?? st.profile_source})`,
    `  Platform:   ${st.base_url} (${origin(st.base_url_source, st.profile)})`,
  ];
  if (st.client_id) {
    lines.push(`  App:        client ${st.client_id} (${origin(st.client_id_source, st.profile)})`);
    lines.push(
      st.client_secret
        ? `  Secret:     ${st.client_secret} (${origin(st.client_secret_source, st.profile)})`
        : "  Secret:     missing: the app cannot get a token",
    );
    lines.push(`  App scopes: ${scopesText(st.scopes)}`);
  } else {
    lines.push("  App:        no client id configured");
  }
  if (st.ignored_env.length) {
    lines.push(`  Ignored:    ${st.ignored_env.join(", ")} (the profile was named for this run)`);
  }
  if (st.hub !== null) {
    lines.push(`  Hub:        ${st.hub} (default of --hub; ${origin(st.hub_source, st.profile)})`);
  }
  if (st.project !== null) {
    lines.push(
      `  Project:    ${st.project} (default of --project; ${origin(st.project_source, st.profile)})`,
    );
  }
  const users = st.tokens.filter((t) => t.mode === "3-legged");
  if (users.length === 0) lines.push("  User login: none (`diazo auth login`)");
  for (const t of users) {
    lines.push(`  User login: ${t.user ?? "unknown user"}, ${expiry(t, now)}`);
    lines.push(`              scopes ${scopesText(t.scopes)}`);
  }
  const apps = st.tokens.filter((t) => t.mode !== "3-legged");
  if (apps.length === 0) lines.push("  App token:  none cached (fetched on first use)");
  for (const t of apps) lines.push(`  App token:  cached, ${expiry(t, now)}; scopes ${scopesText(t.scopes)}`);
  lines.push(`  Tokens in:  ${st.token_store.kind} (${st.token_store.location})`);
  if (!st.usable) {
    lines.push(
      "No usable credential: set SVC_CLIENT_ID and SVC_CLIENT_SECRET, create a profile " +
        "(`diazo config profile create NAME --client-id ID --use`), or log in (`diazo auth login`).",
    );
  }
  return lines.join("\n");
}
