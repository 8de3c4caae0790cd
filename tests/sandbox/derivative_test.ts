import assert from "node:assert/strict";
import { api, call, control, token, withSandbox } from "./helpers.ts";
import {
  advance,
  getManifest,
  MD,
  modelBucket,
  postJob,
  setJobSeconds,
  settledManifest,
  TWO_GROUPS_OBJ,
  uploadDesign,
  urnOf,
} from "./derivative_helpers.ts";

const MANIFEST_KEYS = [
  "derivatives",
  "hasThumbnail",
  "progress",
  "region",
  "status",
  "type",
  "urn",
  "version",
];

Deno.test("md job: pending -> inprogress 'NN% complete' -> success as the sandbox clock advances", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "chairs.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 100);
    const job = await postJob(sb, t, urn, ["svf2", "thumbnail"]);
    assert.equal(job.status, 200);
    assert.deepEqual(job.json, {
      result: "success",
      urn,
      acceptedJobs: { output: { formats: [{ type: "svf2", views: ["3d"] }, { type: "thumbnail" }] } },
    });

    const m0 = await getManifest(sb, t, urn);
    assert.equal(m0.status, 200);
    assert.deepEqual(Object.keys(m0.json).sort(), MANIFEST_KEYS);
    assert.equal(m0.json.status, "pending");
    assert.equal(m0.json.progress, "0% complete");
    assert.equal(m0.json.hasThumbnail, "false");
    assert.equal(m0.json.region, "US");
    assert.equal(m0.json.version, "1.0");
    assert.deepEqual(m0.json.derivatives.map((d: Record<string, unknown>) => [d.outputType, d.status]), [
      ["svf2", "pending"],
      ["thumbnail", "pending"],
    ]);

    await advance(sb, 30);
    const m1 = await getManifest(sb, t, urn);
    assert.equal(m1.json.status, "inprogress");
    const pct = Number(/^(\d+)% complete$/.exec(m1.json.progress)?.[1]);
    assert.ok(pct >= 30 && pct < 35, m1.json.progress);
    for (const d of m1.json.derivatives) {
      assert.equal(d.status, "inprogress");
      assert.match(d.progress, /^3\d% complete$/);
      assert.equal(d.children, undefined);
    }

    await advance(sb, 40);
    const m2 = await getManifest(sb, t, urn);
    const pct2 = Number(/^(\d+)% complete$/.exec(m2.json.progress)?.[1]);
    assert.ok(pct2 >= 70 && pct2 < 75, m2.json.progress);

    await advance(sb, 31);
    const m3 = await settledManifest(sb, t, urn);
    assert.equal(m3.json.status, "success");
    assert.equal(m3.json.progress, "complete");
    assert.equal(m3.json.hasThumbnail, "true");
    for (const d of m3.json.derivatives) {
      assert.deepEqual([d.status, d.progress, d.hasThumbnail, d.name], [
        "success",
        "complete",
        "true",
        "chairs.obj",
      ]);
    }
  });
});

