/**
 * The one HTTP client of diazo (ARCHITECTURE.md, "How a request travels"): base URL, bearer token, JSON
 * bodies, per-attempt timeouts, retries with backoff and `Retry-After`, typed errors and a redacted debug
 * trace.
 */

import { DiazoError, type ResourceKind, usageError } from "../core/errors.ts";
import { knownSecrets, redact, registerSecret } from "../core/redact.ts";
import { addressShapeProblem, platformAddress } from "../aps/base_url.ts";
import { VERSION } from "../core/version.ts";
import { abortableSleep } from "../core/sleep.ts";
import { deadline } from "../core/deadline.ts";
import { nextHop, REDIRECTS, refuseForeign } from "./redirect.ts";
import {
  knownCut,
  MAX_ANSWER_BYTES,
  MAX_ERROR_BYTES,
  type RawFetch,
  readResponseCapped,
  sizeText,
} from "./body_limit.ts";
import { discardBody } from "./wire.ts";
import { basicAuth, sameOrigin } from "./origin.ts";
import { type UrlParts, urlParts, withQuery } from "./url_text.ts";
import {
  backoffMs,
  boundedRetryAfter,
  DEFAULT_MAX_RETRY_AFTER_MS,
  isRetryable,
  parseRetryAfter,
  RETRY_STATUSES,
  type RetryMode,
} from "./retry.ts";

