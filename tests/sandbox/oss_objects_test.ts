import assert from "node:assert/strict";
import { join } from "node:path";
import { createClock } from "../../src/sandbox/clock.ts";
import {
  adoptFiles,
  deleteObject,
  findObject,
  putObject,
  readObject,
} from "../../src/sandbox/oss/object_store.ts";
import { createOssStore } from "../../src/sandbox/oss/store.ts";
import { addApp, api, call, control, token, withSandbox } from "./helpers.ts";
import {
  bucketWithToken,
  completeUpload,
  filesUnder,
  MIB5,
  objectPath,
  patternBytes,
  putToUrl,
  sha1Hex,
  signedUploadUrls,
  uploadObject,
} from "./object_helpers.ts";

const keysOf = (a: { json: { items: { objectKey: string }[] } }) => a.json.items.map((i) => i.objectKey);

Deno.test("oss objects: 1,050 objects page by 100 in key order with next URLs", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "many");
    await uploadObject(sb, t, "many", "seed", patternBytes(10));
    const keys = Array.from({ length: 1050 }, (_, i) => `obj-${String(i).padStart(4, "0")}`);
    // Copies made in a scrambled order, a few at a time: listing sorts regardless.
    const order = keys.map((_, i) => keys[(i * 7919) % keys.length]);
    for (let i = 0; i < order.length; i += 25) {
      const batch = order.slice(i, i + 25).map((k) =>
        api(sb, "PUT", `${objectPath("many", "seed")}/copyto/${k}`, t)
      );
      for (const a of await Promise.all(batch)) assert.equal(a.status, 200);
    }
    const pages: string[][] = [];
    let url: string | undefined = `${sb.url}/oss/v2/buckets/many/objects?limit=100&beginsWith=obj-`;
    while (url) {
      const a = await call(url, { headers: { authorization: `Bearer ${t}` } });
      assert.equal(a.status, 200);
      pages.push(keysOf(a));
      if (a.json.next) {
        const last = pages.at(-1)!.at(-1)!;
        assert.equal(
          a.json.next,
          `${sb.url}/oss/v2/buckets/many/objects?startAt=${last}&limit=100&beginsWith=obj-`,
        );
      }
      url = a.json.next;
      assert.ok(pages.length <= 11);
    }
    assert.equal(pages.length, 11);
    assert.deepEqual(pages.flat(), keys);
    assert.deepEqual(pages[10], keys.slice(1000));
    const all = await api(sb, "GET", "/oss/v2/buckets/many/objects?startAt=obj-1047&limit=100", t);
    assert.deepEqual(keysOf(all), ["obj-1048", "obj-1049", "seed"]);
    assert.ok(!("next" in all.json));
  });
});

Deno.test("oss objects: list items, default limit, beginsWith and limit checks", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "lst");
    const data = patternBytes(36);
    for (const k of ["b/2", "a", "b/1", "c"]) await uploadObject(sb, t, "lst", k, data);
    const a = await api(sb, "GET", "/oss/v2/buckets/lst/objects", t);
    assert.deepEqual(keysOf(a), ["a", "b/1", "b/2", "c"]);
    assert.deepEqual(a.json.items[1], {
      bucketKey: "lst",
      objectId: "urn:adsk.objects:os.object:lst/b/1",
      objectKey: "b/1",
      sha1: sha1Hex(data),
      size: 36,
      contentType: "application/octet-stream",
      location: `${sb.url}/oss/v2/buckets/lst/objects/b%2F1`,
    });
    const b = await api(sb, "GET", "/oss/v2/buckets/lst/objects?beginsWith=b%2F&limit=1", t);
    assert.deepEqual(keysOf(b), ["b/1"]);
    assert.equal(b.json.next, `${sb.url}/oss/v2/buckets/lst/objects?startAt=b%2F1&limit=1&beginsWith=b%2F`);
    assert.deepEqual(keysOf(await call(b.json.next, { headers: { authorization: `Bearer ${t}` } })), ["b/2"]);
    for (const limit of ["0", "101", "x", "2.5"]) {
      const bad = await api(sb, "GET", `/oss/v2/buckets/lst/objects?limit=${limit}`, t);
      assert.equal(bad.status, 400, limit);
      assert.equal(typeof bad.json.reason, "string");
    }
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/nope/objects", t)).status, 404);
  });
});