Deno.test("md manifest: the shape of a finished SVF2 and thumbnail translation", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "chairs.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 0);
    await postJob(sb, t, urn, ["svf2", "thumbnail"], { region: "EMEA" });
    const m = await settledManifest(sb, t, urn);
    assert.deepEqual(Object.keys(m.json).sort(), MANIFEST_KEYS);
    assert.equal(m.json.region, "EMEA");
    assert.equal(m.json.urn, urn);
    const [svf2, thumbs] = m.json.derivatives;
    for (const d of m.json.derivatives) {
      for (const k of ["name", "hasThumbnail", "progress", "outputType", "status"]) {
        assert.equal(typeof d[k], "string", k);
      }
    }
    const geometry = svf2.children.find((c: Record<string, unknown>) => c.type === "geometry");
    assert.equal(geometry.role, "3d");
    assert.equal(geometry.hasThumbnail, "true");
    assert.match(geometry.guid, /^[0-9a-f-]{36}$/);
    assert.equal(typeof geometry.viewableID, "string");
    const roles = geometry.children.map((c: Record<string, unknown>) => c.role);
    assert.deepEqual(roles, ["3d", "graphics", "thumbnail"]);
    const graphics = geometry.children[1];
    assert.equal(graphics.mime, "application/autodesk-svf2");
    assert.equal(graphics.urn, undefined, "SVF2 graphics are not downloadable");
    assert.equal(geometry.children[0].camera.length, 13);
    const db = svf2.children.find((c: Record<string, unknown>) =>
      c.role === "Autodesk.CloudPlatform.PropertyDatabase"
    );
    assert.equal(db.urn, `urn:adsk.viewing:fs.file:${urn}/output/Resource/model.sdb`);
    for (const r of [...geometry.children.slice(1), db, ...thumbs.children]) {
      for (const k of ["guid", "type", "role", "status"]) {
        assert.equal(typeof r[k], "string", `${r.role}.${k}`);
      }
    }
    assert.deepEqual(
      thumbs.children.map((
        c: { urn: string; resolution: number[] },
      ) => [c.urn.split("/output/")[1], c.resolution]),
      [
        ["preview1.png", [100, 100]],
        ["preview2.png", [200, 200]],
        ["preview4.png", [400, 400]],
      ],
    );
    // The manifest is kept per region: another region does not know it.
    assert.equal((await api(sb, "GET", `${MD}/${urn}/manifest`, t, undefined, { region: "US" })).status, 404);
    assert.equal(
      (await api(sb, "GET", `/modelderivative/v2/regions/eu/designdata/${urn}/manifest`, t)).status,
      200,
    );
  });
});

Deno.test("md job: a corrupt OBJ fails with the reader's message", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "broken.obj", "v 0 0 0\nv 1 0 0\nf 1 2 7\n");
    await setJobSeconds(sb, 2);
    assert.equal((await postJob(sb, t, urn, ["svf2"])).status, 200);
    // Reading has failed long before the job's time is up: the manifest still shows progress (pending
    // or, on a loaded machine, already inprogress), never the failure.
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(["pending", "inprogress"].includes((await getManifest(sb, t, urn)).json.status));
    await advance(sb, 3);
    const m = await settledManifest(sb, t, urn);
    assert.equal(m.json.status, "failed");
    assert.equal(m.json.progress, "complete");
    const [d] = m.json.derivatives;
    assert.equal(d.status, "failed");
    assert.deepEqual(d.messages, [{
      type: "error",
      code: "TranslationWorker-InternalFailure",
      message: "The design could not be read: OBJ line 3: refers to vertex '7' but 2 vertices are defined",
    }]);
    assert.equal(d.children, undefined);
    const garbage = new Uint8Array(2048).map((_, i) => (i * 131 + 7) % 256);
    const urn2 = await uploadDesign(sb, t, "noise.obj", garbage);
    await setJobSeconds(sb, 0);
    await postJob(sb, t, urn2, ["svf"]);
    const m2 = await settledManifest(sb, t, urn2);
    assert.equal(m2.json.status, "failed");
    assert.match(m2.json.derivatives[0].messages[0].message, /binary data|not an OBJ statement/);
  });
});

Deno.test("md job: an output the format cannot produce fails alone; the rest succeeds", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "plan.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 0);
    await postJob(sb, t, urn, ["ifc", "svf"]);
    const m = await settledManifest(sb, t, urn);
    assert.equal(m.json.status, "failed");
    const [ifc, svf] = m.json.derivatives;
    assert.equal(ifc.status, "failed");
    assert.deepEqual(ifc.messages, [{
      type: "error",
      code: "TranslationWorker-UnsupportedFormat",
      message:
        "Translating '.obj' files to 'ifc' is not supported; see GET /modelderivative/v2/designdata/formats",
    }]);
    assert.equal(svf.status, "success");
    const formats = await api(sb, "GET", `${MD}/formats`, t);
    assert.equal(formats.status, 200);
    assert.deepEqual(formats.json.formats.ifc, ["rvt"]);
    assert.ok(formats.json.formats.svf2.includes("obj"));
    assert.ok(formats.headers.get("last-modified"));
    const cached = await api(sb, "GET", `${MD}/formats`, t, undefined, {
      "if-modified-since": formats.headers.get("last-modified")!,
    });
    assert.equal(cached.status, 304);
  });
});