/** Settings of an `Http` client; the last four are seams for tests. */
export interface HttpConfig {
  /** e.g. https://developer.api.autodesk.com (a trailing slash is removed). */
  baseUrl: string;
  /** Bearer token of requests that bring none (`RequestSpec.bearer`), asked for on each attempt. */
  token?: () => Promise<string>;
  /** Timeout of one attempt, until the whole answer is read (until its headers for streams). */
  timeoutMs: number;
  /** Total attempts including the first. */
  maxAttempts: number;
  /** Backoff base. */
  retryBaseMs: number;
  /** Cap of one backoff (default 20 000). */
  retryMaxMs?: number;
  /** Longest wait a `Retry-After` may impose (default 60 000); the attempt timeout bounds it too. */
  maxRetryAfterMs?: number;
  /** Receives the one line said before a long wait (`Retry-After`), for stderr. */
  notice?: (line: string) => void;
  /** When set, receives the traffic log line by line, always redacted. */
  debug?: (line: string) => void;
  userAgent?: string;
  fetch?: typeof fetch;
  /**
   * The raw HTTP/1.1 transport (raw_transport.ts), used when set for every request whose body fits
   * in memory, whether its answer is read whole or streamed; `fetch` for streamed bodies, and for
   * all when absent (a proxy). ARCHITECTURE.md, "Raw HTTP/1.1 or fetch", gives the figures it buys.
   */
  rawFetch?: RawFetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** One request: where, what to send, how to authenticate, retry and read the answer. */
export interface RequestSpec {
  /** Default GET. */
  method?: string;
  /** Relative to baseUrl ("/oss/v2/buckets") or an absolute URL. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: Uint8Array | string;
  /**
   * Default: the client's raw transport when it has one and the body is not a stream, else fetch.
   * "raw": a large byte body, sent straight from its buffer. "fetch": always fetch.
   */
  transport?: "fetch" | "raw";
  /** A factory so that a retry can re-create the stream. */
  bodyStream?: () => ReadableStream<Uint8Array>;
  /**
   * Default: bearer when the URL is on the base URL's origin, none elsewhere (signed storage URLs
   * must not receive the platform token). "bearer" sends it to any origin.
   */
  auth?: "bearer" | "none" | { basic: { user: string; password: string } };
  /** auto = only idempotent methods (GET HEAD PUT DELETE OPTIONS); always = a POST known to be safe. */
  retry?: RetryMode;
  resource?: ResourceKind;
  key?: string;
  scope?: string;
  /**
   * Default json (also application/vnd.api+json; an empty body gives undefined). "stream": the body
   * as it comes, a `BodyReader` (stream_body.ts).
   */
  responseType?: "json" | "text" | "bytes" | "stream" | "none";
  /** The most bytes of a 2xx answer read into memory (default MAX_ANSWER_BYTES, body_limit.ts). */
  maxBytes?: number;
  /** A 2xx answer past `maxBytes`: an error (default), or its first bytes with `HttpResponse.cut`. */
  overflow?: "fail" | "cut";
  /**
   * Which redirects are followed (README.md "Safety"): "same-origin" (default) only to the host
   * asked; "never" returns the redirect itself as the answer (a webhook receiver's, as the
   * platform's delivery does not follow either).
   */
  redirect?: "same-origin" | "never";
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The bearer token of this request, asked for on each attempt so that a renewed token is used on
   * a retry (set by the `withBearer` decorator; the client's `token` when absent).
   */
  bearer?: () => Promise<string>;
  /** Receives this request's traffic log, redacted (set by the `withDebugLog` decorator). */
  trace?: (line: string) => void;
}

/** A successful answer. */
export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  url: string;
  attempts: number;
  /** True when the body was cut at `RequestSpec.maxBytes` (with `overflow: "cut"`). */
  cut?: boolean;
}

/** The HTTP client. */
export interface Http {
  readonly baseUrl: string;
  request<T = unknown>(spec: RequestSpec): Promise<HttpResponse<T>>;
  /** Says one line to the person running diazo (stderr), e.g. a list whose pages loop. */
  readonly warn?: (line: string) => void;
}

/** Resolves `path` against `baseUrl` and sets the defined `query` parameters (replacing any present). */
export function buildUrl(baseUrl: string, path: string, query?: RequestSpec["query"]): string {
  const absolute = /^https?:\/\//i.test(path);
  return withQuery(
    absolute ? path : `${baseUrl.replace(/\/+$/, "")}${path.startsWith("/") ? "" : "/"}${path}`,
    query,
  );
}

const BASE_URL_HINT =
  "Set DIAZO_BASE_URL (or the profile's base_url) to https://developer.api.autodesk.com, or to the sandbox's http://127.0.0.1:<port>.";

/**
 * The base URL checked once: an absolute http(s) URL without a query or a fragment (they would mangle
 * every request path), else a usage error before any request; returned without a user name and
 * password (aps/base_url.ts) and without trailing slashes.
 */
export function checkBaseUrl(baseUrl: string): string {
  const { address, userinfo } = platformAddress(baseUrl);
  if (userinfo !== undefined) registerSecret(userinfo);
  let url: UrlParts | undefined;
  try {
    url = urlParts(address);
  } catch { /* reported below */ }
  // Redacted only for an error: the redaction's patterns cost a valid address's run a few milliseconds.
  const shown = () => redact(address.length > 80 ? `${address.slice(0, 77)}...` : address, knownSecrets());
  if (!url) throw usageError(`invalid base URL '${shown()}': it is not a URL`, BASE_URL_HINT);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw usageError(`invalid base URL '${shown()}': only http and https are supported`, BASE_URL_HINT);
  }
  const problem = addressShapeProblem(address);
  if (problem) throw usageError(`invalid base URL '${shown()}': ${problem}`, BASE_URL_HINT);
  return address;
}

/** Creates the HTTP client; a base URL that is not http(s) is a usage error here, before any request. */
export function createHttp(config: HttpConfig): Http {
  const baseUrl = checkBaseUrl(config.baseUrl);
  const client: Client = {
    config,
    baseUrl,
    // Read at the first call: naming Deno's fetch loads it, and most runs never call it.
    fetch: config.fetch ?? ((input, init) => fetch(input, init)),
    sleep: config.sleep ?? abortableSleep,
    random: config.random ?? Math.random,
    now: config.now ?? Date.now,
    retryMaxMs: config.retryMaxMs ?? 20_000,
    maxRetryAfterMs: config.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
  };
  return {
    baseUrl,
    request: <T>(spec: RequestSpec) => send<T>(client, spec),
    ...(config.notice ? { warn: config.notice } : {}),
  };
}

