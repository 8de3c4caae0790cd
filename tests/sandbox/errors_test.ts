import assert from "node:assert/strict";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { createSandboxContext, type RequestContext } from "../../src/sandbox/context.ts";
import {
  adminError,
  controlError,
  daError,
  derivativeError,
  dmError,
  ERROR_HELP_URL,
  gatewayError,
  oauthError,
  ossError,
  renderError,
  s3Error,
  SandboxError,
} from "../../src/sandbox/errors.ts";
import { createRouter, dispatch } from "../../src/sandbox/router.ts";

async function rendered(e: SandboxError) {
  const res = renderError(e);
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    headers: res.headers,
    text: await res.text(),
  };
}

Deno.test("errors: each service's refusal renders in that service's body shape", async () => {
  const gateway = await rendered(gatewayError(401, "The token is not valid", "AUTH-006"));
  assert.equal(gateway.status, 401);
  assert.match(gateway.type!, /^application\/json/);
  assert.deepEqual(JSON.parse(gateway.text), {
    developerMessage: "The token is not valid",
    errorCode: "AUTH-006",
    moreInfo: ERROR_HELP_URL,
  });

  const oauth = await rendered(oauthError(400, "invalid_grant", "expired"));
  assert.deepEqual(JSON.parse(oauth.text), { error: "invalid_grant", error_description: "expired" });

  const oss = await rendered(
    ossError(416, "The requested range is not satisfiable", { "content-range": "bytes */9" }),
  );
  assert.deepEqual([oss.status, JSON.parse(oss.text)], [416, {
    reason: "The requested range is not satisfiable",
  }]);
  assert.equal(oss.headers.get("content-range"), "bytes */9");

  const s3 = await rendered(s3Error(404, "NoSuchKey", "The specified key does not exist."));
  assert.equal(s3.type, "application/xml");
  assert.equal(
    s3.text,
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
  );
  const cdn = await rendered(
    new SandboxError(403, { service: "cdn", code: "AccessDenied", message: "Access denied" }),
  );
  assert.equal(cdn.type, "text/xml");
  assert.match(cdn.text, /<Code>AccessDenied<\/Code><Message>Access denied<\/Message>/);

  const dm = await rendered(dmError(404, "NOT_FOUND", "Not Found", "no such hub"));
  assert.equal(dm.type, "application/vnd.api+json");
  const doc = JSON.parse(dm.text);
  assert.deepEqual(doc.jsonapi, { version: "1.0" });
  assert.equal(doc.errors.length, 1);
  const { id, ...rest } = doc.errors[0];
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(rest, { status: "404", code: "NOT_FOUND", title: "Not Found", detail: "no such hub" });

  const md = await rendered(derivativeError(400, "bad urn"));
  assert.deepEqual(JSON.parse(md.text), { diagnostic: "bad urn" });
  assert.equal(
    md.headers.get("x-ads-app-identifier"),
    "platform-viewing-sandbox",
    "Model Derivative's headers",
  );
  const da = await rendered(daError(409, "taken"));
  assert.deepEqual(JSON.parse(da.text), "taken", "Design Automation answers a bare JSON string");
  assert.equal(da.headers.get("x-ads-app-identifier"), null, "Design Automation has no x-ads headers");

  const admin = await rendered(adminError(404, "ERR_NOT_FOUND", "Project 'p' not found"));
  assert.deepEqual(JSON.parse(admin.text), { code: "ERR_NOT_FOUND", message: "Project 'p' not found" });
  const control = await rendered(controlError(400, "'advance_seconds' must be a number"));
  assert.deepEqual(JSON.parse(control.text), { error: "'advance_seconds' must be a number" });

  const auth = await rendered(
    new SandboxError(400, { service: "auth", developerMessage: "missing", errorCode: "AUTH-008" }),
  );
  assert.deepEqual(JSON.parse(auth.text), { developerMessage: "missing", errorCode: "AUTH-008" });
});

Deno.test("errors: dispatch renders a thrown SandboxError and lets any other error through", async () => {
  const router = createRouter([
    {
      method: "GET",
      pattern: "/refuse",
      scopes: [],
      handler: () => Promise.reject(ossError(404, "Bucket not found")),
    },
    {
      method: "GET",
      pattern: "/sync",
      scopes: [],
      handler: () => {
        throw daError(400, "nope");
      },
    },
    { method: "GET", pattern: "/crash", scopes: [], handler: () => Promise.reject(new Error("kaput")) },
  ]);
  const sandbox = createSandboxContext([await testSigningKey()], "");
  const ctx = (path: string): RequestContext => ({
    sandbox,
    url: new URL(`http://sandbox.test${path}`),
    baseUrl: "http://sandbox.test",
    params: {},
  });
  const go = (path: string) => dispatch(router, new Request(`http://sandbox.test${path}`), ctx(path));

  const refused = await go("/refuse");
  assert.deepEqual([refused.status, await refused.json()], [404, { reason: "Bucket not found" }]);
  const sync = await go("/sync");
  assert.deepEqual([sync.status, await sync.json()], [400, "nope"]);
  const unknown = await go("/nowhere");
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).errorCode, "SANDBOX-404");
  await assert.rejects(go("/crash"), /kaput/);
});
