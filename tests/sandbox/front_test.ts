/**
 * The sandbox's TCP front (front.ts): every byte between a client and the inner server passes
 * through its relay, in both directions at once, whatever the sizes of the reads on either side;
 * dropping a link cuts the client off mid-transfer.
 */
import assert from "node:assert/strict";
import { startFront } from "../../src/sandbox/front.ts";

/** `size` bytes that differ from one offset to the next (a lost or repeated piece shows). */
function pattern(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed + (i >> 16)) & 0xff;
  return bytes;
}

/** Where `a` and `b` first differ, or -1 (assert.deepEqual would print megabytes of diff). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Reads exactly `size` bytes from `conn` in reads of at most `step`. */
async function readExactly(conn: Deno.Conn, size: number, step: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  for (let got = 0; got < size;) {
    const n = await conn.read(out.subarray(got, Math.min(size, got + step)));
    if (n === null) throw new Error(`the connection ended after ${got} of ${size} bytes`);
    got += n;
  }
  return out;
}

/** Writes `bytes` in writes of at most `step`. */
async function writeInSteps(conn: Deno.Conn, bytes: Uint8Array, step: number): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off, off + step));
}

Deno.test("front: several MiB each way at once arrive intact through small and large reads", async () => {
  const up = pattern(3 * 1024 * 1024 + 7, 1);
  const down = pattern(5 * 1024 * 1024 + 123, 2);
  const inner = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await inner.accept();
    try {
      // The inner side sends while it receives: both relays of the link run at once.
      const [received] = await Promise.all([
        readExactly(conn, up.length, 1000),
        writeInSteps(conn, down, 3 * 1024 * 1024),
      ]);
      return received;
    } finally {
      conn.close();
    }
  })();
  const front = startFront("127.0.0.1", 0, inner.addr as Deno.NetAddr);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: front.addr.port });
  // A relay that loses track of its bytes stalls both sides: closing the client fails the test instead.
  const watchdog = setTimeout(() => client.close(), 20_000);
  try {
    const [, got] = await Promise.all([
      writeInSteps(client, up, 100_000),
      readExactly(client, down.length, 2 * 1024 * 1024),
    ]);
    assert.equal(firstDifference(got, down), -1);
    assert.equal(firstDifference(await served, up), -1);
  } finally {
    clearTimeout(watchdog);
    try {
      client.close();
    } catch { /* closed by the watchdog */ }
    await front.close();
    inner.close();
  }
});

Deno.test("front: a dropped link cuts the client off in the middle of a transfer", async () => {
  const inner = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  // The front keys a link by the local port of its own connection to the inner server.
  const accepted = Promise.withResolvers<number>();
  const serving = (async () => {
    const conn = await inner.accept();
    accepted.resolve((conn.remoteAddr as Deno.NetAddr).port);
    try {
      // An endless body: only the drop can end what the client reads.
      const chunk = pattern(64 * 1024, 3);
      for (;;) await conn.write(chunk);
    } catch {
      // the front closed this side too
    } finally {
      conn.close();
    }
  })();
  const front = startFront("127.0.0.1", 0, inner.addr as Deno.NetAddr);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: front.addr.port });
  try {
    await readExactly(client, 256 * 1024, 64 * 1024);
    assert.equal(front.drop(await accepted.promise), true);
    const rest = new Uint8Array(1024 * 1024);
    let ended = false;
    for (let i = 0; i < 10_000 && !ended; i++) {
      ended = await client.read(rest).then((n) => n === null, () => true);
    }
    assert.ok(ended, "the client's reads end after the drop");
    await serving;
  } finally {
    client.close();
    await front.close();
    inner.close();
  }
});

Deno.test("front: when the server closes a connection, its client sees the end at once", async () => {
  const inner = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    const conn = await inner.accept();
    await conn.write(new TextEncoder().encode("bye"));
    conn.close();
  })();
  const front = startFront("127.0.0.1", 0, inner.addr as Deno.NetAddr);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: front.addr.port });
  try {
    assert.equal(new TextDecoder().decode(await readExactly(client, 3, 3)), "bye");
    // A pooled client learns that the connection is gone before it sends another request on it.
    const ended = await Promise.race([
      client.read(new Uint8Array(16)).then((n) => n === null, () => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    assert.equal(ended, true, "the client's read ends without it writing anything");
    await serving;
  } finally {
    try {
      client.close();
    } catch { /* closed */ }
    await front.close();
    inner.close();
  }
});
