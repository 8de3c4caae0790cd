/**
 * What every command receives: global flags, streams, lazily loaded configuration, an HTTP client
 * with authentication, and the one place where results are written (README.md, "Output").
 */
import { type ConfigFile, resolve, type Resolved } from "../config/config.ts";
import { dotenvPath, loadConfig, loadDotenv, saveConfig } from "../config/store.ts";
import { usageError } from "../core/errors.ts";
import { type OutputFormat, render } from "../core/output.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { visible } from "../core/sanitize.ts";
import { configDirFor, stateDirFor } from "../platform/dirs.ts";
import type { Http, OpenedTokenStore, OpsDeps, TokenStore, TokenStoreStatus } from "../session/deps.ts";
import { createSession, type ScopeUsage } from "../session/session.ts";
import type { RunGlobals } from "./globals.ts";
import { type Io, outputWidth } from "./io.ts";

/** The global flags (README.md, "Global flags"), as parsed. */
export interface GlobalFlags {
  output?: string;
  query?: string;
  profile?: string;
  debug: boolean;
  quiet: boolean;
  nonInteractive: boolean;
  yes: boolean;
  wait: boolean;
  timeout?: number;
  concurrency?: number;
  color: boolean;
  /** Tables show every column whole (`--wide`). */
  wide: boolean;
}

/** The command context: the dependencies of every verb (session/deps.ts) plus what only the CLI has. */
export interface Ctx extends OpsDeps {
  readonly io: Io;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  readonly flags: GlobalFlags;
  /** What the front door (argv.ts) resolved for this run: output format, profile and their sources. */
  readonly run: RunGlobals;
  /** False with --non-interactive, CI, or when stdin is not a terminal. */
  readonly interactive: boolean;
  readonly color: boolean;
  readonly configDir: string;
  readonly stateDir: string;
  config(): Promise<ConfigFile>;
  saveConfig(config: ConfigFile): Promise<void>;
  settings(): Promise<Resolved>;
  /** The token store, opened on first use (probing the OS keychain once per run). */
  tokenStore(): Promise<TokenStore>;
  /** Which token store is in use and why (for `auth status` and diagnostics). */
  tokenStoreStatus(): Promise<TokenStoreStatus>;
  /**
   * An HTTP client for the platform: `auth: "none"` for endpoints without a bearer token,
   * `mode: "3-legged"` for commands that act as the logged-in user.
   */
  http(opts?: { auth?: "bearer" | "none"; mode?: "2-legged" | "3-legged" }): Promise<Http>;
  /** The effective output format. */
  format(): Promise<OutputFormat>;
  /**
   * Writes a result to stdout in the chosen format, after --query. `action` is the one line that
   * confirms an action (`Deleted bucket x (1 object)`) or sums up a batch (then `failures` follow
   * it): a person at a terminal reading a table sees those lines instead of the rows; otherwise
   * the lines go to stderr and every row to stdout. An empty list on a terminal table is a
   * "No … found" line on stderr.
   */
  emit(value: unknown, opts?: EmitOptions): Promise<void>;
  /** A progress or status line on stderr (not with --quiet). */
  info(message: string): void;
  /** A warning on stderr (also with --quiet). */
  warn(message: string): void;
  /** A debug line on stderr, redacted (only with --debug). */
  debug(message: string): void;
  /** Asks for confirmation; without a terminal it is a usage error naming `flag`. */
  confirm(question: string, flag?: string): Promise<boolean>;
  /**
   * The one gate of every destructive verb: true with `--yes`/`--confirm` or a "y" at the prompt;
   * otherwise says nothing was changed, sets exit 1 and returns false. Without a terminal and
   * without `--yes` it is a usage error naming the flag.
   */
  confirmOrCancel(question: string): Promise<boolean>;
  /** Sets the exit code of a run that finished but not wholly well (the highest code wins). */
  setExitCode(code: number): void;
  /** Takes over Ctrl-C: `handler` runs instead of the default exit with 130. */
  onInterrupt(handler: () => void): void;
  /** A signal that Ctrl-C aborts (instead of the default exit), for work that stops cleanly on it. */
  interruptSignal(): AbortSignal;
  /** The same context with extra environment (e.g. a sandbox's address) and its own token store. */
  derive(over: { env?: Record<string, string>; tokenStore?: TokenStore }): Ctx;
}

