/**
 * A hostile loopback server that writes its answers byte for byte (framings `Deno.serve` never
 * writes: an endless chunk-size line, a body ended only by the connection), and a spawned diazo whose
 * peak memory is measured, for the tests of bounded bodies.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { scratchEnv } from "../../scripts/scratch_env.ts";

/** A request the raw server saw. */
export interface RawHit {
  method: string;
  target: string;
}

/** Writes an answer to `conn` (the default route answers the token endpoint, else 404). */
export type RawRoute = (hit: RawHit, conn: Deno.Conn) => Promise<void> | undefined;

/** A running raw server. */
export interface RawServer {
  url: string;
  port: number;
  hits: RawHit[];
  close(): void;
}

const enc = new TextEncoder();

/** Writes all of `bytes`; false once the client went away. */
export async function put(conn: Deno.Conn, bytes: Uint8Array | string): Promise<boolean> {
  const b = typeof bytes === "string" ? enc.encode(bytes) : bytes;
  try {
    for (let off = 0; off < b.length;) off += await conn.write(b.subarray(off));
    return true;
  } catch {
    return false;
  }
}

/** Starts a raw server on 127.0.0.1, port 0; each connection carries one request. */
export function startRaw(route: RawRoute): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const hits: RawHit[] = [];
  const serve = async (conn: Deno.Conn) => {
    try {
      let head = "";
      const buf = new Uint8Array(16 * 1024);
      while (!head.includes("\r\n\r\n")) {
        const n = await conn.read(buf);
        if (n === null) return;
        head += new TextDecoder().decode(buf.subarray(0, n));
      }
      const [method, target] = head.split(" ");
      const hit = { method, target };
      hits.push(hit);
      const answer = route(hit, conn);
      if (answer) return await answer;
      if (target.startsWith("/authentication/v2/token")) {
        const body = JSON.stringify({
          access_token: "hostile-token",
          token_type: "Bearer",
          expires_in: 3599,
        });
        await put(
          conn,
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        );
      } else await put(conn, "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    } catch {
      /* the client went away */
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return { url: `http://127.0.0.1:${port}`, port, hits, close: () => listener.close() };
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** What a spawned diazo did: exit code, stderr, stdout's size, seconds and peak RSS in MiB. */
export interface Spawned {
  code: number;
  stderr: string;
  stdoutBytes: number;
  seconds: number;
  peakMiB: number;
}

/**
 * Runs diazo from source in a child process against `baseUrl` (made-up credentials, a scratch
 * home), its stdout counted and dropped, under `/usr/bin/time` for its peak RSS.
 */
export async function spawnDiazo(
  args: string[],
  baseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<Spawned> {
  const home = await Deno.makeTempDir({ prefix: "diazo-raw-" });
  try {
    const env = {
      ...scratchEnv(home),
      DIAZO_BASE_URL: baseUrl,
      SVC_CLIENT_ID: "hostile-client",
      SVC_CLIENT_SECRET: "hostile-secret",
      ...extraEnv,
    };
    const argv = [
      "run",
      "-A",
      "--config",
      path.join(ROOT, "deno.json"),
      path.join(ROOT, "src/main.ts"),
      ...args,
    ];
    const started = performance.now();
    const child = new Deno.Command("/usr/bin/time", {
      args: ["-f", "diazo-peak-kb %M", Deno.execPath(), ...argv],
      env,
      cwd: home,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stdoutBytes = 0;
    const [, err, status] = await Promise.all([
      (async () => {
        for await (const chunk of child.stdout) stdoutBytes += chunk.length;
      })(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    const kb = Number(/diazo-peak-kb (\d+)/.exec(err)?.[1] ?? NaN);
    return {
      code: status.code,
      stderr: err.replace(/diazo-peak-kb \d+\n?/, "").replace(
        /Command exited with non-zero status \d+\n?/,
        "",
      ),
      stdoutBytes,
      seconds: (performance.now() - started) / 1000,
      peakMiB: kb / 1024,
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/**
 * `bucket list --region US` against `server`, which answers more than the 256 MiB cap: refused as one
 * `error:` line naming the cap (exit 1), the run's peak memory within twice the cap.
 */
export async function assertBucketListRefusedAtCap(server: RawServer): Promise<void> {
  try {
    const r = await spawnDiazo(["bucket", "list", "--region", "US"], server.url);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: .*larger than 256 MiB/m);
    assert.ok(r.peakMiB <= 512, `peak ${r.peakMiB.toFixed(0)} MiB`);
  } finally {
    server.close();
  }
}
