import assert from "node:assert/strict";
import { api, call, control, withSandbox } from "./helpers.ts";
import { bucketWithToken, objectPath, patternBytes, sha1Hex, uploadObject } from "./object_helpers.ts";

async function bytesOf(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

Deno.test("storage: signeds3download serves the bytes whole and by range", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "dlb");
    const data = patternBytes(1000, 5);
    await uploadObject(sb, t, "dlb", "f.bin", data, { "x-ads-meta-Content-Type": "model/x-test" });
    const a = await api(sb, "GET", `${objectPath("dlb", "f.bin")}/signeds3download?minutesExpiration=10`, t);
    assert.equal(a.status, 200);
    const { url, ...rest } = a.json;
    assert.deepEqual(rest, {
      status: "complete",
      params: { "content-type": "model/x-test" },
      size: 1000,
      sha1: sha1Hex(data),
    });
    assert.ok(url.startsWith(`${sb.url}/__s3/download/`));
    assert.match(url, /X-Amz-Expires=\d+&X-Amz-Signature=[0-9a-f]{64}$/);

    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get("content-length"), "1000");
    assert.equal(whole.headers.get("content-type"), "model/x-test");
    assert.deepEqual(await bytesOf(whole), data);

    const cases: [string, number, number][] = [["bytes=10-19", 10, 19], ["bytes=990-", 990, 999], [
      "bytes=-5",
      995,
      999,
    ], ["bytes=900-5000", 900, 999]];
    for (const [range, start, end] of cases) {
      const part = await fetch(url, { headers: { range } });
      assert.equal(part.status, 206, range);
      assert.equal(part.headers.get("content-range"), `bytes ${start}-${end}/1000`, range);
      assert.equal(part.headers.get("content-length"), String(end - start + 1), range);
      assert.deepEqual(await bytesOf(part), data.subarray(start, end + 1), range);
    }
    const beyond = await fetch(url, { headers: { range: "bytes=1000-1001" } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get("content-range"), "bytes */1000");
    assert.match(await beyond.text(), /<Code>InvalidRange<\/Code>/);

    const typed = await api(
      sb,
      "GET",
      `${objectPath("dlb", "f.bin")}/signeds3download?response-content-type=text%2Fplain`,
      t,
    );
    assert.deepEqual(typed.json.params, { "content-type": "text/plain" });
    const typedRes = await fetch(typed.json.url);
    assert.equal(typedRes.headers.get("content-type"), "text/plain");
    await typedRes.body?.cancel();
    const swapped = new URL(typed.json.url);
    swapped.searchParams.set("response-content-type", "text/html");
    const forged = await fetch(swapped);
    assert.equal(forged.status, 403, "the override is signed");
    assert.match(await forged.text(), /SignatureDoesNotMatch/);

    assert.equal((await api(sb, "GET", `${objectPath("dlb", "nope")}/signeds3download`, t)).status, 404);
    assert.equal(
      (await api(sb, "GET", `${objectPath("dlb", "f.bin")}/signeds3download?minutesExpiration=61`, t)).status,
      400,
    );
  });
});

Deno.test("storage: download URLs expire on the sandbox clock and die with their object version", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "dlx");
    await uploadObject(sb, t, "dlx", "f", patternBytes(10, 1));
    const { url } =
      (await api(sb, "GET", `${objectPath("dlx", "f")}/signeds3download?minutesExpiration=1`, t)).json;
    await control(sb, "POST", "clock", { advance_seconds: 30 });
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    await control(sb, "POST", "clock", { advance_seconds: 31 });
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /<Code>AccessDenied<\/Code><Message>Request has expired<\/Message>/);

    const fresh = (await api(sb, "GET", `${objectPath("dlx", "f")}/signeds3download`, t)).json.url;
    await uploadObject(sb, t, "dlx", "f", patternBytes(10, 2));
    const replaced = await fetch(fresh);
    assert.equal(replaced.status, 404);
    assert.match(await replaced.text(), /NoSuchKey/);
  });
});

