/**
 * `diazo api <path>`: one authenticated request to any platform path (as `gh api`), as the app or
 * the logged-in user. Fields become a JSON body and make the method POST, as in gh (with `-X GET`
 * they are the query), `--input` sends a body as given, `--paginate` follows whichever of the
 * platform's pagination schemes the first page uses (./pages.ts, loaded only then). Requests go only to the platform's own host
 * unless a host is allowed by name; a refusal sends nothing.
 */
import { resolveFrom } from "../../platform/path.ts";
import { endpointScope } from "../../aps/endpoint_scopes.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputFile, readInputText } from "../../core/input_file.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { apiFailure } from "./answer.ts";
import { MAX_ANSWER_BYTES, sizeText } from "../../http/body_limit.ts";
import { concatBytes } from "../../core/bytes.ts";
import type { BodyReader } from "../../http/stream_body.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** What `api` was asked for (strings as typed; checked here, before any request). */
export interface ApiOptions {
  path: string;
  method?: string;
  /** `-f key=value`: string fields. */
  fields?: readonly string[];
  /** `-F key=value`: typed fields (true, false, null, numbers), `key=@file` a file's text, `@-` stdin. */
  typedFields?: readonly string[];
  /** `--input file|-`: the request body as it is. */
  input?: string;
  /** `-H 'Name: value'`. */
  headers?: readonly string[];
  /** `--param k=v`: query parameters. */
  params?: readonly string[];
  paginate?: boolean;
  /** The scope(s) the operation needs, for errors and the scope log (default: aps/endpoint_scopes.ts). */
  scopes?: string;
  as?: "app" | "user";
  /** Hosts other than the platform's that absolute URLs may name. */
  allowHosts?: readonly string[];
  /** Reads all of stdin (for `--input -` and `@-`). */
  readStdin(): Promise<string>;
  /** True when the caller needs the whole answer (a `--query` or an output format to shape it). */
  whole?: boolean;
}

/**
 * The answer: status and body (parsed JSON; else text when it is UTF-8; else the bytes as they
 * came, with their content type); with --paginate, every item of every page (a JSON:API list whose
 * pages include related resources: `{data, included}` with every page's of each).
 */
export interface ApiResult {
  status: number;
  data: unknown;
  /** The answer's content-type header, when it sent one. */
  contentType?: string;
  /** The answer's headers (the first page's with --paginate). */
  headers?: Headers;
  /** Pages read with --paginate. */
  pages?: number;
  /** An answer larger than API_PEEK_BYTES that nothing needs whole: its bytes as they come. */
  stream?: BodyReader;
}

/** Answers up to this size are parsed and shown; a larger one is streamed as it comes (README "Safety"). */
export const API_PEEK_BYTES = 1024 * 1024;

function splitPair(raw: string, flag: string, sep: "=" | ":"): [string, string] {
  const at = raw.indexOf(sep);
  if (at <= 0) {
    throw usageError(
      `${flag} takes ${sep === "=" ? "key=value" : "'Name: value'"}, got '${raw}'`,
      sep === "=" ? `Example: ${flag} name=value` : `Example: ${flag} 'x-ads-region: EMEA'`,
    );
  }
  return [raw.slice(0, at).trim(), raw.slice(at + 1).trim()];
}

/** A typed field's value: `@file` (or `@-`) read as text, true/false/null and numbers as such. */
async function typedValue(value: string, o: ApiOptions, cwd: string): Promise<unknown> {
  if (value.startsWith("@")) {
    const file = value.slice(1);
    if (file === "-") return await o.readStdin();
    try {
      return (await readInputText(await resolveFrom(cwd, file), "body", { shown: file }))!;
    } catch (e) {
      if (e instanceof DiazoError) throw e;
      throw usageError(
        `cannot read ${file} (from -F ${value})`,
        "Check the path; it is resolved from the current directory.",
      );
    }
  }
  if (value === "true" || value === "false") return value === "true";
  if (value === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** `--input`'s body: stdin's text, or a file's bytes as they are (a binary file is sent unchanged). */
async function readInput(o: ApiOptions, cwd: string): Promise<string | Uint8Array> {
  if (o.input === "-") return await o.readStdin();
  try {
    return (await readInputFile(await resolveFrom(cwd, o.input!), "request", { shown: o.input }))!;
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    throw usageError(
      `cannot read ${o.input} (--input)`,
      "Check the path, or pass - to read the body from stdin.",
    );
  }
}

/**
 * The request's path on the platform, or an absolute URL on an allowed host; any other host is a
 * usage error before a request is made.
 */
export function checkTarget(raw: string, baseUrl: string, allowHosts: readonly string[] = []): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) return raw.startsWith("/") ? raw : `/${raw}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(
      `invalid URL '${raw}'`,
      "Pass a platform path such as /oss/v2/buckets, or a full https URL.",
    );
  }
  const base = new URL(baseUrl);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw usageError(
      `only http(s) URLs can be requested, got '${url.protocol}'`,
      "Pass a platform path such as /oss/v2/buckets.",
    );
  }
  const allowed = url.origin === base.origin ||
    allowHosts.some((h) =>
      h.toLowerCase() === url.host.toLowerCase() || h.toLowerCase() === url.hostname.toLowerCase()
    );
  if (!allowed) {
    throw usageError(
      `refusing to send a request to ${url.host}: it is not the platform's host (${base.host})`,
      `Pass --allow-host ${url.hostname} to allow it; the platform token is sent only to ${base.host}.`,
    );
  }
  return url.toString();
}

