/** A loopback test server that records what it saw and is always shut down. */

/** One request as the test server saw it. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
  at: number;
}

/** Runs `fn` against a local server answering with `handler`; closes the server afterwards. */
export async function withServer(
  handler: (req: Request, seen: Seen[]) => Response | Promise<Response>,
  fn: (base: string, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    async (req) => {
      const body = await req.text();
      seen.push({
        method: req.method,
        url: new URL(req.url),
        headers: req.headers,
        body,
        at: performance.now(),
      });
      return handler(req, seen);
    },
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    ac.abort();
    await server.finished;
  }
}

/** A JSON response. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A gate a slow handler waits on; the test opens it before the server shuts down. */
export function gate(): { wait: (ms: number) => Promise<void>; open: () => void } {
  let opened = false;
  const waiters = new Set<() => void>();
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (opened) return resolve();
        const done = () => (clearTimeout(timer), waiters.delete(done), resolve());
        const timer = setTimeout(done, ms);
        waiters.add(done);
      }),
    open: () => {
      opened = true;
      for (const done of [...waiters]) done();
    },
  };
}
