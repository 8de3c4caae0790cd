/**
 * The tool kernel's derivation (src/mcp/derive.ts): a command declaration (src/command/decl.ts) becomes
 * a tool's input schema, typed by choices, parsers, defaults and required-ness, without the options only
 * the command line has, with the kernel's own parameters added by one rule.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { collect, positiveNumber } from "../../src/command/command.ts";
import type { CommandDecl } from "../../src/command/decl.ts";
import { commandOfTool, deriveTool, toolInputFrom } from "../../src/mcp/derive.ts";

const DECL: CommandDecl = {
  name: "thing",
  description: "a family",
  commands: [{
    name: "list",
    description: "list things",
    tool: "thing_list",
    args: [
      { spec: "<bucketKey>", description: "the bucket", toolDescription: "Bucket key, e.g. b1." },
      { spec: "[paths...]", description: "paths" },
    ],
    options: [
      { flags: "--region <region>", description: "a region", choices: ["US", "EMEA"], default: "US" },
      {
        flags: "--count <n>",
        description: "how many",
        parse: positiveNumber("--count", true),
        required: true,
      },
      { flags: "--tag <t>", description: "a tag", parse: collect() },
      { flags: "--single-use", description: "once" },
      { flags: "--no-wait", description: "do not wait" },
      { flags: "--out <file>", description: "write here", toolHidden: true },
      { flags: "--as <who>", description: "whose login", choices: ["user", "app"], toolName: "auth" },
      { flags: "--limit <n>", description: "stop after n", parse: positiveNumber("--limit", true) },
    ],
    run: () => {},
  }],
};

type Prop = {
  type?: string;
  enum?: string[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  items?: Prop;
  description?: string;
};

function schemaOf(shape: z.ZodRawShape) {
  return z.toJSONSchema(z.strictObject(shape), { io: "input" }) as {
    properties: Record<string, Prop>;
    required: string[];
  };
}

Deno.test("derive: arguments and options become snake-case properties typed by the declaration", () => {
  const cmd = commandOfTool(DECL, "thing_list");
  const s = schemaOf(toolInputFrom(cmd, { list: "things", confirm: true }));
  assert.deepEqual(Object.keys(s.properties), [
    "bucket_key",
    "paths",
    "region",
    "count",
    "tag",
    "single_use",
    "wait",
    "auth",
    "limit",
    "cursor",
    "fields",
    "confirm",
  ]);
  assert.deepEqual(s.required.sort(), ["bucket_key", "count"]);
  const p = s.properties;
  assert.equal(p.bucket_key.description, "Bucket key, e.g. b1.");
  assert.equal(p.bucket_key.minLength, 1);
  assert.equal(p.paths.type, "array");
  assert.deepEqual(p.region.enum, ["US", "EMEA"]);
  assert.equal(p.region.default, "US");
  assert.equal(p.region.description, "A region.");
  assert.equal(p.count.type, "integer");
  assert.equal(p.count.minimum, 1);
  assert.equal(p.tag.type, "array");
  assert.equal(p.single_use.type, "boolean");
  assert.equal(p.single_use.default, false);
  assert.equal(p.wait.default, true, "--no-wait: wait, true unless told");
  assert.deepEqual(p.auth.enum, ["user", "app"]);
  assert.equal(p.limit.default, 50, "the kernel's limit, not the command's --limit");
  assert.equal(p.confirm.type, "boolean");
  assert.ok(!("out" in p), "a toolHidden option is the command line's only");
});

Deno.test("derive: without a list the command's --limit is its own; types replace a derived property only", () => {
  const cmd = commandOfTool(DECL, "thing_list");
  const plain = schemaOf(toolInputFrom(cmd));
  assert.equal(plain.properties.limit.default, undefined);
  assert.ok(!("cursor" in plain.properties));
  const typed = schemaOf(
    toolInputFrom(cmd, { types: { auth: z.enum(["auto", "app", "user"]).default("auto") } }),
  );
  assert.deepEqual(typed.properties.auth.enum, ["auto", "app", "user"]);
  assert.throws(() => toolInputFrom(cmd, { types: { nope: z.string() } }), /'nope' is not an input/);
  const clash: CommandDecl = { ...cmd, options: [{ flags: "--cursor <c>", description: "a cursor" }] };
  assert.throws(() => toolInputFrom(clash, { list: "things" }), /'cursor' is the kernel's parameter/);
  assert.throws(() => commandOfTool(DECL, "other_tool"), /no command of thing names the tool other_tool/);
});

Deno.test("derive: a derived tool checks its arguments by the derived schema and says where it came from", async () => {
  const tool = deriveTool(DECL, {
    name: "thing_list",
    title: "List things",
    description: "Lists things.",
    derive: { list: "things" },
    output: { n: z.number() },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scopes: [],
    login: "none",
    run: (args) => Promise.resolve({ n: args.count + args.limit }),
  });
  assert.equal(tool.derivedFrom?.command.name, "list");
  assert.deepEqual(tool.derivedFrom?.kernel, ["limit", "cursor", "fields"]);
  const ok = tool.input.safeParse({ bucket_key: "b1", count: 2 });
  assert.ok(ok.success);
  assert.deepEqual(await tool.run(ok.data, {} as never), { n: 52 });
  assert.ok(!tool.input.safeParse({ bucket_key: "b1", count: 0 }).success, "count is positive");
  assert.ok(
    !tool.input.safeParse({ bucket_key: "b1", count: 1, region: "MARS" }).success,
    "region is a choice",
  );
  assert.ok(
    !tool.input.safeParse({ bucket_key: "b1", count: 1, out: "x" }).success,
    "no command-line-only input",
  );
});
