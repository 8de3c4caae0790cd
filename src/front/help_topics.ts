/**
 * `diazo help environment|exit-codes|formatting|config`: texts made from the tables and constants
 * the code itself reads (exit codes, formats, settings and their defaults, front/environment.ts), so
 * they cannot drift. tests/cli/help_test.ts compares the environment table with the variables src/ reads.
 */
import {
  DEFAULT_BASE_URL,
  DEFAULT_CALLBACK_URL,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_RETRY_AFTER_S,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_TIMEOUT_S,
  PROFILE_KEYS,
  type SETTING_KEYS,
} from "../config/config.ts";
import { ExitCode, type ExitCodeValue } from "../core/errors.ts";
import { OUTPUT_FORMATS } from "../core/output.ts";
import { DEFAULT_HOOK_TIMEOUT_S } from "../extend/hooks.ts";
import { ENVIRONMENT_DEFAULTS } from "./environment.ts";
import { CLOSED_OUTPUT_EXIT } from "../command/closed_output.ts";
import { LINE_EVERY_MS } from "../command/progress.ts";
import { HELP_TOPICS, type HelpTopic } from "../command/global_options.ts";

const { lockWaitMs, pollBaseMs, pollMaxMs, stallAfterMs, updateUrl, webhookTestBudgetMs } =
  ENVIRONMENT_DEFAULTS;

/** One environment variable (or a family of spellings) diazo reads. */
export interface EnvVariable {
  /** The names, the preferred first (`SVC_CLIENT_ID` before `APS_CLIENT_ID`). */
  names: readonly string[];
  meaning: string;
  default?: string;
}