Deno.test("md job: 201 when the derivatives exist, x-ads-force starts over, a new format is added", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "chairs.obj", TWO_GROUPS_OBJ);
    await setJobSeconds(sb, 0);
    await postJob(sb, t, urn, ["svf2"]);
    const first = await settledManifest(sb, t, urn);
    const guid = first.json.derivatives[0].children[0].guid;

    const again = await postJob(sb, t, urn, ["svf2"]);
    assert.equal(again.status, 201);
    assert.equal(again.json.result, "created");
    assert.equal(again.json.urn, urn);
    assert.equal((await getManifest(sb, t, urn)).json.derivatives[0].children[0].guid, guid);

    await setJobSeconds(sb, 50);
    const forced = await postJob(sb, t, urn, ["svf2"], { "x-ads-force": "true" });
    assert.equal(forced.status, 200);
    const regenerating = await getManifest(sb, t, urn);
    assert.equal(regenerating.json.status, "pending");
    await advance(sb, 60);
    const redone = await settledManifest(sb, t, urn);
    assert.notEqual(redone.json.derivatives[0].children[0].guid, guid);

    // A further format joins the manifest; the finished one stays as it is.
    const more = await postJob(sb, t, urn, ["svf2", "obj"]);
    assert.equal(more.status, 200);
    const mixed = await getManifest(sb, t, urn);
    assert.equal(mixed.json.status, "inprogress");
    assert.deepEqual(mixed.json.derivatives.map((d: Record<string, string>) => [d.outputType, d.status]), [
      ["svf2", "success"],
      ["obj", "pending"],
    ]);

    // New content at the same key: the old derivatives no longer describe it, so no 201.
    await advance(sb, 60);
    assert.equal((await settledManifest(sb, t, urn)).json.status, "success");
    assert.equal((await postJob(sb, t, urn, ["svf2"])).status, 201);
    await uploadDesign(sb, t, "chairs.obj", TWO_GROUPS_OBJ.replace("g Table", "g Desk"));
    assert.equal((await postJob(sb, t, urn, ["svf2"])).status, 200);
    assert.deepEqual(
      (await getManifest(sb, t, urn)).json.derivatives.map((d: Record<string, string>) => d.status),
      [
        "pending",
      ],
    );
  });
});

Deno.test("md job: bad requests answer 400/404 with a diagnostic", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "a.obj", TWO_GROUPS_OBJ);
    const bad = async (body: unknown, status: number, pattern: RegExp, headers = {}) => {
      const a = await api(sb, "POST", `${MD}/job`, t, body, headers);
      assert.equal(a.status, status, JSON.stringify(body));
      assert.deepEqual(Object.keys(a.json), ["diagnostic"]);
      assert.match(a.json.diagnostic, pattern);
    };
    await bad({ input: { urn: "%%%" }, output: { formats: [{ type: "svf" }] } }, 400, /Invalid 'input.urn'/);
    await bad(
      { input: { urn: btoa("hello") }, output: { formats: [{ type: "svf" }] } },
      400,
      /Invalid 'input.urn'/,
    );
    await bad({ input: { urn }, output: { formats: [{ type: "gltf" }] } }, 400, /Invalid output type "gltf"/);
    await bad({ input: { urn }, output: { formats: [] } }, 400, /non-empty array/);
    await bad({ output: { formats: [{ type: "svf" }] } }, 400, /'input.urn'/);
    await bad({ input: { urn }, output: { formats: [{ type: "svf" }] } }, 400, /Invalid region/, {
      region: "MARS",
    });
    await bad(
      { input: { urn, compressedUrn: true }, output: { formats: [{ type: "svf" }] } },
      400,
      /rootFilename/,
    );
    await bad(
      { input: { urn: urnOf("models", "missing.obj") }, output: { formats: [{ type: "svf" }] } },
      404,
      /does not exist/,
    );
    await bad(
      { input: { urn: urnOf("nobucket", "a.obj") }, output: { formats: [{ type: "svf" }] } },
      404,
      /does not exist/,
    );
    // Standard base64 with padding is accepted too, and names the same manifest.
    const urnAb = await uploadDesign(sb, t, "ab.obj", TWO_GROUPS_OBJ);
    const padded = btoa("urn:adsk.objects:os.object:models/ab.obj");
    assert.ok(padded.endsWith("="));
    await setJobSeconds(sb, 0);
    assert.equal((await postJob(sb, t, padded, ["svf"])).status, 200);
    assert.equal((await settledManifest(sb, t, urnAb)).json.status, "success");
    const none = await getManifest(sb, t, urnOf("models", "never.obj"));
    assert.equal(none.status, 404);
    assert.equal(typeof none.json.diagnostic, "string");
  });
});

