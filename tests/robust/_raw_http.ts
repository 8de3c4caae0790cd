/**
 * One HTTP/1.1 request written byte for byte on a new connection, headers as given (a `Host` or an
 * `Origin` a browser on another site would send, which `fetch` does not let a caller choose).
 */

/** An answer read whole: its status and body text. */
export interface RawAnswer {
  status: number;
  body: string;
}

/** The body of a chunked answer. */
function unchunked(text: string): string {
  let out = "";
  for (let at = 0;;) {
    const eol = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** Sends `method path` to the sandbox at `url` with exactly these headers (and `Connection: close`). */
export async function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body || method === "POST") lines.push(`content-length: ${new TextEncoder().encode(body).length}`);
    lines.push("connection: close", "", body);
    await conn.write(new TextEncoder().encode(lines.join("\r\n")));
    const text = await new Response(conn.readable).text();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    const head = text.slice(0, text.indexOf("\r\n\r\n"));
    const rest = text.slice(head.length + 4);
    return { status, body: /^transfer-encoding: *chunked/im.test(head) ? unchunked(rest) : rest };
  } catch (e) {
    try {
      conn.close();
    } catch { /* closed with its stream */ }
    throw e;
  }
}
