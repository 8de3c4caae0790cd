/**
 * A fault proxy for storage tests: a loopback server in front of the sandbox that forwards every
 * request (and points the URLs the sandbox hands out back at itself), letting a test alter or drop
 * what it needs — a lost answer, a flipped byte — without changing the sandbox.
 */

/** What a hook decides for one request: forward it as is (undefined), or answer with this. */
export type ProxyHook = (
  req: Request,
  forward: (req: Request) => Promise<Response>,
) => Promise<Response | undefined> | Response | undefined;

/** A running proxy. */
export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy in front of `target` that consults `hook` on each request. */
export function startFaultProxy(target: string, hook: ProxyHook): FaultProxy {
  const ac = new AbortController();
  let self = "";
  const forward = async (req: Request): Promise<Response> => {
    const from = new URL(req.url);
    const headers = new Headers(req.headers);
    headers.delete("host");
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
    const res = await fetch(`${target}${from.pathname}${from.search}`, {
      method: req.method,
      headers,
      body,
      redirect: "manual",
    });
    if (!(res.headers.get("content-type") ?? "").includes("json")) return res;
    const text = (await res.text()).replaceAll(target, self);
    const out = new Headers(res.headers);
    out.delete("content-length");
    return new Response(text, { status: res.status, headers: out });
  };
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    async (req) => (await hook(req, forward)) ?? await forward(req),
  );
  self = `http://127.0.0.1:${server.addr.port}`;
  return {
    url: self,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

/**
 * An answer that promises a body and breaks off before it: to the client, a lost answer. It
 * promises 100 bytes and ends after one rather than erroring its stream, which Deno.serve would
 * print as a stack trace in the test's output, as if a test had failed.
 */
export function lostAnswer(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode("{"));
      c.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json", "content-length": "100" },
  });
}

/** True for the completion of a signed S3 upload (`POST …/signeds3upload`). */
export function isCompletion(req: Request): boolean {
  return req.method === "POST" && new URL(req.url).pathname.endsWith("/signeds3upload");
}