Deno.test("oss objects: a 3-part upload sent out of order has the SHA-1 of its bytes", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "multi");
    const parts = [patternBytes(MIB5, 1), patternBytes(MIB5, 2), patternBytes(1000, 3)];
    const { uploadKey, urls } = await signedUploadUrls(sb, t, "multi", "big.bin", "?parts=3");
    assert.equal(urls.length, 3);
    const etags: string[] = [];
    for (const i of [2, 0, 1]) {
      const put = await putToUrl(urls[i], parts[i]);
      assert.equal(put.status, 200);
      assert.match(put.etag ?? "", /^".+"$/);
      etags[i] = put.etag!;
    }
    const done = await completeUpload(sb, t, "multi", "big.bin", {
      uploadKey,
      size: 2 * MIB5 + 1000,
      eTags: etags,
    }, { "x-ads-meta-Content-Type": "application/x-test" });
    assert.equal(done.status, 200);
    assert.deepEqual(done.json, {
      bucketKey: "multi",
      objectId: "urn:adsk.objects:os.object:multi/big.bin",
      objectKey: "big.bin",
      sha1: sha1Hex(...parts),
      size: 2 * MIB5 + 1000,
      contentType: "application/x-test",
      location: `${sb.url}/oss/v2/buckets/multi/objects/big.bin`,
      policyKey: "transient",
    });
    // The parts became the object's files: nothing is left of the upload.
    assert.deepEqual(await filesUnder(join(sb.dataDir, "uploads")), []);
    assert.equal((await filesUnder(join(sb.dataDir, "objects"))).length, 3);
    // Reading across the part boundary stitches the files together.
    const dl = await api(sb, "GET", `${objectPath("multi", "big.bin")}/signeds3download`, t);
    const res = await fetch(dl.json.url, { headers: { range: `bytes=${MIB5 - 3}-${MIB5 + 2}` } });
    assert.equal(res.status, 206);
    assert.deepEqual(
      new Uint8Array(await res.arrayBuffer()),
      new Uint8Array([...parts[0].subarray(MIB5 - 3), ...parts[1].subarray(0, 3)]),
    );
    const again = await completeUpload(sb, t, "multi", "big.bin", { uploadKey });
    assert.equal(again.status, 409);
    assert.equal(typeof again.json.reason, "string");
    const late = await putToUrl(urls[0], parts[0]);
    assert.equal(late.status, 404);
    assert.match(late.text, /<Code>NoSuchUpload<\/Code>/);
    const reuse = await api(
      sb,
      "GET",
      `${objectPath("multi", "big.bin")}/signeds3upload?uploadKey=${uploadKey}`,
      t,
    );
    assert.equal(reuse.status, 409);
  });
});

