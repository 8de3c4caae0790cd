/**
 * Starts and stops a sandbox: the platform emulator served over HTTP on loopback.
 */

import { accBuildRoutes } from "./acc_build/routes.ts";
import { adminRoutes } from "./admin/routes.ts";
import { generateSigningKey, type SigningKey } from "./auth/jwt.ts";
import { authRoutes } from "./auth/routes.ts";
import { createSandboxContext } from "./context.ts";
import { isLoopbackHost } from "./control_guard.ts";
import { claimDataDir } from "./data_dir.ts";
import { daRoutes } from "./da/routes.ts";
import { derivativeRoutes } from "./derivative/routes.ts";
import { dmRoutes } from "./dm/routes.ts";
import { dmWriteRoutes } from "./dm/writes.ts";
import { dmDownloadRoutes } from "./dm/downloads.ts";
import { type Front, startFront } from "./front.ts";
import { hasState, keptSigningKey, openDurable } from "./persist/durable.ts";
import type { RequestLogEntry } from "./request_log.ts";
import { applyWorld, type World } from "./seed/apply.ts";
import { SEED_SNAPSHOT } from "./snapshots.ts";
import type { Durable } from "./store.ts";
import { createRequestHandler } from "./middleware.ts";
import { issuesRoutes } from "./issues/routes.ts";
import { ossRoutes } from "./oss/routes.ts";
import { webhookRoutes } from "./webhooks/routes.ts";
import { realityRoutes } from "./reality/routes.ts";

/** How to start a sandbox. */
export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  hostname?: string;
  /** Port; default 8787; 0 picks a free port. */
  port?: number;
  /**
   * Directory for object data; default a new temporary directory, removed on close. A given one must
   * be new, empty or a sandbox's (src/sandbox/data_dir.ts).
   */
  dataDir?: string;
  /** Keep every service's state in `dataDir` across restarts (`--data-dir`); default memory only. */
  persist?: boolean;
  /**
   * A world (a checked world file, and its path) to start with instead of the built-in one; a data
   * dir that already holds a state keeps that state instead. A reset returns to it.
   */
  seed?: { world: World; file: string };
  /** Receives one access-log line per request (method, path, status, time); none by default. */
  log?: (line: string) => void;
  /** Receives each request-log entry and the URL as sent (the test suite's contract gate reads them). */
  onRequest?: (entry: RequestLogEntry, url: URL) => void;
  /**
   * The key its tokens are signed with; default a new one. Tests that start many sandboxes share one:
   * generating a 2048-bit RSA key costs a few hundred milliseconds.
   */
  signingKey?: SigningKey;
  /**
   * The token every control request but the health check must carry (`Authorization: Bearer`).
   * Default: none on a loopback address, a new random one on any other (`Sandbox.controlToken`).
   */
  controlToken?: string;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Where object data lives. */
  dataDir: string;
  /** The token its control API asks for; undefined when it asks for none (on loopback). */
  controlToken?: string;
  /** Stops serving, closes every connection and removes a temporary data directory. */
  close(): Promise<void>;
}

/** Default port of `diazo sandbox`. */
export const DEFAULT_SANDBOX_PORT = 8787;

/** Route tables of the emulated services, in matching order. */
export const SERVICE_ROUTES = [
  authRoutes,
  ossRoutes,
  derivativeRoutes,
  dmRoutes,
  dmWriteRoutes,
  dmDownloadRoutes,
  daRoutes,
  adminRoutes,
  issuesRoutes,
  webhookRoutes,
  realityRoutes,
  accBuildRoutes,
];

function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0") return "127.0.0.1";
  if (hostname === "::") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/** Starts a sandbox and resolves once it accepts connections. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const hostname = opts.hostname ?? "127.0.0.1";
  const ownsDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? await Deno.makeTempDir({ prefix: "diazo-sandbox-" });
  if (!ownsDataDir) await claimDataDir(dataDir);
  const controlToken = opts.controlToken ||
    (isLoopbackHost(hostname) ? undefined : crypto.randomUUID().replaceAll("-", ""));
  const removeDataDir = () =>
    ownsDataDir ? Deno.remove(dataDir, { recursive: true }).catch(() => {}) : undefined;

  let server: Deno.HttpServer<Deno.NetAddr> | undefined;
  let front: Front | undefined;
  let durable: Durable | undefined;
  const stopping = new AbortController();
  try {
    const key = opts.persist ? await keptSigningKey(dataDir) : opts.signingKey ?? await generateSigningKey();
    const sandbox = createSandboxContext([key], dataDir);
    if (opts.seed && !(opts.persist && await hasState(dataDir))) {
      await applyWorld(sandbox, opts.seed.world, opts.seed.file);
      await sandbox.snapshots.save(SEED_SNAPSHOT);
      sandbox.resetTo = SEED_SNAPSHOT;
    }
    if (opts.persist) sandbox.durable = await openDurable(sandbox);
    durable = sandbox.durable;
    stopping.signal.addEventListener("abort", () => sandbox.webhooks.stop(), { once: true });
    const handler = createRequestHandler(sandbox, {
      routes: SERVICE_ROUTES,
      connections: {
        drop: (innerPort) => front?.drop(innerPort) ?? false,
        closeIdle: (busy) => front?.closeIdle(busy),
      },
      log: opts.log,
      onRequest: opts.onRequest,
      signal: stopping.signal,
      access: { hostname, token: controlToken },
    });
    // The inner server is reached only through the front, which can drop connections.
    server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
    front = startFront(hostname, opts.port ?? DEFAULT_SANDBOX_PORT, server.addr);
  } catch (e) {
    await server?.shutdown();
    await removeDataDir();
    throw e;
  }

  const port = front.addr.port;
  let closing: Promise<void> | undefined;
  const shutdown = async (f: Front, s: Deno.HttpServer<Deno.NetAddr>) => {
    stopping.abort();
    await f.close();
    await s.shutdown();
    await durable?.close();
    await removeDataDir();
  };
  const [f, s] = [front, server];
  return {
    url: `http://${urlHost(hostname)}:${port}`,
    port,
    dataDir,
    controlToken,
    close: () => (closing ??= shutdown(f, s)),
  };
}
