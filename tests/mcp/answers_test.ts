/**
 * Answers sized for a model: compact list records by default (fields for more), one text summary
 * beside the structured content (the whole JSON only for a client of a protocol before structured
 * content), and errors said once.
 */
import assert from "node:assert/strict";
import { contextFor } from "../../src/front/root.ts";
import { serveDeps } from "../../src/families/serve/deps.ts";
import { type CallToolResult, InMemoryTransport, type JSONRPCMessage } from "../../src/mcp/sdk.ts";
import { createServer } from "../../src/families/serve/server.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { summaryOf } from "../../src/mcp/result.ts";
import { captureIo } from "../e2e/capture.ts";
import { FLAGS } from "../ops/helpers.ts";
import { openSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { PROJECT } from "../e2e/acc_fixture.ts";
import { fails, ok, startServe } from "./helpers.ts";

Deno.test("answers: issue, RFI and submittal lists of the seeded project stay under 12,000 characters; fields adds more", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const login = await loginUser(h.env, "data:read");
    assert.equal(login.code, 0, login.stderr);
    const serve = await startServe(h.env, ["--toolsets", "acc,dm"], h.home.cwd);
    try {
      for (const name of ["issue_list", "rfi_list", "submittal_list"]) {
        const r = await serve.client.callTool({ name, arguments: { project_id: PROJECT } }) as CallToolResult;
        assert.ok(!r.isError);
        const size = JSON.stringify(r.structuredContent).length +
          (r.content[0] as { text: string }).text.length;
        const count = (r.structuredContent as { count: number }).count;
        assert.ok(count > 30 && count <= 50, `${name}: ${count}`);
        assert.ok(size <= 12_000, `${name}: ${size} characters for ${count} records`);
      }
      const issues = await ok(serve.client, "issue_list", { project_id: PROJECT, limit: 2 });
      assert.equal(issues.items[0].description, undefined);
      assert.equal(typeof issues.items[0].displayId, "number");
      const more = await ok(serve.client, "issue_list", { project_id: PROJECT, limit: 2, fields: ["id"] });
      assert.match(more.items[0].id, /^[0-9a-f-]{36}$/);
      const rfis = await ok(serve.client, "rfi_list", {
        project_id: PROJECT,
        limit: 1,
        fields: ["question"],
      });
      assert.deepEqual(Object.keys(rfis.items[0].record), ["question"]);
      const whole = await ok(serve.client, "rfi_list", { project_id: PROJECT, limit: 1, fields: ["*"] });
      assert.ok(Object.keys(whole.items[0].record).length > 5);
      // Data management: plain attributes only, unless asked.
      const hubs = await ok(serve.client, "hub_list", {});
      assert.equal(hubs.items[0].attributes.extension, undefined);
      const full = await ok(serve.client, "hub_list", { fields: ["*"] });
      assert.ok(full.items[0].attributes.extension);
      const e = await fails(serve.client, "issue_get", { project_id: PROJECT, issue_id: "9999" });
      assert.ok(e.message.length > 0);
    } finally {
      await serve.close();
    }
  } finally {
    await h.close();
  }
});

Deno.test("answers: a client of protocol 2025-03-26 reads the whole JSON as text; a newer one a summary line", async () => {
  const h = await openSandboxHome();
  const ctx = await contextFor(captureIo().io, FLAGS, h.env, h.home.cwd);
  const server = createServer(ALL_TOOLS, serveDeps(ctx));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<unknown, Record<string, unknown>>();
  clientSide.onmessage = (m) => {
    const msg = m as { id?: unknown; result?: Record<string, unknown> };
    if (msg.id !== undefined && msg.result) answers.set(msg.id, msg.result);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const send = (m: Record<string, unknown>) => clientSide.send({ jsonrpc: "2.0", ...m } as JSONRPCMessage);
  const answer = async (id: number) => {
    for (let i = 0; i < 200 && !answers.has(id); i++) await new Promise((r) => setTimeout(r, 5));
    return answers.get(id)!;
  };
  try {
    await send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    await answer(1);
    await send({ method: "notifications/initialized" });
    const args = { bucket_key: "seat-b", object_key: "m.obj" };
    await send({ id: 2, method: "tools/call", params: { name: "object_urn", arguments: args } });
    const result = await answer(2) as CallToolResult;
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.structuredContent);
  } finally {
    await server.close();
    await h.close();
  }
  const line = summaryOf({
    items: [{ name: "a" }, { name: "b" }],
    count: 2,
    has_more: true,
    next_cursor: "C",
  });
  assert.equal(
    line,
    "2 items (a, b); has_more: true, next_cursor: C. The items are in the structured content.",
  );
});