Deno.test("oss objects: completion checks parts (TooSmall, Pending, eTags, size); a retried part replaces", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "chk");
    const { uploadKey, urls } = await signedUploadUrls(sb, t, "chk", "o", "?parts=3");
    const small = patternBytes(1024, 9);
    const last = patternBytes(10, 8);
    assert.equal((await putToUrl(urls[0], small)).status, 200);
    assert.equal((await putToUrl(urls[2], last)).status, 200);
    const pending = await completeUpload(sb, t, "chk", "o", { uploadKey });
    assert.equal(pending.status, 400);
    assert.match(pending.json.reason, /Part 2\b.*Pending/);
    const second = patternBytes(MIB5, 7);
    const etag2 = (await putToUrl(urls[1], second)).etag!;
    const tooSmall = await completeUpload(sb, t, "chk", "o", { uploadKey });
    assert.equal(tooSmall.status, 400);
    assert.match(tooSmall.json.reason, /Part 1\b.*TooSmall/);
    // Part 1 was hashed already in the background; its replacement must be what counts.
    const first = patternBytes(MIB5, 6);
    const etag1 = (await putToUrl(urls[0], first)).etag!;
    const etag3 = (await signedUploadUrls(sb, t, "chk", "o", `?uploadKey=${uploadKey}&firstPart=3`)).urls[0];
    const put3 = await putToUrl(etag3, last);
    const badEtag = await completeUpload(sb, t, "chk", "o", { uploadKey, eTags: [etag1, etag2, '"nope"'] });
    assert.equal(badEtag.status, 400);
    assert.match(badEtag.json.reason, /part 3/);
    const badSize = await completeUpload(sb, t, "chk", "o", { uploadKey, size: 1 });
    assert.equal(badSize.status, 400);
    assert.match(badSize.json.reason, /size/);
    const ok = await completeUpload(sb, t, "chk", "o", { uploadKey, eTags: [etag1, etag2, put3.etag] });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.sha1, sha1Hex(first, second, last));
    assert.equal(ok.json.size, 2 * MIB5 + 10);
  });
});

Deno.test("oss objects: signeds3upload checks parts, firstPart, expiry and uploadKey", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "sgn");
    const path = `${objectPath("sgn", "k")}/signeds3upload`;
    for (const q of ["parts=26", "parts=0", "firstPart=0", "minutesExpiration=61", "minutesExpiration=0"]) {
      const a = await api(sb, "GET", `${path}?${q}`, t);
      assert.equal(a.status, 400, q);
      assert.equal(typeof a.json.reason, "string");
    }
    const many = await signedUploadUrls(sb, t, "sgn", "k", "?parts=25");
    assert.equal(many.urls.length, 25);
    const batch = await signedUploadUrls(
      sb,
      t,
      "sgn",
      "k",
      `?uploadKey=${many.uploadKey}&firstPart=10&parts=6`,
    );
    assert.equal(batch.uploadKey, many.uploadKey);
    assert.deepEqual(
      batch.urls.map((u) => new URL(u).pathname),
      [10, 11, 12, 13, 14, 15].map((n) => `/__s3/upload/${many.uploadKey}/${n}`),
    );
    const before = Date.now();
    const one = await signedUploadUrls(sb, t, "sgn", "k", "?minutesExpiration=5");
    const urlExp = Date.parse(one.urlExpiration);
    assert.ok(urlExp >= before + 299_000 && urlExp <= Date.now() + 300_000, one.urlExpiration);
    assert.ok(Date.parse(one.uploadExpiration) > urlExp);
    assert.notEqual(one.uploadKey, many.uploadKey);
    assert.equal((await api(sb, "GET", `${path}?uploadKey=unknown`, t)).status, 404);
    const other = await api(
      sb,
      "GET",
      `${objectPath("sgn", "other")}/signeds3upload?uploadKey=${one.uploadKey}`,
      t,
    );
    assert.equal(other.status, 400);
  });
});

