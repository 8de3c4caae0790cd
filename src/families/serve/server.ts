/**
 * The tool server: an MCP server built from a tool registry and the command layer's dependencies,
 * served over stdio (stdout carries protocol messages only) or Streamable HTTP on 127.0.0.1.
 */
import process from "node:process";
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { isDiazoError, usageError } from "../../core/errors.ts";
import { suggest } from "../../core/suggest.ts";
import { VERSION } from "../../core/version.ts";
import { asDiazoError, errorResult, STRUCTURED_SINCE, toolResult } from "../../mcp/result.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
  Server,
  type ServerNotification,
  StdioServerTransport,
  type Tool,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from "../../mcp/sdk.ts";
import type { AnyTool, ServeDeps, ToolContext } from "../../mcp/tool.ts";
import { ALL_TOOLS, instructionsFor, type ToolSelection, toolsetAddition, toolsetOf } from "./tools.ts";
import type { Toolset } from "./toolsets.ts";
import { limitLines, MAX_STDIO_MESSAGE_BYTES } from "./stdio_limit.ts";
import { registerResources } from "./resources.ts";
import { registerPrompts } from "./prompts.ts";

const listings = new WeakMap<AnyTool, Tool>();

/** The MCP `tools/list` entry of a tool: JSON Schemas of its zod schemas, and its annotations. */
export function toolListing(tool: AnyTool): Tool {
  let listing = listings.get(tool);
  if (!listing) listings.set(tool, listing = buildListing(tool));
  return listing;
}

function buildListing(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as Tool["inputSchema"],
    outputSchema: z.toJSONSchema(tool.output, { target: "draft-7", io: "output" }) as Tool["outputSchema"],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * Runs one tool call: unknown arguments, invalid ones, failures and bad output all become `isError` results.
 * `summary`: the text beside the structured content is a one-line summary (else the same JSON).
 */
export async function callTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
  summary = true,
): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const value = await tool.run(parseArguments(tool, args), ctx);
    const checked = tool.output.safeParse(value);
    if (!checked.success) {
      throw new Error(`the answer does not match the output schema: ${issuesText(checked.error)}`);
    }
    const result = toolResult(value, summary);
    ctx.debug(`tool ${tool.name}: ok (${Math.round(performance.now() - started)} ms)`);
    return result;
  } catch (e) {
    const de = asDiazoError(e);
    ctx.debug(`tool ${tool.name}: ${de.code}: ${de.message} (${Math.round(performance.now() - started)} ms)`);
    if (!isDiazoError(e)) {
      // Not a catalog error: a bug worth seeing in the assistant's server log even without --debug.
      ctx.log(`diazo serve: tool ${tool.name} failed unexpectedly: ${de.message}`);
      if (e instanceof Error && e.stack) ctx.debug(e.stack);
    }
    return errorResult(de);
  }
}

function parseArguments(tool: AnyTool, args: unknown): unknown {
  const given = args ?? {};
  const known = Object.keys(tool.input.shape);
  const hint = `Arguments of ${tool.name}: ${known.join(", ") || "none"}; see its input schema.`;
  if (typeof given === "object" && !Array.isArray(given)) {
    for (const key of Object.keys(given)) {
      if (known.includes(key)) continue;
      const close = suggest(key, known);
      throw usageError(`unknown argument '${key}'${close ? ` (did you mean '${close}'?)` : ""}`, hint);
    }
  }
  const parsed = tool.input.safeParse(given);
  if (!parsed.success) throw usageError(`invalid arguments: ${issuesText(parsed.error, tool)}`, hint);
  return parsed.data;
}

