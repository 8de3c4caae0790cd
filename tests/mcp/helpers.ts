/**
 * Helpers of the tool-server tests: the tool server of `diazo serve` driven by the SDK's Client, in
 * process over a linked in-memory transport (built as `serve` builds it), or as a child process over
 * stdio where the process matters (`{ spawn: true }`, or every test with DIAZO_TEST_SPAWN=1).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { type CallToolResult, Client, InMemoryTransport, StdioClientTransport } from "../../src/mcp/sdk.ts";
import { contextFor } from "../../src/front/root.ts";
import { serveDeps } from "../../src/families/serve/deps.ts";
import { createServer } from "../../src/families/serve/server.ts";
import { ALL_TOOLS, selectTools } from "../../src/families/serve/tools.ts";
import { captureIo } from "../e2e/capture.ts";
import { FLAGS } from "../ops/helpers.ts";
import { cliCommand, openSandboxHome, type TestHome } from "../e2e/harness.ts";
import { startLogin } from "../e2e/login_helpers.ts";

/** A connected client of a `diazo serve` child, and its stderr so far. */
export interface ServeSession {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts `diazo serve <args>` with `env` and connects an MCP client to it over stdio. The server runs
 * in the test home's working directory (beside its config dir) unless `cwd` says otherwise, so that
 * no `.env` of the repository is read.
 */
export async function startServe(
  env: Record<string, string>,
  given: string[] = [],
  cwd: string = path.join(path.dirname(env.DIAZO_CONFIG_DIR), "work"),
  opts: { spawn?: boolean; defaultSet?: boolean } = {},
): Promise<ServeSession> {
  const args = opts.defaultSet ? given : everyTool(given);
  if (!opts.spawn && Deno.env.get("DIAZO_TEST_SPAWN") !== "1") return await serveInProcess(env, args, cwd);
  const [command, ...rest] = [Deno.execPath(), ...cliCommand(["serve", ...args])];
  const transport = new StdioClientTransport({ command, args: rest, env, cwd, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "diazo-tests", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`serve did not start: ${(e as Error).message}\n${err}`);
  }
  return { client, stderr: () => err, close: () => client.close() };
}

/**
 * The arguments with `--toolsets all` added when they name neither toolsets nor tools: most tests call
 * tools beyond the small default set (`{ defaultSet: true }` keeps the default).
 */
export function everyTool(args: readonly string[]): string[] {
  return args.includes("--toolsets") || args.includes("--tools") ? [...args] : ["--toolsets", "all", ...args];
}

/** The value of `--name v` in args (the last wins), split at commas for the list flags. */
function flagValues(args: readonly string[], name: string): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    if (a === name && i + 1 < args.length) out.push(args[i + 1]);
  });
  return out;
}