/** Every environment variable diazo reads, in the order the topic shows them. */
export const ENVIRONMENT: readonly EnvVariable[] = [
  { names: ["SVC_CLIENT_ID", "APS_CLIENT_ID"], meaning: "the app's client id (SVC_* wins over APS_*)" },
  { names: ["SVC_CLIENT_SECRET", "APS_CLIENT_SECRET"], meaning: "the app's client secret" },
  {
    names: ["SVC_CALLBACK_URL", "APS_CALLBACK_URL"],
    meaning: "3-legged callback URL",
    default: DEFAULT_CALLBACK_URL,
  },
  { names: ["SVC_DA_NICKNAME", "APS_DA_NICKNAME"], meaning: "Design Automation nickname of the app" },
  {
    names: ["FORGE_CLIENT_ID", "FORGE_CLIENT_SECRET", "FORGE_CALLBACK_URL"],
    meaning: "legacy names: read only by `auth migrate-from-forge`, which copies them into a profile",
  },
  {
    names: ["DIAZO_BASE_URL"],
    meaning:
      "platform address (point it at a sandbox); a .env may set it only if it also sets the app's credentials",
    default: DEFAULT_BASE_URL,
  },
  {
    names: ["DIAZO_SANDBOX_TOKEN"],
    meaning: "token `diazo sandbox` asks of its control API (/_sandbox/)",
    default: "none on loopback, a random one printed at start on any other --host",
  },
  { names: ["DIAZO_PROFILE"], meaning: "profile to use (as --profile)", default: "the active profile" },
  {
    names: ["DIAZO_HUB"],
    meaning: "hub (id or name) of commands run without --hub or --account",
    default: "the profile's hub",
  },
  {
    names: ["DIAZO_PROJECT"],
    meaning: "project (id or name) of commands run without --project",
    default: "the profile's project",
  },
  {
    names: ["DIAZO_CONFIG_DIR"],
    meaning: "config dir (config.json, plugins.json)",
    default: "$XDG_CONFIG_HOME/diazo, ~/.config/diazo, %APPDATA%\\diazo",
  },
  {
    names: ["DIAZO_STATE_DIR"],
    meaning: "state dir (tokens, resume records, logs)",
    default: "$XDG_STATE_HOME/diazo, ~/.local/state/diazo, %LOCALAPPDATA%\\diazo",
  },
  {
    names: ["DIAZO_CACHE_DIR"],
    meaning: "cache dir (values of shell completion, kept a minute)",
    default: "$XDG_CACHE_HOME/diazo, ~/.cache/diazo, %LOCALAPPDATA%\\diazo\\cache",
  },
  { names: ["XDG_CONFIG_HOME", "APPDATA"], meaning: "base of the default config dir" },
  { names: ["XDG_STATE_HOME", "LOCALAPPDATA"], meaning: "base of the default state and cache dirs" },
  { names: ["XDG_CACHE_HOME"], meaning: "base of the default cache dir" },
  {
    names: ["HOME", "USERPROFILE"],
    meaning: "home directory (default dirs, ~ in plugin paths)",
  },
  {
    names: ["DIAZO_OUTPUT"],
    meaning: `output format when -o is not given (${OUTPUT_FORMATS.join(", ")})`,
    default: "table on a terminal, else json",
  },
  { names: ["DIAZO_DEBUG"], meaning: "as --debug (any value but empty or 0)" },
  {
    names: ["DIAZO_TOKEN_STORE"],
    meaning: "file or keychain: where tokens are kept",
    default: "the OS keychain when it works",
  },
  { names: ["NO_COLOR"], meaning: "no colours (as --no-color)" },
  { names: ["TERM"], meaning: "dumb: no colours and no progress bars" },
  { names: ["CI"], meaning: "never prompt (as --non-interactive); no update check" },
  {
    names: ["BUILD_NUMBER", "RUN_ID", "GITHUB_ACTIONS"],
    meaning: "a CI run: no update check",
  },
  { names: ["COLUMNS"], meaning: "width that tables fit", default: "the terminal's" },
  {
    names: ["DIAZO_TIMEOUT"],
    meaning: "as --timeout: seconds a request, and a --wait, may take",
    default: `${DEFAULT_TIMEOUT_S}`,
  },
  {
    names: ["DIAZO_RETRY_BASE_MS"],
    meaning: "first retry delay in ms; later delays grow from it",
    default: `${DEFAULT_RETRY_BASE_MS}`,
  },
  {
    names: ["DIAZO_MAX_RETRY_AFTER"],
    meaning: "longest wait in seconds that a Retry-After may ask for",
    default: `${DEFAULT_MAX_RETRY_AFTER_S}`,
  },
  {
    names: ["DIAZO_POLL_BASE_MS"],
    meaning: `first delay of --wait polling in ms (the longest is ten times it, at most ${
      pollMaxMs / 1000
    } s)`,
    default: `${pollBaseMs}`,
  },
  {
    names: ["DIAZO_STALL_MINUTES"],
    meaning: "minutes after which a pending translation counts as probably failed",
    default: `${stallAfterMs / 60_000}`,
  },
  {
    names: ["DIAZO_LOCK_WAIT_MS"],
    meaning: "how long to wait for another process's token request or refresh, in ms",
    default: `${lockWaitMs}`,
  },
  {
    names: ["DIAZO_PROGRESS_EVERY_MS"],
    meaning: "how often a progress line is written when stderr is not a terminal, in ms",
    default: `${LINE_EVERY_MS}`,
  },
  { names: ["DIAZO_NO_BROWSER"], meaning: "auth login opens no browser: it prints the URL and waits" },
  {
    names: ["DIAZO_HOOK_TIMEOUT"],
    meaning: "seconds a hook may run before it is stopped with its children",
    default: `${DEFAULT_HOOK_TIMEOUT_S}`,
  },
  { names: ["DIAZO_NO_HOOKS"], meaning: "1 skips the hooks of plugins.json (as --no-hooks)" },
  { names: ["PATH", "PATHEXT"], meaning: "where plugins (diazo-<name>) are found" },
  {
    names: ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"],
    meaning: "a proxy: requests then go through fetch, which uses it (lower-case spellings too)",
  },
  { names: ["DIAZO_NO_UPDATE_NOTIFIER"], meaning: "no update check or notice" },
  {
    names: ["DIAZO_UPDATE_URL"],
    meaning: "where the newest release is read from",
    default: updateUrl,
  },
  {
    names: ["DIAZO_PROGRESS_EVERY_MS"],
    meaning: "how often a progress line is written when stderr is not a terminal, in ms",
    default: "5000",
  },
  {
    names: ["DIAZO_WEBHOOK_TEST_BUDGET_MS"],
    meaning: "how long webhook test waits for the callback's answer, in ms",
    default: `${webhookTestBudgetMs}`,
  },
];
/** What diazo sets for the programs it starts (plugins, hooks); they read these, diazo does not. */
const CHILD_ENVIRONMENT: readonly [string, string][] = [
  ["DIAZO_BIN", "how to call diazo back (plugins)"],
  ["DIAZO_PROFILE, DIAZO_OUTPUT, DIAZO_BASE_URL", "the run's profile, output format and address (plugins)"],
  ["DIAZO_HOOK_STATUS, DIAZO_EXIT_CODE", "success or failure, and the exit code (post_ hooks)"],
  ["DIAZO_RESULT_JSON", "a file holding the command's JSON result (post_ hooks)"],
];

/** What each exit code means; typed over every code so that a new one cannot go unexplained. */
export const EXIT_CODE_MEANINGS: Record<ExitCodeValue | typeof CLOSED_OUTPUT_EXIT, string> = {
  [ExitCode.ok]: "success",
  [ExitCode.failure]: "failure (e.g. a translation failed)",
  [ExitCode.usage]: "usage or invalid input: unknown command or flag, bad value, malformed config or .env",
  [ExitCode.auth]: "authentication or authorization: missing credentials, 401, 403, missing scope",
  [ExitCode.notFound]: "not found",
  [ExitCode.transient]: "transient: still failing after retries, timeout, network",
  [ExitCode.conflict]: "conflict (already exists)",
  [ExitCode.interrupted]: "interrupted (Ctrl-C)",
  [CLOSED_OUTPUT_EXIT]: "stdout was closed by the reader (diazo … | head): nothing more is printed",
};

