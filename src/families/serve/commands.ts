/** `diazo serve`: diazo's tools for AI assistants over the Model Context Protocol (stdio or HTTP). */
import { usageError } from "../../core/errors.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { collect, port } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";

/** Assistants `--print-config` writes a snippet for. */
export { CONFIG_CLIENTS } from "./clients.ts";
import { CONFIG_CLIENTS } from "./clients.ts";

/** Default port of `serve --http`. */
export const DEFAULT_SERVE_PORT = 8765;

interface ServeOptions {
  http?: boolean;
  port: number;
  httpSecretEnv?: string;
  readOnly?: boolean;
  toolsets?: string[];
  tools?: string[];
  excludeTools?: string[];
  printConfig?: (typeof CONFIG_CLIENTS)[number];
  allowDir?: string[];
}

/** Serves the tools (stdio or HTTP) until the assistant or Ctrl-C stops it, or prints a config snippet. */
async function runServe(ctx: Ctx, opts: ServeOptions): Promise<void> {
  if (opts.toolsets) {
    // A typo is told now, not when the assistant starts the server.
    const { parseToolsets } = await import("./toolsets.ts");
    parseToolsets(opts.toolsets);
  }
  if (opts.printConfig) {
    const { configSnippet } = await import("./client_config.ts");
    const settings = await ctx.settings();
    const profile = { ...opts, profile: ctx.flags.profile };
    const snippet = configSnippet(opts.printConfig, profile, ctx.env, ctx.cwd, settings.baseUrl.value);
    ctx.io.stdout.write(JSON.stringify(snippet, null, 2) + "\n");
    return;
  }
  let secret: string | undefined;
  if (opts.httpSecretEnv !== undefined) {
    if (!opts.http) throw usageError("--http-secret-env applies to --http only", "Add --http, or drop it.");
    secret = ctx.env[opts.httpSecretEnv];
    if (!secret) {
      throw usageError(
        `the environment variable ${opts.httpSecretEnv} is not set`,
        `Set it to a long random value, e.g. ${opts.httpSecretEnv}=$(openssl rand -hex 32); clients send it as a bearer token.`,
      );
    }
  }
  const [{ ALL_TOOLS, selectTools }, server, { serveDeps }, { rememberProtected }] = await Promise.all([
    import("./tools.ts"),
    import("./server.ts"),
    import("./deps.ts"),
    import("../../session/file_roots.ts"),
  ]);
  const selection = {
    toolsets: opts.toolsets,
    readOnly: opts.readOnly,
    include: opts.tools,
    exclude: opts.excludeTools,
  };
  const tools = selectTools(ALL_TOOLS, selection);
  const deps = serveDeps(ctx, opts.allowDir);
  await rememberProtected(deps.fileRoots);
  const profile = (await ctx.settings()).profileName;
  const stopped = new Promise<void>((resolve) => {
    ctx.onInterrupt(() => resolve());
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", () => resolve());
  });
  if (opts.http) {
    let running;
    try {
      running = await server.serveHttp(tools, deps, { port: opts.port, secret });
    } catch (e) {
      if (e instanceof Deno.errors.AddrInUse) {
        throw usageError(`port ${opts.port} is already in use`, "Pick another with --port, or --port 0.");
      }
      throw e;
    }
    ctx.io.stdout.write(running.url + "\n");
    ctx.info(
      `diazo serve: ${tools.length} tools on ${running.url} (profile ${profile}${
        secret ? ", bearer secret required" : ""
      }); Ctrl-C stops`,
    );
    await stopped;
    await running.close();
    return;
  }
  const running = await server.serveStdio(tools, deps, selection);
  ctx.info(`diazo serve: ${tools.length} tools over stdio (profile ${profile})`);
  await Promise.race([running.done, stopped]);
  await running.stop();
}

/** The serve family: one command. */
export const SERVE: CommandDecl = {
  name: "serve",
  description:
    "serve diazo's tools to AI assistants (Model Context Protocol) over stdio, or Streamable HTTP on 127.0.0.1",
  options: [
    {
      flags: "--http",
      description: "serve Streamable HTTP on 127.0.0.1 instead of stdio (prints the URL first)",
    },
    {
      flags: "--port <n>",
      description: `port of --http (0 picks a free one)`,
      parse: port,
      default: DEFAULT_SERVE_PORT,
    },
    {
      flags: "--http-secret-env <NAME>",
      description:
        "require `Authorization: Bearer <value of $NAME>` on every HTTP request (the secret never goes in argv)",
    },
    {
      flags: "--toolsets <names>",
      description:
        "offer only these toolsets, comma-separated: context, storage, derivative, dm, acc, admin, automation, events, reality, or all (default: the context tools and everyday reads; toolset_enable adds more at run time)",
      parse: collect(String, true),
    },
    {
      flags: "--read-only",
      description: "offer only tools that change nothing (the others are not even listed)",
    },
    {
      flags: "--allow-dir <dir>",
      description:
        "a directory whose files tools may upload (repeatable; default the working directory; never diazo's config or state dir)",
      parse: collect(),
    },
    {
      flags: "--tools <names>",
      description: "offer only these tools, comma-separated",
      parse: collect(String, true),
    },
    {
      flags: "--exclude-tools <names>",
      description: "never offer these tools (wins over --tools)",
      parse: collect(String, true),
    },
    {
      flags: "--print-config <client>",
      description: "print the server entry for an assistant's config file and exit",
      choices: CONFIG_CLIENTS,
    },
  ],
  examples: [
    "diazo serve --print-config claude",
    "diazo serve --read-only --profile work",
    "diazo serve --toolsets dm,acc --read-only",
    "diazo serve --tools bucket_list,object_list,translate_status",
    "MCP_SECRET=$(openssl rand -hex 32) diazo serve --http --port 8765 --http-secret-env MCP_SECRET",
  ],
  run: (ctx, _args, opts: ServeOptions) => runServe(ctx, opts),
};
