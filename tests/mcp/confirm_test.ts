/**
 * Final actions belong to the human: with a client that declares elicitation every destructive tool
 * asks through it, and a model-supplied `confirm: true` does not skip the question; a client without
 * elicitation still needs `confirm: true`.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { contextFor } from "../../src/front/root.ts";
import { serveDeps } from "../../src/families/serve/deps.ts";
import { type CallToolResult, Client, ElicitRequestSchema, InMemoryTransport } from "../../src/mcp/sdk.ts";
import { createServer } from "../../src/families/serve/server.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { captureIo } from "../e2e/capture.ts";
import { FLAGS } from "../ops/helpers.ts";
import { openSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { fails, ok, textOf } from "./helpers.ts";

/** A client of every tool, in process; with `answer`, it declares elicitation and answers each question so. */
async function connect(env: Record<string, string>, cwd: string, answer?: "decline" | "accept") {
  const ctx = await contextFor(captureIo().io, FLAGS, env, cwd);
  const server = createServer(ALL_TOOLS, serveDeps(ctx));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: "asks", version: "1" },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const questions: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(String(request.params.message));
      return answer === "decline" ? { action: "decline" } : { action: "accept", content: { confirm: true } };
    });
  }
  await client.connect(clientSide);
  return {
    client,
    questions,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

async function declined(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: { ...args, confirm: true } }) as CallToolResult;
  assert.equal(result.isError, true, `${name} went ahead: ${textOf(result)}`);
  assert.match(textOf(result), /the user declined/, name);
}

Deno.test("confirm: a client that declines changes nothing even with confirm: true, and is asked every time", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  const login = await loginUser(h.env, "data:read,data:write,data:create,account:read,account:write");
  assert.equal(login.code, 0, login.stderr);
  const cwd = h.home.cwd;
  await Deno.writeTextFile(path.join(cwd, "a.obj"), "first\n");
  const plain = await connect(h.env, cwd);
  const asks = await connect(h.env, cwd, "decline");
  try {
    const c = plain.client;
    await ok(c, "bucket_create", { bucket_key: "seat-keep" });
    const first = await ok(c, "object_upload", { bucket_key: "seat-keep", file: "a.obj" });
    const accounts = await ok(c, "admin_account_list", {});
    const projects = await ok(c, "admin_project_list", { account_id: accounts.items[0].id, limit: 1 });
    const project = projects.items[0].id;
    const users = (await ok(c, "admin_project_users", { project_id: project, limit: 200 })).count;

    await Deno.writeTextFile(path.join(cwd, "a.obj"), "second, longer\n");
    await declined(asks.client, "bucket_delete", { bucket_key: "seat-keep" });
    await declined(asks.client, "object_delete", { bucket_key: "seat-keep", object_key: "a.obj" });
    await declined(asks.client, "object_upload", { bucket_key: "seat-keep", file: "a.obj" });
    await declined(asks.client, "admin_project_user_add", {
      project_id: project,
      email: "no.one@example.com",
    });
    await declined(asks.client, "object_signed_url", { bucket_key: "seat-keep", object_key: "a.obj" });
    assert.equal(asks.questions.length, 5, asks.questions.join("\n"));
    assert.match(asks.questions[2], /^Replace object a\.obj of bucket seat-keep/);
    assert.match(asks.questions[3], /^Give no\.one@example\.com access to project/);

    const kept = await ok(c, "object_list", { bucket_key: "seat-keep" });
    assert.deepEqual(kept.items.map((o: { objectKey: string; sha1: string }) => [o.objectKey, o.sha1]), [[
      "a.obj",
      first.sha1,
    ]]);
    assert.equal((await ok(c, "admin_project_users", { project_id: project, limit: 200 })).count, users);

    // Without elicitation: confirm: true is still needed, and is enough.
    const refused = await fails(c, "object_upload", { bucket_key: "seat-keep", file: "a.obj" });
    assert.match(refused.message, /^Replace object a\.obj of bucket seat-keep .*confirm must be true$/);
    const grant = await fails(c, "admin_project_user_add", {
      project_id: project,
      email: "no.one@example.com",
    });
    assert.match(grant.message, /This is the user's decision: confirm must be true$/);
    const replaced = await ok(c, "object_upload", { bucket_key: "seat-keep", file: "a.obj", confirm: true });
    assert.notEqual(replaced.sha1, first.sha1);
    // A new key replaces nothing: no question.
    await ok(c, "object_upload", { bucket_key: "seat-keep", file: "a.obj", object_key: "b.obj" });
    assert.equal((await fails(c, "bucket_delete", { bucket_key: "seat-keep" })).code, "usage");
    assert.equal((await ok(c, "bucket_delete", { bucket_key: "seat-keep", confirm: true })).deleted, true);
  } finally {
    await plain.close();
    await asks.close();
    await h.close();
  }
});

Deno.test("confirm: a client that accepts is asked once per call and the action happens", async () => {
  const h = await openSandboxHome();
  const asks = await connect(h.env, h.home.cwd, "accept");
  try {
    await ok(asks.client, "bucket_create", { bucket_key: "seat-yes" });
    assert.equal((await ok(asks.client, "bucket_delete", { bucket_key: "seat-yes" })).deleted, true);
    assert.deepEqual(asks.questions, ["Delete bucket seat-yes and every object in it?"]);
  } finally {
    await asks.close();
    await h.close();
  }
});