/** Lays out rows of two columns, the first padded to the widest. */
function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join("\n") + "\n";
}

function environmentText(): string {
  const entries = ENVIRONMENT.map((v) =>
    `  ${v.names.join(", ")}\n      ${v.meaning}${
      v.default === undefined ? "" : `\n      default: ${v.default}`
    }\n`
  );
  return "Environment variables diazo reads. A .env file in the working directory sets those not already\n" +
    "set; credentials and settings follow the precedence of `diazo help config`. A .env (a directory you\n" +
    "cloned may bring one) may set DIAZO_BASE_URL only if it also sets the client id and secret: the\n" +
    "credentials of the shell or of a profile are never sent where a .env points (exit 2, naming it).\n\n" +
    entries.join("") +
    "\nSet by diazo for the programs it starts:\n\n" + table(CHILD_ENVIRONMENT);
}

function exitCodesText(): string {
  const rows = Object.entries(EXIT_CODE_MEANINGS).map(([code, meaning]) => [code, meaning] as const);
  return "Exit codes. Every failure is one `error:` line and one `hint:` line on stderr (with -o json\n" +
    'also {"error":{"code","message","hint","status"}}); no stack trace unless --debug.\n\n' + table(rows);
}

function formattingText(): string {
  return `Output formats: ${OUTPUT_FORMATS.join(", ")}.\n\n` + table([
    ["-o, --output <format>", "the format of this run; every command takes it"],
    ["DIAZO_OUTPUT", "the format when -o is not given"],
    ["settings.output", "the format when neither is (diazo config set output json)"],
    ["default", "table on a terminal, json otherwise (so `diazo bucket list | jq` parses)"],
    ["-o text", "as aws --output text: a value bare, a list one item per line, a record's fields by tabs"],
    ["--query <jmespath>", "filters the JSON result before it is rendered in any format"],
    ["--out <path>", "where a command that writes files writes them (never -o)"],
  ]) +
    "\nstdout carries data only; progress, warnings and errors go to stderr. JSON keeps the platform's\n" +
    "field names, with computed helpers beside them. Tables fit the terminal's width (COLUMNS sets\n" +
    "another); json, yaml and csv keep full, raw values. Lists follow every page unless --limit.\n\n" +
    "  $ diazo bucket list -o json --query '[].bucketKey'\n" +
    "  $ URN=$(diazo object info my-bucket house.obj --query urn -o text)\n";
}

function configText(): string {
  const settings = {
    output: "table on a terminal, else json",
    timeout: `${DEFAULT_TIMEOUT_S}`,
    max_attempts: `${DEFAULT_MAX_ATTEMPTS}`,
    retry_base_ms: `${DEFAULT_RETRY_BASE_MS}`,
    concurrency: `${DEFAULT_CONCURRENCY}`,
    max_retry_after: `${DEFAULT_MAX_RETRY_AFTER_S}`,
  } satisfies Record<keyof typeof SETTING_KEYS, string>;
  return "Files (in the config dir, see `diazo help environment`):\n\n" + table([
    ["config.json", "profiles, active_profile and settings (written atomically, mode 0600)"],
    ["plugins.json", "plugins, aliases and hooks"],
    [".env", "in the working directory: variables not already set"],
  ]) +
    "\nPrecedence, highest first: flags (--timeout, ...); a profile named for the run (--profile or\n" +
    "DIAZO_PROFILE), whose own app is used even when SVC_*/APS_* are set; otherwise the environment, .env,\n" +
    "the active profile of config.json, defaults. `diazo config list` shows each value in effect and its\n" +
    "source; `diazo config profile current` which profile is in use and why.\n\n" +
    `Profile keys: ${Object.keys(PROFILE_KEYS).join(", ")}.\n\n` +
    "Settings (diazo config set <key> <value>), with their defaults:\n\n" +
    table(Object.entries(settings)) +
    "\n  $ diazo config profile create work --client-id ID --use\n  $ diazo config set timeout 120\n";
}

const TEXTS: Record<HelpTopic, () => string> = {
  environment: environmentText,
  "exit-codes": exitCodesText,
  formatting: formattingText,
  config: configText,
};

/** The text of a help topic, or undefined when `name` is not one. */
export function helpTopicText(name: string): string | undefined {
  return Object.hasOwn(HELP_TOPICS, name) ? TEXTS[name as HelpTopic]() : undefined;
}