/** How a result is shown: the table's columns, and the line that confirms an action. */
export interface EmitOptions {
  columns?: readonly string[];
  /** Columns a narrow terminal hides before the others (beside the names core/output_columns.ts knows). */
  lowPriority?: readonly string[];
  action?: string;
  /** Lines shown under `action` where it replaces the record (a batch's failures, one each). */
  failures?: readonly string[];
  /** What an empty list holds, for the terminal's "No … found" line (default: from the command's name). */
  noun?: string;
  /** A record's key holding a long list: json output writes it item by item, never as one string. */
  longList?: string;
}

/** Mutable per-run state shared by the contexts of one run. */
export interface RunState {
  exitCode: number;
  interruptHandler?: () => void;
  /** The command being run, e.g. "bucket list". */
  command?: string;
  /** The last result the command emitted (before --query), for hooks and pipeline steps. */
  result?: unknown;
  /** Scopes the command's requests needed, for the scope-usage log. */
  usage?: ScopeUsage;
  /** What the front door resolved (set by runCli before any command runs). */
  globals?: RunGlobals;
}

/** What a context is made of. */
export interface ContextInput {
  io: Io;
  flags: GlobalFlags;
  env: Record<string, string | undefined>;
  cwd: string;
  state: RunState;
  globals: RunGlobals;
  /** A token store already opened (shared with the parent context, or chosen by the command). */
  tokenStore?: Promise<OpenedTokenStore>;
  /** config.json and .env as the run's front door read them (read here when absent). */
  files?: ContextFiles;
}

/** config.json and .env as read (or failed) once for a run (front/argv.ts `loadFrontFiles`). */
export interface ContextFiles {
  config: Promise<ConfigFile>;
  dotenv: Promise<Record<string, string>>;
}

/** Builds a context: files and tokens are loaded on first use, once per context. */
export function createContext(input: ContextInput): Ctx {
  const { io, flags, env, cwd, state, globals } = input;
  const interactive = !flags.nonInteractive && !truthy(env.CI) && io.stdin.isTerminal;
  // Colour codes only for a terminal: a pipe or file gets plain text even with `--output table`.
  const color = flags.color && io.stdout.isTerminal && !("NO_COLOR" in env && env.NO_COLOR !== "") &&
    env.TERM !== "dumb";
  const configDir = configDirFor((k) => env[k], Deno.build.os);
  const stateDir = stateDirFor((k) => env[k], Deno.build.os);
  let configP: Promise<ConfigFile> | undefined;
  let settingsP: Promise<Resolved> | undefined;
  const settings = () =>
    settingsP ??= Promise.all([ctx.config(), input.files?.dotenv ?? loadDotenv(cwd)]).then((
      [config, dotenv],
    ) =>
      resolve({
        flags: { profile: flags.profile, timeout: flags.timeout, concurrency: flags.concurrency },
        env,
        dotenv,
        config,
        dotenvFile: dotenvPath(cwd),
      })
    );
  const lines = stderrLines(io, flags);
  const session = createSession({
    ...lines,
    env,
    configDir,
    stateDir,
    settings,
    run: state,
    opened: input.tokenStore,
    debugEnabled: flags.debug,
  });
  let interrupt: AbortSignal | undefined;
  const ctx: Ctx = {
    ...{ io, env, cwd, flags, run: globals, interactive, color, configDir, stateDir, settings },
    ...lines,
    ...session,
    config: () => (configP ??= input.files?.config ?? loadConfig(configDir)),
    async saveConfig(config) {
      await saveConfig(configDir, config);
      configP = Promise.resolve(config);
      settingsP = undefined;
    },
    async format() {
      await ctx.settings(); // a broken config.json or .env is this command's error, as before any render
      if (globals.outputError !== undefined) throw globals.outputError;
      return globals.output;
    },
    emit: (value, opts = {}) => emitResult(ctx, state, value, opts),
    confirm: (question, flag = "--yes") => confirm(ctx, question, flag),
    async confirmOrCancel(question) {
      if (await ctx.confirm(question, "--yes")) return true;
      ctx.info("Cancelled; nothing was changed.");
      ctx.setExitCode(1);
      return false;
    },
    setExitCode: (code) => void (state.exitCode = Math.max(state.exitCode, code)),
    onInterrupt: (handler) => void (state.interruptHandler = handler),
    interruptSignal() {
      // One per run: a second caller shares it rather than taking Ctrl-C away from the first.
      if (!interrupt) {
        const controller = new AbortController();
        ctx.onInterrupt(() => controller.abort(new DOMException("interrupted", "AbortError")));
        interrupt = controller.signal;
      }
      return interrupt;
    },
    derive: (over) =>
      createContext({
        ...input,
        files: undefined, // its environment may name another config dir: read as it says
        env: { ...env, ...over.env },
        tokenStore: over.tokenStore ? chosenStore(over.tokenStore) : session.opened(),
      }),
  };
  return ctx;
}

