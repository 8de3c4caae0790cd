/**
 * Every tool called with a missing required argument and with a malformed one: an `isError` answer
 * that names the argument, in the tool server's words (no CLI flag anywhere in it).
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../src/mcp/sdk.ts";
import { fixture, startServe, textOf } from "./helpers.ts";

type Schema = { properties?: Record<string, { type?: string | string[] }>; required?: string[] };

/** A value of the wrong shape for an argument of `type`: a syntax no id has, or a string for a non-string. */
function malformed(type: string | string[] | undefined): unknown {
  return type === "string" ? "!!not valid!!" : "not-a-value-of-this-type";
}

Deno.test("every tool: a missing and a malformed argument are isError answers naming the argument, without --", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--toolsets", "all"]);
  const checked: string[] = [];
  try {
    const { tools } = await serve.client.listTools();
    for (const tool of tools) {
      const schema = tool.inputSchema as Schema;
      const props = Object.keys(schema.properties ?? {});
      const required = schema.required ?? [];
      const expect = async (args: Record<string, unknown>, arg: string, what: string) => {
        const result = await serve.client.callTool({ name: tool.name, arguments: args }) as CallToolResult;
        const text = textOf(result);
        assert.equal(result.isError, true, `${tool.name} ${what}: ${text}`);
        assert.ok(text.includes(arg), `${tool.name} ${what}: names ${arg}: ${text}`);
        assert.doesNotMatch(text, /--/, `${tool.name} ${what}: no flag: ${text}`);
        checked.push(`${tool.name} ${what}`);
      };
      if (required.length) {
        // Every required argument but the first, well-formed enough to get past the others.
        await expect({}, required[0], "missing");
      }
      const arg = required[0] ?? props[0];
      if (arg === undefined) continue; // no arguments at all (auth_test, auth_status)
      const valid = Object.fromEntries(required.filter((r) => r !== arg).map((r) => [r, "x"]));
      await expect({ ...valid, [arg]: malformed(schema.properties?.[arg]?.type) }, arg, "malformed");
    }
    assert.ok(checked.length >= tools.length, checked.join("\n"));
  } finally {
    await serve.close();
    await fx.close();
  }
});
