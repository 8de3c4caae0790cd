/**
 * `toolset_enable`: switches on one more toolset while the server runs, so that a small default set
 * (families/serve/toolsets.ts) can grow to what the task needs; clients that follow
 * `notifications/tools/list_changed` see the new tools at once.
 */
import { z } from "zod";
import { usageError } from "../../core/errors.ts";
import { type AnyTool, defineTool } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";
import { TOOLSETS } from "./toolsets.ts";

/** The toolset_enable tool. */
export const TOOLSET_ENABLE: AnyTool = defineTool({
  name: "toolset_enable",
  title: "Enable a toolset",
  description: "Offers the tools of one more toolset from now on (the instructions say what each reaches); " +
    "answers the tools added and tells the client the tool list changed. Local: no request, no login. " +
    "Refused over --http (stateless: each request meets a fresh server); start that one with --toolsets.",
  input: { toolset: z.enum(TOOLSETS).describe("The toolset to switch on.") },
  output: {
    toolset: z.string(),
    added: z.array(z.string()).describe("The tools now offered that were not before."),
    offered: z.number().describe("How many tools the server offers now."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scopes: toolScopes("toolset_enable"),
  login: "none",
  run(args, ctx) {
    if (!ctx.enableToolset) {
      // Only `serve --http` makes servers without a selection: one per request, so nothing outlives a call.
      throw usageError(
        "this server cannot change its tools while it runs: over --http it is stateless, each request " +
          "meets a fresh server",
        `Start it with --toolsets ${args.toolset} (e.g. serve --http --toolsets ${args.toolset}); ` +
          "serve --print-config prints the entry.",
      );
    }
    return Promise.resolve({ toolset: args.toolset, ...ctx.enableToolset(args.toolset) });
  },
});