Deno.test("oss objects: an expired part URL is 403; fresh URLs for the same uploadKey work", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "exp");
    const data = patternBytes(100);
    const { uploadKey, urls } = await signedUploadUrls(sb, t, "exp", "k", "?minutesExpiration=1");
    await control(sb, "POST", "clock", { advance_seconds: 61 });
    const expired = await putToUrl(urls[0], data);
    assert.equal(expired.status, 403);
    assert.equal(expired.contentType, "application/xml");
    assert.equal(
      expired.text,
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
    );
    const fresh = await signedUploadUrls(sb, t, "exp", "k", `?uploadKey=${uploadKey}`);
    assert.equal((await putToUrl(fresh.urls[0], data)).status, 200);
    const done = await completeUpload(sb, t, "exp", "k", { uploadKey });
    assert.equal(done.status, 200);
    assert.equal(done.json.sha1, sha1Hex(data));
    const puts = (await control(sb, "GET", "requests?path=/__s3/upload/")).json;
    assert.deepEqual(puts.map((e: { status: number }) => e.status), [403, 200]);

    // A session left open past its deadline is discarded with its parts.
    const stale = await signedUploadUrls(sb, t, "exp", "s", "?minutesExpiration=60");
    assert.equal((await putToUrl(stale.urls[0], data)).status, 200);
    assert.equal((await filesUnder(join(sb.dataDir, "uploads"))).length, 1);
    await control(sb, "POST", "clock", { advance_seconds: 25 * 3600 });
    const path = `${objectPath("exp", "s")}/signeds3upload?uploadKey=${stale.uploadKey}`;
    const later = await token(sb, "data:write");
    const expiredSession = await api(sb, "GET", path, later);
    assert.equal(expiredSession.status, 400);
    assert.match(expiredSession.json.reason, /expired/);
    assert.deepEqual(await filesUnder(join(sb.dataDir, "uploads")), []);
    assert.equal((await api(sb, "GET", path, later)).status, 404);
  });
});

Deno.test("oss objects: a tampered signature, part number or expiry is SignatureDoesNotMatch", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "tam");
    const { urls } = await signedUploadUrls(sb, t, "tam", "k", "?parts=2");
    const u = new URL(urls[0]);
    const sig = u.searchParams.get("X-Amz-Signature")!;
    const variants = [
      (x: URL) => x.searchParams.set("X-Amz-Signature", (sig[0] === "a" ? "b" : "a") + sig.slice(1)),
      (x: URL) => (x.pathname = x.pathname.replace(/\/1$/, "/3")),
      (x: URL) =>
        x.searchParams.set("X-Amz-Expires", String(Number(x.searchParams.get("X-Amz-Expires")) + 3600)),
      (x: URL) => x.searchParams.delete("X-Amz-Signature"),
    ];
    for (const [i, tamper] of variants.entries()) {
      const bad = new URL(u);
      tamper(bad);
      const put = await putToUrl(bad.href, patternBytes(5));
      assert.equal(put.status, 403, `variant ${i}`);
      assert.match(put.text, /<Code>SignatureDoesNotMatch<\/Code>/);
    }
    assert.equal((await putToUrl(urls[0], patternBytes(5))).status, 200, "the untouched URL works");
  });
});

