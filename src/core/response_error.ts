/**
 * A refused HTTP answer turned into its catalog error (core/errors.ts): the platform's words and code
 * read from the error body, mapped by status and the kind of resource asked for. Loaded only when an
 * answer failed (http/http.ts), so a run whose requests succeed does not load it.
 */
import { DiazoError, platformErrorCode, type ResourceKind } from "./errors.ts";
import { visible } from "./sanitize.ts";

/**
 * Extracts the most useful human text from a platform error body of any of its shapes, on one line:
 * its control characters (a line feed that would start a forged `error:` line, ESC) are shown as
 * visible escapes (core/sanitize.ts). This is where the platform's words become an error's text.
 */
export function platformDetail(body: unknown): string {
  return visible(detailText(body));
}

function detailText(body: unknown): string {
  if (body === undefined || body === null || body === "") return "";
  if (typeof body === "string") return body.slice(0, 300);
  if (typeof body !== "object") return String(body);
  const b = body as Record<string, unknown>;
  for (
    const k of ["developerMessage", "reason", "diagnostic", "error_description", "detail", "message", "msg"]
  ) {
    if (typeof b[k] === "string" && b[k]) return b[k] as string;
  }
  // The webhooks service: {"id", "status", "code", "detail": ["..."]}.
  if (Array.isArray(b.detail) && typeof b.detail[0] === "string") return b.detail[0];
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const e = b.errors[0] as Record<string, unknown>;
    return String(e.detail ?? e.title ?? e.code ?? "");
  }
  if (b.Error && typeof b.Error === "object") return String((b.Error as Record<string, unknown>).msg ?? "");
  if (typeof b.error === "string") return b.error;
  return JSON.stringify(body).slice(0, 300);
}

/**
 * Whether a construction-cloud refusal is about the project as a whole (the project, membership, a
 * user's token, a scope) rather than one record of it: a record request is refused for either.
 */
function aboutAccProject(detail: string): boolean {
  return /\b(project|member|token|scope)\b/i.test(detail);
}

/** Whether the platform said in words why it refused (not only a body dumped as JSON, nor nothing). */
function saysWhy(detail: string): boolean {
  return detail !== "" && !detail.startsWith("{");
}

/** Platform error codes that mean an expired access token. */
const EXPIRED_CODES = new Set(["AUTH-010", "TOKEN_EXPIRED", "token_expired"]);
/** Platform error codes that mean a scope is missing. */
const SCOPE_CODES = new Set(["AUTH-012", "insufficient_scope"]);

/**
 * Maps a final (non-retried) HTTP failure to its catalog entry, by status, the platform's error
 * code and the kind of resource the request was about.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  context: { resource?: ResourceKind; key?: string; scope?: string; attempts?: number; headers?: Headers } =
    {},
): DiazoError {
  const detail = platformDetail(body);
  const code = platformErrorCode(body);
  const base = { status, body, headers: context.headers };
  const resource = context.resource ?? "generic";
  if (status === 401) {
    if (resource === "token") return new DiazoError("auth_failed", base);
    if (code && EXPIRED_CODES.has(code)) return new DiazoError("token_expired", base);
    return new DiazoError("auth_failed", base);
  }
  if (status === 403) {
    if (code && SCOPE_CODES.has(code)) {
      // An operation needing several scopes names them as `--add` takes them: comma-separated.
      const scope = context.scope?.trim().split(/\s+/).join(",") || "<scope>";
      if (scope === "bucket:create") return new DiazoError("cannot_create_bucket", base); // its own message
      return new DiazoError("insufficient_scope", { ...base, params: { scope } });
    }
    if (resource === "acc-record" && saysWhy(detail) && !aboutAccProject(detail)) {
      return new DiazoError("permission_denied", base); // a member refused one record (e.g. another's draft)
    }
    if (resource === "acc-project" || resource === "acc-record") {
      return new DiazoError("acc_access_denied", base);
    }
    return new DiazoError("permission_denied", base);
  }
  if (status === 404) {
    // A record request also names its project, which may be what is missing.
    if (resource === "acc-record" && /\bproject\s+\S*\s*not found/i.test(detail)) {
      return new DiazoError("project_not_found", base);
    }
    switch (resource) {
      case "bucket":
        return new DiazoError("bucket_not_found", base);
      case "object":
        return new DiazoError("object_not_found", { ...base, params: { key: context.key ?? "" } });
      case "project":
      case "acc-project":
        return new DiazoError("project_not_found", base);
      case "engine":
        return new DiazoError("engine_not_found", base);
      default:
        return new DiazoError("not_found", {
          ...base,
          params: { what: context.key ?? (detail || "resource") },
        });
    }
  }
  if (status === 409) {
    if (resource === "bucket") return new DiazoError("bucket_exists", base);
    return new DiazoError("conflict", { ...base, params: { detail: detail || "already exists" } });
  }
  if (status === 429) {
    return new DiazoError("rate_limited", { ...base, params: { attempts: context.attempts ?? 1 } });
  }
  if (status === 408 || status >= 500) {
    return new DiazoError("server_error", { ...base, params: { status, attempts: context.attempts ?? 1 } });
  }
  if (status === 400 && resource === "token" && code === "invalid_client") {
    return new DiazoError("auth_failed", base);
  }
  if (status === 400 || status === 422) {
    return new DiazoError("bad_request", { ...base, params: { detail: detail || "invalid request" } });
  }
  return new DiazoError("request_failed", { ...base, params: { status, detail: detail || "no detail" } });
}
