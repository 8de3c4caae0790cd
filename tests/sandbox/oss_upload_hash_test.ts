/**
 * The sandbox's upload sessions hash the next part in order as it streams in, and the others from
 * disk once they are contiguous: whatever the order, failures and repeats, the object's SHA-1 is the
 * SHA-1 of the parts that count, in part order.
 */
import assert from "node:assert/strict";
import { createClock } from "../../src/sandbox/clock.ts";
import { createOssStore, type OssStore } from "../../src/sandbox/oss/store.ts";
import { abortUpload, completeUpload, openUpload, storePart } from "../../src/sandbox/oss/uploads.ts";
import { patternBytes, sha1Hex } from "./object_helpers.ts";

const MIB5 = 5 * 1024 * 1024;

/** A body the test feeds chunk by chunk, or fails. */
function body() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  return {
    stream,
    send: (bytes: Uint8Array, chunk = 1 << 20) => {
      for (let at = 0; at < bytes.length; at += chunk) ctl.enqueue(bytes.slice(at, at + chunk));
    },
    end: () => ctl.close(),
    fail: () => ctl.error(new Error("the client went away")),
  };
}

async function withStore(fn: (oss: OssStore) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "diazo-upload-hash-" });
  try {
    await fn(createOssStore(dir, createClock()));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5));
/** Waits (up to 2 s: a loaded machine is slow to open files) until `ok()` holds. */
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await tick();
};
const meta = {};

Deno.test("parts streaming at once: the next in order is hashed as it arrives, the others from disk", async () => {
  await withStore(async (oss) => {
    const s = openUpload(oss, "b", "o");
    const bytes = [patternBytes(MIB5, 1), patternBytes(MIB5, 2), patternBytes(1000, 3)];
    const bodies = bytes.map(() => body());
    const stored = bodies.map((b, i) => storePart(oss, s, i + 1, b.stream));
    await until(() => s.inline === 1);
    assert.equal(s.inline, 1, "part 1, the next in order, is hashed as it streams");
    bodies[2].send(bytes[2]), bodies[2].end();
    bodies[1].send(bytes[1].subarray(0, 100));
    bodies[0].send(bytes[0]), bodies[0].end();
    await stored[0];
    assert.deepEqual(s.digest.hashed, [s.parts.get(1)], "part 1 is in the digest once stored, unread");
    bodies[1].send(bytes[1].subarray(100)), bodies[1].end();
    await Promise.all(stored);
    const obj = await completeUpload(oss, s, { size: 2 * MIB5 + 1000 }, meta);
    assert.equal(obj.sha1, sha1Hex(...bytes));
  });
});

Deno.test("a part that fails while hashed as it streams leaves no trace in the object's SHA-1", async () => {
  await withStore(async (oss) => {
    const s = openUpload(oss, "b", "o");
    const one = patternBytes(MIB5, 4), two = patternBytes(MIB5, 5);
    const broken = body();
    const failed = storePart(oss, s, 1, broken.stream);
    await until(() => s.inline === 1);
    assert.equal(s.inline, 1);
    broken.send(one.subarray(0, 3 << 20));
    await tick();
    broken.fail();
    await assert.rejects(failed);
    assert.equal(s.inline, undefined);
    assert.deepEqual(s.digest.hashed, []);
    const retry = body(), second = body();
    const done = [storePart(oss, s, 1, retry.stream), storePart(oss, s, 2, second.stream)];
    second.send(two), second.end();
    retry.send(one), retry.end();
    await Promise.all(done);
    assert.equal((await completeUpload(oss, s, {}, meta)).sha1, sha1Hex(one, two));
  });
});

Deno.test("two uploads of the part hashed as it streams: the one that ends last counts", async () => {
  for (const inlineEndsLast of [true, false]) {
    await withStore(async (oss) => {
      const s = openUpload(oss, "b", "o");
      const a = patternBytes(MIB5, 6), b = patternBytes(MIB5, 7), last = patternBytes(10, 8);
      const first = body(), again = body();
      const pa = storePart(oss, s, 1, first.stream);
      await until(() => s.inline === 1);
      const pb = storePart(oss, s, 1, again.stream);
      assert.equal(s.inline, 1, "the first copy is hashed as it streams, the second is not");
      if (inlineEndsLast) {
        again.send(b), again.end();
        await pb;
        first.send(a), first.end();
        await pa;
      } else {
        first.send(a), first.end();
        await pa;
        again.send(b), again.end();
        await pb;
      }
      await storePart(oss, s, 2, ReadableStream.from([last]));
      const obj = await completeUpload(oss, s, {}, meta);
      assert.equal(obj.sha1, sha1Hex(inlineEndsLast ? a : b, last), `inline ends last: ${inlineEndsLast}`);
    });
  }
});

Deno.test("completing while a part is still hashed as it streams: the SHA-1 is of the parts completed", async () => {
  for (const late of ["a part after the last", "a copy of the part that ended first"]) {
    await withStore(async (oss) => {
      const s = openUpload(oss, "b", "o");
      const one = patternBytes(1000, 9), stray = patternBytes(MIB5, 10);
      const streaming = body();
      if (late === "a part after the last") {
        await storePart(oss, s, 1, ReadableStream.from([one]));
        void storePart(oss, s, 2, streaming.stream).catch(() => {});
      } else {
        void storePart(oss, s, 1, streaming.stream).catch(() => {});
        await until(() => s.inline === 1);
        await storePart(oss, s, 1, ReadableStream.from([one]));
      }
      await until(() => s.inline !== undefined);
      assert.notEqual(s.inline, undefined, late);
      streaming.send(stray.subarray(0, 3 << 20));
      await tick();
      const obj = await completeUpload(oss, s, {}, meta);
      assert.equal(obj.sha1, sha1Hex(one), late);
      streaming.fail();
      await tick();
    });
  }
});

Deno.test("a part stored while its session closes is dropped quietly, and leaves no folder behind", async () => {
  await withStore(async (oss) => {
    const s = openUpload(oss, "b", "o");
    // The part starts (its folder made) and the session is aborted before or while its file opens.
    const racing = storePart(oss, s, 1, ReadableStream.from([patternBytes(1000, 11)]));
    await abortUpload(oss, s);
    assert.equal(await racing, undefined);
    // A part for the closed session: nothing stored, its folder not made again.
    assert.equal(await storePart(oss, s, 2, ReadableStream.from([patternBytes(10, 12)])), undefined);
    assert.equal(await Deno.stat(s.dir).then(() => "there", () => "gone"), "gone");
  });
});
