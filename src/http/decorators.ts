/**
 * What a request of the platform needs besides transport, as wrappers `(next: Http) => Http` around
 * the base client of http.ts (as gh composes RoundTrippers): the bearer token, its renewal after a
 * 401, the scopes a run's requests needed, the rewrite of a user login's scope error, the debug log.
 * Each does one thing, so a factory (session/session.ts) picks and orders them per login.
 */
import { DiazoError } from "../core/errors.ts";
import type { Http, HttpResponse, RequestSpec } from "./http.ts";

/** A wrapper of an `Http` client. */
export type HttpDecorator = (next: Http) => Http;

/**
 * `base` wrapped by `decorators`, the first one outermost: `decorate(base, a, b)` is `a(b(base))`,
 * so a request goes through `a`, then `b`, then the base.
 */
export function decorate(base: Http, ...decorators: readonly HttpDecorator[]): Http {
  const out = decorators.reduceRight((next, d) => d(next), base);
  return out.warn || !base.warn ? out : { ...out, warn: base.warn };
}

/** A client whose requests pass through `change` first. */
function mapRequest(next: Http, change: (spec: RequestSpec) => RequestSpec): Http {
  return { baseUrl: next.baseUrl, request: <T>(spec: RequestSpec) => next.request<T>(change(spec)) };
}

/** Authenticates requests with a bearer token from `token` (asked for on each attempt). */
export function withBearer(token: () => Promise<string>): HttpDecorator {
  return (next) => mapRequest(next, (spec) => ({ ...spec, bearer: token }));
}

/**
 * After a 401 to the bearer token a request was sent with (expired by the platform's clock,
 * revoked), asks `renew` once; when it says a different token is now held, sends the request again.
 * Place it inside `withBearer`, which gives the request its token.
 */
export function withRenewal(
  renew: (rejected: string) => Promise<boolean>,
  log?: (line: string) => void,
): HttpDecorator {
  return (next) => ({
    baseUrl: next.baseUrl,
    async request<T>(spec: RequestSpec): Promise<HttpResponse<T>> {
      const source = spec.bearer;
      if (!source) return await next.request<T>(spec);
      let sent: string | undefined;
      const tracked = { ...spec, bearer: async () => (sent = await source()) };
      try {
        return await next.request<T>(tracked);
      } catch (e) {
        if (!(e instanceof DiazoError) || e.status !== 401 || sent === undefined) throw e;
        if (!(await renew(sent))) throw e;
        log?.("token: renewed after 401; sending again");
        return await next.request<T>(tracked);
      }
    },
  });
}

/** Records the scopes of every authenticated request (for the scope-usage log). */
export function withScopeAccounting(record: (scope: string) => void): HttpDecorator {
  return (next) =>
    mapRequest(next, (spec) => {
      if (spec.scope && spec.auth !== "none") { for (const s of spec.scope.split(" ")) record(s); }
      return spec;
    });
}

/**
 * A user's token gains a scope only by logging in again with it, not by extending the app's scopes:
 * `insufficient_scope` becomes `insufficient_scope_user`, whose hint says so.
 */
export function withUserScopeRewrite(): HttpDecorator {
  return (next) => ({
    baseUrl: next.baseUrl,
    request: <T>(spec: RequestSpec) =>
      next.request<T>(spec).catch((e) => {
        if (e instanceof DiazoError && e.code === "insufficient_scope") {
          throw new DiazoError("insufficient_scope_user", {
            params: e.params,
            status: e.status,
            body: e.body,
          });
        }
        throw e;
      }),
  });
}

/** Sends every request's traffic log (redacted by the base client) to `log`. */
export function withDebugLog(log: (line: string) => void): HttpDecorator {
  return (next) => mapRequest(next, (spec) => ({ ...spec, trace: log }));
}
