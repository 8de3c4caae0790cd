/**
 * What a user can attach: resources of the tool server. Templates name a translated design's manifest,
 * object hierarchy and properties by its URN (`diazo://derivative/<urn>/manifest`); the one fixed resource
 * is the list of toolsets. Each read goes through the same verbs as the tools (families/translate/verbs.ts).
 */
import { parseUrn } from "../../aps/urn.ts";
import { MAX_RESULT_CHARS } from "../../mcp/result.ts";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Server,
} from "../../mcp/sdk.ts";
import type { ToolContext } from "../../mcp/tool.ts";
import { TOOLSET_TEXT, TOOLSETS } from "./toolsets.ts";
import { runTranslateManifest, runTranslateProperties, runTranslateTree } from "../translate/verbs.ts";

const SCHEME = "diazo://";
const TOOLSETS_URI = `${SCHEME}server/toolsets`;

/** The resource templates: a design's derivative data by URN. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: `${SCHEME}derivative/{urn}/manifest`,
    name: "translation-manifest",
    title: "Translation manifest",
    description:
      "The Model Derivative manifest of a design (its translations, views and their status), by URN.",
    mimeType: "application/json",
  },
  {
    uriTemplate: `${SCHEME}derivative/{urn}/tree`,
    name: "model-tree",
    title: "Model object hierarchy",
    description: "The object tree of a translated design's master 3D view, by URN.",
    mimeType: "application/json",
  },
  {
    uriTemplate: `${SCHEME}derivative/{urn}/properties`,
    name: "model-properties",
    title: "Model properties",
    description:
      "The properties of the objects of a translated design's master 3D view, by URN (capped in size).",
    mimeType: "application/json",
  },
] as const;

/** What a derivative resource URI names, or undefined. */
export function parseResourceUri(
  uri: string,
): { urn: string; what: "manifest" | "tree" | "properties" } | undefined {
  const m = /^diazo:\/\/derivative\/([^/]+)\/(manifest|tree|properties)$/.exec(uri);
  if (!m) return undefined;
  return { urn: decodeURIComponent(m[1]), what: m[2] as "manifest" | "tree" | "properties" };
}

/** JSON text of at most MAX_RESULT_CHARS characters: a longer answer is cut and says so. */
function capped(value: unknown): string {
  const text = JSON.stringify(value);
  if (text.length <= MAX_RESULT_CHARS) return text;
  return JSON.stringify({
    truncated: true,
    note:
      `The whole answer has ${text.length} characters; translate_tree and translate_properties page through it.`,
    head: text.slice(0, MAX_RESULT_CHARS - 300),
  });
}

async function readDerivative(uri: string, ctx: ToolContext): Promise<string> {
  const named = parseResourceUri(uri);
  if (!named) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource '${uri}': resources/templates/list`);
  }
  const { urn } = parseUrn(named.urn);
  if (named.what === "manifest") return capped(await runTranslateManifest({ urn }, ctx));
  const read = named.what === "tree" ? runTranslateTree : runTranslateProperties;
  return capped((await read({ urn, timeoutMs: 60_000 }, ctx)).data);
}

/** Offers the resources on `server` (declared in its capabilities), read with `ctx`. */
export function registerResources(server: Server, ctx: ToolContext): void {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{
      uri: TOOLSETS_URI,
      name: "toolsets",
      title: "diazo's toolsets",
      description: "The toolsets of diazo's tool server, which are offered now, and how to add one.",
      mimeType: "text/markdown",
    }],
  }));
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === TOOLSETS_URI) {
      const offered = new Set(ctx.tools.map((t) => t.name));
      const lines = TOOLSETS.map((t) => `- **${t}**: ${TOOLSET_TEXT[t]}`);
      const text = `# Toolsets\n\n${lines.join("\n")}\n\nOffered now: ${[...offered].join(", ")}.\n` +
        "toolset_enable adds a toolset.\n";
      return { contents: [{ uri, mimeType: "text/markdown", text }] };
    }
    const text = await readDerivative(uri, ctx);
    return { contents: [{ uri, mimeType: "application/json", text }] };
  });
}
