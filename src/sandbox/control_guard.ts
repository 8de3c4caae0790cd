/**
 * Who may use the control API (`/_sandbox/`). A web page the user opens must not reach it: a request
 * whose `Host` is not an address the sandbox serves is refused (a page on a rebound DNS name would be
 * same-origin otherwise), and a request that changes something must come from the sandbox's own
 * origin (or none) and say `Content-Type: application/json` (a bodyless one may say nothing), which
 * a cross-origin page cannot send without a preflight the sandbox never approves. Bound beyond
 * loopback, every control request but the health check carries the token printed at start.
 */

import { timingSafeEqual } from "node:crypto";
import { controlError, type SandboxError } from "./errors.ts";

/** How a sandbox's control API is guarded. */
export interface ControlAccess {
  /** The address it was told to listen on (`--host`); a `Host` naming it is its own. */
  hostname: string;
  /** The token its control requests must carry (`Authorization: Bearer`); none: no token asked. */
  token?: string;
}

/** The path of the health check, which asks for no token (container health checks know none). */
const HEALTH_PATH = "/_sandbox/health";

/** True when `hostname` (an address to listen on) is a loopback one: no token is then needed. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The host name of a `Host` header value (`[::1]:8787` → `[::1]`), lower case, without a final dot. */
function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/**
 * True when a `Host` names this sandbox: an IP address (a rebound DNS name is a name, never an
 * address), `localhost`, or the name it was bound to.
 */
function ownHost(host: string, access: ControlAccess): boolean {
  const name = hostNameOf(host);
  return name === "localhost" || name === access.hostname.toLowerCase() ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);
}

const encoder = new TextEncoder();

function sameText(a: string, b: string): boolean {
  const [x, y] = [encoder.encode(a), encoder.encode(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the request carries the token: as a bearer token, or (reads only) as `?token=`. */
function carriesToken(req: Request, url: URL, token: string): boolean {
  const auth = req.headers.get("authorization") ?? "";
  if (/^bearer /i.test(auth) && sameText(auth.slice(7).trim(), token)) return true;
  const query = url.searchParams.get("token");
  return (req.method === "GET" || req.method === "HEAD") && query !== null && sameText(query, token);
}

/** True when a request may change state (everything but reads). */
export function changesState(req: Request): boolean {
  return req.method !== "GET" && req.method !== "HEAD";
}

/** True when the request carries a body (a length above zero, or a chunked one). */
function hasBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  return req.headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

/** Why a state-changing request might come from another site's page; undefined when it cannot. */
function crossSiteRefusal(req: Request, host: string): SandboxError | undefined {
  const origin = req.headers.get("origin");
  if (origin !== null && origin.toLowerCase() !== `http://${host.trim().toLowerCase()}`) {
    return controlError(403, `a control request from another origin (${origin}) is refused`);
  }
  const type = req.headers.get("content-type");
  const media = type?.split(";")[0].trim().toLowerCase();
  if (media === "application/json" || (type === null && !hasBody(req))) return undefined;
  return controlError(
    415,
    `a control request that changes something must be sent as application/json (got ${
      type ?? "no content type"
    })`,
  );
}

/** Why the control API refuses this request (a rebound name, no token, another site's page); undefined: it may go on. */
export function controlRefusal(req: Request, url: URL, access: ControlAccess): SandboxError | undefined {
  const host = req.headers.get("host") ?? url.host;
  const tokenOk = access.token !== undefined && carriesToken(req, url, access.token);
  if (!tokenOk && !ownHost(host, access)) {
    return controlError(
      403,
      `the control API answers only on its own address, not on Host '${host}': use the address the sandbox printed`,
    );
  }
  if (access.token !== undefined && !tokenOk && url.pathname !== HEALTH_PATH) {
    return controlError(
      401,
      "the control API needs the token the sandbox printed at start: send it as 'Authorization: Bearer <token>'",
    );
  }
  return changesState(req) ? crossSiteRefusal(req, host) : undefined;
}
