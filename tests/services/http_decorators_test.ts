/** The HTTP decorators, each alone and composed, over a fake base client (no network). */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import type { Http, HttpResponse, RequestSpec } from "../../src/http/http.ts";
import {
  decorate,
  type HttpDecorator,
  withBearer,
  withDebugLog,
  withRenewal,
  withScopeAccounting,
  withUserScopeRewrite,
} from "../../src/http/decorators.ts";

/** A base client that records what it was sent (and the bearer it would send) and answers with `answer`. */
function fakeBase(answer: (spec: RequestSpec, bearer?: string) => unknown = () => ({})) {
  const sent: { spec: RequestSpec; bearer?: string }[] = [];
  const http: Http = {
    baseUrl: "https://example.test",
    async request<T>(spec: RequestSpec): Promise<HttpResponse<T>> {
      const bearer = spec.bearer ? await spec.bearer() : undefined;
      sent.push({ spec, bearer });
      const data = answer(spec, bearer);
      if (data instanceof Error) throw data;
      return { status: 200, headers: new Headers(), data: data as T, url: spec.path, attempts: 1 };
    },
  };
  return { http, sent };
}

const unauthorized = () => new DiazoError("auth_failed", { status: 401 });

Deno.test("decorate: the first decorator is outermost and sees the request first", async () => {
  const seen: string[] = [];
  const tag = (name: string): HttpDecorator => (next) => ({
    baseUrl: next.baseUrl,
    request: (spec) => {
      seen.push(name);
      return next.request({ ...spec, path: `${spec.path}/${name}` });
    },
  });
  const { http, sent } = fakeBase();
  const client = decorate(http, tag("a"), tag("b"), tag("c"));
  assert.equal(client.baseUrl, "https://example.test");
  await client.request({ path: "/x" });
  assert.deepEqual(seen, ["a", "b", "c"]);
  assert.equal(sent[0].spec.path, "/x/a/b/c");
});

Deno.test("withBearer gives every request the token source", async () => {
  const { http, sent } = fakeBase();
  await decorate(http, withBearer(() => Promise.resolve("tok-1"))).request({ path: "/x" });
  assert.equal(sent[0].bearer, "tok-1");
});

Deno.test("withRenewal: a 401 to a bearer token renews it once and sends again with the new one", async () => {
  let token = "old";
  const rejected: string[] = [];
  const log: string[] = [];
  const { http, sent } = fakeBase((_s, bearer) => (bearer === "old" ? unauthorized() : { ok: true }));
  const client = decorate(
    http,
    withBearer(() => Promise.resolve(token)),
    withRenewal((r) => {
      rejected.push(r);
      token = "new";
      return Promise.resolve(true);
    }, (l) => log.push(l)),
  );
  const res = await client.request<{ ok: boolean }>({ path: "/x" });
  assert.deepEqual(res.data, { ok: true });
  assert.deepEqual(sent.map((s) => s.bearer), ["old", "new"]);
  assert.deepEqual(rejected, ["old"]);
  assert.deepEqual(log, ["token: renewed after 401; sending again"]);
});

Deno.test("withRenewal: no renewal, no second request; other errors and requests without a bearer pass", async () => {
  const { http, sent } = fakeBase(() => unauthorized());
  let asked = 0;
  const renew = () => Promise.resolve(++asked > 99);
  const client = decorate(http, withBearer(() => Promise.resolve("t")), withRenewal(renew));
  await assert.rejects(client.request({ path: "/x" }), (e: DiazoError) => e.status === 401);
  assert.equal(sent.length, 1);
  assert.equal(asked, 1);
  // Without withBearer there is no token to renew: the 401 passes untouched.
  const bare = decorate(fakeBase(() => unauthorized()).http, withRenewal(renew));
  await assert.rejects(bare.request({ path: "/x" }), (e: DiazoError) => e.status === 401);
  assert.equal(asked, 1);
  const notFound = decorate(
    fakeBase(() => new DiazoError("not_found", { status: 404, params: { what: "x" } })).http,
    withBearer(() => Promise.resolve("t")),
    withRenewal(renew),
  );
  await assert.rejects(notFound.request({ path: "/x" }), (e: DiazoError) => e.status === 404);
  assert.equal(asked, 1);
});

Deno.test("withScopeAccounting records the scopes of authenticated requests only", async () => {
  const scopes = new Set<string>();
  const client = decorate(fakeBase().http, withScopeAccounting((s) => scopes.add(s)));
  await client.request({ path: "/a", scope: "data:read bucket:read" });
  await client.request({ path: "/b", scope: "data:write", auth: "none" });
  await client.request({ path: "/c" });
  assert.deepEqual([...scopes].sort(), ["bucket:read", "data:read"]);
});

Deno.test("withUserScopeRewrite turns insufficient_scope into insufficient_scope_user, and nothing else", async () => {
  const scopeError = new DiazoError("insufficient_scope", { status: 403, params: { scope: "data:write" } });
  const rewritten = decorate(fakeBase(() => scopeError).http, withUserScopeRewrite());
  await assert.rejects(rewritten.request({ path: "/x" }), (e: DiazoError) => {
    assert.equal(e.code, "insufficient_scope_user");
    assert.equal(e.status, 403);
    assert.deepEqual(e.params, scopeError.params);
    return true;
  });
  const other = decorate(fakeBase(() => unauthorized()).http, withUserScopeRewrite());
  await assert.rejects(other.request({ path: "/x" }), (e: DiazoError) => e.code === "auth_failed");
});

Deno.test("withDebugLog hands each request the log sink", async () => {
  const lines: string[] = [];
  const { http, sent } = fakeBase((spec) => {
    spec.trace?.("> GET /x");
    return {};
  });
  await decorate(http, withDebugLog((l) => lines.push(l))).request({ path: "/x" });
  assert.deepEqual(lines, ["> GET /x"]);
  assert.equal(typeof sent[0].spec.trace, "function");
});

Deno.test("order matters: accounting outside renewal counts a renewed request once", async () => {
  let token = "old";
  const scopes: string[] = [];
  const { http, sent } = fakeBase((_s, bearer) => (bearer === "old" ? unauthorized() : {}));
  const client = decorate(
    http,
    withScopeAccounting((s) => scopes.push(s)),
    withBearer(() => Promise.resolve(token)),
    withRenewal(() => Promise.resolve((token = "new") === "new")),
  );
  await client.request({ path: "/x", scope: "data:read" });
  assert.equal(sent.length, 2);
  assert.deepEqual(scopes, ["data:read"]);
});
