/** A scripted HTTP/1.1 server over plain TCP, for the raw transport's tests: exact bytes, exact framing. */

/**
 * A TCP server answering each request with `answer(i, requestText)` (null: drop the connection);
 * it closes a connection after each answer with `closeAfter`, or after one that says `Connection: close`.
 */
export function server(
  answer: (i: number, request: string) => string | Uint8Array | null,
  closeAfter = false,
) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  let requests = 0;
  const received: string[] = [];
  (async () => {
    for await (const conn of listener) {
      connections++;
      (async () => {
        const buf = new Uint8Array(1 << 20);
        let text = "";
        try {
          for (;;) {
            const n = await conn.read(buf);
            if (n === null) break;
            text += new TextDecoder().decode(buf.subarray(0, n));
            const end = text.indexOf("\r\n\r\n");
            if (end < 0) continue;
            const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
            if (text.length < end + 4 + length) continue;
            received.push(text.slice(0, end + 4 + length));
            text = text.slice(end + 4 + length);
            const out = answer(requests++, received.at(-1)!);
            if (out === null) break; // dropped without an answer
            const bytes = typeof out === "string" ? new TextEncoder().encode(out) : out;
            await conn.write(bytes);
            // A server that says it closes the connection closes it.
            const saysClose = /\r\nconnection: close\r\n/i.test(
              new TextDecoder().decode(bytes.subarray(0, 4096)),
            );
            if (closeAfter || saysClose) break;
          }
        } catch { /* client went away */ }
        try {
          conn.close();
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () => listener.close(),
  };
}
