/**
 * What every command receives: global flags, streams, lazily loaded configuration, an HTTP client
 * with authentication, and the one place where results are written (DESIGN.md §4).
 */
import { DiazoError } from "../core/errors.ts";
import { type ConfigFile, resolve, type Resolved } from "../config/config.ts";
import { loadConfig, loadDotenv, saveConfig } from "../config/store.ts";
import { usageError } from "../core/errors.ts";
import { applyQuery, chooseFormat, type OutputFormat, render } from "../core/output.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { configDirFor, stateDirFor } from "../platform/dirs.ts";
import { createHttp, type Http, type RequestSpec } from "../services/http.ts";
import { proxyConfigured, rawFetch } from "../services/raw_transport.ts";
import {
  type OpenedTokenStore,
  openTokenStore,
  type TokenStore,
  type TokenStoreStatus,
} from "../auth/token_store.ts";
import { profileScopes, requireCredentials, twoLeggedToken } from "../auth/two_legged.ts";
import { type TokenMemo, tokenMemo, type TokenMemoSource } from "../auth/token_memo.ts";
import { threeLeggedToken } from "../auth/three_legged.ts";
import { VERSION } from "../core/version.ts";
import { type Io, outputWidth } from "./io.ts";
import type { OpsDeps } from "../ops/deps.ts";
import { pollOptionsFromEnv } from "../services/derivative_poll.ts";

/** The global flags of DESIGN.md §4, as parsed. */
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
}

/** The command context: the dependencies of every verb (ops/deps.ts) plus what only the CLI has. */
export interface Ctx extends OpsDeps {
  readonly io: Io;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  readonly flags: GlobalFlags;
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
   * confirms an action (`Deleted bucket x (1 object)`): a person at a terminal reading a table sees
   * that line instead of the record; otherwise it goes to stderr and the record to stdout.
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
  /** The same context with extra environment (e.g. a sandbox's address) and its own token store. */
  derive(over: { env?: Record<string, string>; tokenStore?: TokenStore }): Ctx;
}

/** How a result is shown: the table's columns, and the line that confirms an action. */
export interface EmitOptions {
  columns?: readonly string[];
  action?: string;
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
  usage?: { profile: string; mode: "2-legged" | "3-legged"; scopes: Set<string> };
}