interface Client {
  config: HttpConfig;
  baseUrl: string;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  retryMaxMs: number;
  maxRetryAfterMs: number;
}

/** What one attempt ended with. */
type Outcome =
  | { kind: "ok"; res: Response; data: unknown; cut?: boolean }
  | { kind: "http"; res: Response; body: unknown }
  | { kind: "timeout" }
  | { kind: "network"; error: unknown };

async function send<T>(c: Client, spec: RequestSpec): Promise<HttpResponse<T>> {
  const method = (spec.method ?? "GET").toUpperCase();
  const url = resolve(c.baseUrl, spec);
  const maxAttempts = isRetryable(method, spec.retry) ? Math.max(1, c.config.maxAttempts) : 1;
  const timeoutMs = spec.timeoutMs ?? c.config.timeoutMs;
  const sink = spec.trace ?? c.config.debug;
  const log = sink ? (line: string) => sink(redact(line, knownSecrets())) : undefined;

  for (let attempt = 1;; attempt++) {
    if (spec.signal?.aborted) throw new DiazoError("interrupted", { cause: spec.signal.reason });
    const headers = await buildHeaders(c, spec, url);
    const start = c.now();
    const outcome = await attemptOnce(c, spec, method, url, headers, timeoutMs, log, attempt, maxAttempts);
    const took = `${Math.round(c.now() - start)} ms, attempt ${attempt}/${maxAttempts}`;

    if (outcome.kind === "ok") {
      return {
        status: outcome.res.status,
        headers: outcome.res.headers,
        data: outcome.data as T,
        url,
        attempts: attempt,
        ...(outcome.cut ? { cut: true } : {}),
      };
    }
    let reason: string;
    let waitAtLeast = 0;
    if (outcome.kind === "http") {
      const { res } = outcome;
      if (!RETRY_STATUSES.has(res.status) || attempt >= maxAttempts) {
        // The mapping of a refusal loads only when an answer failed (core/response_error.ts).
        const { errorFromResponse } = await import("../core/response_error.ts");
        throw errorFromResponse(res.status, outcome.body, {
          resource: spec.resource,
          key: spec.key,
          scope: spec.scope,
          attempts: attempt,
          headers: res.headers,
        });
      }
      const retryAfter = res.headers.get("retry-after");
      waitAtLeast = boundedRetryAfter(
        parseRetryAfter(retryAfter, c.now()) ?? 0,
        c.maxRetryAfterMs,
        timeoutMs,
      );
      reason = `HTTP ${res.status}${
        retryAfter ? `, Retry-After ${retryAfter.trim()}${/^\d/.test(retryAfter.trim()) ? " s" : ""}` : ""
      }`;
    } else if (outcome.kind === "timeout") {
      log?.(`< timeout after ${timeoutMs} ms (${took})`);
      if (attempt >= maxAttempts) throw new DiazoError("timeout", { params: { seconds: timeoutMs / 1000 } });
      reason = `timeout after ${timeoutMs} ms`;
    } else {
      const message = errorMessage(outcome.error);
      log?.(`< network error: ${message} (${took})`);
      if (attempt >= maxAttempts) {
        throw new DiazoError("network", { params: { host: new URL(url).host }, cause: outcome.error });
      }
      reason = `network error: ${message}`;
    }
    const backoff = backoffMs(attempt - 1, c.config.retryBaseMs, c.retryMaxMs, c.random);
    const delay = Math.max(waitAtLeast, backoff);
    log?.(`retry ${attempt + 1}/${maxAttempts} in ${delay} ms (${reason})`);
    if (waitAtLeast > backoff && delay >= 1000) {
      // A wait the platform imposed can be long: say what the run is waiting for.
      c.config.notice?.(
        `waiting ${Math.round(delay / 1000)} s (Retry-After) before retrying ${method} ${
          new URL(url).pathname
        }`,
      );
    }
    await c.sleep(delay, spec.signal);
  }
}

/**
 * The longest request URL sent: servers refuse longer ones or drop the connection, which used to be
 * retried and end in "Cannot reach"; an identifier that long is a mistake in the input.
 */
