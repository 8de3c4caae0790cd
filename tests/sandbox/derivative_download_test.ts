import assert from "node:assert/strict";
import { readModel } from "../../src/sandbox/derivative/model_reader.ts";
import { api, control, withSandbox } from "./helpers.ts";
import {
  advance,
  MD,
  modelBucket,
  postJob,
  setJobSeconds,
  settledManifest,
  translated,
  TWO_GROUPS_OBJ,
  uploadDesign,
} from "./derivative_helpers.ts";

/** The `name=value` pairs of `Set-Cookie` headers, as a `Cookie` header. */
function cookieHeader(headers: Headers): string {
  return headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

function derivativePath(urn: string, derivativeUrn: string, suffix = ""): string {
  return `${MD}/${urn}/manifest/${encodeURIComponent(derivativeUrn)}${suffix}`;
}

Deno.test("md download: signed cookies open the CDN URL; the OBJ derivative lists the source groups", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    const m = await translated(sb, t, urn, ["obj"]);
    const [resource] = m.json.derivatives[0].children;
    assert.equal(resource.urn, `urn:adsk.viewing:fs.file:${urn}/output/furniture.obj`);
    assert.equal(resource.role, "obj");

    const head = await fetch(`${sb.url}${derivativePath(urn, resource.urn)}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(head.status, 200);
    const size = Number(head.headers.get("content-length"));
    assert.ok(size > 100);
    assert.equal(head.headers.get("content-type"), "application/octet-stream");

    const signed = await api(
      sb,
      "GET",
      derivativePath(urn, resource.urn, "/signedcookies?minutes-expiration=10"),
      t,
    );
    assert.equal(signed.status, 200);
    assert.deepEqual(Object.keys(signed.json).sort(), ["content-type", "etag", "expiration", "size", "url"]);
    assert.equal(signed.json.size, size);
    assert.ok(signed.json.url.startsWith(`${sb.url}/__cdn/derivatives/`));
    const now = (await control(sb, "GET", "clock")).json.now;
    assert.ok(Math.abs(signed.json.expiration - (now + 600_000)) < 5_000);
    const cookies = signed.headers.getSetCookie();
    assert.deepEqual(cookies.map((c) => c.split("=")[0]), [
      "CloudFront-Policy",
      "CloudFront-Signature",
      "CloudFront-Key-Pair-Id",
    ]);

    const without = await fetch(signed.json.url);
    assert.equal(without.status, 403);
    assert.match(await without.text(), /<Code>MissingKey<\/Code>/);
    const forged = await fetch(signed.json.url, {
      headers: {
        cookie: cookieHeader(signed.headers).replace(
          /CloudFront-Signature=[^;]+/,
          "CloudFront-Signature=AAAA",
        ),
      },
    });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /AccessDenied/);

    const got = await fetch(signed.json.url, { headers: { cookie: cookieHeader(signed.headers) } });
    assert.equal(got.status, 200);
    const bytes = new Uint8Array(await got.arrayBuffer());
    assert.equal(bytes.length, size);
    const parsed = await readModel("furniture.obj", bytes.length, () => ReadableStream.from([bytes]));
    assert.deepEqual(parsed.objects.map((o) => o.name), ["Furniture", "Chair", "Table"]);
    assert.deepEqual(parsed.objects.find((o) => o.name === "Table")?.bounds, {
      min: [5, 5, 0],
      max: [6, 6, 2],
    });

    const range = await fetch(signed.json.url, {
      headers: { cookie: cookieHeader(signed.headers), range: "bytes=2-9" },
    });
    assert.equal(range.status, 206);
    assert.equal(range.headers.get("content-range"), `bytes 2-9/${size}`);
    assert.deepEqual(new Uint8Array(await range.arrayBuffer()), bytes.slice(2, 10));

    // The cookies name one URL: another derivative's URL is not opened by them.
    const other = signed.json.url.replace(/[^/]+$/, crypto.randomUUID());
    assert.equal((await fetch(other, { headers: { cookie: cookieHeader(signed.headers) } })).status, 403);

    await advance(sb, 601);
    const expired = await fetch(signed.json.url, { headers: { cookie: cookieHeader(signed.headers) } });
    assert.equal(expired.status, 403);
    await expired.body?.cancel();
  });
});

Deno.test("md download: thumbnails and STL are valid files; SVF2 graphics have no URN; legacy direct GET", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    const m = await translated(sb, t, urn, ["thumbnail", "stl", "svf2"]);
    const [thumbs, stl, svf2] = m.json.derivatives;
    const preview = thumbs.children.find((c: { resolution: number[] }) => c.resolution[0] === 400);
    const signed = await api(sb, "GET", derivativePath(urn, preview.urn, "/signedcookies"), t);
    assert.equal(signed.json["content-type"], "image/png");
    const png = new Uint8Array(
      await (await fetch(signed.json.url, { headers: { cookie: cookieHeader(signed.headers) } }))
        .arrayBuffer(),
    );
    assert.deepEqual([...png.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const ihdr = new DataView(png.buffer, 16, 8);
    assert.deepEqual([ihdr.getUint32(0), ihdr.getUint32(4)], [400, 400]);

    // The legacy direct download (bearer token, no cookies) gives the same bytes.
    const direct = await fetch(`${sb.url}${derivativePath(urn, stl.children[0].urn)}`, {
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(direct.status, 200);
    const stlBytes = new Uint8Array(await direct.arrayBuffer());
    const solid = await readModel("x.stl", stlBytes.length, () => ReadableStream.from([stlBytes]));
    assert.equal(solid.totals.Facets, 36); // three boxes of 12 triangles: Furniture, Chair, Table

    const graphics = svf2.children[0].children.find((c: Record<string, unknown>) => c.role === "graphics");
    assert.equal(graphics.urn, undefined);

    const thumb = await fetch(`${sb.url}${MD}/${urn}/thumbnail?width=100`, {
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get("content-type"), "image/png");
    assert.equal(thumb.headers.get("x-ads-size"), "[100,100]");
    const small = new Uint8Array(await thumb.arrayBuffer());
    assert.deepEqual([...small.slice(1, 4)], [0x50, 0x4e, 0x47]);
    assert.equal(new DataView(small.buffer, 16, 4).getUint32(0), 100);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/thumbnail?width=123`, t)).status, 400);
  });
});