/** Builds a context from parsed flags and the process environment. */
export function createContext(
  io: Io,
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  cwd: string,
  state: RunState = { exitCode: 0 },
  tokenStore?: Promise<OpenedTokenStore>,
): Ctx {
  const interactive = !flags.nonInteractive && !truthy(env.CI) && io.stdin.isTerminal;
  const color = flags.color && !("NO_COLOR" in env && env.NO_COLOR !== "") && env.TERM !== "dumb";
  let configP: Promise<ConfigFile> | undefined;
  let settingsP: Promise<Resolved> | undefined;
  let opened: Promise<OpenedTokenStore> | undefined = tokenStore;
  // One token per login for the whole process (serve keeps its context), whatever the number of clients.
  const memos = new Map<string, TokenMemo>();
  const tokenMemoFor = (mode: string, resolved: Resolved, source: TokenMemoSource): TokenMemo => {
    const scopes = mode === "2-legged" ? profileScopes(resolved).join(" ") : "";
    const key = [mode, resolved.profileName, resolved.clientId.value, resolved.baseUrl.value, scopes].join(
      "\n",
    );
    let memo = memos.get(key);
    if (!memo) memos.set(key, memo = tokenMemo(source));
    return memo;
  };
  const cfgDir = configDirFor((k) => env[k], Deno.build.os);
  const open = () =>
    opened ??= openTokenStore({
      configDir: cfgDir,
      stateDir: ctx.stateDir,
      env,
      os: Deno.build.os,
      warn: (msg) => ctx.warn(msg),
    });
  const ctx: Ctx = {
    io,
    env,
    cwd,
    flags,
    interactive,
    color,
    configDir: cfgDir,
    stateDir: stateDirFor((k) => env[k], Deno.build.os),
    poll: pollOptionsFromEnv(env),
    config: () => (configP ??= loadConfig(cfgDir)),
    async saveConfig(config) {
      await saveConfig(cfgDir, config);
      configP = Promise.resolve(config);
      settingsP = undefined;
    },
    settings: () =>
      settingsP ??= (async () => {
        const [config, dotenv] = await Promise.all([ctx.config(), loadDotenv(cwd)]);
        return resolve({
          flags: { profile: flags.profile, timeout: flags.timeout, concurrency: flags.concurrency },
          env,
          dotenv,
          config,
        });
      })(),
    tokenStore: async () => (await open()).store,
    tokenStoreStatus: async () => (await open()).status,
    async http(opts = {}) {
      const resolved = await ctx.settings();
      const base = {
        baseUrl: resolved.baseUrl.value,
        timeoutMs: resolved.timeoutSec * 1000,
        maxAttempts: resolved.maxAttempts,
        retryBaseMs: resolved.retryBaseMs,
        userAgent: `diazo/${VERSION} deno/${Deno.version.deno} (${Deno.build.target})`,
        debug: flags.debug ? (line: string) => ctx.debug(line) : undefined,
        rawFetch: proxyConfigured(env) ? undefined : rawFetch,
      };
      if (opts.auth === "none") return createHttp(base);
      const authHttp = createHttp(base);
      const mode = opts.mode ?? "2-legged";
      const threeLeggedDeps = async () => ({
        resolved,
        store: await ctx.tokenStore(),
        authHttp,
        stateDir: ctx.stateDir,
        debug: (l: string) => ctx.debug(l),
      });
      const memo = tokenMemoFor(mode, resolved, {
        fetch: async () => {
          if (mode === "3-legged") return await threeLeggedToken(await threeLeggedDeps());
          requireCredentials(resolved); // "Missing credentials" comes before any token-store notice
          const store = await ctx.tokenStore();
          const { token, cached } = await twoLeggedToken({ resolved, store, authHttp });
          if (flags.debug) ctx.debug(cached ? "token: cached 2-legged token" : "token: new 2-legged token");
          return token;
        },
        renew: async (rejected) => {
          if (mode === "3-legged") return await threeLeggedToken(await threeLeggedDeps(), { rejected });
          const store = await ctx.tokenStore();
          return (await twoLeggedToken({ resolved, store, authHttp }, { force: true })).token;
        },
      });
      const http = createHttp({ ...base, onUnauthorized: memo.renew, token: memo.get });
      const usage = state.usage ??= { profile: resolved.profileName, mode, scopes: new Set() };
      usage.mode = mode;
      return {
        baseUrl: http.baseUrl,
        request: <T>(spec: RequestSpec) => {
          if (spec.scope && spec.auth !== "none") {
            for (const sc of spec.scope.split(" ")) usage.scopes.add(sc);
          }
          if (mode === "2-legged") return http.request<T>(spec);
          // A user's token gains a scope only by logging in again with it, not by extend-scopes.
          return http.request<T>(spec).catch((e) => {
            if (e instanceof DiazoError && e.code === "insufficient_scope") {
              throw new DiazoError("insufficient_scope_user", {
                params: e.params,
                status: e.status,
                body: e.body,
              });
            }
            throw e;
          });
        },
      };
    },
    format: async () =>
      chooseFormat(
        flags.output,
        env.DIAZO_OUTPUT,
        (await ctx.settings()).outputSetting,
        io.stdout.isTerminal,
      ),
    async emit(value, opts = {}) {
      state.result = value;
      const format = await ctx.format();
      if (opts.action !== undefined) {
        if (format === "table" && io.stdout.isTerminal && !flags.query) {
          io.stdout.write(opts.action + "\n");
          return;
        }
        ctx.info(opts.action);
      }
      const shown = flags.query ? await applyQuery(value, flags.query) : value;
      io.stdout.write(
        await render(shown, {
          format,
          columns: flags.query ? undefined : opts.columns,
          color,
          width: outputWidth(io.stdout, env),
        }),
      );
    },
    info(message) {
      if (!flags.quiet) io.stderr.write(message + "\n");
    },
    warn(message) {
      io.stderr.write(`warning: ${message}\n`);
    },
    debug(message) {
      if (flags.debug) io.stderr.write(`debug: ${redact(message, knownSecrets())}\n`);
    },
    async confirm(question, flag = "--yes") {
      if (flags.yes) return true;
      if (!interactive) {
        throw usageError(
          `${question.replace(/\?$/, "")}: confirmation required`,
          `Pass ${flag} to confirm in a non-interactive run.`,
        );
      }
      io.stderr.write(`${question} [y/N] `);
      const answer = (await io.stdin.readLine()) ?? "";
      return /^y(es)?$/i.test(answer.trim());
    },
    async confirmOrCancel(question) {
      if (await ctx.confirm(question, "--yes")) return true;
      ctx.info("Cancelled; nothing was changed.");
      ctx.setExitCode(1);
      return false;
    },
    setExitCode(code) {
      state.exitCode = Math.max(state.exitCode, code);
    },
    onInterrupt(handler) {
      state.interruptHandler = handler;
    },
    derive(over) {
      const given = over.tokenStore;
      const store = given
        ? Promise.resolve({
          store: given,
          status: { kind: given.kind, location: given.kind, reason: "chosen by the command" },
        })
        : opened;
      return createContext(io, flags, { ...env, ...over.env }, cwd, state, store);
    },
  };
  return ctx;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}
