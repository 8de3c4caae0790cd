import assert from "node:assert/strict";
import { DiazoError, ExitCode } from "../../src/core/errors.ts";
import { cookieHeader } from "../../src/families/translate/files.ts";
import {
  downloadableDerivatives,
  getProperties,
  jobPayload,
  type Manifest,
  manifestMessages,
  progressPercent,
  safeRelativePath,
  startJob,
  waitForJob,
} from "../../src/families/translate/api.ts";
import type { Http, HttpResponse, RequestSpec } from "../../src/http/http.ts";
import type { Urn } from "../../src/aps/ids.ts";

/** A URN as the services take it (checked where input enters; any text serves a scripted answer). */
const U = "U" as Urn;

/** An Http that answers from a script and records what was asked. */
function scriptedHttp(
  answer: (spec: RequestSpec, n: number) => { status?: number; data: unknown; headers?: HeadersInit },
) {
  const calls: RequestSpec[] = [];
  const http: Http = {
    baseUrl: "http://platform.test",
    request<T>(spec: RequestSpec): Promise<HttpResponse<T>> {
      calls.push(spec);
      const a = answer(spec, calls.length);
      return Promise.resolve({
        status: a.status ?? 200,
        headers: new Headers(a.headers),
        data: a.data as T,
        url: spec.path,
        attempts: 1,
      });
    },
  };
  return { http, calls };
}

/** A fake clock: sleeping advances it. */
function fakeClock(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: (ms: number) => {
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
    advance: (ms: number) => void (t += ms),
    sleeps,
  };
}

function manifest(status: string, progress: string, extra: Partial<Manifest> = {}): Manifest {
  return { urn: "U", type: "manifest", status, progress, region: "US", derivatives: [], ...extra };
}

Deno.test("startJob posts the payload with x-ads-force and region, and reports 201 (already there)", async () => {
  const { http, calls } = scriptedHttp(() => ({ status: 201, data: { result: "success", urn: "U" } }));
  const job = await startJob(http, jobPayload(U, [{ type: "obj" }], { rootFilename: "top.iam" }), {
    force: true,
    region: "EMEA",
  });
  assert.equal(job.status, 201);
  assert.equal(calls[0].method, "POST");
  assert.equal(calls[0].path, "/modelderivative/v2/designdata/job");
  assert.deepEqual(calls[0].headers, { "x-ads-force": "true", region: "EMEA" });
  assert.deepEqual(calls[0].json, {
    input: { urn: "U", compressedUrn: true, rootFilename: "top.iam" },
    output: { formats: [{ type: "obj" }] },
  });
});

Deno.test("waitForJob polls with growing, capped delays until success and reports each manifest", async () => {
  const states = [
    manifest("pending", "0% complete"),
    manifest("inprogress", "10% complete"),
    manifest("inprogress", "60% complete"),
    manifest("inprogress", "90% complete"),
    manifest("success", "complete"),
  ];
  const { http, calls } = scriptedHttp((_s, n) => ({ data: states[Math.min(n - 1, states.length - 1)] }));
  const clock = fakeClock();
  const seen: string[] = [];
  const done = await waitForJob(http, U, {
    pollBaseMs: 100,
    pollMaxMs: 200,
    now: clock.now,
    sleep: clock.sleep,
    onProgress: (m) => seen.push(m.progress),
  });
  assert.equal(done.status, "success");
  assert.equal(calls.length, 5);
  assert.equal(calls[0].path, "/modelderivative/v2/designdata/U/manifest");
  assert.deepEqual(seen, ["0% complete", "10% complete", "60% complete", "90% complete", "complete"]);
  assert.deepEqual(clock.sleeps, [100, 150, 200, 200]);
});

Deno.test("waitForJob: a failed job is translation_failed (exit 1) carrying the platform's messages", async () => {
  const failed = manifest("failed", "complete", {
    derivatives: [{
      outputType: "obj",
      status: "failed",
      messages: [
        { type: "warning", code: "W1", message: "just a warning" },
        { type: "error", code: "TranslationWorker-InternalFailure", message: ["Unrecoverable", "exit code"] },
      ],
    }],
  });
  const { http } = scriptedHttp(() => ({ data: failed }));
  await assert.rejects(
    () => waitForJob(http, U, { pollBaseMs: 1 }),
    (e: unknown) =>
      e instanceof DiazoError && e.code === "translation_failed" && e.exitCode === ExitCode.failure &&
      e.message === "Translation failed" &&
      String(e.params.detail) === "TranslationWorker-InternalFailure: Unrecoverable exit code" &&
      e.body === failed,
  );
  const timeout = manifest("timeout", "complete");
  await assert.rejects(
    () => waitForJob(scriptedHttp(() => ({ data: timeout })).http, U, { pollBaseMs: 1 }),
    (e: unknown) => e instanceof DiazoError && e.code === "translation_failed",
  );
});

