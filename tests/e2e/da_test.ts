/**
 * e2e: Design Automation in the specification's spellings against one sandbox — engines, health, app bundles
 * with their package and aliases, activities (flags and --from-file), work items run with a local
 * input and outputs fetched back (byte-checked), a failed one (report, exit 1), a run without the
 * nickname (exit 2, no request), an unknown engine, and `workitem.completed` heard by a webhook.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import { json, openSandboxHome, requestLog, type RunResult, type SandboxHome } from "./harness.ts";
import { sandboxConfig } from "./md_helpers.ts";

type IdRow = { id: string; owner: string; name: string; alias: string };
type WorkItem = {
  id: string;
  status: string;
  reportUrl?: string;
  activityId?: string;
  outputs?: { name: string; file: string; size: number; sha1: string }[];
};

const NICK = "Diazo_E2E";
const ENV = { SVC_DA_NICKNAME: NICK, DIAZO_POLL_BASE_MS: "20" };

let fixture: Promise<SandboxHome> | undefined;
/** One sandbox for the file: work items take 0.3 s of sandbox time. */
function h(): Promise<SandboxHome> {
  fixture ??= openSandboxHome(ENV).then(async (s) => {
    await sandboxConfig(s.sb.url, { job_seconds: 0.3 });
    return s;
  });
  return fixture;
}

function ok(r: RunResult): RunResult {
  assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
  return r;
}

async function write(s: SandboxHome, name: string, text: string | Uint8Array): Promise<string> {
  const file = path.join(s.home.cwd, name);
  await Deno.writeFile(file, typeof text === "string" ? new TextEncoder().encode(text) : text);
  return file;
}

Deno.test("da: engines, status, nickname required, engine not found", async () => {
  const s = await h();
  const engines = json<IdRow[]>(ok(await s.run(["da", "engines", "-o", "json"])));
  assert.equal(engines.length, 16);
  assert.ok(engines.some((e) => e.id === "Autodesk.AutoCAD+24" && e.name === "AutoCAD"));

  const status = json<{ engine: string; status: string; ok: boolean }[]>(
    ok(await s.run(["da", "status", "-o", "json"])),
  );
  assert.deepEqual(status.map((r) => r.engine), ["AutoCAD", "Revit", "Inventor", "3dsMax", "Test"]);
  assert.ok(status.every((r) => r.ok && r.status === "Fully Operational"));
  const one = json<{ engine: string; ok: boolean }[]>(
    ok(await s.run(["da", "status", "--engine", "revit", "-o", "json"])),
  );
  assert.deepEqual(one, [{ engine: "revit", status: "Fully Operational", ok: true }]);
  const unknownHealth = await s.run(["da", "status", "--engine", "maya"]);
  assert.equal(unknownHealth.code, 4, unknownHealth.stderr);
  // A degraded engine, as the platform reports it: the rows say so and the command exits 1.
  await sandboxConfig(s.sb.url, { da_health: { revit: "Synthetic Check Failed" } });
  const degraded = await s.run(["da", "status", "-o", "json"]);
  assert.equal(degraded.code, 1, degraded.stderr);
  const rows = json<{ engine: string; status: string; ok: boolean }[]>(degraded);
  assert.deepEqual(rows.filter((r) => !r.ok), [
    { engine: "Revit", status: "Synthetic Check Failed", ok: false },
  ]);
  assert.match(degraded.stderr, /warning: Degraded: Revit \(Synthetic Check Failed\)/);
  assert.equal((await s.run(["da", "status", "--engine", "autocad"])).code, 0, "AutoCAD is healthy");
  await sandboxConfig(s.sb.url, { da_health: {} });

  await write(s, "in.txt", "hello\n");
  const before = (await requestLog(s.sb.url)).length;
  const { SVC_DA_NICKNAME: _, ...noNick } = s.env;
  const nickless = await s.run(
    ["da", "workitem", "run", "Copy", "--input", "input=in.txt", "--out", "result=out.txt", "--wait"],
    { env: noNick },
  );
  assert.equal(nickless.code, 2);
  assert.match(nickless.stderr, /^error: Design Automation nickname required\nhint: .*SVC_DA_NICKNAME/);
  const nicklessCreate = await s.run(
    ["da", "activity", "create", "--id", "X", "--engine", "Autodesk.AutoCAD+24", "--command", "x"],
    { env: noNick },
  );
  assert.equal(nicklessCreate.code, 2);
  assert.match(nicklessCreate.stderr, /^error: Design Automation nickname required/);
  assert.equal((await requestLog(s.sb.url)).length, before, "no request sent without the nickname");

  await write(s, "bundle.zip", "PK\x03\x04 not really a zip");
  const badEngine = await s.run(
    ["da", "appbundle-create", "--id", "Nope", "--engine", "Autodesk.AutoCAD+1", "--package", "bundle.zip"],
  );
  assert.equal(badEngine.code, 4);
  assert.match(badEngine.stderr, /^error: Engine not found\nhint: .*diazo da engine/);
  const missing = await s.run(
    ["da", "appbundle-create", "--id", "Nope", "--engine", "Autodesk.AutoCAD+24", "--package", "nope.zip"],
  );
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: File not found: nope\.zip/);
  const sent = (await requestLog(s.sb.url)).length;
  await Deno.mkdir(path.join(s.home.cwd, "MyApp.bundle"));
  const dir = await s.run(
    [
      "da",
      "appbundle-create",
      "--id",
      "Nope",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--package",
      "MyApp.bundle",
    ],
  );
  assert.equal(dir.code, 2);
  assert.match(dir.stderr, /^error: MyApp\.bundle is a directory\nhint: Zip the bundle/);
  const big = await Deno.open(path.join(s.home.cwd, "big.zip"), { write: true, create: true });
  await big.truncate(104_857_601); // sparse: no 100 MB written
  big.close();
  const tooBig = await s.run(
    ["da", "appbundle-create", "--id", "Nope", "--engine", "Autodesk.AutoCAD+24", "--package", "big.zip"],
  );
  assert.equal(tooBig.code, 2);
  assert.match(
    tooBig.stderr,
    /^error: big\.zip is 100\.0 MiB: the platform takes packages of at most 100 MB/,
  );
  assert.equal((await requestLog(s.sb.url)).length, sent, "no request for a bad package either");
});