Deno.test("md scopes: job needs data:read and data:write|create; manifest takes viewables:read", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "a.obj", TWO_GROUPS_OBJ);
    const job = (scopes: string) => token(sb, scopes).then((tk) => postJob(sb, tk, urn, ["svf"]));
    assert.equal((await job("data:read")).status, 403);
    assert.equal((await job("data:write data:create")).status, 403);
    assert.equal((await job("data:read data:create")).status, 200);
    assert.equal((await job("data:read data:write")).status, 200);
    const viewer = await token(sb, "viewables:read");
    assert.equal((await getManifest(sb, viewer, urn)).status, 200);
    assert.equal((await api(sb, "GET", `${MD}/${urn}/metadata`, viewer)).status, 403);
    const reader = await token(sb, "data:read");
    assert.equal((await api(sb, "DELETE", `${MD}/${urn}/manifest`, reader)).status, 403);
    const writer = await token(sb, "data:write");
    assert.equal((await api(sb, "DELETE", `${MD}/${urn}/manifest`, writer)).status, 403);
    const both = await token(sb, "data:read data:write");
    assert.equal((await getManifest(sb, t, urn)).status, 200);
    const del = await api(sb, "DELETE", `${MD}/${urn}/manifest`, both);
    assert.deepEqual([del.status, del.json], [200, { result: "success" }]);
    assert.equal((await getManifest(sb, t, urn)).status, 404);
    assert.deepEqual((await api(sb, "DELETE", `${MD}/${urn}/manifest`, both)).json, { result: "success" });
    assert.equal((await call(`${sb.url}${MD}/${urn}/manifest`)).status, 401);
    assert.equal((await api(sb, "GET", `${MD}/formats`, viewer)).status, 200);
    assert.equal((await call(`${sb.url}${MD}/formats`)).status, 401);
  });
});

Deno.test("md job: another app's bucket is refused; the state dump counts manifests; reset forgets them", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "a.obj", TWO_GROUPS_OBJ);
    await control(sb, "POST", "apps", { client_id: "other-app", client_secret: "other-secret" });
    const other = await token(sb, "data:read data:write", { id: "other-app", secret: "other-secret" });
    const a = await postJob(sb, other, urn, ["svf"]);
    assert.equal(a.status, 403);
    assert.match(a.json.diagnostic, /no access/);
    await postJob(sb, t, urn, ["svf"]);
    assert.equal((await control(sb, "GET", "state")).json.derivative_manifests, 1);
    assert.equal((await control(sb, "GET", "config")).json.job_seconds, 4);
    assert.equal((await control(sb, "POST", "config", { job_seconds: -1 })).status, 400);
    assert.equal((await control(sb, "POST", "config", { job_seconds: "1" })).status, 400);
    assert.equal((await control(sb, "POST", "config", { job_seconds: 0.5 })).json.job_seconds, 0.5);
    await control(sb, "POST", "reset");
    assert.equal((await control(sb, "GET", "state")).json.derivative_manifests, 0);
    assert.equal((await control(sb, "GET", "config")).json.job_seconds, 4);
  });
});

Deno.test("md references: recorded for a design, with the scopes of a job", async () => {
  await withSandbox(async (sb) => {
    const t = await modelBucket(sb);
    const urn = await uploadDesign(sb, t, "top.iam", "assembly");
    const body = {
      urn,
      filename: "top.iam",
      references: [{ urn: urnOf("models", "part.ipt"), relativePath: "parts/", filename: "part.ipt" }],
    };
    const a = await api(sb, "POST", `${MD}/${urn}/references`, t, body);
    assert.deepEqual([a.status, a.json], [200, { result: "success", urn }]);
    const bad = await api(sb, "POST", `${MD}/${urn}/references`, t, { ...body, references: [] });
    assert.equal(bad.status, 400);
    assert.equal(typeof bad.json.diagnostic, "string");
    const reader = await token(sb, "data:read");
    assert.equal((await api(sb, "POST", `${MD}/${urn}/references`, reader, body)).status, 403);
  });
});
