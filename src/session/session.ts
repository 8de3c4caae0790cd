/**
 * The one factory of a run's platform clients (ARCHITECTURE.md, "How a request travels"): settings + token
 * store + one token memo per login -> the `http(choice)` of OpsDeps, built as the base client of
 * http/http.ts wrapped in the decorators of http/decorators.ts. The CLI's context and the tool
 * server both get their clients here.
 */
import type { Resolved } from "../config/config.ts";
import { checkProfileExists } from "../config/profile_check.ts";
import { timerNumber } from "../core/bounds.ts";
import { VERSION } from "../core/version.ts";
import { createHttp, type Http, type HttpConfig } from "../http/http.ts";
import {
  decorate,
  type HttpDecorator,
  withBearer,
  withDebugLog,
  withRenewal,
  withScopeAccounting,
  withUserScopeRewrite,
} from "../http/decorators.ts";
import { proxyConfigured, rawFetch } from "../http/raw_transport.ts";
import { pollOptionsFrom } from "../http/poll_options.ts";
import type { OpenedTokenStore, TokenStore } from "../auth/token_store.ts";
import { openTokenStore } from "../auth/token_open.ts";
import { profileScopes, requireCredentials, twoLeggedToken } from "../auth/two_legged.ts";
import { type TokenMemo, tokenMemo, type TokenMemoSource } from "../auth/token_memo.ts";
import { freshUserToken } from "../auth/user_token.ts";
import type { HttpChoice, OpsDeps } from "./deps.ts";

/** The 3-legged flow's token: a refresh or the error that asks for a login (loaded on first use). */
async function userToken(...args: Parameters<typeof import("../auth/three_legged.ts").threeLeggedToken>) {
  return await (await import("../auth/three_legged.ts")).threeLeggedToken(...args);
}

/** The login a run's requests were made as and the scopes they needed (for the scope-usage log). */
export interface ScopeUsage {
  profile: string;
  mode: "2-legged" | "3-legged";
  scopes: Set<string>;
}

/** What a session is built from. */
export interface SessionInput {
  env: Record<string, string | undefined>;
  configDir: string;
  stateDir: string;
  settings(): Promise<Resolved>;
  /** True with --debug: requests log their traffic to `debug`. */
  debugEnabled: boolean;
  debug(line: string): void;
  warn(line: string): void;
  /** The run, whose scope accounting is created on the first authenticated client. */
  run: { usage?: ScopeUsage };
  /** A token store already opened (by a parent context, or chosen by the command). */
  opened?: Promise<OpenedTokenStore>;
}

/** A run's clients and token store. */
export type Session = Pick<OpsDeps, "http" | "tokenStore" | "tokenStoreStatus" | "poll"> & {
  /** The token store once asked for (for derived contexts that share it). */
  opened(): Promise<OpenedTokenStore> | undefined;
};

/** The User-Agent of every request. */
export function userAgent(): string {
  return `diazo/${VERSION} deno/${Deno.version.deno} (${Deno.build.target})`;
}

