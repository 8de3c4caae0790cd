/** `serve --toolsets`: which tools a server offers and says it offers; bucket_list over every region. */
import assert from "node:assert/strict";
import { DEFAULT_TOOLS, TOOLSETS } from "../../src/families/serve/toolsets.ts";
import { ToolListChangedNotificationSchema } from "../../src/mcp/sdk.ts";
import { selectTools, TOOLSET_TOOLS, toolsetOf } from "../../src/families/serve/tools.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { diazo } from "../e2e/harness.ts";
import { fixture, ok, startServe } from "./helpers.ts";

Deno.test("serve --toolsets dm,acc --read-only lists exactly the read-only tools of those two toolsets", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--toolsets", "dm,acc", "--read-only"]);
  try {
    const { tools } = await serve.client.listTools();
    const expected = [...TOOLSET_TOOLS.dm, ...TOOLSET_TOOLS.acc].filter((t) => t.annotations.readOnlyHint)
      .map((t) => t.name);
    assert.ok(expected.includes("hub_list") && expected.includes("issue_list"));
    assert.deepEqual(tools.map((t) => t.name).sort(), expected.sort());
    for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
    // The instructions describe exactly what is offered.
    const text = serve.client.getInstructions() ?? "";
    assert.match(text, /data management/);
    assert.match(text, /construction-cloud records/);
    assert.doesNotMatch(text, /storage buckets|Design Automation|webhooks|auth_status/);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("selectTools: toolsets compose with --tools and --exclude-tools; all is every toolset", () => {
  const names = (t: readonly { name: string }[]) => t.map((x) => x.name);
  assert.deepEqual(names(selectTools(ALL_TOOLS, { toolsets: ["all"] })), names(ALL_TOOLS));
  const storage = selectTools(ALL_TOOLS, { toolsets: ["storage"], exclude: ["bucket_delete"] });
  assert.ok(storage.every((t) => toolsetOf(t.name) === "storage"));
  assert.ok(!names(storage).includes("bucket_delete"));
  assert.deepEqual(
    names(selectTools(ALL_TOOLS, { toolsets: ["storage"], include: ["bucket_list", "hub_list"] })),
    ["bucket_list"],
  );
  for (const tool of ALL_TOOLS) assert.ok(TOOLSETS.includes(toolsetOf(tool.name)!), tool.name);
  assert.throws(() => selectTools(ALL_TOOLS, { toolsets: ["storage", "nope"] }), /unknown toolset 'nope'/);
});

Deno.test("serve --toolsets: an unknown toolset is a usage error listing them; --print-config keeps the toolsets", async () => {
  const fx = await fixture();
  try {
    const bad = await diazo(["serve", "--toolsets", "dm,storag"], { env: fx.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /error: unknown toolset 'storag'\nhint: Use one of: context, storage, /);
    const cfg = await diazo(["serve", "--print-config", "claude", "--toolsets", "dm,acc", "--read-only"], {
      env: fx.env,
    });
    assert.equal(cfg.code, 0, cfg.stderr);
    const args: string[] = JSON.parse(cfg.stdout).mcpServers.diazo.args;
    assert.deepEqual(args.slice(args.indexOf("serve")), ["serve", "--toolsets", "dm,acc", "--read-only"]);
  } finally {
    await fx.close();
  }
});

Deno.test("bucket_list: every region unless one is given; has_more is true exactly when buckets remain", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--tools", "bucket_create,bucket_list"]);
  try {
    for (
      const [key, region] of [["mcp-us-a", "US"], ["mcp-us-b", "US"], ["mcp-eu-a", "EMEA"], [
        "mcp-jp-a",
        "JPN",
      ]]
    ) {
      await ok(serve.client, "bucket_create", { bucket_key: key, region });
    }
    const keys = (page: { items: { bucketKey: string }[] }) => page.items.map((b) => b.bucketKey);
    const all = await ok(serve.client, "bucket_list", {});
    assert.deepEqual(keys(all), ["mcp-us-a", "mcp-us-b", "mcp-eu-a", "mcp-jp-a"]);
    assert.equal(all.has_more, false);
    const exact = await ok(serve.client, "bucket_list", { limit: 4 });
    assert.equal(exact.has_more, false, "no bucket remains after the fourth");
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok(serve.client, "bucket_list", { limit, ...(cursor ? { cursor } : {}) });
        seen.push(...keys(page));
        assert.equal(page.has_more, seen.length < 4, `limit ${limit} after ${seen.length}`);
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, keys(all), `limit ${limit}`);
    }
    const emea = await ok(serve.client, "bucket_list", { region: "EMEA" });
    assert.deepEqual(keys(emea), ["mcp-eu-a"]);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("README: the Serve section's table lists every tool in its toolset, and its destructive ones", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  for (const set of TOOLSETS) {
    const row = readme.split("\n").find((l) => new RegExp(`^\\|\\s*\`${set}\`\\s*\\|`).test(l));
    assert.ok(row, `README has no row for ${set}`);
    const [, tools, destructive] = row.split("|").slice(1).map((cell) =>
      [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])
    );
    assert.deepEqual(tools, TOOLSET_TOOLS[set].map((t) => t.name), set);
    assert.deepEqual(
      destructive,
      TOOLSET_TOOLS[set].filter((t) => t.annotations.destructiveHint).map((t) => t.name),
    );
  }
});

Deno.test("serve: the default set is the context tools and everyday reads under 40,000 bytes; toolset_enable adds a toolset and says the list changed", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, [], undefined, { defaultSet: true });
  try {
    const { tools } = await serve.client.listTools();
    const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
    assert.ok(bytes <= 40_000, `default tools/list: ${bytes} bytes`);
    const names = tools.map((t) => t.name);
    assert.deepEqual([...names].sort(), [...DEFAULT_TOOLS].sort());
    // Only reads, but for the login (it saves a token).
    const writes = tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
    assert.deepEqual(writes, ["auth_login"], "the default set only reads");
    const instructions = serve.client.getInstructions() ?? "";
    assert.match(instructions, /toolset_enable, toolset by toolset: .*admin/);
    assert.equal(instructions.split("diazo auth login").length - 1, 1, "the login is told once");
    assert.ok(!tools.some((t) => (t.description ?? "").includes("diazo auth login")), "not in descriptions");

    let changed = 0;
    serve.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const enabled = await ok(serve.client, "toolset_enable", { toolset: "events" });
    assert.deepEqual(enabled.added, TOOLSET_TOOLS.events.map((t) => t.name));
    const after = (await serve.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(after, [...names, ...enabled.added]);
    assert.ok((await ok(serve.client, "webhook_events", {})).events.length > 0);
    for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(changed, 1);
    assert.deepEqual((await ok(serve.client, "toolset_enable", { toolset: "events" })).added, []);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("serve --read-only: toolset_enable adds only the read-only tools of a toolset", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--read-only"], undefined, { defaultSet: true });
  try {
    const enabled = await ok(serve.client, "toolset_enable", { toolset: "storage" });
    assert.ok(!enabled.added.includes("bucket_delete"));
    assert.ok(
      enabled.added.every((n: string) => ALL_TOOLS.find((t) => t.name === n)?.annotations.readOnlyHint),
    );
  } finally {
    await serve.close();
    await fx.close();
  }
});
