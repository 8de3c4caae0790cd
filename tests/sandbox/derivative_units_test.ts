import assert from "node:assert/strict";
import { checkCookies, signedCookies } from "../../src/sandbox/derivative/cookies.ts";
import { fileExtension, translatable } from "../../src/sandbox/derivative/formats.ts";
import { derivativeState, manifestState } from "../../src/sandbox/derivative/jobs.ts";
import type { ParsedModel } from "../../src/sandbox/derivative/model.ts";
import {
  createDerivativeStore,
  type DerivativeJob,
  type Translation,
} from "../../src/sandbox/derivative/store.ts";
import { objectTree } from "../../src/sandbox/derivative/tree.ts";
import { decodeSourceUrn, manifestKey } from "../../src/sandbox/derivative/urn.ts";

function job(createdMs: number, durationMs: number, outcome?: DerivativeJob["outcome"]): DerivativeJob {
  return {
    outputType: "svf2",
    guid: crypto.randomUUID(),
    createdMs,
    durationMs,
    ...(outcome ? { outcome } : {}),
  };
}
const OK: DerivativeJob["outcome"] = { ok: true, files: [] };
const FAILED: DerivativeJob["outcome"] = { ok: false, code: "X", message: "m" };

Deno.test("job clock: pending for the first tenth, then NN% complete, then the outcome once time is up", () => {
  const j = job(1_000, 10_000, OK);
  const at = (ms: number) => {
    const s = derivativeState(j, 1_000 + ms);
    return `${s.status} ${s.progress}`;
  };
  assert.equal(at(0), "pending 0% complete");
  assert.equal(at(999), "pending 0% complete");
  assert.equal(at(1_000), "inprogress 10% complete");
  assert.equal(at(4_550), "inprogress 45% complete");
  assert.equal(at(9_999), "inprogress 99% complete");
  assert.equal(at(10_000), "success complete");
  // Time is up but the work is not done: held at 99%.
  assert.equal(derivativeState(job(0, 10_000), 50_000).progress, "99% complete");
  assert.equal(derivativeState(job(0, 10_000, FAILED), 10_000).status, "failed");
  // Zero duration: done as soon as the work is.
  assert.equal(derivativeState(job(0, 0), 0).status, "inprogress");
  assert.equal(derivativeState(job(0, 0, OK), 0).status, "success");
});

Deno.test("manifest clock: pending while all are, averaged progress, failed if any failed", () => {
  const tr = (...derivatives: DerivativeJob[]) => ({ derivatives }) as unknown as Translation;
  assert.deepEqual(manifestState(tr(job(0, 100, OK), job(0, 100, OK)), 5), {
    status: "pending",
    progress: "0% complete",
    percent: 0,
  });
  assert.equal(manifestState(tr(job(0, 100, OK), job(0, 200, OK)), 60).progress, "45% complete");
  assert.equal(manifestState(tr(job(0, 100, OK), job(0, 200, OK)), 150).status, "inprogress");
  assert.equal(manifestState(tr(job(0, 100, OK), job(0, 200, OK)), 200).status, "success");
  assert.equal(manifestState(tr(job(0, 100, FAILED), job(0, 100, OK)), 100).status, "failed");
});

Deno.test("urns: URL-safe and standard base64, padded or not, name the same manifest", () => {
  const id = "urn:adsk.objects:os.object:my-bucket/dir/sub/Model Ü?.obj";
  const std = btoa(String.fromCharCode(...new TextEncoder().encode(id)));
  const safe = std.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  for (const form of [std, safe, `${safe}==`.slice(0, safe.length + (4 - safe.length % 4) % 4)]) {
    const d = decodeSourceUrn(form);
    assert.deepEqual(d, {
      urn: safe,
      objectId: id,
      bucketKey: "my-bucket",
      objectKey: "dir/sub/Model Ü?.obj",
    });
    assert.equal(manifestKey(form), safe);
  }
  for (const bad of ["", "!!!!", btoa("urn:adsk.objects:os.object:nokey"), btoa("urn:other:x/y"), "a"]) {
    assert.equal(decodeSourceUrn(bad), undefined, bad);
  }
});

Deno.test("formats: extensions, numbered Creo files, and what each output accepts", () => {
  assert.equal(fileExtension("dir.v2/Model.OBJ"), "obj");
  assert.equal(fileExtension("README"), "");
  assert.equal(fileExtension(".hidden"), "");
  assert.ok(translatable("svf2", "part.prt.12"));
  assert.ok(!translatable("svf2", "part.prt.x"));
  assert.ok(translatable("ifc", "tower.RVT"));
  assert.ok(!translatable("ifc", "tower.obj"));
  assert.ok(translatable("thumbnail", "drawing.f2d"));
  assert.ok(!translatable("svf", "notes.txt"));
});

Deno.test("signed cookies: valid until expiry, for their URL only, and not forgeable", () => {
  const store = createDerivativeStore();
  const url = "http://127.0.0.1:9/__cdn/derivatives/abc";
  const jar = (cookies: string[]) => cookies.map((c) => c.split(";")[0]).join("; ");
  const cookies = signedCookies(store, url, 60_000, "/__cdn/derivatives");
  assert.ok(cookies.every((c) => c.endsWith("; Path=/__cdn/derivatives; HttpOnly")));
  const header = jar(cookies);
  assert.equal(checkCookies(store, header, "/__cdn/derivatives/abc", 59_999), "ok");
  assert.equal(checkCookies(store, header, "/__cdn/derivatives/abc", 60_000), "expired");
  assert.equal(checkCookies(store, header, "/__cdn/derivatives/other", 0), "denied");
  assert.equal(checkCookies(store, null, "/__cdn/derivatives/abc", 0), "missing");
  assert.equal(checkCookies(createDerivativeStore(), header, "/__cdn/derivatives/abc", 0), "denied");
  // A policy rewritten to a later expiry no longer matches its signature.
  const longer = signedCookies(store, url, 999_999_999, "/")[0].split(";")[0];
  assert.equal(
    checkCookies(store, header.replace(/CloudFront-Policy=[^;]+/, longer), "/__cdn/derivatives/abc", 0),
    "denied",
  );
});

Deno.test("object tree: parent cycles and self-parents end up on the root, nothing is lost", () => {
  const model: ParsedModel = {
    format: "ifc",
    fileName: "c.ifc",
    truncated: false,
    totals: {},
    objects: [
      { name: "a", kind: "X", externalId: "a", properties: {}, parent: 1 },
      { name: "b", kind: "X", externalId: "b", properties: {}, parent: 0 },
      { name: "c", kind: "X", externalId: "c", properties: {}, parent: 2 },
      { name: "d", kind: "X", externalId: "d", properties: {}, parent: 2 },
    ],
  };
  const tree = objectTree(model);
  const names: string[] = [];
  const walk = (n: { name: string; objects?: unknown[] }) => {
    names.push(n.name);
    (n.objects as typeof n[] | undefined)?.forEach(walk);
  };
  walk(tree);
  // Root "c" (the file name), then c (self-parent -> root) with its child d, then the a <-> b cycle.
  assert.deepEqual(names, ["c", "c", "d", "a", "b"]);
  assert.deepEqual(tree.objects?.map((o) => o.name), ["c", "a", "b"]);
});