Deno.test("waitForJob: pending longer than the threshold (local clock) is translation_stalled, exit 5", async () => {
  const { http, calls } = scriptedHttp(() => ({ data: manifest("pending", "0% complete") }));
  const clock = fakeClock();
  await assert.rejects(
    () => waitForJob(http, U, { pollBaseMs: 1000, pollMaxMs: 1000, stallAfterMs: 5000, ...clock }),
    (e: unknown) =>
      e instanceof DiazoError && e.code === "translation_stalled" && e.exitCode === ExitCode.transient,
  );
  // Polls at 0, 1, ... 5 s are still within 5 s; the one at 6 s is past it.
  assert.equal(calls.length, 7);
});

Deno.test("waitForJob: the server's Date header counts too, so a sandbox clock jump stalls the job", async () => {
  let serverTime = Date.parse("2030-01-01T00:00:00Z");
  const { http, calls } = scriptedHttp(() => {
    const headers = { date: new Date(serverTime).toUTCString() };
    serverTime += 31 * 60_000; // the server's clock jumps between polls
    return { data: manifest("pending", "0% complete"), headers };
  });
  const clock = fakeClock();
  await assert.rejects(
    () => waitForJob(http, U, { pollBaseMs: 10, ...clock }),
    (e: unknown) =>
      e instanceof DiazoError && e.code === "translation_stalled" && /31 minutes/.test(e.message),
  );
  assert.equal(calls.length, 2);
});

Deno.test("waitForJob: in progress is never stalled; pending again restarts the count", async () => {
  const seq = ["pending", "inprogress", "pending", "pending", "success"];
  const { http } = scriptedHttp((_s, n) => ({ data: manifest(seq[n - 1], "x") }));
  const clock = fakeClock();
  const m = await waitForJob(http, U, { pollBaseMs: 3000, pollMaxMs: 3000, stallAfterMs: 5000, ...clock });
  assert.equal(m.status, "success"); // 12 s in all, but never 5 s pending in a row
});

Deno.test("waitForJob: --timeout gives the transient timeout error, with a last poll at the deadline", async () => {
  const { http, calls } = scriptedHttp(() => ({ data: manifest("inprogress", "5% complete") }));
  const clock = fakeClock();
  await assert.rejects(
    () => waitForJob(http, U, { pollBaseMs: 400, pollMaxMs: 400, timeoutMs: 1000, ...clock }),
    (e: unknown) => e instanceof DiazoError && e.code === "timeout" && e.exitCode === ExitCode.transient,
  );
  assert.deepEqual(clock.sleeps, [400, 400, 200]);
  assert.equal(calls.length, 4);
});

Deno.test("waitForJob stops with interrupted when its signal aborts", async () => {
  const controller = new AbortController();
  const { http } = scriptedHttp(() => {
    controller.abort();
    return { data: manifest("inprogress", "1% complete") };
  });
  await assert.rejects(
    () => waitForJob(http, U, { pollBaseMs: 1, signal: controller.signal }),
    (e: unknown) => e instanceof DiazoError && e.code === "interrupted",
  );
});

Deno.test("getProperties asks again while the platform answers 202, with the objectid query", async () => {
  const final = { data: { type: "properties", collection: [{ objectid: 2, name: "Model" }] } };
  const { http, calls } = scriptedHttp((_s, n) =>
    n < 3 ? { status: 202, data: { result: "success" } } : { status: 200, data: final }
  );
  const clock = fakeClock();
  const got = await getProperties(http, U, "g-1", { objectId: 2, pollBaseMs: 10, ...clock });
  assert.deepEqual(got, final);
  assert.equal(calls.length, 3);
  assert.equal(calls[0].path, "/modelderivative/v2/designdata/U/metadata/g-1/properties");
  assert.equal(calls[0].query?.objectid, 2);
  // Never-ending 202s end in the timeout error.
  const stuck = scriptedHttp(() => ({ status: 202, data: { result: "success" } }));
  await assert.rejects(
    () => getProperties(stuck.http, U, "g", { pollBaseMs: 10, timeoutMs: 50, ...fakeClock() }),
    (e: unknown) => e instanceof DiazoError && e.code === "timeout",
  );
});