Deno.test("da: appbundle-create uploads the package and moves aliases; activity create from flags and file", async () => {
  const s = await h();
  const zip = new Uint8Array(4096).map((_, i) => (i * 7) & 255);
  await write(s, "bundle.zip", zip);
  const bundleArgs = [
    "--id",
    "CopyApp",
    "--engine",
    "Autodesk.AutoCAD+24",
    "--package",
    "bundle.zip",
    "--alias",
    "prod",
  ];
  const created = json<{ id: string; version: number; qualifiedId: string; package: { size: number } }>(
    ok(await s.run(["da", "appbundle-create", ...bundleArgs, "-o", "json"])),
  );
  assert.deepEqual(
    [created.id, created.version, created.qualifiedId, created.package.size],
    [`${NICK}.CopyApp`, 1, `${NICK}.CopyApp+prod`, 4096],
  );
  const form = (await requestLog(s.sb.url, "/__da/store")).filter((e) => e.method === "POST");
  assert.deepEqual(form.map((e) => e.status), [200], "the package went up through the form");
  const again = ok(await s.run(["da", "appbundle", "create", ...bundleArgs, "-o", "json"]));
  assert.equal(json<{ version: number }>(again).version, 2, "an existing bundle gets its next version");
  assert.match(again.stderr, /Created app bundle Diazo_E2E\.CopyApp version 2 .*alias prod -> 2/);
  const patched = await requestLog(s.sb.url, "/da/us-east/v3/appbundles/CopyApp/aliases/prod");
  assert.deepEqual(patched.map((e) => [e.method, e.status]), [["PATCH", 200]], "the alias moved");
  const bundles = json<IdRow[]>(ok(await s.run(["da", "appbundles", "-o", "json"])));
  assert.deepEqual(bundles.map((b) => b.id), [`${NICK}.CopyApp+$LATEST`, `${NICK}.CopyApp+prod`]);

  const act = json<
    { id: string; version: number; appbundles: string[]; parameters: Record<string, unknown> }
  >(ok(
    await s.run([
      "da",
      "activity",
      "create",
      "--id",
      "Copy",
      "--engine",
      "Autodesk.AutoCAD+24",
      "--appbundle",
      "CopyApp+prod",
      "--command",
      '$(engine.path)\\accoreconsole.exe /i "$(args[input].path)"',
      "--param",
      "input:get:input.txt",
      "--param",
      "result:put:result.txt",
      "--alias",
      "prod",
      "-o",
      "json",
    ]),
  ));
  assert.equal(act.id, `${NICK}.Copy`);
  assert.deepEqual(act.appbundles, [`${NICK}.CopyApp+prod`]);
  assert.deepEqual(act.parameters.result, { verb: "put", localName: "result.txt" });

  await write(s, "bad.yaml", "id: Copy\nengine: Autodesk.AutoCAD+24\ncommandLines: [x]\n");
  const bad = await s.run(["da", "activity", "create", "--from-file", "bad.yaml"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^error: bad\.yaml:3:1: unknown field 'commandLines'/);
  await write(
    s,
    "activity.yaml",
    "id: Copy\nengine: Autodesk.AutoCAD+24\ncommandLine: [run]\nappbundles: [CopyApp+prod]\nparameters:\n  input: {verb: get}\n  result: {verb: put}\n  extra: {verb: put}\n  params: {verb: read}\n",
  );
  const v2 = json<{ version: number; qualifiedId: string }>(ok(
    await s.run([
      "da",
      "activity",
      "create",
      "--from-file",
      "activity.yaml",
      "--alias",
      "prod",
      "-o",
      "json",
    ]),
  ));
  assert.deepEqual([v2.version, v2.qualifiedId], [2, `${NICK}.Copy+prod`]);
  const acts = json<IdRow[]>(ok(await s.run(["da", "activities", "-o", "json"])));
  assert.deepEqual(acts.map((a) => a.id), [
    `${NICK}.Copy+$LATEST`,
    `${NICK}.Copy+prod`,
    "AutoCAD.PlotToPDF+prod",
    "AutoCAD.PlotToPDF+test",
  ]);
});

Deno.test("da: work items — local input, outputs fetched back, a failed one, get --wait later", async () => {
  const s = await h();
  const input = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) & 255);
  await write(s, "drawing.bin", input);
  const delivered = Promise.withResolvers<Record<string, unknown>>();
  const rx = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    delivered.resolve(await req.json());
    return new Response("ok");
  });
  const hookArgs = ["--event", "workitem.completed", "--scope", `activity=${NICK}.Copy+prod`];
  const hook = ok(
    await s.run(["webhook", "create", "--url", `http://127.0.0.1:${rx.addr.port}/hook`, ...hookArgs]),
  );
  assert.match(hook.stderr, /warning: workitem\.completed is an event of diazo's sandbox only/);
  const run = await s.run([
    "da",
    "workitem",
    "run",
    "Copy+prod",
    "--input",
    "input=drawing.bin",
    "--out",
    "result=./copy.bin",
    "--wait",
    "-o",
    "json",
  ]);
  ok(run);
  const done = json<WorkItem>(run);
  assert.equal(done.status, "success");
  assert.equal(done.activityId, `${NICK}.Copy+prod`);
  assert.match(run.stderr, /Uploaded drawing\.bin to diazo-da-[0-9a-f]{20}\/workitems\//);
  assert.match(run.stderr, /Work item [0-9a-f]{32}: (pending|inprogress)/);
  assert.match(run.stderr, /Work item [0-9a-f]{32}: success/);
  const copy = await Deno.readFile(path.join(s.home.cwd, "copy.bin"));
  assert.deepEqual(copy, input, "the output came back byte for byte");
  assert.equal(done.outputs?.[0].sha1, createHash("sha1").update(input).digest("hex"));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const event = await Promise.race([
    delivered.promise,
    new Promise<never>((_, reject) =>
      timer = setTimeout(() => reject(new Error("no delivery in 10 s")), 10_000)
    ),
  ]).finally(() => clearTimeout(timer));
  await rx.shutdown();
  assert.deepEqual((event.hook as { event: string }).event, "workitem.completed");
  assert.deepEqual(
    [(event.payload as WorkItem).id, (event.payload as WorkItem).status],
    [done.id, "success"],
    "the hook heard the work item end",
  );
  const signed = (await requestLog(s.sb.url, "/oss/v2/signedresources/")).map((e) => e.method);
  assert.deepEqual(signed.sort(), ["GET", "PUT"], "the engine read and wrote through the signed URLs");

  await write(s, "marked.txt", "line 1\nDIAZO_FAIL\n");
  const failed = await s.run([
    "da",
    "workitem",
    "run",
    "Copy+prod",
    "--input",
    "input=marked.txt",
    "--out",
    "result=./never.txt",
    "--wait",
    "-o",
    "json",
  ]);
  assert.equal(failed.code, 1, failed.stderr);
  const status = json<WorkItem>(failed);
  assert.equal(status.status, "failedInstructions");
  assert.match(failed.stderr, /^report: .*Error: Input 'input' is marked to fail/m);
  assert.match(
    failed.stderr,
    /\nerror: Work item [0-9a-f]{32} ended with status failedInstructions\nhint: .*diazo da workitem get/,
  );
  await assert.rejects(Deno.stat(path.join(s.home.cwd, "never.txt")), "no output of a failed work item");
  const byValue = await s.run(
    ["da", "workitem", "run", "Copy+prod", "--value", "params=DIAZO_FAIL please", "--wait"],
  );
  assert.equal(byValue.code, 1, byValue.stderr);
  assert.match(byValue.stderr, /^report: .*Value 'params' is marked to fail/m);
  const again = await s.run(["da", "workitem", "get", status.id, "-o", "json"]);
  assert.equal(again.code, 1, "a failed work item is never exit 0");
  assert.match(again.stderr, /^report: /m);

  const bucket = "e2e-da-stage";
  const later = await s.run([
    "da",
    "workitem",
    "run",
    `${NICK}.Copy+prod`,
    "--bucket",
    bucket,
    "--input",
    "input=drawing.bin",
    "--out",
    `result=${bucket}/results/copy.bin`,
    "--out",
    "extra=later.bin",
    "-o",
    "json",
  ]);
  ok(later);
  const started = json<WorkItem>(later);
  assert.equal(started.status, "pending");
  assert.match(later.stderr, /Follow it with: diazo da workitem get [0-9a-f]{32} --wait/);
  const got = json<WorkItem>(ok(await s.run(["da", "workitem", "get", started.id, "--wait", "-o", "json"])));
  assert.equal(got.status, "success");
  assert.ok(got.reportUrl);
  assert.deepEqual(
    await Deno.readFile(path.join(s.home.cwd, "later.bin")),
    input,
    "get --wait fetched the local output",
  );
  const info = json<{ size: number; sha1: string }>(
    ok(await s.run(["object", "info", bucket, "results/copy.bin", "-o", "json"])),
  );
  assert.equal(info.size, input.length, "the OSS output was written");

  const badInput = await s.run(["da", "workitem", "run", "Copy+prod", "--input", "input=absent.dwg"]);
  assert.equal(badInput.code, 2);
  assert.match(badInput.stderr, /^error: File not found: absent\.dwg/);
  const unknown = await s.run([
    "da",
    "workitem",
    "run",
    "Nope+prod",
    "--input",
    "input=https://example.invalid/a",
  ]);
  assert.equal(unknown.code, 4, unknown.stderr);
  assert.match(
    unknown.stderr,
    new RegExp(`^error: Not found: activity ${NICK}\\.Nope\\+prod\nhint: .*diazo da activities`),
  );
  const badOutput = await s.run(["da", "workitem", "run", "Copy+prod", "--out", "result"]);
  assert.equal(badOutput.code, 2);
  assert.match(badOutput.stderr, /^error: invalid --out 'result'\nhint: .*e\.g\. --out result=/);
  await (await fixture)?.close();
  fixture = undefined;
});
