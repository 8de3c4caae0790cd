/** Sandbox: device authorization (RFC 8628) when the control API offers it. */
import assert from "node:assert/strict";
import { DEVICE_CODE_GRANT } from "../../src/aps/grant_types.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { APP, basic, call, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";

async function start(sb: Sandbox, scope = "data:read openid") {
  const a = await call(`${sb.url}/authentication/v2/device_authorization`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: APP.id, scope }),
  });
  return a;
}

function poll(sb: Sandbox, deviceCode: string) {
  return tokenRequest(sb, { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode }, {
    authorization: basic(APP.id, APP.secret),
  });
}

Deno.test("device authorization is off by default: not advertised, endpoint 404, grant unsupported", async () => {
  await withSandbox(async (sb) => {
    const d = (await call(`${sb.url}/.well-known/openid-configuration`)).json;
    assert.equal(d.device_authorization_endpoint, undefined);
    assert.equal((await start(sb)).status, 404);
    const p = await poll(sb, "anything");
    assert.equal(p.status, 400);
    assert.equal(p.json.error, "unsupported_grant_type");
  });
});

Deno.test("device flow: pending, slow_down, approval by user code, single-use token answer", async () => {
  await withSandbox(async (sb) => {
    assert.equal(
      (await control(sb, "POST", "config", { device_flow: true, device_interval_seconds: 1 })).status,
      200,
    );
    const d = (await call(`${sb.url}/.well-known/openid-configuration`)).json;
    assert.equal(d.device_authorization_endpoint, `${sb.url}/authentication/v2/device_authorization`);
    assert.ok(d.grant_types_supported.includes(DEVICE_CODE_GRANT));
    const a = await start(sb);
    assert.equal(a.status, 200);
    const g = a.json;
    assert.match(g.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(g.interval, 1);
    assert.equal(g.verification_uri_complete, `${g.verification_uri}?user_code=${g.user_code}`);
    const pending = await poll(sb, g.device_code);
    assert.equal(pending.json.error, "authorization_pending");
    // Polling again at once is too fast.
    const slow = await poll(sb, g.device_code);
    assert.equal(slow.json.error, "slow_down");
    // The user enters the code (case and dash do not matter).
    const page = await fetch(`${g.verification_uri}?user_code=${g.user_code.toLowerCase().replace("-", "")}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /approved/);
    const ok = await poll(sb, g.device_code);
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    assert.ok(ok.json.refresh_token);
    const claims = decodeJwt(ok.json.access_token).payload as { scope: string[]; userid?: string };
    assert.deepEqual([...claims.scope].sort(), ["data:read", "openid"]);
    assert.ok(claims.userid);
    const again = await poll(sb, g.device_code);
    assert.equal(again.json.error, "invalid_grant");
  });
});

Deno.test("device flow: a denied request and an expired code (sandbox clock)", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "config", { device_flow: true, consent: "deny" });
    const denied = (await start(sb)).json;
    await fetch(`${denied.verification_uri_complete}`).then((r) => r.body?.cancel());
    assert.equal((await poll(sb, denied.device_code)).json.error, "access_denied");
    const late = (await start(sb)).json;
    await control(sb, "POST", "clock", { advance_seconds: late.expires_in + 1 });
    assert.equal((await poll(sb, late.device_code)).json.error, "expired_token");
    const unknown = await fetch(`${late.verification_uri}?user_code=ABCD-EFGH`);
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  });
});

Deno.test("auto_approve: the sandbox user approves each device authorization at once (or denies, as consent says)", async () => {
  await withSandbox(async (sb) => {
    const set = await control(sb, "POST", "config", { device_flow: true, auto_approve: true });
    assert.equal(set.status, 200);
    assert.equal(set.json.auto_approve, true);
    const ok = await poll(sb, (await start(sb)).json.device_code);
    assert.equal(ok.status, 200, "the first poll gets the tokens: no code to enter");
    assert.equal((decodeJwt(ok.json.access_token).payload as { userid?: string }).userid, "DIAZOSANDBOXUSER");
    assert.equal((await control(sb, "POST", "config", { consent: "deny" })).status, 200);
    const denied = await poll(sb, (await start(sb)).json.device_code);
    assert.equal(denied.json.error, "access_denied");
    assert.equal((await control(sb, "POST", "config", { auto_approve: "yes" })).status, 400);
  });
});
