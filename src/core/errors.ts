/**
 * Typed errors, the message catalog and exit codes (README.md, "Errors and exit codes").
 *
 * Every failure the user sees is a `DiazoError` carrying a catalog `code`. The catalog decides the
 * message, the hint and the exit code; callers choose the code from what they know (HTTP status,
 * resource kind, local validation), never from the text of another message.
 */

/** Process exit codes (README.md, "Errors and exit codes"). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  transient: 5,
  conflict: 6,
  interrupted: 130,
} as const;

/** One of the exit codes above. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

interface CatalogEntry {
  /** Message; `{name}` placeholders are filled from the error's params. */
  message: string;
  hint: string;
  exit: ExitCodeValue;
}

/**
 * The message catalog. The first seventeen entries are the seed's messages; the rest are diazo's
 * own for cases the seed does not name (usage, network, configuration).
 */
export const CATALOG = {
  // --- the seed's catalog ---
  auth_failed: {
    message: "Authentication failed",
    hint:
      "Check SVC_CLIENT_ID and SVC_CLIENT_SECRET (or APS_*) for typos and stray spaces, and that the app is active; then run `diazo auth logout` and `diazo auth test`.",
    exit: ExitCode.auth,
  },
  profile_auth_failed: {
    message: "Authentication failed with the app credentials of profile {profile}",
    hint:
      "Check the client id and secret of profile {profile} (`diazo config list` shows them and where each comes from); replace them with `diazo config profile create {profile} --client-id <id> --client-secret-stdin --force`, then run `diazo auth test`.",
    exit: ExitCode.auth,
  },
  callback_mismatch: {
    message: "Callback URL mismatch",
    hint:
      "Make SVC_CALLBACK_URL (default http://localhost:8080/callback) exactly match the callback URL registered for your app.",
    exit: ExitCode.auth,
  },
  token_expired: {
    message: "Token expired",
    hint:
      "Log in again with `diazo auth login`; if it keeps happening, check that the system clock is right.",
    exit: ExitCode.auth,
  },
  login_lost: {
    message: "The saved login can no longer be refreshed: {reason}",
    hint:
      "Log in again with `diazo auth login`. The refresh token was spent, revoked or expired (e.g. by an interrupted refresh or a login elsewhere).",
    exit: ExitCode.auth,
  },
  insufficient_scope: {
    message: "Insufficient privileges to access this resource",
    hint:
      "The token lacks the scope {scope}: add it with `diazo auth extend-scopes --add {scope}` and retry.",
    exit: ExitCode.auth,
  },
  cannot_create_bucket: {
    message: "Cannot create bucket",
    hint:
      "The token lacks the scope bucket:create: add it with `diazo auth extend-scopes --add bucket:create` and retry.",
    exit: ExitCode.auth,
  },
  insufficient_scope_user: {
    message: "Insufficient privileges to access this resource",
    hint:
      "Your login lacks the scope {scope}: log in again with it, e.g. `diazo auth login --scopes <current scopes>,{scope}`.",
    exit: ExitCode.auth,
  },
  three_legged_required: {
    message: "Authentication required (3-legged OAuth)",
    hint: "This command acts as a user: run `diazo auth login` first, then check `diazo auth status`.",
    exit: ExitCode.auth,
  },
  missing_credentials: {
    message: "Missing credentials",
    hint:
      "Set SVC_CLIENT_ID and SVC_CLIENT_SECRET (or APS_*), put them in .env, or create a profile: `diazo config profile create <name>`. No account? Start the offline platform in another terminal with `diazo sandbox` and export the variables it prints.",
    exit: ExitCode.auth,
  },
  permission_denied: {
    message: "Permission denied",
    hint: "Your user lacks the permission in that project or account; ask its administrator for access.",
    exit: ExitCode.auth,
  },
  bucket_exists: {
    message: "Bucket already exists",
    hint:
      "Bucket keys are unique across every app of the platform: choose another key, e.g. with a prefix of your own.",
    exit: ExitCode.conflict,
  },
  bucket_not_found: {
    message: "Bucket not found",
    hint: "Check the key with `diazo bucket list`; buckets belong to the app (client id) that created them.",
    exit: ExitCode.notFound,
  },
  file_not_found: {
    message: "File not found: {file}",
    hint: "Check the path; relative paths are resolved from the current directory.",
    exit: ExitCode.usage,
  },
  translation_stalled: {
    message: "Translation still pending after {minutes} minutes",
    hint: "It has probably failed: check `diazo translate manifest <urn>` and start it again with --force.",
    exit: ExitCode.transient,
  },
  not_translated: {
    message: "Not found: manifest of {urn} (the model has not been translated)",
    hint: "Translate it first: `diazo translate start {urn} --wait`.",
    exit: ExitCode.notFound,
  },
  translation_failed: {
    message: "Translation failed",
    hint:
      "Check that the format is supported and the file is complete and not corrupt; details are in `diazo translate manifest <urn>`.",
    exit: ExitCode.failure,
  },
  invalid_urn: {
    message: "Invalid URN",
    hint:
      "Pass the base64 URN printed by `diazo object upload`, or a raw urn:adsk.objects:os.object:<bucket>/<key>.",
    exit: ExitCode.usage,
  },
  project_not_found: {
    message: "Project not found",
    hint:
      "Data management ids carry the `b.` prefix, construction-cloud ids do not; list them with `diazo project list <hub>`.",
    exit: ExitCode.notFound,
  },
  acc_access_denied: {
    message: "Access denied to a construction-cloud project",
    hint:
      "Log in with account:read,data:read (`diazo auth login --scopes account:read,data:read,data:write`) and check that your user is a member of the project.",
    exit: ExitCode.auth,
  },
  nickname_required: {
    message: "Design Automation nickname required",
    hint: "Set SVC_DA_NICKNAME (or APS_DA_NICKNAME), or `diazo config set da_nickname <name>`.",
    exit: ExitCode.usage,
  },
  engine_not_found: {
    message: "Engine not found",
    hint: "List the engines with `diazo da engine list` and use the full id, e.g. Autodesk.AutoCAD+24.",
    exit: ExitCode.notFound,
  },
  workitem_failed: {
    message: "Work item {id} ended with status {status}",
    hint: "The report above says why; read it again with `diazo da workitem get {id}`.",
    exit: ExitCode.failure,
  },
  webhook_unreachable: {
    message: "Webhook callback not reachable",
    hint:
      "The callback URL must be public, use HTTPS and answer with a 2xx within the platform's 7 seconds (aim for 5).",
    exit: ExitCode.failure,
  },
  // --- diazo's own ---
  usage: { message: "{detail}", hint: "{hint}", exit: ExitCode.usage },
  unknown_command: {
    message: "unknown command '{command}'",
    hint: "{hint}",
    exit: ExitCode.usage,
  },
  invalid_config: {
    message: "Invalid configuration file {file}: {detail}",
    hint: "Fix the file by hand or move it away; `diazo config profile list` shows what is loaded.",
    exit: ExitCode.usage,
  },
  dotenv_redirect: {
    message:
      "{file} sets {variable}, but the app's credentials come from {from}: a .env may not choose where credentials it does not supply are sent",
    hint:
      "Set {variable} in the shell or the profile instead, or put the client id and secret in {file} too; `diazo help environment` explains.",
    exit: ExitCode.usage,
  },
  invalid_dotenv: {
    message: "Invalid .env file {file}:{line}: {detail}",
    hint: "Each line must be KEY=VALUE, `export KEY=VALUE`, a comment (#) or blank.",
    exit: ExitCode.usage,
  },
  not_found: {
    message: "Not found: {what}",
    hint: "Check the identifier; list what exists with the family's `list` command.",
    exit: ExitCode.notFound,
  },
  profile_not_found: {
    message: "Not found: profile '{name}'",
    hint: "{close}`diazo config profile list` shows the profiles.",
    exit: ExitCode.notFound,
  },
  object_not_found: {
    message: "Object not found: {key}",
    hint: "List the bucket's objects with `diazo object list <bucket>`.",
    exit: ExitCode.notFound,
  },
  dm_not_found: {
    message: "Not found: {what}",
    hint: "{hint}",
    exit: ExitCode.notFound,
  },
  conflict: {
    message: "Conflict: {detail}",
    hint: "The resource already exists or changed meanwhile; fetch it again and retry.",
    exit: ExitCode.conflict,
  },
  rate_limited: {
    message: "Rate limit exceeded (HTTP 429) after {attempts} attempts",
    hint: "Wait a minute and retry, or lower --concurrency.",
    exit: ExitCode.transient,
  },
  server_error: {
    message: "The platform failed with HTTP {status} after {attempts} attempts",
    hint: "This is usually temporary: retry later; `--debug` shows each attempt.",
    exit: ExitCode.transient,
  },
  timeout: {
    message: "Request timed out after {seconds} s",
    hint: "Retry with a larger --timeout, or check the network.",
    exit: ExitCode.transient,
  },
  network: {
    message: "Cannot reach {host}",
    hint: "Check the network, proxy settings and DIAZO_BASE_URL.",
    exit: ExitCode.transient,
  },
  request_failed: {
    message: "Request failed with HTTP {status}: {detail}",
    hint: "`--debug` shows the request and the platform's answer.",
    exit: ExitCode.failure,
  },
  bad_request: {
    message: "The platform rejected the request (HTTP 400): {detail}",
    hint: "Check the arguments; `--debug` shows the request and the platform's answer.",
    exit: ExitCode.usage,
  },
  login_denied: {
    message: "Authorization was refused ({reason})",
    hint: "Run `diazo auth login` again and approve the access request in the browser.",
    exit: ExitCode.auth,
  },
  login_state_mismatch: {
    message: "The login callback carried the wrong state",
    hint: "The answer did not come from this login attempt; run `diazo auth login` again.",
    exit: ExitCode.auth,
  },
  login_timeout: {
    message: "No login callback arrived within {seconds} s",
    hint:
      "Approve the request in the browser sooner, or use `diazo auth login --no-browser` and paste the redirect URL.",
    exit: ExitCode.transient,
  },
  device_code_expired: {
    message: "The device code expired before the sign-in was approved ({seconds} s)",
    hint: "Run `diazo auth login --device` again and enter the code sooner.",
    exit: ExitCode.auth,
  },
  port_in_use: { message: "Port {port} is already in use", hint: "{hint}", exit: ExitCode.usage },
  invalid_token: {
    message: "Not a valid JWT: {detail}",
    hint: "Pass an access token as issued by the platform (three base64url parts separated by dots).",
    exit: ExitCode.usage,
  },
  keychain_unavailable: {
    message: "The OS keychain cannot be used: {reason}",
    hint: "{hint}",
    exit: ExitCode.failure,
  },
  interrupted: {
    message: "Interrupted",
    hint: "Run the command again to continue.",
    exit: ExitCode.interrupted,
  },
  interrupted_part_kept: {
    message: "Interrupted",
    hint: "The part downloaded so far is kept: run the same command again, with --resume, to go on from it.",
    exit: ExitCode.interrupted,
  },
  interrupted_part_removed: {
    message: "Interrupted",
    hint: "The partial download was removed: run the command again to start over.",
    exit: ExitCode.interrupted,
  },
  integrity_mismatch: {
    message: "Integrity check failed for {key}: local SHA-1 {local}, platform SHA-1 {remote}",
    hint: "The bytes differ from the platform's copy: transfer the file again (without --resume).",
    exit: ExitCode.failure,
  },
  failure: { message: "{detail}", hint: "{hint}", exit: ExitCode.failure },
  import_interrupted: {
    message: "Import stopped after {done} of {total} users: {detail}",
    hint: "Run the same command again to continue: the users already added are skipped (state: {state}).",
    exit: ExitCode.transient,
  },
  unknown_preset: {
    message: "Unknown preset '{name}'",
    hint:
      "Available presets: {available}. Create one with `diazo translate preset create <name> --format ...`.",
    exit: ExitCode.usage,
  },
  invalid_pipeline: {
    message: "{file} is not a valid pipeline: {count}",
    hint: "Fix the lines shown above; check again with `diazo pipeline validate {file}`.",
    exit: ExitCode.usage,
  },
  invalid_plugins_file: {
    message: "Invalid plugins file {file}{at}: {detail}",
    hint:
      "Fix it by hand (a JSON object with optional plugins, hooks and aliases) or move it away; other commands still run, without hooks.",
    exit: ExitCode.usage,
  },
  alias_loop: {
    message: "Alias loop: {chain}",
    hint: "Change one of these aliases (`diazo alias list` shows them) so that the chain ends at a command.",
    exit: ExitCode.usage,
  },
  plugin_disabled: {
    message: "unknown command '{command}'",
    hint: "The plugin '{command}' ({path}) is disabled: enable it with `diazo plugin enable {command}`.",
    exit: ExitCode.usage,
  },
  photoscene_not_found: {
    message: "Photoscene not found: {id}",
    hint: "Use the id printed by `diazo reality-capture create`; a scene belongs to the app that created it.",
    exit: ExitCode.notFound,
  },
  photoscene_refused: { message: "{detail}", hint: "{hint}", exit: ExitCode.usage },
  photoscene_failed: {
    message: "Photoscene {id} ended without a result: {detail}",
    hint: "Check its photos (JPEG, overlapping views) and start again with a new scene.",
    exit: ExitCode.failure,
  },
  plugin_path_missing: {
    message: "Plugin '{name}': configured path not found: {path}",
    hint: "Fix plugins.{name}.path in {file}, or remove the path to look the plugin up on PATH.",
    exit: ExitCode.usage,
  },
} as const satisfies Record<string, CatalogEntry>;