Deno.test("downloadableDerivatives lists resources with a URN, by output type, with paths that stay inside", () => {
  const b64 = "dXJuOmFkc2s";
  const m = manifest("success", "complete", {
    derivatives: [
      {
        outputType: "obj",
        status: "success",
        children: [
          {
            urn: `urn:adsk.viewing:fs.file:${b64}/output/geometry/part.obj`,
            role: "obj",
            mime: "application/octet-stream",
            type: "resource",
          },
          {
            urn: `urn:adsk.viewing:fs.file:${b64}/output/../../../etc/passwd`,
            role: "obj",
            type: "resource",
          },
          { urn: `urn:adsk.viewing:fs.file:${b64}/output/geometry/part.obj`, role: "obj", type: "resource" },
          { urn: `urn:adsk.viewing:fs.file:${b64}/output/broken.obj`, status: "failed", type: "resource" },
          { guid: "no-urn", type: "geometry", role: "3d" },
        ],
      },
      {
        outputType: "thumbnail",
        children: [{
          urn: `urn:adsk.viewing:fs.file:${b64}/output/preview1.png`,
          role: "thumbnail",
          mime: "image/png",
        }],
      },
    ],
  });
  const obj = downloadableDerivatives(m, { outputType: "OBJ" });
  assert.deepEqual(obj.map((f) => f.path), ["geometry/part.obj", "etc/passwd", "geometry/part-2.obj"]);
  assert.deepEqual(obj.map((f) => f.outputType), ["obj", "obj", "obj"]);
  assert.equal(obj[0].name, "part.obj");
  assert.equal(obj[0].mime, "application/octet-stream");
  const all = downloadableDerivatives(m);
  assert.equal(all.length, 4);
  assert.equal(all[3].path, "preview1.png");
});

Deno.test("safeRelativePath drops traversal, absolute parts and characters file systems refuse", () => {
  assert.equal(safeRelativePath("urn:x:y/output/a/b.obj", 1), "a/b.obj");
  assert.equal(safeRelativePath("urn:x:y/output//abs/x.stl", 1), "abs/x.stl");
  assert.equal(safeRelativePath("urn:x:y/output/..\\..\\win.ini", 1), "win.ini");
  assert.equal(safeRelativePath("urn:x:y/output/C:/x?.obj", 1), "C_/x_.obj");
  assert.equal(safeRelativePath("urn:x:y/output/../..", 7), "derivative-7");
  assert.equal(safeRelativePath("urn:x:y/output/3D View/3D/3D1.png", 1), "3D View/3D/3D1.png");
  assert.equal(safeRelativePath("urn:x:no-output-part/file.bin", 1), "file.bin");
});

Deno.test("cookieHeader joins the name=value of every Set-Cookie header", () => {
  const h = new Headers();
  h.append("set-cookie", "CloudFront-Policy=abc; Path=/; Secure; HttpOnly");
  h.append("set-cookie", "CloudFront-Signature=d=e; Path=/");
  h.append("set-cookie", "CloudFront-Key-Pair-Id=K1");
  assert.equal(cookieHeader(h), "CloudFront-Policy=abc; CloudFront-Signature=d=e; CloudFront-Key-Pair-Id=K1");
  assert.equal(cookieHeader(new Headers()), "");
});

Deno.test("progressPercent and manifestMessages read the platform's strings", () => {
  assert.equal(progressPercent({ status: "inprogress", progress: "45% complete" }), 45);
  assert.equal(progressPercent({ status: "success", progress: "complete" }), 100);
  assert.equal(progressPercent({ status: "pending", progress: "" }), 0);
  const msgs = manifestMessages({
    messages: [{ type: "error", message: "top" }],
    derivatives: [{ children: [{ messages: [{ type: "warning", code: "C", message: ["a", "b"] }] }] }],
  });
  assert.deepEqual(msgs, [{ type: "error", message: "top" }, { type: "warning", code: "C", message: "a b" }]);
});
