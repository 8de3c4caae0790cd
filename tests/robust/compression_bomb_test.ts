/**
 * Compression bombs: small gzip or deflate bodies that inflate to a gigabyte, on a JSON answer, an
 * error answer, a work item's report and through `api`. Decoded bytes are counted as they come and
 * decoding stops at the cap, so a run's peak memory stays within twice the cap (README.md "Safety").
 */
import assert from "node:assert/strict";
import { deflateBomb, gzipBomb } from "./_bomb.ts";
import { assertBucketListRefusedAtCap, put, spawnDiazo, startRaw } from "./_raw_server.ts";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const DA = "/da/us-east/v3/workitems/hostile01";

/** A raw server answering `path` with `body` under `content-encoding: coding` and `status`. */
function bombServer(where: string, body: Uint8Array, coding: string, status = 200) {
  return startRaw((hit, conn) => {
    if (hit.target.startsWith(DA)) {
      const json = JSON.stringify({
        id: "hostile01",
        status: "failedInstructions",
        reportUrl: `${s.url}/report`,
      });
      return put(
        conn,
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\nconnection: close\r\n\r\n${json}`,
      ).then(() => {});
    }
    if (!hit.target.startsWith(where)) return undefined;
    return (async () => {
      const head =
        `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-encoding: ${coding}\r\n` +
        `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
      if (await put(conn, head)) await put(conn, body);
    })();
  });
  // deno-lint-ignore no-var
  var s: { url: string };
}

Deno.test("item 2: a gzip body inflating to 1 GiB on bucket list's JSON answer: 'larger than 256 MiB', peak within 2× the cap", async () => {
  await assertBucketListRefusedAtCap(bombServer("/oss/", gzipBomb(GiB).body, "gzip"));
});

Deno.test("item 2: a deflate body inflating to 1 GiB: the same refusal, the same bound", async () => {
  await assertBucketListRefusedAtCap(bombServer("/oss/", deflateBomb(GiB).body, "deflate"));
});

Deno.test("item 2: a gzip error body inflating to 1 GiB is read to 64 KiB on each attempt; peak stays near an idle run's", async () => {
  const s = bombServer("/oss/", gzipBomb(GiB).body, "gzip", 500);
  try {
    const r = await spawnDiazo(["bucket", "list", "--region", "US", "--timeout", "10"], s.url);
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /^error: The platform failed with HTTP 500 after \d attempts/m);
    assert.ok(r.peakMiB <= 120, `peak ${r.peakMiB.toFixed(0)} MiB`);
  } finally {
    s.close();
  }
});

Deno.test("item 2: a work item's gzip report inflating to 1 GiB is cut at 1 MiB with its note", async () => {
  const s = bombServer("/report", gzipBomb(GiB).body, "gzip");
  try {
    const r = await spawnDiazo(["da", "workitem", "get", "hostile01", "-o", "json"], s.url);
    assert.ok(r.stdoutBytes < 3 * MiB, `${r.stdoutBytes} bytes on stdout`);
    assert.ok(r.peakMiB <= 120, `peak ${r.peakMiB.toFixed(0)} MiB (exit ${r.code}: ${r.stderr})`);
  } finally {
    s.close();
  }
});

Deno.test("item 2: api streams a gzip body inflating to 512 MiB to stdout whole, in bounded memory (under 300 MiB)", async () => {
  const bomb = gzipBomb(512 * MiB);
  const s = bombServer("/big", bomb.body, "gzip");
  try {
    const r = await spawnDiazo(["api", "/big"], s.url);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdoutBytes, bomb.inflated);
    assert.ok(r.peakMiB <= 300, `peak ${r.peakMiB.toFixed(0)} MiB`);
  } finally {
    s.close();
  }
});