/** A key of the message catalog. */
export type CatalogCode = keyof typeof CATALOG;

/** Parameters that fill a catalog entry's placeholders. */
export type ErrorParams = Record<string, string | number | undefined>;

/** A next step, as each surface names it: the CLI's command and the tool server's tool. */
export interface NextStep {
  /** e.g. `diazo project list <hub>`. */
  command: string;
  /** e.g. `project_list`. */
  tool: string;
}

/**
 * What is wrong with one input field, named as the tool server's argument (snake_case); the CLI
 * names it by its flag (core/field_error.ts phrases both).
 */
export interface FieldProblem {
  /** The field, e.g. bucket_key. */
  field: string;
  /** What is wrong; `{other_field}` names another field in the surface's words. */
  problem: string;
  /** The values allowed, when they are few. */
  allowed?: readonly string[];
  /** How a good value looks; `{step}` is where `next` goes. */
  help?: string;
  /** Where to find a good value. */
  next?: NextStep;
}

/** Options of a `DiazoError` beyond its catalog code. */
export interface DiazoErrorOptions {
  params?: ErrorParams;
  /** The input field the error is about (core/field_error.ts). */
  field?: FieldProblem;
  /** HTTP status of the platform's answer, when there was one. */
  status?: number;
  /** The platform's error body, parsed when it was JSON. */
  body?: unknown;
  /** The headers of the platform's answer, when there was one. */
  headers?: Headers;
  /** A message that replaces the catalog's (the code, hint and exit code stay the catalog's). */
  message?: string;
  cause?: unknown;
}

