/**
 * A TCP front for the HTTP server: each client connection is piped to its own connection to the
 * inner server. `Deno.serve` cannot drop a connection without first sending a status line, but
 * the front can: closing both ends makes a client's `fetch` fail with a network error.
 */

/** The listening front. */
export interface Front {
  /** Where clients connect. */
  addr: Deno.NetAddr;
  /** Closes the client connection behind the inner connection from local port `innerPort`. */
  drop(innerPort: number): boolean;
  /** Closes every connection whose inner port `busy` does not claim (idle keep-alive ones). */
  closeIdle(busy: (innerPort: number) => boolean): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

interface Link {
  client: Deno.Conn;
  inner: Deno.Conn;
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}

function closeLink(link: Link): void {
  closeQuietly(link.client);
  closeQuietly(link.inner);
}

/** The first and the largest read of a relay: a bulk transfer grows its buffer, a small exchange keeps it small. */
const RELAY_FIRST = 64 * 1024;
const RELAY_MAX = 1024 * 1024;

/**
 * Copies `from` to `to` until `from` ends, then closes `to` (so a server's close reaches its client at
 * once), as a pipe of their streams did, but through one reused buffer that doubles while reads fill
 * it: `readable.pipeTo` allocated a 64 KiB chunk per read, which made the sandbox spend more CPU on a
 * 512 MiB GET than the client it served.
 */
async function relay(from: Deno.TcpConn, to: Deno.TcpConn): Promise<void> {
  let buf = new Uint8Array(RELAY_FIRST);
  for (;;) {
    const n = await from.read(buf);
    if (n === null) return closeQuietly(to);
    for (let off = 0; off < n;) off += await to.write(buf.subarray(off, n));
    if (n === buf.length && buf.length < RELAY_MAX) buf = new Uint8Array(buf.length * 2);
  }
}

/** Listens on `hostname:port` and forwards every connection to `target`. */
export function startFront(hostname: string, port: number, target: Deno.NetAddr): Front {
  const listener = Deno.listen({ hostname, port, transport: "tcp" });
  const links = new Map<number, Link>();
  const tasks = new Set<Promise<void>>();
  let closed = false;

  async function carry(client: Deno.TcpConn): Promise<void> {
    let inner: Deno.TcpConn;
    try {
      inner = await Deno.connect({ hostname: target.hostname, port: target.port });
    } catch {
      closeQuietly(client);
      return;
    }
    const link = { client, inner };
    if (closed) return closeLink(link);
    const key = inner.localAddr.port;
    links.set(key, link);
    try {
      client.setNoDelay(true);
      inner.setNoDelay(true);
      await Promise.allSettled([relay(client, inner), relay(inner, client)]);
    } catch {
      // the client left before the link was set up
    } finally {
      links.delete(key);
      closeLink(link);
    }
  }

  const accepting = (async () => {
    try {
      for await (const client of listener) {
        const task = carry(client);
        tasks.add(task);
        task.finally(() => tasks.delete(task));
      }
    } catch {
      // the listener was closed
    }
  })();

  return {
    addr: listener.addr,
    drop(innerPort) {
      const link = links.get(innerPort);
      if (!link) return false;
      closeLink(link);
      return true;
    },
    closeIdle(busy) {
      for (const [innerPort, link] of links) {
        if (!busy(innerPort)) closeLink(link);
      }
    },
    async close() {
      closed = true;
      try {
        listener.close();
      } catch {
        // already closed
      }
      await accepting;
      for (const link of links.values()) closeLink(link);
      await Promise.allSettled([...tasks]);
    },
  };
}