function issuesText(error: z.ZodError, tool?: AnyTool): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "arguments"}: ${issueText(i, tool)}`)
    .join("; ");
}

/** One problem in words: a value of the wrong form is told what it should look like, not the pattern. */
function issueText(issue: z.core.$ZodIssue, tool?: AnyTool): string {
  if (issue.code !== "invalid_format" || (issue as { format?: string }).format !== "regex") {
    return issue.message;
  }
  const field = tool?.input.shape[String(issue.path[0])] as z.ZodType | undefined;
  const described = field?.description;
  return `does not have the expected form${described ? `; it should look like this: ${described}` : ""}`;
}

/** How a server is made beside its tools and deps. */
export interface ServerOptions {
  /** Calls under way, so that the end of stdin lets them answer (serveStdio). */
  inFlight?: InFlight;
  /** The client's protocol when no `initialize` reaches this server (stateless HTTP). */
  protocolVersion?: string;
  /** The operator's selection, for `toolset_enable`; without it the tools never change. */
  selection?: ToolSelection;
}

/**
 * An MCP server offering `tools` (not yet connected to a transport). A client of a protocol before
 * structured content gets the whole JSON as text, every other a one-line summary beside the structured
 * content. With a selection, `toolset_enable` adds a toolset's tools and tells the client the list changed.
 */
export function createServer(
  tools: readonly AnyTool[],
  deps: ServeDeps,
  opts: ServerOptions = {},
): Server {
  const inFlight = opts.inFlight ?? inFlightCounter();
  const server = new Server(
    { name: "diazo", version: VERSION, title: "diazo (Autodesk Platform Services)" },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      instructions: instructionsFor(tools),
    },
  );
  let summary = opts.protocolVersion === undefined || opts.protocolVersion >= STRUCTURED_SINCE;
  const initialize = (server as unknown as { _oninitialize?: (r: unknown) => Promise<never> })._oninitialize;
  if (typeof initialize === "function") {
    server.setRequestHandler(InitializeRequestSchema, (request) => {
      summary = request.params.protocolVersion >= STRUCTURED_SINCE;
      return initialize.call(server, request);
    });
  }
  const offered = [...tools];
  const byName = new Map(offered.map((t) => [t.name, t]));
  const ctx: ToolContext = { ...deps, tools: offered };
  const selection = opts.selection;
  if (selection) {
    ctx.enableToolset = (set) => {
      const added = toolsetAddition(ALL_TOOLS, selection, set as Toolset).filter((t) => !byName.has(t.name));
      for (const t of added) {
        offered.push(t);
        byName.set(t.name, t);
      }
      if (added.length) server.sendToolListChanged().catch(() => {});
      return { added: added.map((t) => t.name), offered: offered.length };
    };
  }
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered.map(toolListing) }));
  registerResources(server, ctx);
  registerPrompts(server);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const name = request.params.name;
      const close = suggest(name, [...byName.keys()]);
      const set = toolsetOf(name);
      const why = ALL_TOOLS.some((t) => t.name === name)
        ? `it is not offered by this server now: toolset_enable {"toolset": "${set}"} adds it, unless the ` +
          "server's read-only mode or tool filters exclude it"
        : close
        ? `did you mean '${close}'?`
        : "tools/list names the tools";
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}': ${why}`);
    }
    const context = callContext(server, ctx, request, extra);
    return inFlight.track(callTool(tool, request.params.arguments, context, summary));
  });
  server.onerror = (e) => {
    if (isBadInput(e)) return; // answered and logged by answerBadInput
    deps.log(`diazo serve: ${e.message.split("\n")[0].slice(0, 300)}`);
  };
  return server;
}

/**
 * The context of one call: its cancellation signal, progress notifications when the client sent a
 * progress token, and the user's confirmation through elicitation when the client declares it.
 */