function fill(template: string, params: ErrorParams): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `<${k}>`));
}

/** The one error type diazo reports: a catalog entry plus what was known when it happened. */
export class DiazoError extends Error {
  readonly code: CatalogCode;
  readonly params: ErrorParams;
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Headers;
  readonly field?: FieldProblem;

  constructor(code: CatalogCode, options: DiazoErrorOptions = {}) {
    const params = options.params ?? {};
    super(options.message ?? fill(CATALOG[code].message, params), { cause: options.cause });
    this.name = "DiazoError";
    this.code = code;
    this.params = params;
    this.status = options.status;
    this.body = options.body;
    this.headers = options.headers;
    this.field = options.field;
  }

  /** The remedy shown on the `hint:` line. */
  get hint(): string {
    return fill(CATALOG[this.code].hint, this.params);
  }

  /** The process exit code for this error. */
  get exitCode(): ExitCodeValue {
    return CATALOG[this.code].exit;
  }
}

/** A usage error (exit 2) with its own message and hint. */
export function usageError(detail: string, hint: string): DiazoError {
  return new DiazoError("usage", { params: { detail, hint } });
}

/** True when `e` is a `DiazoError`. */
export function isDiazoError(e: unknown): e is DiazoError {
  return e instanceof DiazoError;
}

