import assert from "node:assert/strict";
import { DiazoError, ExitCode } from "../../src/core/errors.ts";
import { encodeUrn, encodeUrns, objectIdOf, parseUrn } from "../../src/aps/urn.ts";

/** Standard base64 with padding, computed independently of encodeUrn (Node's Buffer). */
async function standardBase64(text: string): Promise<string> {
  const { Buffer } = await import("node:buffer");
  return Buffer.from(text, "utf8").toString("base64");
}

Deno.test("objectIdOf joins bucket and key under the OSS object namespace", () => {
  assert.equal(objectIdOf("md_tute_01", "Tuner.zip"), "urn:adsk.objects:os.object:md_tute_01/Tuner.zip");
  assert.equal(objectIdOf("b", "dir/sub/x y.obj"), "urn:adsk.objects:os.object:b/dir/sub/x y.obj");
});

Deno.test("encodeUrn gives the platform's documented URL-safe, unpadded form", () => {
  // The Model Derivative tutorial's example.
  assert.equal(
    encodeUrn("urn:adsk.objects:os.object:md_tute_01/Tuner.zip"),
    "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bWRfdHV0ZV8wMS9UdW5lci56aXA",
  );
});

Deno.test("encodeUrn uses - and _ instead of + and /, and never pads", async () => {
  // Chosen so that the standard alphabet yields both '+' and '/' and padding.
  // ASCII ids take the short path, others (a Latin-1 letter, CJK, an emoji, DEL and U+0080) UTF-8.
  const ids = ["urn:adsk.objects:os.object:b/>>>?", "urn:adsk.objects:os.object:b/ü?~", "urn:x:a"];
  ids.push(
    "urn:adsk.objects:os.object:b/日本語 ファイル.rvt",
    "urn:x:🏗️",
    "urn:x:\u007f\u0080",
    "urn:x:" + "ÿ".repeat(3000),
  );
  for (const raw of ids) {
    const std = await standardBase64(raw);
    const safe = encodeUrn(raw);
    assert.equal(safe, std.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
    assert.doesNotMatch(safe, /[+/=]/);
  }
  assert.match(await standardBase64("urn:adsk.objects:os.object:b/>>>?"), /[+/]/);
});

Deno.test("parseUrn accepts a raw object id and splits bucket and key at the first slash", () => {
  const p = parseUrn("urn:adsk.objects:os.object:my-bucket/models/part 1.obj");
  assert.equal(p.objectId, "urn:adsk.objects:os.object:my-bucket/models/part 1.obj");
  assert.equal(p.bucketKey, "my-bucket");
  assert.equal(p.objectKey, "models/part 1.obj");
  assert.equal(p.urn, encodeUrn(p.objectId));
});

Deno.test("parseUrn round-trips keys with slashes, spaces and non-ASCII through every base64 variant", async () => {
  const keys = ["a/b/c.rvt", "with space.dwg", "Größe/模型 (1).ifc", "emoji-🙂.stl", "x"];
  for (const key of keys) {
    const raw = objectIdOf("bkt.one", key);
    const std = await standardBase64(raw);
    const variants = [
      encodeUrn(raw),
      std,
      std.replace(/=+$/, ""),
      std.replace(/\+/g, "-").replace(/\//g, "_"), // URL-safe but padded
      `  ${encodeUrn(raw)}\n`,
    ];
    for (const v of variants) {
      const p = parseUrn(v);
      assert.equal(p.objectId, raw, `variant ${JSON.stringify(v)}`);
      assert.equal(p.urn, encodeUrn(raw));
      assert.equal(p.bucketKey, "bkt.one");
      assert.equal(p.objectKey, key);
    }
  }
});

Deno.test("parseUrn accepts URNs of other namespaces without a bucket or key", () => {
  const raw = "urn:adsk.wipprod:fs.file:vf.abc123?version=1";
  for (const input of [raw, encodeUrn(raw)]) {
    const p = parseUrn(input);
    assert.equal(p.objectId, raw);
    assert.equal(p.urn, encodeUrn(raw));
    assert.equal(p.bucketKey, undefined);
    assert.equal(p.objectKey, undefined);
  }
});

Deno.test("parseUrn trims whitespace around a raw URN", () => {
  assert.equal(parseUrn("\t urn:adsk.objects:os.object:b/k \n").objectId, "urn:adsk.objects:os.object:b/k");
});

Deno.test("parseUrn rejects what is neither a raw URN nor base64 of one, with exit 2", async () => {
  const rejects = [
    "",
    "   ",
    "not a urn",
    "urn:",
    "urn:adsk",
    "urn::x",
    "urn:adsk.objects:", // nothing after the namespace
    "http://example.com/x",
    "dGhpcyBpcyBub3QgYSB1cm4", // base64 of "this is not a urn"
    encodeUrn("urn:"), // base64 of an incomplete URN
    "dXJuOmFkc2sub2JqZWN0cz$", // a character outside both alphabets
    "a", // a length no base64 has
    "/w", // base64 of the invalid UTF-8 byte 0xff
    await standardBase64("urn:adsk.objects:os.object:b/line\nbreak"), // a control character
    "urn:adsk.objects:os.object:b/tab\there",
  ];
  for (const input of rejects) {
    assert.throws(
      () => parseUrn(input),
      (e: unknown) => e instanceof DiazoError && e.code === "invalid_urn" && e.exitCode === ExitCode.usage,
      `should reject ${JSON.stringify(input)}`,
    );
  }
});

Deno.test("parseUrn leaves a bucket-only object id without bucket/key fields", () => {
  const p = parseUrn("urn:adsk.objects:os.object:justbucket");
  assert.equal(p.bucketKey, undefined);
  assert.equal(p.objectKey, undefined);
});

Deno.test("encodeUrns encodes a list as encodeUrn does each id, whatever their lengths and letters", async () => {
  // Ids of every length modulo 3 side by side (each starts on a group of three bytes), then a list
  // with one id that is not ASCII, and the empty list.
  const ascii = Array.from({ length: 30 }, (_, i) => `urn:x:${"k/?>~".repeat(i).slice(0, i)}`);
  ascii.push("", "u", "urn:adsk.objects:os.object:b/>>>?");
  const mixed = [...ascii.slice(0, 5), "urn:x:日本語", "urn:x:🏗️", ...ascii.slice(5, 9)];
  for (const list of [ascii, mixed]) {
    const got = encodeUrns(list);
    assert.equal(got.length, list.length);
    for (let i = 0; i < list.length; i++) {
      const std = await standardBase64(list[i]);
      assert.equal(got[i], std.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), list[i]);
      assert.equal(got[i], encodeUrn(list[i]));
    }
  }
  assert.deepEqual(encodeUrns([]), []);
});
