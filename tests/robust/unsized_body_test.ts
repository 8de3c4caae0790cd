/** An answer with no Content-Length, ended only by the connection: refused at the cap within 2× of it. */
import { assertBucketListRefusedAtCap, put, startRaw } from "./_raw_server.ts";

Deno.test("item 3: bucket list of an endless answer with no Content-Length: 'larger than 256 MiB', peak within 2× the cap", async () => {
  const block = new TextEncoder().encode("x".repeat(256 * 1024));
  const s = startRaw((hit, conn) => {
    if (!hit.target.startsWith("/oss/")) return undefined;
    return (async () => {
      if (
        !await put(conn, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n")
      ) return;
      for (let sent = 0; sent < 1024 * 1024 * 1024; sent += block.length) if (!await put(conn, block)) return;
    })();
  });
  await assertBucketListRefusedAtCap(s);
});
