/** `diazo sandbox`: serve the platform emulator on loopback until interrupted. */
import type { CommandDecl } from "../../command/decl.ts";
import type { Ctx } from "../../command/context.ts";
import { DiazoError, usageError } from "../../core/errors.ts";

/** Well-known sandbox credentials (README.md, "sandbox"). */
export const SANDBOX_CLIENT_ID = "diazo-sandbox";
/** Well-known sandbox secret; it opens nothing but the local emulator. */
export const SANDBOX_CLIENT_SECRET = "diazo-sandbox-secret";

/** The --port option: 0-65535. */
function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw usageError(`--port must be 0-65535, got '${value}'`, "Use --port 0 for any free port.");
  }
  return n;
}

/**
 * The container's health check: the running sandbox answers `/_sandbox/health` with 200 within 3 s.
 * A wildcard bind address is asked on loopback.
 */
async function checkHealth(host: string, port: number): Promise<void> {
  const at = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${at}:${port}/_sandbox/health`;
  let status = 0;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    status = res.status;
    await res.body?.cancel();
  } catch {
    status = 0;
  }
  if (status !== 200) {
    throw new DiazoError("failure", {
      params: {
        detail: `no healthy sandbox at ${url}${status ? ` (HTTP ${status})` : ""}`,
        hint: "Start one with `diazo sandbox`, or give the --host and --port it serves on.",
      },
    });
  }
}

/** Turns on device login, approved as soon as it is asked for, through the sandbox's control API. */
async function autoApprove(url: string, token?: string): Promise<void> {
  const res = await fetch(`${url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ device_flow: true, auto_approve: true, device_interval_seconds: 1 }),
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the sandbox refused auto-approve (HTTP ${res.status})`);
}

/**
 * Prints the base URL first (stdout), then how to use the sandbox (stderr): one line to paste into
 * another shell, the dashboard, and where its data is.
 */
function announce(
  ctx: Ctx,
  sandbox: { url: string; controlToken?: string; dataDir: string },
  opts: { autoApproved: boolean; kept: boolean },
): void {
  ctx.io.stdout.write(sandbox.url + "\n");
  ctx.info(`Sandbox listening on ${sandbox.url}. In another shell:`);
  ctx.info(
    `  export DIAZO_BASE_URL=${sandbox.url} SVC_CLIENT_ID=${SANDBOX_CLIENT_ID} SVC_CLIENT_SECRET=${SANDBOX_CLIENT_SECRET}`,
  );
  ctx.info(`  dashboard:   ${sandbox.url}/_sandbox/ui${sandbox.controlToken ? "?token=<token>" : ""}`);
  ctx.info(`  data dir:    ${sandbox.dataDir}${opts.kept ? "" : " (removed on exit)"}`);
  if (sandbox.controlToken) {
    const shown = ctx.env.DIAZO_SANDBOX_TOKEN ? "the token of DIAZO_SANDBOX_TOKEN" : sandbox.controlToken;
    ctx.info(`  control API: /_sandbox/ asks for 'Authorization: Bearer <token>', token: ${shown}`);
  }
  if (opts.autoApproved) {
    ctx.info("  user login:  diazo auth login --device (approved at once, no browser)");
  }
}

/** The options of `sandbox`, by key. */
interface SandboxOpts {
  host: string;
  port: number;
  /** The old spelling of `dataDir` (hidden). */
  data?: string;
  dataDir?: string;
  seed?: string;
  checkHealth?: boolean;
  autoApprove?: boolean;
}

/** Serves the sandbox until Ctrl-C or SIGTERM (or, with --check-health, asks a running one). */
async function runSandbox(ctx: Ctx, opts: SandboxOpts): Promise<void> {
  if (opts.checkHealth) return await checkHealth(opts.host, opts.port);
  if (opts.data !== undefined && opts.dataDir !== undefined) {
    throw usageError(
      "--data and --data-dir cannot be combined",
      "--data is the old spelling of --data-dir: give `diazo sandbox --data-dir <dir>` alone.",
    );
  }
  const dataDir = opts.dataDir ?? opts.data;
  const { startSandbox } = await import("../../sandbox/server.ts");
  const { readWorldFile } = await import("../../sandbox/seed/validate.ts");
  const seed = opts.seed === undefined ? undefined : await readWorldFile(opts.seed, ctx.cwd);
  let sandbox;
  try {
    sandbox = await startSandbox({
      hostname: opts.host,
      port: opts.port,
      dataDir,
      persist: dataDir !== undefined,
      seed,
      controlToken: ctx.env.DIAZO_SANDBOX_TOKEN || undefined,
      log: ctx.flags.debug ? (line: string) => ctx.io.stderr.write(`sandbox: ${line}\n`) : undefined,
    });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw usageError(
        `port ${opts.port} is already in use`,
        "Pick another with --port, or --port 0 for any free port.",
      );
    }
    throw e;
  }
  if (opts.autoApprove) await autoApprove(sandbox.url, sandbox.controlToken);
  announce(ctx, sandbox, { autoApproved: opts.autoApprove === true, kept: dataDir !== undefined });
  ctx.info("Press Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    ctx.onInterrupt(stop);
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  });
  await sandbox.close();
  ctx.info("Sandbox stopped.");
}

/** The sandbox family: one command. */
export const SANDBOX: CommandDecl = {
  name: "sandbox",
  description: "serve the platform's API on loopback for offline use and tests; prints the base URL first",
  options: [
    {
      flags: "--host <host>",
      description:
        "address to bind; beyond loopback the control API (/_sandbox/) asks for the token printed at start",
      default: "127.0.0.1",
    },
    { flags: "--port <port>", description: "port (0 picks a free one)", parse: port, default: 8787 },
    {
      flags: "--data-dir <dir>",
      description: "keep every service's state across restarts in this directory: new, empty, or one a " +
        "sandbox wrote (default: memory, objects in a temp dir removed on exit)",
    },
    // The old spelling, which kept object bytes only; it now means --data-dir (CHANGELOG.md).
    { flags: "--data <dir>", description: "the old spelling of --data-dir", hidden: true },
    {
      flags: "--seed <file>",
      description: "start with the world this YAML/JSON file declares (schemas/world.schema.json)",
    },
    {
      flags: "--check-health",
      description: "ask the sandbox on --host/--port whether it is healthy (exit 0) instead of serving",
    },
    {
      flags: "--auto-approve",
      description:
        "offer device login and approve it at once as the sandbox user: `diazo auth login --device` needs no browser",
    },
  ],
  examples: [
    "diazo sandbox --port 0",
    "diazo sandbox --data-dir ./sandbox-data   # state survives a restart",
    "diazo sandbox --seed world.yaml           # hubs, projects, files, issues and buckets of your own",
    "diazo sandbox --auto-approve   # then: diazo auth login --device",
    "DIAZO_BASE_URL=http://127.0.0.1:8787 SVC_CLIENT_ID=diazo-sandbox SVC_CLIENT_SECRET=diazo-sandbox-secret diazo bucket list",
  ],
  run: (ctx, _args, opts: SandboxOpts) => runSandbox(ctx, opts),
};