/** The request `api` sends, built and checked from its options. */
async function buildRequest(o: ApiOptions, deps: OpsDeps, baseUrl: string): Promise<RequestSpec> {
  const target = checkTarget(o.path, baseUrl, o.allowHosts);
  const headers: Record<string, string> = {};
  for (const h of o.headers ?? []) {
    const [k, v] = splitPair(h, "-H", ":");
    headers[k.toLowerCase()] = v;
  }
  const query: Record<string, string> = {};
  for (const p of o.params ?? []) {
    const [k, v] = splitPair(p, "--param", "=");
    query[k] = v;
  }
  const fields: Record<string, unknown> = {};
  for (const f of o.fields ?? []) {
    const [k, v] = splitPair(f, "-f", "=");
    fields[k] = v;
  }
  for (const f of o.typedFields ?? []) {
    const [k, v] = splitPair(f, "-F", "=");
    fields[k] = await typedValue(v, o, deps.cwd);
  }
  const hasFields = Object.keys(fields).length > 0;
  const body = o.input !== undefined ? await readInput(o, deps.cwd) : undefined;
  const method = (o.method ?? (body !== undefined || hasFields ? "POST" : "GET")).toUpperCase();
  const fieldsInQuery = hasFields && (body !== undefined || method === "GET" || method === "HEAD");
  if (fieldsInQuery) { for (const [k, v] of Object.entries(fields)) query[k] = String(v); }
  const spec: RequestSpec = { method, path: target, query, headers, key: o.path };
  if (body !== undefined) {
    spec.body = body;
    headers["content-type"] ??= "application/json";
  } else if (hasFields && !fieldsInQuery) spec.json = fields;
  const scope = o.scopes?.split(/[\s,]+/).filter(Boolean).join(" ") ||
    endpointScope(method, pathOf(target));
  if (scope) spec.scope = scope;
  return spec;
}

/** A body as `api` prints it: JSON parsed, UTF-8 text as a string, anything else as its bytes. */
export function parsedBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes;
  }
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The first bytes of `body`, up to `max`: all of it (`rest` undefined) when it ends there, else
 * `rest`, the whole body again (the bytes read first, then the others as they come).
 */
async function peek(body: BodyReader, max: number): Promise<{ bytes: Uint8Array; rest?: BodyReader }> {
  const parts: Uint8Array[] = [];
  let got = 0;
  while (got <= max) {
    const chunk = await body.read();
    if (!chunk) return { bytes: concatBytes(parts) };
    parts.push(chunk.slice()); // the reader's buffer is read into again
    got += chunk.length;
  }
  const rest: BodyReader = {
    read: () => parts.length > 0 ? Promise.resolve(parts.shift()) : body.read(),
    cancel: (reason) => body.cancel(reason),
  };
  return { bytes: new Uint8Array(0), rest };
}

/** Up to `cap` bytes of `body`, joined; `cut` when more came (then the rest is not read). */
async function wholeOf(body: BodyReader, cap: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const parts: Uint8Array[] = [];
  let got = 0;
  for (let chunk = await body.read(); chunk; chunk = await body.read()) {
    got += chunk.length;
    if (got > cap) {
      await body.cancel();
      return { bytes: new Uint8Array(0), cut: true };
    }
    parts.push(chunk.slice());
  }
  return { bytes: concatBytes(parts), cut: false };
}

/**
 * `api`: sends the request and returns the answer; non-2xx is the catalog's typed error, its message
 * naming the method, the path, the status and the platform's body.
 */
export async function runApi(o: ApiOptions, deps: OpsDeps): Promise<ApiResult> {
  const http = await deps.http({ mode: o.as === "user" ? "3-legged" : "2-legged" });
  const spec = await buildRequest(o, deps, http.baseUrl);
  try {
    return await send(http, spec, o.paginate === true, o.whole === true);
  } catch (e) {
    throw apiFailure(e, spec.method ?? "GET", shownTarget(spec));
  }
}

/** The request's path as a person typed it, with the query it was sent with. */
function shownTarget(spec: RequestSpec): string {
  const query = new URLSearchParams(
    Object.entries(spec.query ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]),
  ).toString();
  return query ? `${spec.path}${spec.path.includes("?") ? "&" : "?"}${query}` : spec.path;
}

/** BIM 360 HQ v1's paths, whose lists are bare arrays paged by `limit` and `offset`. */
const HQ_PATH = /^\/hq\/v1\//;

function pathOf(target: string): string {
  return target.startsWith("/") ? target : new URL(target).pathname;
}

async function send(http: Http, spec: RequestSpec, all: boolean, whole: boolean): Promise<ApiResult> {
  if (!all) {
    const res = await http.request<BodyReader>({ ...spec, responseType: "stream" });
    const answer = {
      status: res.status,
      contentType: res.headers.get("content-type") ?? undefined,
      headers: res.headers,
    };
    const head = await peek(res.data, API_PEEK_BYTES);
    if (!head.rest) return { ...answer, data: parsedBody(head.bytes) };
    if (!whole) return { ...answer, data: undefined, stream: head.rest };
    const all = await wholeOf(head.rest, MAX_ANSWER_BYTES);
    if (all.cut) {
      throw usageError(
        `the answer is larger than ${sizeText(MAX_ANSWER_BYTES)}: too large to filter or format`,
        "Leave out --query and -o to have it written to stdout as it comes.",
      );
    }
    return { ...answer, data: parsedBody(all.bytes) };
  }
  return (await import("./pages.ts")).allPages(http, spec, HQ_PATH.test(pathOf(spec.path)));
}