Deno.test("md download: 202 while the derivative is being made, 404 for an unknown one, 400 for bad options", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "furniture.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 30);
    await postJob(sb, t, urn, ["obj"]);
    const derivativeUrn = `urn:adsk.viewing:fs.file:${urn}/output/furniture.obj`;
    const head = (u: string) =>
      fetch(`${sb.url}${derivativePath(urn, u)}`, {
        method: "HEAD",
        headers: { authorization: `Bearer ${t}` },
      });
    assert.equal((await head(derivativeUrn)).status, 202);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/thumbnail`, t)).status, 404);
    await advance(sb, 31);
    assert.equal((await settledManifest(sb, t, urn)).json.status, "success");
    assert.equal((await head(derivativeUrn)).status, 200);
    assert.equal((await head(`urn:adsk.viewing:fs.file:${urn}/output/other.obj`)).status, 404);
    // A client that does not encode the derivative URN reaches it too.
    const raw = await fetch(`${sb.url}${MD}/${urn}/manifest/${derivativeUrn}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(raw.status, 200);
    for (
      const q of ["minutes-expiration=0", "minutes-expiration=361", "response-content-disposition=inline"]
    ) {
      const a = await api(sb, "GET", derivativePath(urn, derivativeUrn, `/signedcookies?${q}`), t);
      assert.equal(a.status, 400, q);
    }
    const named = await api(
      sb,
      "GET",
      derivativePath(
        urn,
        derivativeUrn,
        "/signedcookies?response-content-disposition=attachment%3B%20filename%3Dx.obj",
      ),
      t,
    );
    const file = await fetch(named.json.url, { headers: { cookie: cookieHeader(named.headers) } });
    assert.equal(file.headers.get("content-disposition"), "attachment; filename=x.obj");
    await file.body?.cancel();
    // After the manifest is deleted its files are gone from the CDN.
    await api(sb, "DELETE", `${MD}/${urn}/manifest`, t);
    const gone = await fetch(named.json.url, { headers: { cookie: cookieHeader(named.headers) } });
    assert.equal(gone.status, 404);
    assert.match(await gone.text(), /NoSuchKey/);
  });
});
