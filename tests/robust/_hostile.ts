/**
 * A hostile local server for the hardening tests: it answers the token endpoint as the platform does,
 * then whatever a test's route says: endless bodies generated as they are read (never written to
 * disk or held), redirects to other hosts, looping pages. It counts the body bytes it sent.
 */
import type { Io } from "../../src/command/io.ts";
import { runCli } from "../../src/front/root.ts";
import { cliEnv, makeHome, type TestHome } from "../e2e/harness.ts";

/** One request the server saw. */
export interface Hit {
  method: string;
  path: string;
  authorization: string | null;
}

/** A running hostile server. */
export interface Hostile {
  url: string;
  hits: Hit[];
  /** Body bytes sent by `endless` streams so far. */
  sent(): number;
  close(): Promise<void>;
}

/** A route: an answer, or undefined for the default (a token at /authentication/v2/token, else 404). */
export type Route = (req: Request, url: URL, h: Hostile) => Response | Promise<Response> | undefined;

/** Starts a hostile server on 127.0.0.1, port 0. */
export function startHostile(route: Route): Hostile {
  const ac = new AbortController();
  let sent = 0;
  const h: Hostile = {
    url: "",
    hits: [],
    sent: () => sent,
    close: async () => {
      ac.abort();
      await server.finished;
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      h.hits.push({
        method: req.method,
        path: url.pathname,
        authorization: req.headers.get("authorization"),
      });
      const answer = await route(req, url, h);
      if (answer) return answer;
      await req.body?.cancel();
      if (url.pathname === "/authentication/v2/token") {
        return Response.json({ access_token: "hostile-token", token_type: "Bearer", expires_in: 3599 });
      }
      return new Response("no such path", { status: 404 });
    },
  );
  h.url = `http://127.0.0.1:${server.addr.port}`;
  (h as { count?: (n: number) => void }).count = (n) => (sent += n);
  return h;
}

/** A body of `total` bytes ('x' with a newline every 100), generated as the client reads it. */
export function endless(h: Hostile, total: number): ReadableStream<Uint8Array> {
  const block = new TextEncoder().encode(`${"x".repeat(99)}\n`.repeat(655)); // 65,500 bytes
  let left = total;
  const count = (h as { count?: (n: number) => void }).count!;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(left, block.length);
      left -= n;
      count(n);
      controller.enqueue(block.slice(0, n));
    },
  }, { highWaterMark: 0 });
}

/** The SHA-1 (hex) of the bytes `endless` sends for `total`. */
export async function endlessSha1(total: number): Promise<string> {
  const block = new TextEncoder().encode(`${"x".repeat(99)}\n`.repeat(655));
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha1");
  for (let left = total; left > 0; left -= block.length) {
    hash.update(block.subarray(0, Math.min(left, block.length)));
  }
  return hash.digest("hex");
}

/** Streams whose stdout bytes are hashed (SHA-1) and counted, not kept; stderr is kept as text. */
export async function hashingIo(): Promise<{ io: Io; sha1(): string; bytes(): number; err(): string }> {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha1");
  let bytes = 0;
  let err = "";
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  return {
    io: {
      stdout: {
        write(data) {
          const b = typeof data === "string" ? enc.encode(data) : data;
          bytes += b.length;
          hash.update(b);
        },
        isTerminal: false,
      },
      stderr: { write: (d) => void (err += typeof d === "string" ? d : dec.decode(d)), isTerminal: false },
      stdin: {
        isTerminal: false,
        readText: () => Promise.resolve(""),
        readLine: () => Promise.resolve(null),
      },
    },
    sha1: () => hash.digest("hex"),
    bytes: () => bytes,
    err: () => err,
  };
}

/** A home whose environment points diazo at `h` as the platform, with made-up credentials. */
export async function hostileHome(h: Hostile): Promise<{ home: TestHome; env: Record<string, string> }> {
  const home = await makeHome();
  const env = cliEnv(home, {
    DIAZO_BASE_URL: h.url,
    SVC_CLIENT_ID: "hostile-client",
    SVC_CLIENT_SECRET: "hostile-secret",
  });
  return { home, env };
}

/** Runs the CLI in process with `io`. */
export async function runWith(
  io: Io,
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<number> {
  return await runCli(argv, io, env, cwd);
}
