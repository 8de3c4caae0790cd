/**
 * Sizes the tool server answers a model with: the `tools/list` of the default tool set and of each
 * toolset, in bytes, and the answers of the construction-cloud list tools on the sandbox's seeded
 * project by default, in characters (structured content plus its text).
 */
import type { CallToolResult, Client } from "../../src/mcp/sdk.ts";
import { TOOLSETS } from "../../src/families/serve/toolsets.ts";
import { openSandboxHome } from "../../tests/e2e/harness.ts";
import { loginUser } from "../../tests/e2e/user_login.ts";
import { PROJECT } from "../../tests/e2e/acc_fixture.ts";
import { startServe } from "../../tests/mcp/helpers.ts";

/** One measured size. */
export interface Size {
  name: string;
  size: number;
  unit: "bytes" | "chars";
  records?: number;
}

async function listBytes(env: Record<string, string>, cwd: string, args: string[]): Promise<number> {
  const serve = await startServe(env, args, cwd, { defaultSet: true });
  try {
    const { tools } = await serve.client.listTools();
    return new TextEncoder().encode(JSON.stringify({ tools })).length;
  } finally {
    await serve.close();
  }
}

async function answerChars(client: Client, name: string, args: Record<string, unknown>): Promise<Size> {
  const r = await client.callTool({ name, arguments: args }) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const records = (r.structuredContent as { count?: number }).count;
  return {
    name: `${name} (default)`,
    size: JSON.stringify(r.structuredContent).length + text.length,
    unit: "chars",
    records,
  };
}

/** Measures and prints the sizes; returns them. */
export async function benchServeSizes(): Promise<Size[]> {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const login = await loginUser(h.env, "data:read,account:read");
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
    const cwd = h.home.cwd;
    const sizes: Size[] = [{
      name: "tools/list (default)",
      size: await listBytes(h.env, cwd, []),
      unit: "bytes",
    }];
    for (const set of TOOLSETS) {
      sizes.push({
        name: `tools/list --toolsets ${set}`,
        size: await listBytes(h.env, cwd, ["--toolsets", set]),
        unit: "bytes",
      });
    }
    sizes.push({
      name: "tools/list --toolsets all",
      size: await listBytes(h.env, cwd, ["--toolsets", "all"]),
      unit: "bytes",
    });
    const serve = await startServe(h.env, ["--toolsets", "acc"], cwd);
    try {
      for (const name of ["issue_list", "rfi_list", "submittal_list"]) {
        sizes.push(await answerChars(serve.client, name, { project_id: PROJECT }));
      }
    } finally {
      await serve.close();
    }
    console.log("\nTool server sizes (what a model reads)");
    for (const s of sizes) {
      const records = s.records === undefined ? "" : ` (${s.records} records)`;
      console.log(`${s.name.padEnd(36)}${String(s.size).padStart(9)} ${s.unit}${records}`);
    }
    return sizes;
  } finally {
    await h.close();
  }
}

if (import.meta.main) await benchServeSizes();
