/**
 * `serve --print-config <client>`: the server entry of an assistant's config file that reproduces the
 * running configuration: this diazo, every `serve` flag (directories made absolute), and an `env` block
 * with the platform address, profile and directories of the shell that printed it. Secrets are never
 * printed: a secret set in the shell is named, with a value to fill in.
 */
import path from "node:path";
import type { ConfigClient } from "./clients.ts";

export { CONFIG_CLIENTS, type ConfigClient } from "./clients.ts";

/** The `serve` options an entry reproduces. */
export interface ServedOptions {
  profile?: string;
  toolsets?: string[];
  readOnly?: boolean;
  tools?: string[];
  excludeTools?: string[];
  allowDir?: string[];
}

/** Variables an entry carries with their value: where the platform is and where diazo keeps its state. */
const CARRIED = [
  "DIAZO_BASE_URL",
  "DIAZO_PROFILE",
  "DIAZO_CONFIG_DIR",
  "DIAZO_STATE_DIR",
  "DIAZO_TOKEN_STORE",
  "SVC_CLIENT_ID",
  "APS_CLIENT_ID",
  "SVC_DA_NICKNAME",
  "APS_DA_NICKNAME",
] as const;

/** Secrets an entry names (with a value to fill in) when the shell sets them, never with their value. */
const SECRETS = ["SVC_CLIENT_SECRET", "APS_CLIENT_SECRET"] as const;

/** The value an entry gives a secret: what to put there instead. */
export function fillIn(name: string): string {
  return `<fill in: the value of ${name}>`;
}

/** The command line that starts this diazo: the binary itself when compiled, else `deno run ... main.ts`. */
export function selfCommand(): { command: string; args: string[] } {
  if (Deno.build.standalone) return { command: Deno.execPath(), args: [] };
  const main = new URL(Deno.mainModule);
  const mainPath = main.protocol === "file:"
    ? decodeURIComponent(main.pathname).replace(/^\/([A-Za-z]:)/, "$1")
    : main.href;
  const perms = ["--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-run", "--allow-sys"];
  if (Deno.build.os === "windows") perms.push("--allow-ffi");
  const config = /[\\/]src[\\/]main\.ts$/.test(mainPath)
    ? ["--config", mainPath.replace(/src[\\/]main\.ts$/, "deno.json")]
    : [];
  return { command: Deno.execPath(), args: ["run", ...perms, ...config, mainPath] };
}

/** The `serve` arguments that reproduce `opts`; directories absolute (resolved against `cwd`). */
export function serveArgs(opts: ServedOptions, cwd: string): string[] {
  const args = ["serve"];
  if (opts.profile) args.push("--profile", opts.profile);
  if (opts.toolsets?.length) args.push("--toolsets", opts.toolsets.join(","));
  if (opts.readOnly) args.push("--read-only");
  if (opts.tools?.length) args.push("--tools", opts.tools.join(","));
  if (opts.excludeTools?.length) args.push("--exclude-tools", opts.excludeTools.join(","));
  for (const dir of opts.allowDir ?? []) args.push("--allow-dir", path.resolve(cwd, dir));
  return args;
}

/** The `env` block of an entry: the carried variables the shell sets, the platform address always. */
export function entryEnv(env: Record<string, string | undefined>, baseUrl: string): Record<string, string> {
  const out: Record<string, string> = { DIAZO_BASE_URL: env.DIAZO_BASE_URL ?? baseUrl };
  for (const name of CARRIED) if (env[name] !== undefined && env[name] !== "") out[name] = env[name]!;
  for (const name of SECRETS) if (env[name] !== undefined && env[name] !== "") out[name] = fillIn(name);
  return out;
}

/** The entry of `client`'s config file that starts `diazo serve` as `opts` and `env` say. */
export function configSnippet(
  client: ConfigClient,
  opts: ServedOptions,
  env: Record<string, string | undefined>,
  cwd: string,
  baseUrl: string,
): Record<string, unknown> {
  const self = selfCommand();
  const server = {
    command: self.command,
    args: [...self.args, ...serveArgs(opts, cwd)],
    env: entryEnv(env, baseUrl),
  };
  // VS Code's .vscode/mcp.json names them "servers"; it and Claude Code's .mcp.json want the transport type.
  if (client === "vscode") return { servers: { diazo: { type: "stdio", ...server } } };
  if (client === "claude-code") return { mcpServers: { diazo: { type: "stdio", ...server } } };
  return { mcpServers: { diazo: server } };
}