Deno.test("oss objects: details with `with`, If-Modified-Since, copyto and delete", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "det");
    const data = patternBytes(64, 4);
    await uploadObject(sb, t, "det", "dir/a.txt", data, {
      "x-ads-meta-Content-Type": "text/plain",
      "x-ads-user-defined-metadata": '{"k":"v"}',
    });
    const path = objectPath("det", "dir/a.txt");
    const plain = await api(sb, "GET", `${path}/details`, t);
    assert.equal(plain.status, 200);
    assert.deepEqual(Object.keys(plain.json).sort(), [
      "bucketKey",
      "contentType",
      "location",
      "objectId",
      "objectKey",
      "sha1",
      "size",
    ]);
    assert.equal(plain.json.contentType, "text/plain");
    const full = await api(
      sb,
      "GET",
      // one `with` per request, as oss.yaml types it (the sandbox also reads a comma list)
      `${path}/details?with=createdDate,lastModifiedDate,userDefinedMetadata`,
      t,
    );
    assert.equal(typeof full.json.createdDate, "number");
    assert.equal(full.json.lastModifiedDate, full.json.createdDate);
    assert.equal(full.json.userDefinedMetadata, '{"k":"v"}');
    assert.ok(!("lastAccessedDate" in full.json));
    assert.equal((await api(sb, "GET", `${path}/details?with=size`, t)).status, 400);
    const later = new Date(full.json.lastModifiedDate + 5000).toUTCString();
    assert.equal(
      (await api(sb, "GET", `${path}/details`, t, undefined, { "if-modified-since": later })).status,
      304,
    );

    const copy = await api(sb, "PUT", `${path}/copyto/${encodeURIComponent("copy/b.txt")}`, t);
    assert.equal(copy.status, 200);
    assert.equal(copy.json.objectId, "urn:adsk.objects:os.object:det/copy/b.txt");
    assert.equal(copy.json.sha1, sha1Hex(data));
    assert.equal(copy.json.contentType, "text/plain");
    assert.equal((await api(sb, "PUT", `${objectPath("det", "nope")}/copyto/x`, t)).status, 404);

    const del = await call(`${sb.url}${path}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(del.status, 200);
    assert.equal(del.json, null);
    assert.equal((await api(sb, "GET", `${path}/details`, t)).status, 404);
    const gone = await api(sb, "DELETE", path, t);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.json, { reason: "Object not found" });
    // The copy keeps its bytes after the original went.
    const dl = await api(sb, "GET", `${objectPath("det", "copy/b.txt")}/signeds3download`, t);
    assert.deepEqual(new Uint8Array(await (await fetch(dl.json.url)).arrayBuffer()), data);
  });
});

Deno.test("oss objects: scopes are enforced and other apps are kept out", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "scp");
    await uploadObject(sb, t, "scp", "k", patternBytes(3));
    const writeOnly = await token(sb, "data:write");
    const readOnly = await token(sb, "data:read");
    const createOnly = await token(sb, "data:create");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/scp/objects", writeOnly)).status, 403);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/scp/objects", readOnly)).status, 200);
    assert.equal((await api(sb, "DELETE", objectPath("scp", "k"), readOnly)).status, 403);
    assert.equal((await api(sb, "GET", `${objectPath("scp", "k")}/signeds3upload`, createOnly)).status, 200);
    assert.equal((await api(sb, "GET", `${objectPath("scp", "k")}/signeds3upload`, readOnly)).status, 403);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/scp/objects", undefined)).status, 401);
    const other = await token(sb, "data:read data:write", await addApp(sb));
    const peek = await api(sb, "GET", "/oss/v2/buckets/scp/objects", other);
    assert.equal(peek.status, 403);
    assert.equal(typeof peek.json.reason, "string");
    assert.equal((await api(sb, "DELETE", objectPath("scp", "k"), other)).status, 403);
    assert.equal((await api(sb, "GET", `${objectPath("scp", "k")}/details`, t)).status, 200, "still there");
  });
});

Deno.test("oss objects: deleting a bucket removes its objects and uploads from disk", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "doomed");
    await bucketWithToken(sb, "kept");
    await uploadObject(sb, t, "doomed", "a", patternBytes(10));
    await uploadObject(sb, t, "doomed", "b", patternBytes(10));
    await uploadObject(sb, t, "kept", "c", patternBytes(10));
    const open = await signedUploadUrls(sb, t, "doomed", "d");
    assert.equal((await putToUrl(open.urls[0], patternBytes(4))).status, 200);
    assert.equal((await filesUnder(join(sb.dataDir, "objects"))).length, 3);
    assert.equal((await filesUnder(join(sb.dataDir, "uploads"))).length, 1);
    assert.equal((await api(sb, "DELETE", "/oss/v2/buckets/doomed", t)).status, 200);
    assert.equal((await filesUnder(join(sb.dataDir, "objects"))).length, 1);
    assert.deepEqual(await filesUnder(join(sb.dataDir, "uploads")), []);
    const state = (await control(sb, "GET", "state")).json;
    assert.deepEqual(state.objects.by_bucket, { kept: 1 });
    assert.equal(state.objects.open_uploads, 0);
    const late = await putToUrl(open.urls[0], patternBytes(4));
    assert.equal(late.status, 404);
    // A bucket of the same name starts empty.
    await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "doomed", policyKey: "transient" });
    assert.deepEqual((await api(sb, "GET", "/oss/v2/buckets/doomed/objects", t)).json, { items: [] });
  });
});

Deno.test("oss objects: /_sandbox/reset clears objects and uploads, on disk too", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "rst");
    await uploadObject(sb, t, "rst", "a", patternBytes(10));
    const open = await signedUploadUrls(sb, t, "rst", "b");
    await putToUrl(open.urls[0], patternBytes(4));
    const before = (await control(sb, "GET", "state")).json.objects;
    assert.deepEqual(before, {
      count: 1,
      bytes: 10,
      by_bucket: { rst: 1 },
      open_uploads: 1,
      signed_resources: 0,
    });
    assert.equal((await control(sb, "POST", "reset")).status, 200);
    assert.deepEqual(await filesUnder(sb.dataDir), []);
    const after = (await control(sb, "GET", "state")).json.objects;
    assert.deepEqual(after, { count: 0, bytes: 0, by_bucket: {}, open_uploads: 0, signed_resources: 0 });
    // URLs handed out before the reset are void.
    assert.equal((await putToUrl(open.urls[0], patternBytes(4))).status, 403);
  });
});

Deno.test("objects: putObject, findObject and readObject keep the store's contract", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "diazo-objects-test-" });
  try {
    const sb = createOssStore(dataDir, createClock());
    const a = patternBytes(70_000, 1), b = patternBytes(1234, 2);
    const stream = ReadableStream.from([a, b]);
    const obj = await putObject(sb, "bkt", "x/y.svf", stream, "application/x-svf");
    assert.equal(obj.objectId, "urn:adsk.objects:os.object:bkt/x/y.svf");
    assert.equal(obj.size, 71_234);
    assert.equal(obj.sha1, sha1Hex(a, b));
    assert.equal(obj.contentType, "application/x-svf");
    assert.equal(findObject(sb, "bkt", "x/y.svf"), obj);
    assert.equal(findObject(sb, "bkt", "nope"), undefined);
    const read = async (range?: { start: number; end: number }) =>
      new Uint8Array(
        await new Response(readObject(sb, findObject(sb, "bkt", "x/y.svf")!, range)).arrayBuffer(),
      );
    assert.deepEqual(await read(), new Uint8Array([...a, ...b]));
    assert.deepEqual(await read({ start: 69_999, end: 70_001 }), new Uint8Array([a[69_999], b[0], b[1]]));
    const replaced = await putObject(sb, "bkt", "x/y.svf", new Uint8Array([1, 2, 3]));
    assert.equal(replaced.contentType, "application/octet-stream");
    assert.equal(replaced.sha1, sha1Hex(new Uint8Array([1, 2, 3])));
    assert.deepEqual(await read(), new Uint8Array([1, 2, 3]));
    assert.equal((await filesUnder(join(dataDir, "objects"))).length, 1, "the replaced data is gone");

    // Files adopted as parts are moved in, and a read under way outlives the object's deletion.
    const partA = join(dataDir, "pa"), partB = join(dataDir, "pb");
    const big = patternBytes(3 << 20, 5);
    await Deno.writeFile(partA, big);
    await Deno.writeFile(partB, b);
    const adopted = await adoptFiles(sb, {
      bucketKey: "bkt",
      objectKey: "parts",
      sha1: sha1Hex(big, b),
      files: [{ path: partA, size: big.length }, { path: partB, size: b.length }],
    });
    assert.equal(adopted.size, big.length + b.length);
    assert.deepEqual((await filesUnder(dataDir)).filter((f) => !f.startsWith("objects")), []);
    const reader = readObject(sb, adopted).getReader();
    const got: Uint8Array[] = [];
    const firstChunk = await reader.read();
    got.push(firstChunk.value!);
    assert.ok(await deleteObject(sb, "bkt", "parts"));
    assert.equal(findObject(sb, "bkt", "parts"), undefined);
    for (let r = await reader.read(); !r.done; r = await reader.read()) got.push(r.value);
    assert.equal(got.reduce((n, c) => n + c.length, 0), big.length + b.length);
    assert.equal(sha1Hex(...got), adopted.sha1);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