/** True for Ctrl-C's error, whatever it says about what was kept. */
export function isInterruption(e: unknown): e is DiazoError {
  return e instanceof DiazoError && e.code.startsWith("interrupted");
}

/**
 * The catalog error a failure stands for; anything else (a bug, a runtime error) becomes an
 * unexpected failure (exit 1) whose hint is `hint`.
 */
export function toDiazoError(e: unknown, hint: string): DiazoError {
  if (isDiazoError(e)) return e;
  return new DiazoError("failure", {
    params: { detail: `unexpected error: ${(e as Error)?.message ?? String(e)}`, hint },
  });
}

/**
 * What a request is about, for mapping its failure: `acc-project` is a construction-cloud request
 * naming a project (403 = not a member, 404 = project not found); `acc-record` one naming a record of
 * such a project (403 as above, or "Permission denied" when the platform says the refusal is about
 * the record; 404 = that record not found, or the project when the platform says so).
 */
export type ResourceKind =
  | "bucket"
  | "object"
  | "project"
  | "engine"
  | "token"
  | "acc-project"
  | "acc-record"
  | "generic";

/** The platform's machine-readable error code, when its body carries one. */
export function platformErrorCode(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.errorCode === "string") return b.errorCode;
  if (typeof b.error === "string") return b.error;
  if (
    Array.isArray(b.errors) && b.errors[0] &&
    typeof (b.errors[0] as Record<string, unknown>).code === "string"
  ) {
    return (b.errors[0] as Record<string, unknown>).code as string;
  }
  return undefined;
}