function callContext(
  server: Server,
  ctx: ToolContext,
  request: { params: { _meta?: { progressToken?: string | number } } },
  extra: { signal: AbortSignal; sendNotification: (n: ServerNotification) => Promise<void> },
): ToolContext {
  const token = request.params._meta?.progressToken;
  const progress = token === undefined
    ? undefined
    : (done: number, total: number | undefined, message: string) => {
      if (extra.signal.aborted) return;
      const params = {
        progressToken: token,
        progress: done,
        ...(total !== undefined ? { total } : {}),
        message,
      };
      extra.sendNotification({ method: "notifications/progress", params }).catch(() => {});
    };
  const elicit = server.getClientCapabilities()?.elicitation
    ? async (question: string) => {
      const answer = await server.elicitInput({
        message: question,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean", title: "Confirm", description: question } },
          required: ["confirm"],
        },
      }, { signal: extra.signal });
      return answer.action === "accept" && answer.content?.confirm === true;
    }
    : undefined;
  return { ...ctx, signal: extra.signal, progress, elicit };
}

/** Calls under way, so that the end of stdin lets them answer before the server closes. */
interface InFlight {
  track<T>(p: Promise<T>): Promise<T>;
  idle(): Promise<void>;
}

function inFlightCounter(): InFlight {
  const pending = new Set<Promise<unknown>>();
  return {
    track(p) {
      pending.add(p);
      p.finally(() => pending.delete(p)).catch(() => {});
      return p;
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
      // The answers are sent after the handlers settle: let that happen first.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

function isBadInput(error: Error): boolean {
  return error instanceof SyntaxError || error instanceof z.ZodError || error.name === "ZodError";
}

/**
 * Answers a line that is not JSON (or not JSON-RPC) with the JSON-RPC error for it, so that a
 * client is told instead of waiting; the SDK's transport only reports it.
 */
function answerBadInput(transport: Transport, deps: ServeDeps): void {
  transport.onerror = (error) => {
    if (!isBadInput(error)) return;
    const parse = error instanceof SyntaxError;
    deps.log(`diazo serve: ignored a ${parse ? "line that is not JSON" : "message that is not JSON-RPC"}`);
    const reply = {
      jsonrpc: "2.0",
      id: null,
      error: parse
        ? { code: ErrorCode.ParseError, message: "Parse error: the line is not JSON" }
        : { code: ErrorCode.InvalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    } as unknown as JSONRPCMessage;
    transport.send(reply).catch(() => {});
  };
}

/** Why a `tools/call` message's params are malformed (JSON-RPC -32602), or undefined when they are fine. */
export function toolCallParamsProblem(message: unknown): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m?.method !== "tools/call" || m.id === undefined) return undefined;
  const params = m.params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return "params must be an object";
  }
  if (typeof params.name !== "string" || params.name === "") return "params.name must name a tool (a string)";
  const args = params.arguments;
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    return "params.arguments must be an object of the tool's arguments";
  }
  return undefined;
}

/**
 * Answers a `tools/call` whose params are malformed with JSON-RPC's -32602 Invalid params and a short
 * message, before the SDK sees it (the SDK answers -32603 with its validation dump).
 */