/** `serve <args>`'s tool server in this process: the same context, deps and tool selection. */
async function serveInProcess(
  env: Record<string, string>,
  args: string[],
  cwd: string,
): Promise<ServeSession> {
  const known = new Set([
    "--read-only",
    "--toolsets",
    "--tools",
    "--exclude-tools",
    "--allow-dir",
    "--profile",
    "--debug",
  ]);
  const unknown = args.filter((a) => a.startsWith("-") && !known.has(a));
  if (unknown.length) {
    throw new Error(`serveInProcess does not know ${unknown.join(" ")}: pass { spawn: true }`);
  }
  const cap = captureIo();
  const flags = { ...FLAGS, profile: flagValues(args, "--profile").at(-1), debug: args.includes("--debug") };
  const ctx = await contextFor(cap.io, flags, env, cwd);
  const list = (name: string) => flagValues(args, name).flatMap((v) => v.split(",")).filter(Boolean);
  const selection = {
    toolsets: list("--toolsets").length ? list("--toolsets") : undefined,
    readOnly: args.includes("--read-only"),
    include: list("--tools").length ? list("--tools") : undefined,
    exclude: list("--exclude-tools").length ? list("--exclude-tools") : undefined,
  };
  const tools = selectTools(ALL_TOOLS, selection);
  const server = createServer(tools, serveDeps(ctx, flagValues(args, "--allow-dir")), { selection });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  // Messages cross the wire as JSON (an `undefined` field vanishes), as they do over stdio.
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => send(JSON.parse(JSON.stringify(message)), options);
  await server.connect(serverSide);
  const client = new Client({ name: "diazo-tests", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    stderr: () => cap.stderr(),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** `diazo serve <args>` as a child process with piped stdio, for the tests of the raw JSON-RPC stream. */
export function spawnServeStdio(fx: Fixture, args: string[] = []): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: cliCommand(["serve", ...everyTool(args)]),
    env: fx.env,
    clearEnv: true,
    cwd: fx.home.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** A sandbox, a private home and the environment of a CLI pointed at both. */
export interface Fixture {
  url: string;
  home: TestHome;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts a sandbox with instant translation jobs and makes a home for one test. */
export async function fixture(extra: Record<string, string> = {}): Promise<Fixture> {
  const h = await openSandboxHome({ DIAZO_POLL_BASE_MS: "20", ...extra });
  const res = await fetch(`${h.sb.url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ job_seconds: 0 }),
  });
  const text = await res.text();
  if (!res.ok) await h.close();
  assert.ok(res.ok, text);
  return { url: h.sb.url, home: h.home, env: h.env, close: h.close };
}

/** The result's text blocks joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Calls a tool that must succeed; returns its structured content after checking the text is one summary line. */
// deno-lint-ignore no-explicit-any
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args }) as CallToolResult;
  assert.ok(!result.isError, `${name} failed: ${textOf(result)}`);
  assert.ok(result.structuredContent, `${name}: no structured content`);
  assert.equal(result.content.length, 1);
  const text = textOf(result);
  assert.ok(!text.includes("\n") && text.length <= 600, `${name}: the text is not one summary line: ${text}`);
  return result.structuredContent;
}

/** Calls a tool that must fail; returns its error as its one text block says it. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; hint: string; status: number | null; text: string }> {
  const result = await client.callTool({ name, arguments: args }) as CallToolResult;
  assert.equal(result.isError, true, `${name} should fail: ${textOf(result)}`);
  assert.equal(result.structuredContent, undefined, "an error result carries no structured content");
  assert.equal(result.content.length, 1, `${name}: the error is said once`);
  return errorOf(textOf(result));
}

/** The parts of an error result's text: `error: …`, `hint: …`, `code: … (HTTP n)`. */
export function errorOf(
  whole: string,
): { code: string; message: string; hint: string; status: number | null; text: string } {
  const m = /^error: (.*)\nhint: (.*)\ncode: (\w+)(?: \(HTTP (\d+)\))?$/s.exec(whole);
  assert.ok(m, `not an error text: ${whole}`);
  const [, message, hint, code, status] = m;
  return {
    code,
    message,
    hint,
    status: status ? Number(status) : null,
    text: `error: ${message}\nhint: ${hint}`,
  };
}

/** Logs in as the sandbox's user through `diazo auth login` (approving the consent by hand). */
export async function loginAsUser(url: string, env: Record<string, string>): Promise<Record<string, string>> {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const callback = `http://127.0.0.1:${(l.addr as Deno.NetAddr).port}/callback`;
  l.close();
  const app = await fetch(`${url}/_sandbox/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: "mcp-user-app",
      client_secret: "mcp-user-secret",
      callback_url: callback,
    }),
  });
  assert.ok(app.ok, await app.text());
  const userEnv = {
    ...env,
    SVC_CLIENT_ID: "mcp-user-app",
    SVC_CLIENT_SECRET: "mcp-user-secret",
    SVC_CALLBACK_URL: callback,
    DIAZO_NO_BROWSER: "1",
  };
  const login = await startLogin(["--scopes", "data:read"], userEnv);
  const consent = await fetch(login.authorize, { redirect: "manual" });
  await consent.body?.cancel();
  await (await fetch(consent.headers.get("location")!)).body?.cancel();
  const done = await login.done;
  assert.equal(done.code, 0, done.stderr);
  return userEnv;
}
