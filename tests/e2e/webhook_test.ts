/**
 * e2e: `diazo webhook ...` against the sandbox, with local receivers (Deno.serve on port 0): a hook
 * created, a translation's `extraction.finished` delivered signed, a slow receiver making its hook
 * inactive (seen by `webhook list`), and `webhook test` / `verify` against good and bad receivers.
 */
import assert from "node:assert/strict";
import { signWebhookBody } from "../../src/aps/webhook_signature.ts";
import { assertOneError, cliEnv, diazo, json, requestLog } from "./harness.ts";
import { CUBE_OBJ, mdFixture, sandboxConfig } from "./md_helpers.ts";

/** One request a receiver got. */
interface Received {
  headers: Headers;
  body: string;
}

/** A local receiver: answers `status`, or holds every request until closed (a receiver that is too slow). */
function receiver(behaviour: { status: number } | "hold") {
  const got: Received[] = [];
  const release = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    got.push({ headers: req.headers, body: await req.text() });
    if (behaviour === "hold") await release.promise;
    return new Response("ok", { status: behaviour === "hold" ? 200 : behaviour.status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/callback`,
    got,
    /** Resolves once `n` requests arrived (fails the test after 10 s). */
    async received(n: number): Promise<Received[]> {
      const deadline = Date.now() + 10_000;
      while (got.length < n) {
        assert.ok(Date.now() < deadline, `the receiver got ${got.length} of ${n} requests`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return got;
    },
    async close() {
      release.resolve();
      await server.shutdown();
    },
  };
}

type Hook = {
  hookId: string;
  status: string;
  event: string;
  system: string;
  scopeText: string;
  callbackUrl: string;
};

/** Waits until the sandbox's state satisfies `ok` (polls its control API; fails after 10 s). */
async function untilState(url: string, ok: (state: Record<string, unknown>) => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const state = await (await fetch(`${url}/_sandbox/state`)).json();
    if (ok(state)) return;
    assert.ok(
      Date.now() < deadline,
      `sandbox state never settled: ${JSON.stringify(state.webhook_deliveries)}`,
    );
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("webhook: events, create (bad input first), a translation's extraction.finished delivered signed, list pages, verify", async () => {
  const fx = await mdFixture();
  const rx = receiver({ status: 200 });
  try {
    const run = (args: string[], stdin?: string) => diazo(args, { env: fx.env, stdin });
    const events = json<{ system: string; event: string; scope: string }[]>(
      await diazo(["webhook", "events", "-o", "json"], { env: cliEnv(fx.home) }),
    );
    assert.ok(
      events.some((e) => e.event === "dm.version.added" && e.system === "data" && e.scope === "folder"),
    );
    assert.ok(events.some((e) => e.event === "extraction.finished" && e.scope === "workflow"));
    assert.ok(!events.some((e) => e.system === "autodesk.da"), "the sandbox's own system is not listed");
    const sandboxOnly = json<{ event: string; service: string }[]>(
      await diazo(["webhook", "events", "--system", "autodesk.da", "-o", "json"], { env: cliEnv(fx.home) }),
    );
    assert.deepEqual(sandboxOnly.map((e) => [e.event, e.service]), [
      ["workitem.completed", "Design Automation (sandbox only)"],
    ]);
    assertOneError(
      await run(["webhook", "events", "--system", "dataa"]),
      2,
      /unknown webhook system 'dataa' \(did you mean 'data'\?\)/,
    );

    const before = (await requestLog(fx.sb.url)).length;
    const create = ["webhook", "create", "--url", rx.url, "--event", "extraction.finished"];
    assertOneError(
      await run(create),
      2,
      /--scope workflow=\.\.\. is required/,
      /--scope workflow=<workflow>/,
    );
    assertOneError(await run([...create, "--scope", "folder=x"]), 2, /invalid --scope key 'folder'/);
    assertOneError(
      await run(["webhook", "create", "--url", rx.url, "--event", "dm.version.added", "--scope", "folder=x"]),
      2,
      /invalid folder id 'x'/,
      /urn:adsk\.wipprod:fs\.folder:/,
    );
    assertOneError(
      await run(["webhook", "create", "--url", "ftp://x", "--event", "dm.version.added"]),
      2,
      /only http and https/,
    );
    assertOneError(
      await run(["webhook", "create", "--url", rx.url, "--event", "dm.version.addd"]),
      2,
      /did you mean 'dm\.version\.added'/,
    );
    assert.equal((await requestLog(fx.sb.url)).length, before, "bad input sends no request");

    const secret = "s3cretTokenForTheWebhookE2eTest0123456789";
    const made = await run(
      [...create, "--scope", "workflow=ci-run", "--secret-stdin", "-o", "json"],
      secret + "\n",
    );
    assert.equal(made.code, 0, made.stderr);
    const hook = json<Hook>(made);
    assert.deepEqual([hook.status, hook.system, hook.scopeText], ["active", "derivative", "workflow=ci-run"]);
    assert.match(made.stderr, /Created hook .* \(extraction\.finished, workflow=ci-run\), signed/);
    assert.doesNotMatch(made.stderr, /not HTTPS/, "loopback http is fine");
    const again = await run([...create, "--scope", "workflow=ci-run"]);
    assertOneError(again, 6, /^error: Conflict: Failed to create hook: hook already exists/);
    const plain = await run([
      "webhook",
      "create",
      "--url",
      "http://hooks.example.com/x",
      "--event",
      "dm.version.added",
      "--scope",
      "folder=urn:adsk.wipprod:fs.folder:co.none",
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(
      plain.stderr,
      /warning: http:\/\/hooks\.example\.com\/x is not HTTPS: the platform requires HTTPS/,
    );

    // An event caused through another command reaches the receiver, signed with the hook's secret.
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    const t = await run(["translate", "start", urn, "--format", "obj", "--workflow", "ci-run", "--wait"]);
    assert.equal(t.code, 0, t.stderr);
    const [got] = await rx.received(1);
    assert.equal(got.headers.get("x-adsk-signature"), await signWebhookBody(secret, got.body));
    assert.match(got.headers.get("x-adsk-delivery-id") ?? "", /^[0-9a-f-]{36}$/);
    const body = JSON.parse(got.body);
    assert.equal(body.resourceUrn, urn);
    assert.deepEqual([body.hook.hookId, body.hook.event], [hook.hookId, "extraction.finished"]);
    assert.deepEqual([body.payload.EventType, body.payload.URN, body.payload.Payload.status], [
      "EXTRACTION_FINISHED",
      urn,
      "success",
    ]);

    const sig = got.headers.get("x-adsk-signature")!;
    fx.env.WEBHOOK_SECRET = secret;
    const ok = await run(
      ["webhook", "verify", "--secret-env", "WEBHOOK_SECRET", "--signature", sig, "-o", "json"],
      got.body,
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(json<{ valid: boolean }>(ok).valid, true);
    const http =
      `POST /callback HTTP/1.1\r\nContent-Type: application/json\r\nx-adsk-signature: ${sig}\r\n\r\n${got.body}`;
    assert.equal((await run(["webhook", "verify", "--secret-env", "WEBHOOK_SECRET"], http)).code, 0);
    assertOneError(
      await run(["webhook", "verify", "--secret-env", "WEBHOOK_SECRET", "--signature", sig], got.body + " "),
      1,
      /Signature does not match/,
    );
    assertOneError(
      await run(["webhook", "verify", "--secret-env", "WEBHOOK_SECRET"], got.body),
      2,
      /no signature to check/,
    );

    await sandboxConfig(fx.sb.url, { webhook_page_size: 1 });
    const all = json<Hook[]>(await run(["webhook", "list", "-o", "json"]));
    assert.equal(all.length, 2);
    assert.equal((await requestLog(fx.sb.url, "/webhooks/v1/hooks")).length, 2, "two pages of one hook");
    const derivative = json<Hook[]>(
      await run(["webhook", "list", "--event", "extraction.finished", "-o", "json"]),
    );
    assert.deepEqual(derivative.map((h) => h.hookId), [hook.hookId]);
    assert.equal(json<Hook[]>(await run(["webhook", "list", "--system", "data", "-o", "json"])).length, 1);
    assert.deepEqual(json(await run(["webhook", "list", "--region", "emea", "-o", "json"])), []);
    const table = await run(["webhook", "list", "-o", "table"]);
    assert.match(table.stdout, /hookId\s.*system\s.*event\s.*status/);
  } finally {
    await rx.close();
    await fx.close();
  }
});

Deno.test("webhook: a slow receiver makes its hook inactive; list says so and how to fix it; delete", async () => {
  const fx = await mdFixture();
  const slow = receiver("hold");
  try {
    const run = (args: string[]) => diazo(args, { env: fx.env });
    await sandboxConfig(fx.sb.url, {
      webhook_timeout_ms: 150,
      webhook_retries: 1,
      webhook_retry_delay_ms: 10,
      webhook_failure_limit: 1,
    });
    const made = await run([
      "webhook",
      "create",
      "--url",
      slow.url,
      "--event",
      "extraction.finished",
      "--scope",
      "workflow=slow",
      "-o",
      "json",
    ]);
    assert.equal(made.code, 0, made.stderr);
    const hook = json<Hook>(made);
    const { urn } = await fx.upload("cube.obj", CUBE_OBJ);
    assert.equal(
      (await run(["translate", "start", urn, "--format", "obj", "--workflow", "slow", "--wait"])).code,
      0,
    );
    await slow.received(2); // the first attempt and one retry
    await untilState(
      fx.sb.url,
      (s) => (s.webhook_deliveries as { hookId: string }[]).some((d) => d.hookId === hook.hookId),
    );
    const state = await (await fetch(`${fx.sb.url}/_sandbox/state`)).json();
    const [delivery] = state.webhook_deliveries;
    assert.deepEqual([delivery.ok, delivery.attempts, delivery.status, delivery.signed], [
      false,
      2,
      0,
      false,
    ]);
    assert.match(delivery.error, /no answer within 150 ms/);

    const list = await run(["webhook", "list", "-o", "json"]);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(json<Hook[]>(list)[0].status, "inactive");
    assert.match(
      list.stderr,
      new RegExp(`warning: hook ${hook.hookId} \\(extraction\\.finished\\) is inactive`),
    );
    assert.match(
      list.stderr,
      /Delete and recreate it: diazo webhook delete .* --system derivative --event extraction\.finished/,
    );
    const inactive = await run(["webhook", "list", "--status", "inactive", "-o", "table"]);
    assert.match(inactive.stdout, /inactive/);

    const del = ["webhook", "delete", hook.hookId, "--event", "extraction.finished"];
    const sent = (await requestLog(fx.sb.url)).length;
    assertOneError(
      await run(["webhook", "delete", "../x", "--event", "extraction.finished", "--yes"]),
      2,
      /invalid hook id '\.\.\/x'/,
      /webhook list/,
    );
    assert.equal((await requestLog(fx.sb.url)).length, sent, "a malformed hook id sends no request");
    assertOneError(await run(del), 2, /confirmation required/, /--yes/);
    const deleted = await run([...del, "--yes", "-o", "json"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(json(deleted), {
      hookId: hook.hookId,
      system: "derivative",
      event: "extraction.finished",
      deleted: true,
    });
    assert.deepEqual(json(await run(["webhook", "list", "-o", "json"])), []);
    assertOneError(
      await run([...del, "--yes"]),
      4,
      /Not found: hook .* \(derivative extraction\.finished\)/,
      /webhook list/,
    );
  } finally {
    await slow.close();
    await fx.close();
  }
});

Deno.test("webhook test: no login; 200 passes signed, 500 and a receiver slower than the budget fail", async () => {
  const fx = await mdFixture();
  const good = receiver({ status: 200 });
  const failing = receiver({ status: 500 });
  const slow = receiver("hold");
  try {
    // No credentials at all, and the sandbox sees no request: the test talks to the receiver only.
    const env = cliEnv(fx.home, { DIAZO_BASE_URL: fx.sb.url, DIAZO_WEBHOOK_TEST_BUDGET_MS: "300" });
    const before = (await requestLog(fx.sb.url)).length;
    const secret = "anotherSecretForTheWebhookTestCommand0123";
    const pass = await diazo(["webhook", "test", good.url, "--secret-stdin", "-o", "json"], {
      env,
      stdin: secret,
    });
    assert.equal(pass.code, 0, pass.stderr);
    const report = json<
      { ok: boolean; status: number; latency_ms: number; signed: boolean; budget_ms: number }
    >(pass);
    assert.deepEqual([report.ok, report.status, report.signed, report.budget_ms], [true, 200, true, 300]);
    const [got] = await good.received(1);
    assert.equal(got.headers.get("x-adsk-signature"), await signWebhookBody(secret, got.body));
    assert.equal(JSON.parse(got.body).hook.event, "dm.version.added");

    const fail = await diazo(["webhook", "test", failing.url, "-o", "json"], { env });
    assert.equal(fail.code, 1);
    assert.deepEqual(
      [json<{ ok: boolean; status: number }>(fail).ok, json<{ status: number }>(fail).status],
      [false, 500],
    );
    assert.match(fail.stderr, /answered HTTP 500 in \d+ ms/);
    assert.match(
      fail.stderr,
      /error: Webhook callback not reachable\nhint: .*answer with a 2xx within the platform.s 7 seconds/,
    );

    const late = await diazo(["webhook", "test", slow.url], { env });
    assert.equal(late.code, 1);
    assert.match(late.stderr, /answered nothing in \d+ ms: no answer within 300 ms/);
    assert.match(late.stderr, /error: Webhook callback not reachable/);
    assert.equal((await requestLog(fx.sb.url)).length, before, "no request to the platform");
  } finally {
    await Promise.all([good.close(), failing.close(), slow.close()]);
    await fx.close();
  }
});