function guardToolCalls(transport: Transport, deps: ServeDeps): void {
  const next = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const problem = toolCallParamsProblem(message);
    if (problem === undefined) return next?.(message, extra);
    deps.log(`diazo serve: refused a tools/call: ${problem}`);
    const reply = {
      jsonrpc: "2.0",
      id: (message as { id: string | number }).id,
      error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` },
    } as unknown as JSONRPCMessage;
    transport.send(reply).catch(() => {});
  };
}

/** Serves over stdin/stdout until stdin ends or `stop` is called; logs go to stderr through `deps.log`. */
export async function serveStdio(
  tools: readonly AnyTool[],
  deps: ServeDeps,
  selection?: ToolSelection,
): Promise<{ done: Promise<void>; stop(): Promise<void> }> {
  const inFlight = inFlightCounter();
  const server = createServer(tools, deps, { inFlight, selection });
  const input = limitLines(process.stdin, ({ bytes, id }) => {
    deps.log(`diazo serve: refused a message of ${bytes} bytes (at most ${MAX_STDIO_MESSAGE_BYTES})`);
    const reply = {
      jsonrpc: "2.0",
      id,
      error: {
        code: ErrorCode.InvalidRequest,
        message:
          `Invalid Request: the message has ${bytes} bytes, more than the ${MAX_STDIO_MESSAGE_BYTES} accepted`,
      },
    } as unknown as JSONRPCMessage;
    transport.send(reply).catch(() => {});
  });
  const transport = new StdioServerTransport(input);
  answerBadInput(transport, deps);
  const done = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const stop = () => server.close();
  // The client closed its end: answer the calls under way, then stop.
  process.stdin.once("end", () => void inFlight.idle().then(stop));
  await server.connect(transport);
  guardToolCalls(transport, deps);
  return { done, stop };
}

/** A running HTTP tool server. */
export interface HttpToolServer {
  /** e.g. http://127.0.0.1:8765/mcp */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Options of the HTTP transport. */
export interface HttpServeOptions {
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <secret>`. */
  secret?: string;
}

const MCP_PATH = "/mcp";

/**
 * Serves Streamable HTTP on 127.0.0.1 (stateless: one server per request, JSON answers). Requests
 * must name this machine in Host and, when they carry an Origin, come from a page on loopback: a
 * web page elsewhere cannot reach the tools through DNS rebinding.
 */
export function serveHttp(
  tools: readonly AnyTool[],
  deps: ServeDeps,
  opts: HttpServeOptions,
): Promise<HttpToolServer> {
  let port = 0;
  const handler = async (req: Request): Promise<Response> => {
    const refused = checkRequest(req, port, opts.secret);
    if (refused) {
      deps.log(`diazo serve: refused ${req.method} ${new URL(req.url).pathname}: ${refused.reason}`);
      return refused.response;
    }
    if (req.method !== "POST") {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return jsonRpcError(405, ErrorCode.ConnectionClosed, "Method not allowed: POST JSON-RPC messages", {
        allow: "POST",
      });
    }
    // Stateless: no initialize reaches this server; the header names the protocol (absent: 2025-03-26).
    const server = createServer(tools, deps, {
      protocolVersion: req.headers.get("mcp-protocol-version") ?? "2025-03-26",
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    guardToolCalls(transport, deps);
    try {
      return await transport.handleRequest(req);
    } finally {
      await server.close().catch(() => {});
    }
  };
  return new Promise((resolve, reject) => {
    try {
      const httpServer = Deno.serve({
        hostname: "127.0.0.1",
        port: opts.port,
        onListen: (addr) => {
          port = addr.port;
          resolve({ url: `http://127.0.0.1:${port}${MCP_PATH}`, port, close: () => httpServer.shutdown() });
        },
      }, handler);
    } catch (e) {
      reject(e);
    }
  });
}

/** Why a request is refused, or undefined when it may be served. */
function checkRequest(
  req: Request,
  port: number,
  secret: string | undefined,
): { reason: string; response: Response } | undefined {
  const loopback = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const host = req.headers.get("host") ?? "";
  if (!loopback.includes(host.toLowerCase())) {
    return {
      reason: `Host ${host}`,
      response: jsonRpcError(403, -32000, "Forbidden: unexpected Host header"),
    };
  }
  const origin = req.headers.get("origin");
  if (origin !== null && !loopback.map((h) => `http://${h}`).includes(origin.toLowerCase())) {
    return { reason: `Origin ${origin}`, response: jsonRpcError(403, -32000, "Forbidden: foreign Origin") };
  }
  if (secret !== undefined && !bearerMatches(req.headers.get("authorization"), secret)) {
    return {
      reason: "missing or wrong bearer secret",
      response: jsonRpcError(401, -32001, "Unauthorized: a bearer token is required", {
        "www-authenticate": 'Bearer realm="diazo"',
      }),
    };
  }
  if (new URL(req.url).pathname !== MCP_PATH) {
    return { reason: "unknown path", response: jsonRpcError(404, -32000, `Not found: use ${MCP_PATH}`) };
  }
  return undefined;
}

function bearerMatches(header: string | null, secret: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "";
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers });
}