export const MAX_URL_LENGTH = 32 * 1024;

function resolve(baseUrl: string, spec: RequestSpec): string {
  let url: string;
  try {
    url = buildUrl(baseUrl, spec.path, spec.query);
  } catch {
    throw usageError(
      `invalid URL '${redact(spec.path, knownSecrets())}' (base ${baseUrl})`,
      "Check DIAZO_BASE_URL and the identifiers in the command.",
    );
  }
  if (url.length > MAX_URL_LENGTH) {
    throw usageError(
      `the request URL has ${url.length} characters (at most ${MAX_URL_LENGTH}): an identifier is too long`,
      "Check the identifiers in the command (keys, URNs, ids).",
    );
  }
  return url;
}

// long: one attempt in order: its transport, the redirects it follows, the bounded read of its answer
async function attemptOnce(
  c: Client,
  spec: RequestSpec,
  method: string,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  log: ((line: string) => void) | undefined,
  attempt: number,
  maxAttempts: number,
): Promise<Outcome> {
  const body = buildBody(spec);
  // The traffic log's helpers load only when there is a log (--debug): a quiet run carries none of them.
  const trace = log && { log, ...await import("./log.ts") };
  if (trace) trace.logRequest(trace.log, method, url, headers, spec);
  const timer = deadline(timeoutMs);
  const start = c.now();
  const took = () => `${Math.round(c.now() - start)} ms, attempt ${attempt}/${maxAttempts}`;
  const type = spec.responseType ?? "json";
  let res: Response | undefined;
  const okCap = type === "none" ? 0 : spec.maxBytes ?? MAX_ANSWER_BYTES;
  // A stream's readers (a download, `diazo api`) load while its request goes out: an answer read
  // whole, every other command's, needs none of them.
  const streamed = type === "stream" ? import("./idle.ts") : undefined;
  try {
    const raw = rawTransportFor(c, spec);
    // The raw transport takes the deadline as it is; fetch an AbortSignal (made only for it).
    const signal = spec.signal
      ? AbortSignal.any([timer.abortSignal(), spec.signal])
      : raw
      ? timer
      : timer.abortSignal();
    const go = (to: string, init: RequestInit) =>
      raw
        ? raw(to, {
          ...init,
          signal,
          redirect: "manual",
          maxBodyBytes: okCap,
          maxErrorBytes: MAX_ERROR_BYTES,
          stream: type === "stream",
        })
        : c.fetch(to, { ...init, signal: signal as AbortSignal, redirect: "manual" });
    res = await go(url, { method, headers, body });
    for (let at = url, hops = 0;; hops++) {
      const location = REDIRECTS.has(res.status) ? res.headers.get("location") : null;
      if (location === null || spec.redirect === "never") break;
      // Followed only to the origin asked (no token or body crosses to another host), a few times.
      const hop = nextHop(at, res.status, location, { method, headers, body });
      await discardBody(res);
      refuseRedirect(at, hop.url, res.status, hops);
      res = await go(hop.url, hop.init);
      at = hop.url;
    }
    if (res.ok && type === "stream") {
      trace?.log(`< ${trace.statusLine(res)} (${took()})`);
      // Past its headers a stream has no deadline but silence: no byte for the timeout ends it.
      return { kind: "ok", res, data: (await streamed!).watchedBody(res, timeoutMs, urlParts(url).host) };
    }
    if (res.ok && type === "none") {
      await discardBody(res);
      trace?.log(`< ${trace.statusLine(res)} (${took()})`);
      return { kind: "ok", res, data: undefined };
    }
    // A raw answer already past the cap fails before its bytes are joined.
    if (knownCut(res) && res.ok && spec.overflow !== "cut") throw tooLarge(url, res.status, okCap);
    const read = await readResponseCapped(res, res.ok ? okCap : MAX_ERROR_BYTES);
    trace?.log(`< ${trace.statusLine(res)} (${took()})`);
    if (trace) trace.logResponseHeaders(trace.log, res.headers);
    if (read.cut && res.ok && spec.overflow !== "cut") throw tooLarge(url, res.status, okCap);
    if (res.ok && type === "bytes") return { kind: "ok", res, data: read.bytes, cut: read.cut };
    const text = new TextDecoder().decode(read.bytes);
    if (trace && text) trace.log(`< ${trace.clip(text)}`);
    if (!res.ok) return { kind: "http", res, body: parseLoose(read.cut ? `${text} [cut]` : text) };
    return {
      kind: "ok",
      res,
      data: type === "text" ? text : parseJson(text, res.status),
      cut: read.cut,
    };
  } catch (error) {
    if (error instanceof DiazoError) throw error;
    if (res) await discardBody(res).catch(() => {});
    if (spec.signal?.aborted) throw new DiazoError("interrupted", { cause: spec.signal.reason });
    if (timer.aborted || (error as Error | undefined)?.name === "TimeoutError") return { kind: "timeout" };
    return { kind: "network", error };
  } finally {
    timer.clear();
  }
}

