/**
 * A TCP fault proxy for the soak benchmark: forwards raw connections to the sandbox, counts the
 * bytes each way (what a client really sent and received, so re-sent bytes after a kill can be
 * measured), and cuts a chosen share of connections after a random number of bytes — a real
 * mid-stream cut, in the middle of a request or an answer body, which an HTTP-level proxy cannot play.
 * The sandbox builds its signed URLs from the Host header, so they point back at the proxy.
 */

/** When the proxy cuts: each new connection is cut with probability `rate`, after a number of bytes in [min, max]. */
export interface CutPolicy {
  rate: number;
  minBytes: number;
  maxBytes: number;
}

/** A running cut proxy and its counters. */
export interface CutProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Bytes forwarded client → sandbox and sandbox → client since the last `resetCounters`. */
  readonly counters: { up: number; down: number; cuts: number; connections: number };
  resetCounters(): void;
  /** Turns cutting on with this policy, or off with null. */
  setCuts(policy: CutPolicy | null): void;
  close(): Promise<void>;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/** Starts a proxy on a loopback port forwarding to `target` (an http URL). */
export function startCutProxy(target: string, random: () => number = Math.random): CutProxy {
  const dest = new URL(target);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const counters = { up: 0, down: 0, cuts: 0, connections: 0 };
  let policy: CutPolicy | null = null;
  const open = new Set<Deno.Conn>();

  const serveOne = async (client: Deno.Conn) => {
    let server: Deno.Conn;
    try {
      server = await Deno.connect({ hostname: dest.hostname, port: Number(dest.port) });
    } catch {
      return closeQuietly(client);
    }
    open.add(client);
    open.add(server);
    counters.connections++;
    // The cut point is drawn once per connection and counts both directions together.
    const cutAt = policy && random() < policy.rate
      ? policy.minBytes + Math.floor(random() * (policy.maxBytes - policy.minBytes))
      : Infinity;
    let seen = 0;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      for (const c of [client, server]) (open.delete(c), closeQuietly(c));
    };
    const pump = async (from: Deno.Conn, to: Deno.Conn, dir: "up" | "down") => {
      const buf = new Uint8Array(64 * 1024);
      try {
        while (!ended) {
          const n = await from.read(buf);
          if (n === null) break;
          const room = cutAt - seen;
          const chunk = buf.subarray(0, Math.min(n, room));
          seen += chunk.length;
          counters[dir] += chunk.length;
          if (chunk.length) await writeAll(to, chunk);
          if (seen >= cutAt) {
            counters.cuts++;
            break;
          }
        }
      } catch { /* either side went away: end the pair */ }
      end();
    };
    await Promise.all([pump(client, server, "up"), pump(server, client, "down")]);
  };

  const accepting = (async () => {
    try {
      for await (const conn of listener) serveOne(conn);
    } catch { /* listener closed */ }
  })();

  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    counters,
    resetCounters() {
      Object.assign(counters, { up: 0, down: 0, cuts: 0, connections: 0 });
    },
    setCuts(p) {
      policy = p;
    },
    async close() {
      listener.close();
      for (const c of open) closeQuietly(c);
      open.clear();
      await accepting;
    },
  };
}
