/** Heavy modules load only when used: checked on the static module graph that `deno info` reports. */
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT } from "../e2e/harness.ts";

interface Dep {
  specifier: string;
  code?: { specifier: string };
  isDynamic?: boolean;
}

async function staticClosure(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", path.join(ROOT, "deno.json"), path.join(ROOT, entry)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: Dep[] }[];
    redirects: Record<string, string>;
  };
  const bySpec = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...graph.roots];
  while (stack.length) {
    let s = stack.pop()!;
    s = graph.redirects[s] ?? s;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpec.get(s)?.dependencies ?? []) {
      if (!d.isDynamic && d.code?.specifier) stack.push(d.code.specifier);
    }
  }
  return [...seen];
}

const HEAVY = [/modelcontextprotocol/, /npm:.*\/yaml@/, /npm:\/?yaml@/, /\/src\/sandbox\//, /\/src\/mcp\//];

Deno.test("`diazo --version` statically loads no npm package, no sandbox, no tool server", async () => {
  const mods = await staticClosure("src/main.ts");
  assert.ok(mods.some((m) => m.endsWith("/src/core/version.ts")));
  for (const m of mods) {
    assert.ok(!m.startsWith("npm:"), `--version path loads ${m}`);
    for (const h of HEAVY) assert.doesNotMatch(m, h);
  }
});

Deno.test("the command tree and the bucket family load neither yaml, the MCP SDK nor the sandbox", async () => {
  for (
    const entry of [
      "src/front/root.ts",
      "src/families/bucket/commands.ts",
      "src/families/auth/commands.ts",
      "src/families/config/commands.ts",
    ]
  ) {
    const mods = await staticClosure(entry);
    for (const m of mods) for (const h of HEAVY) assert.doesNotMatch(m, h, `${entry} statically loads ${m}`);
  }
});

Deno.test("hub, project, folder and admin load neither the item and dm declarations nor the progress bars", async () => {
  for (const family of ["dm", "admin"]) {
    const mods = await staticClosure(`src/families/${family}/commands.ts`);
    assert.ok(mods.some((m) => m.endsWith(`/src/families/${family}/verbs.ts`)), "the walk reached the verbs");
    for (const m of mods) {
      assert.doesNotMatch(m, /\/families\/dm\/write_commands\.ts$|\/command\/progress\.ts$/, m);
    }
  }
});

Deno.test("a run that succeeds loads no help page, refusal mapping, --query, csv, long-list json, prompt or update plan", async () => {
  // The front door, a family and its verbs as `bucket list` loads them, and the update check's decision.
  for (
    const entry of [
      "src/front/root.ts",
      "src/command/io.ts",
      "src/front/update_notice.ts",
      "src/families/bucket/commands.ts",
      "src/families/bucket/verbs.ts",
    ]
  ) {
    const mods = await staticClosure(entry);
    for (const m of mods) {
      assert.doesNotMatch(
        m,
        /\/src\/(front\/command_help|core\/response_error|core\/output_(query|csv|pieces)|core\/query_literal|command\/stdin_line|front\/update_plan)\.ts$/,
        `${entry} statically loads ${m}`,
      );
    }
  }
});

Deno.test("the front door loads none of what a listing never runs: keychain, plugin runner, name lookup, writers, waits, streams, the traffic log", async () => {
  const mods = await staticClosure("src/front/root.ts");
  assert.ok(mods.some((m) => m.endsWith("/src/auth/token_open.ts")), "the walk reached the token store");
  const never = [
    "auth/token_keychain.ts",
    "auth/token_memory.ts",
    "front/extend_plugin.ts",
    "front/names_lookup.ts",
    "platform/fs_write.ts",
    "config/scope_report.ts",
    "http/poll.ts",
    "http/idle.ts",
    "http/stream_body.ts",
    "http/log.ts",
  ];
  for (const m of mods) {
    for (const n of never) assert.ok(!m.endsWith(`/src/${n}`), `the front door statically loads ${n}`);
  }
});

Deno.test("a webhook listing loads neither the writes, the catalog nor signature checking", async () => {
  const mods = await staticClosure("src/families/webhook/verbs.ts");
  assert.ok(mods.some((m) => m.endsWith("/src/families/webhook/api.ts")), "the walk reached the api");
  for (const m of mods) {
    assert.doesNotMatch(
      m,
      /\/webhook\/(write_verbs|check|catalog)\.ts$|\/aps\/webhook_(events|signature)\.ts$/,
      m,
    );
  }
  const decl = await staticClosure("src/families/webhook/commands.ts");
  for (const m of decl) assert.doesNotMatch(m, /\/families\/webhook\/(verbs|write_verbs|check)\.ts$/, m);
});

Deno.test("`auth status` loads neither the scope nor the report verbs", async () => {
  const mods = await staticClosure("src/families/auth/commands.ts");
  assert.ok(mods.some((m) => m.endsWith("/src/families/auth/verbs.ts")), "the walk reached the verbs");
  for (const m of mods) assert.doesNotMatch(m, /\/families\/auth\/(scopes|report)\.ts$/, m);
});
