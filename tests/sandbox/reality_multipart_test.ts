/** The sandbox's streaming multipart reader: any chunking, delimiter look-alikes in the data, refusals. */
import assert from "node:assert/strict";
import path from "node:path";
import { multipartBoundary, readMultipart } from "../../src/sandbox/reality/multipart.ts";

const enc = new TextEncoder();

/** `bytes` as a stream of `size`-byte chunks. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at += size));
    },
  });
}

Deno.test("multipart: fields and files survive any chunking, also data that looks like the delimiter", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const b = "xyz";
    const photo = enc.encode("JPEG\r\n--xy\r\n-xyz--x\r\n--x"); // almost the delimiter, twice
    const body = new Uint8Array([
      ...enc.encode(`--${b}\r\nContent-Disposition: form-data; name="photosceneid"\r\n\r\nscene1\r\n`),
      ...enc.encode(`--${b}\r\nContent-Disposition: form-data; name="file[0]"; filename="a.jpg"\r\n`),
      ...enc.encode("Content-Type: image/jpeg\r\n\r\n"),
      ...photo,
      ...enc.encode(`\r\n--${b}--\r\n`),
    ]);
    for (const size of [1, 3, 7, body.length]) {
      let n = 0;
      const got = await readMultipart(chunked(body, size), b, () => path.join(dir, `f${size}-${n++}`));
      assert.equal(got.fields.get("photosceneid"), "scene1");
      assert.equal(got.files.length, 1);
      assert.deepEqual(
        { field: got.files[0].field, filename: got.files[0].filename, size: got.files[0].size },
        { field: "file[0]", filename: "a.jpg", size: photo.length },
      );
      assert.deepEqual(await Deno.readFile(got.files[0].path), photo, `chunks of ${size}`);
    }
    assert.equal(multipartBoundary('multipart/form-data; boundary="q r"'), "q r");
    assert.equal(multipartBoundary("application/x-www-form-urlencoded"), undefined);

    const cut = body.slice(0, body.length - 12);
    await assert.rejects(
      readMultipart(chunked(cut, 5), b, () => path.join(dir, "cut")),
      /ended before the closing boundary/,
    );
    assert.equal(await Deno.stat(path.join(dir, "cut")).then(() => true, () => false), false, "removed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