/** The raw transport when it carries `spec`: a body in memory; fetch (undefined) else. */
function rawTransportFor(c: Client, spec: RequestSpec): RawFetch | undefined {
  const inMemory = spec.bodyStream === undefined;
  return inMemory && (spec.transport ?? "raw") === "raw" ? c.config.rawFetch : undefined;
}

/** The request's headers, names in lower case (a plain record: `Headers` costs a run's start-up ~2 ms). */
async function buildHeaders(c: Client, spec: RequestSpec, url: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    "user-agent": c.config.userAgent ?? `diazo/${VERSION}`,
    accept: "application/json",
  };
  if (spec.json !== undefined) headers["content-type"] = "application/json";
  else if (spec.form) headers["content-type"] = "application/x-www-form-urlencoded";
  for (const [k, v] of Object.entries(spec.headers ?? {})) {
    // What `Headers` would refuse, refused before any request (a line break would start a header).
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || /[\r\n\0]/.test(v)) {
      throw usageError(
        `invalid header ${JSON.stringify(redact(`${k}: ${v}`, knownSecrets()).slice(0, 80))}`,
        "A header is `Name: value` on one line; the name is letters, digits and -.",
      );
    }
    headers[k.toLowerCase()] = v;
  }

  const auth = spec.auth;
  if (auth && typeof auth === "object") {
    headers.authorization = basicAuth(url, c.baseUrl, auth.basic.user, auth.basic.password);
  } else if (auth === "bearer" || (auth === undefined && sameOrigin(url, c.baseUrl))) {
    const token = spec.bearer ?? c.config.token;
    if (token) headers.authorization = `Bearer ${await token()}`;
  }
  return headers;
}

function buildBody(spec: RequestSpec): BodyInit | undefined {
  if (spec.json !== undefined) return JSON.stringify(spec.json);
  if (spec.form) return new URLSearchParams(spec.form).toString();
  if (spec.bodyStream) return spec.bodyStream();
  if (spec.body !== undefined) return spec.body as BodyInit;
  return undefined;
}

/** The most redirects followed in one request. */
const MAX_REDIRECTS = 5;

/** A redirect to another origin, or one too many, is refused: it fails before anything is sent there. */
function refuseRedirect(from: string, to: string, status: number, hops: number): void {
  refuseForeign(from, to, status, "the answer redirects");
  if (hops >= MAX_REDIRECTS) {
    throw new DiazoError("request_failed", {
      params: { status, detail: `more than ${MAX_REDIRECTS} redirects` },
    });
  }
}

/** A 2xx answer larger than the use reads into memory. */
function tooLarge(url: string, status: number, cap: number): DiazoError {
  return new DiazoError("request_failed", {
    params: {
      status,
      detail: `the answer from ${new URL(url).host} is larger than ${sizeText(cap)}, more than diazo reads`,
    },
  });
}

function parseLoose(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseJson(text: string, status: number): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new DiazoError("request_failed", {
      status,
      body: text.slice(0, 300),
      cause,
      params: { status, detail: "the answer is not valid JSON" },
    });
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
