/**
 * A user login from the assistant: auth_login starts a device login and answers the address and code at
 * once; the user approves elsewhere; the next call completes it, with account:read for the admin tools.
 */
import assert from "node:assert/strict";
import { fails, fixture, ok, startServe } from "./helpers.ts";

async function sandboxConfig(url: string, body: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(r.status, 200, await r.text());
}

Deno.test("auth_login: the code and address at once, approval elsewhere, then logged in; admin tools work", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env);
  try {
    const refused = await fails(serve.client, "admin_account_list", {});
    assert.match(refused.hint, /auth_login/);
    const none = await fails(serve.client, "auth_login", { wait_seconds: 0 });
    assert.match(none.message, /no device authorization/);

    await sandboxConfig(fx.url, { device_flow: true, device_interval_seconds: 1 });
    const started = await ok(serve.client, "auth_login", { wait_seconds: 0 });
    assert.equal(started.status, "pending");
    assert.match(started.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.ok(started.scopes.includes("account:read"));
    assert.match(started.message, new RegExp(`enter the code ${started.user_code}`));
    const approved = await fetch(started.verification_uri_complete);
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const done = await ok(serve.client, "auth_login", { wait_seconds: 30 });
    assert.equal(done.status, "logged_in", JSON.stringify(done));
    assert.ok(done.scopes.includes("account:read"));
    const accounts = await ok(serve.client, "admin_account_list", {});
    assert.ok(accounts.count > 0);
    const status = await ok(serve.client, "auth_status", {});
    assert.equal(status.user_login.logged_in, true);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("schemas and hints: issue_create requires title and type in its schema; a bad date says what it should look like", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--toolsets", "acc"]);
  try {
    const { tools } = await serve.client.listTools();
    const create = tools.find((t) => t.name === "issue_create")!;
    assert.deepEqual([...(create.inputSchema.required ?? [])].sort(), [
      "issue_subtype_id",
      "project_id",
      "title",
    ]);
    for (const t of tools) {
      for (const [k, v] of Object.entries(t.inputSchema.properties ?? {})) {
        assert.ok((v as { description?: string }).description, `${t.name}.${k} has no description`);
      }
      assert.doesNotMatch(JSON.stringify(t.inputSchema) + t.description, /`diazo [a-z]/, t.name);
    }
    const bad = await fails(serve.client, "issue_update", {
      project_id: "p",
      issue_id: "7",
      due_date: "5/1/2026",
    });
    assert.match(
      bad.message,
      /due_date: does not have the expected form; it should look like this: YYYY-MM-DD/,
    );
    assert.doesNotMatch(bad.message, /\\d\{4\}/, "no raw pattern");
  } finally {
    await serve.close();
    await fx.close();
  }
});