Deno.test("storage: an OSS signed URL reads, honours Range, and single use spends it", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "shr");
    const data = patternBytes(300, 3);
    await uploadObject(sb, t, "shr", "a/b.txt", data, { "x-ads-meta-Content-Type": "text/plain" });
    const before = Date.now();
    const made = await api(sb, "POST", `${objectPath("shr", "a/b.txt")}/signed?access=read`, t, {
      minutesExpiration: 30,
    });
    assert.equal(made.status, 200);
    assert.match(
      made.json.signedUrl,
      new RegExp(
        `^${sb.url}/oss/v2/signedresources/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\?region=US$`,
      ),
    );
    assert.equal(made.json.singleUse, false);
    assert.ok(made.json.expiration >= before + 1_800_000 && made.json.expiration <= Date.now() + 1_800_000);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(made.json.signedUrl);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/plain");
      assert.deepEqual(await bytesOf(res), data);
    }
    const part = await fetch(made.json.signedUrl, { headers: { range: "bytes=100-109" } });
    assert.equal(part.status, 206);
    assert.deepEqual(await bytesOf(part), data.subarray(100, 110));
    const bad = await fetch(made.json.signedUrl, { headers: { range: "bytes=300-" } });
    assert.equal(bad.status, 416);
    await bad.body?.cancel();
    const write = await call(made.json.signedUrl, { method: "PUT", body: "x" });
    assert.equal(write.status, 403, "read access does not write");
    assert.equal(typeof write.json.reason, "string");

    const once = await api(sb, "POST", `${objectPath("shr", "a/b.txt")}/signed`, t, { singleUse: true });
    assert.equal(once.json.singleUse, true);
    const first = await fetch(once.json.signedUrl);
    assert.equal(first.status, 200);
    await first.body?.cancel();
    const second = await call(once.json.signedUrl);
    assert.equal(second.status, 403);
    assert.match(second.json.reason, /used/);
  });
});

Deno.test("storage: OSS signed URL write, readwrite, expiry, If-Match and revocation", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "shw");
    const path = objectPath("shw", "new.txt");
    assert.equal((await api(sb, "POST", `${path}/signed?access=read`, t, {})).status, 404, "nothing to read");
    assert.equal((await api(sb, "POST", `${path}/signed?access=all`, t, {})).status, 400);
    assert.equal((await api(sb, "POST", `${path}/signed`, t, { minutesExpiration: 0 })).status, 400);
    assert.equal((await api(sb, "POST", `${path}/signed`, t, { singleUse: "yes" })).status, 400);
    const w = (await api(sb, "POST", `${path}/signed?access=Write`, t, { minutesExpiration: 5 })).json;
    const body = patternBytes(50, 4);
    const put = await call(w.signedUrl, { method: "PUT", body, headers: { "content-type": "text/csv" } });
    assert.equal(put.status, 200);
    assert.equal(put.json.sha1, sha1Hex(body));
    assert.equal(put.json.size, 50);
    assert.equal(put.json.contentType, "text/csv");
    assert.equal(put.json.objectId, "urn:adsk.objects:os.object:shw/new.txt");
    assert.equal((await call(w.signedUrl)).status, 403, "write access does not read");
    const details = await api(sb, "GET", `${path}/details`, t);
    assert.equal(details.json.sha1, sha1Hex(body));

    const rw = (await api(sb, "POST", `${path}/signed?access=ReadWrite`, t, { minutesExpiration: 2 })).json;
    const next = patternBytes(20, 5);
    const stale = await call(rw.signedUrl, {
      method: "PUT",
      body: next,
      headers: { "if-match": "0".repeat(40) },
    });
    assert.equal(stale.status, 412);
    const fresh = await call(rw.signedUrl, {
      method: "PUT",
      body: next,
      headers: { "if-match": sha1Hex(body) },
    });
    assert.equal(fresh.status, 200);
    assert.deepEqual(await bytesOf(await fetch(rw.signedUrl)), next);

    await control(sb, "POST", "clock", { advance_seconds: 121 });
    const expired = await call(rw.signedUrl);
    assert.equal(expired.status, 403);
    assert.match(expired.json.reason, /expired/);
    assert.equal(
      (await call(w.signedUrl, { method: "PUT", body: next })).status,
      200,
      "5 minutes not yet up",
    );

    const del = await call(w.signedUrl, { method: "DELETE" });
    assert.equal(del.status, 200);
    assert.equal((await call(w.signedUrl, { method: "PUT", body: next })).status, 404);
    assert.equal((await call(w.signedUrl, { method: "DELETE" })).status, 404);
    assert.equal(
      (await api(sb, "GET", `${path}/details`, t)).status,
      200,
      "deleting the URL keeps the object",
    );

    const r = (await api(sb, "POST", `${path}/signed`, t, { minutesExpiration: 60 })).json;
    assert.equal((await api(sb, "DELETE", path, t)).status, 200);
    assert.equal((await call(r.signedUrl)).status, 404, "the object's deletion voids its URLs");
  });
});