/** A token store the command chose (e.g. the demo's in-memory one), as if opened. */
function chosenStore(store: TokenStore): Promise<OpenedTokenStore> {
  return Promise.resolve({
    store,
    status: { kind: store.kind, location: store.kind, reason: "chosen by the command" },
  });
}

/**
 * The info, warn and debug lines of a context, on stderr. They quote platform text (object keys,
 * messages), so control characters are shown as visible escapes.
 */
function stderrLines(io: Io, flags: GlobalFlags): Pick<Ctx, "info" | "warn" | "debug"> {
  const line = (text: string) => io.stderr.write(visible(text, { keepLines: true }) + "\n");
  return {
    info(message) {
      if (!flags.quiet) line(message);
    },
    warn(message) {
      line(`warning: ${message}`);
    },
    debug(message) {
      if (flags.debug) line(`debug: ${redact(message, knownSecrets())}`);
    },
  };
}

/** `ctx.emit`: the action line alone on a terminal table, else the record (after --query) on stdout. */
async function emitResult(ctx: Ctx, state: RunState, value: unknown, opts: EmitOptions): Promise<void> {
  state.result = value;
  const { io, flags } = ctx;
  const format = await ctx.format();
  if (opts.action !== undefined) {
    if (format === "table" && io.stdout.isTerminal && !flags.query) {
      for (const line of [opts.action, ...opts.failures ?? []]) {
        io.stdout.write(visible(line, { keepLines: true }) + "\n");
      }
      return;
    }
    for (const line of [opts.action, ...opts.failures ?? []]) ctx.info(line);
  }
  if (format === "json" && !flags.query && opts.longList !== undefined) {
    const { batched, jsonPieces } = await import("../core/output_pieces.ts");
    for (const chunk of batched(jsonPieces(value, opts.longList))) io.stdout.write(chunk);
    return;
  }
  const shown = flags.query
    ? await (await import("../core/output_query.ts")).applyQuery(value, flags.query)
    : value;
  if (format === "table" && io.stdout.isTerminal && Array.isArray(shown) && shown.length === 0) {
    // Nothing to draw: a person is told so on stderr, stdout stays empty for whatever reads it.
    ctx.info(`No ${opts.noun ?? nounOf(state.command)} found.`);
    return;
  }
  io.stdout.write(
    await render(shown, {
      format,
      columns: flags.query ? undefined : opts.columns,
      lowPriority: opts.lowPriority,
      color: ctx.color,
      width: outputWidth(io.stdout, ctx.env),
      wide: flags.wide,
      plain: !io.stdout.isTerminal,
    }),
  );
}

/** Plurals that do not just add an s. */
const PLURALS: Record<string, string> = { rfi: "RFIs", property: "properties", da: "results" };

/**
 * What a listing command lists, from its name: `bucket list` → buckets, `da engine list` →
 * engines; "results" for any other command.
 */
export function nounOf(command: string | undefined): string {
  const words = (command ?? "").split(" ");
  const verb = words.at(-1);
  const noun = words.at(-2);
  if (noun === undefined || (verb !== "list" && verb !== "ls")) return "results";
  return PLURALS[noun] ?? (noun.endsWith("s") ? noun : `${noun}s`);
}

/** `ctx.confirm`: --yes, else a y/N prompt on a terminal, else a usage error naming `flag`. */
async function confirm(ctx: Ctx, question: string, flag: string): Promise<boolean> {
  if (ctx.flags.yes) return true;
  if (!ctx.interactive) {
    throw usageError(
      `${question.replace(/\?$/, "")}: confirmation required`,
      `Pass ${flag} to confirm in a non-interactive run.`,
    );
  }
  ctx.io.stderr.write(`${visible(question)} [y/N] `);
  const answer = (await ctx.io.stdin.readLine()) ?? "";
  return /^y(es)?$/i.test(answer.trim());
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}