/** Creates the session of one context: one token memo per login for its whole life (serve keeps it). */
export function createSession(input: SessionInput): Session {
  const { env } = input;
  let opened = input.opened;
  const open = () =>
    opened ??= openTokenStore({
      configDir: input.configDir,
      stateDir: input.stateDir,
      env,
      os: Deno.build.os,
      warn: input.warn,
    });
  const tokenStore = async (): Promise<TokenStore> => (await open()).store;
  const memos = new Map<string, TokenMemo>();
  const memoFor = (mode: string, resolved: Resolved, source: TokenMemoSource): TokenMemo => {
    const scopes = mode === "2-legged" ? profileScopes(resolved).join(" ") : "";
    const key = [mode, resolved.profileName, resolved.clientId.value, resolved.baseUrl.value, scopes].join(
      "\n",
    );
    let memo = memos.get(key);
    if (!memo) memos.set(key, memo = tokenMemo(source));
    return memo;
  };

  const checkProfile = profileChecker(input.debug);
  async function http(choice: HttpChoice = {}): Promise<Http> {
    const resolved = checkProfile(await input.settings());
    if (resolved.timerError !== undefined) throw resolved.timerError;
    const base = createHttp({ ...baseConfig(resolved, env), notice: input.warn });
    const logged: HttpDecorator[] = input.debugEnabled ? [withDebugLog(input.debug)] : [];
    if (choice.auth === "none") return decorate(base, ...logged);
    const mode = choice.mode ?? "2-legged";
    const memo = memoFor(mode, resolved, tokenSource(mode, resolved, decorate(base, ...logged)));
    const usage = input.run.usage ??= { profile: resolved.profileName, mode, scopes: new Set() };
    usage.mode = mode;
    return decorate(
      base,
      withScopeAccounting((s) => usage.scopes.add(s)),
      ...(mode === "3-legged" ? [withUserScopeRewrite()] : []),
      ...logged,
      withBearer(memo.get),
      withRenewal(memo.renew, input.debug),
    );
  }

  /** How a login's token is fetched and renewed; `authHttp` talks to the token endpoint. */
  function tokenSource(mode: string, resolved: Resolved, authHttp: Http): TokenMemoSource {
    const twoLeggedDeps = async () => ({
      resolved,
      store: await tokenStore(),
      authHttp,
      stateDir: input.stateDir,
      lockWaitMs: lockWaitMs(env),
    });
    const threeLeggedDeps = async () => ({ ...await twoLeggedDeps(), debug: input.debug });
    // A fresh user token serves as it is; the refresh (token endpoint, lock) loads only when it is not.
    const threeLeggedToken: typeof userToken = async (deps, opts) =>
      await freshUserToken(deps, opts) ?? userToken(deps, opts);
    return {
      fetch: async () => {
        if (mode === "3-legged") return await threeLeggedToken(await threeLeggedDeps());
        requireCredentials(resolved); // "Missing credentials" comes before any token-store notice
        const { token, cached } = await twoLeggedToken(await twoLeggedDeps());
        input.debug(cached ? "token: cached 2-legged token" : "token: new 2-legged token");
        return token;
      },
      renew: async (rejected) => {
        if (mode === "3-legged") return await threeLeggedToken(await threeLeggedDeps(), { rejected });
        return (await twoLeggedToken(await twoLeggedDeps(), { rejected })).token;
      },
    };
  }

  return {
    http,
    tokenStore,
    tokenStoreStatus: async () => (await open()).status,
    poll: pollOptionsFrom(pollBaseMs(env)),
    opened: () => opened,
  };
}

/**
 * The profile check of a session's clients: an unknown profile named for the run is refused, and
 * --debug says once when the profile's own app overrides the environment's credentials.
 */
function profileChecker(debug: (line: string) => void): (r: Resolved) => Resolved {
  let told = false;
  return (r) => {
    checkProfileExists(r);
    if (!told && r.ignoredEnv) {
      told = true;
      debug(profileOverrideNote(r));
    }
    return r;
  };
}

/** What --debug says when a profile named for the run overrides the environment's credentials. */
export function profileOverrideNote(r: Resolved): string {
  return `profile ${r.profileName} (from ${
    r.profileSource === "flag" ? "--profile" : "DIAZO_PROFILE"
  }) uses its own app; ignoring ${r.ignoredEnv?.join(", ")} from the environment`;
}

/** DIAZO_LOCK_WAIT_MS, when set: how long to wait for another process's token fetch (checked as a timer). */
function lockWaitMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env.DIAZO_LOCK_WAIT_MS;
  return raw === undefined || raw === "" ? undefined : timerNumber("DIAZO_LOCK_WAIT_MS", raw, "ms");
}

/** DIAZO_POLL_BASE_MS, when set: the first poll delay, checked once as a timer (ms, zero allowed). */
function pollBaseMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env.DIAZO_POLL_BASE_MS;
  return raw === undefined || raw === "" ? undefined : timerNumber("DIAZO_POLL_BASE_MS", raw, "ms", true);
}

/** The base client's settings: address, timeouts and retries of the profile, the raw transport when no proxy. */
function baseConfig(resolved: Resolved, env: Record<string, string | undefined>): HttpConfig {
  return {
    baseUrl: resolved.baseUrl.value,
    timeoutMs: resolved.timeoutSec * 1000,
    maxAttempts: resolved.maxAttempts,
    retryBaseMs: resolved.retryBaseMs,
    maxRetryAfterMs: resolved.maxRetryAfterSec * 1000,
    userAgent: userAgent(),
    rawFetch: proxyConfigured(env) ? undefined : rawFetch,
  };
}
