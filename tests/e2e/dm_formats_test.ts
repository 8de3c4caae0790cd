/**
 * e2e: a version's other download formats through runCli against a sandbox on port 0: `item formats`
 * lists them, `item download --format` starts a download job, polls it until it has finished and
 * writes its file atomically, an unsupported format is a usage error naming `diazo item formats`, and
 * a job that outlasts `--timeout` stops with the timeout's exit code and no file.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { assertOneError, json, openSandboxHome, requestLog, type SandboxHome } from "./harness.ts";
import { sha1Of } from "./object_helpers.ts";
import { fails, ok as okTool, startServe } from "../mcp/helpers.ts";

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;
type Fixture = SandboxHome & { project: string; item: string; versions: Row[] };

const APP = ["--as", "app"];

/** A sandbox, fast polls, and the ids of the seeded "Riverside Tower.rvt" (three versions). */
async function fixture(): Promise<Fixture> {
  const h = await openSandboxHome({ DIAZO_POLL_BASE_MS: "20" });
  const ok = async (args: string[]) => {
    const r = await h.run([...args, ...APP, "-o", "json"]);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    return json<Row[]>(r);
  };
  const hub = (await ok(["hub", "list"]))[0].id;
  const project = (await ok(["project", "list", hub])).find((p) => p.name === "Riverside Tower")!.id;
  const top =
    (await ok(["folder", "list", project, "--hub", hub])).find((f) => f.name === "Project Files")!.id;
  const arch = (await ok(["folder", "list", project, top])).find((f) => f.name === "Architecture")!.id;
  const item =
    (await ok(["folder", "list", project, arch])).find((i) => i.name === "Riverside Tower.rvt")!.id;
  const versions = await ok(["item", "versions", project, item]);
  return { ...h, project, item, versions };
}

async function jobSeconds(h: SandboxHome, seconds: number): Promise<void> {
  const res = await fetch(`${h.sb.url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ job_seconds: seconds }),
  });
  assert.equal(res.status, 200, await res.text());
}

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

Deno.test("item formats: the formats an item's tip or a version can be downloaded as", async () => {
  const h = await fixture();
  try {
    const rows = json<Row[]>(await h.run(["item", "formats", h.project, h.item, ...APP, "-o", "json"]));
    assert.deepEqual(rows.map((r) => r.format), ["dwf", "dwg", "ifc", "nwc", "pdf"]);
    assert.equal(rows[0].version, h.versions[0].id, "an item's formats are its tip's");
    assert.equal(rows[0].name, "Riverside Tower.rvt");
    const v1 = json<Row[]>(
      await h.run(["item", "formats", h.project, h.versions[2].id, ...APP, "-o", "json"]),
    );
    assert.equal(v1[0].version, h.versions[2].id);
    const table = await h.run(["item", "formats", h.project, h.item, ...APP, "-o", "table"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^pdf\s+Riverside Tower\.rvt/m);
    const missing = await h.run([
      "item",
      "formats",
      h.project,
      h.versions[0].id.replace(/=\d+$/, "=99"),
      ...APP,
    ]);
    assert.equal(missing.code, 4, missing.stderr);
  } finally {
    await h.close();
  }
});

Deno.test("item download --format: a download job polled until it has finished, its file written whole", async () => {
  const h = await fixture();
  try {
    await jobSeconds(h, 0.3);
    const r = await h.run(["item", "download", h.project, h.item, "--format", "pdf", ...APP, "-o", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const got = json<Row>(r);
    const file = path.join(h.home.cwd, "Riverside Tower.pdf");
    assert.equal(got.file, file, "named after the version, with the format's extension");
    assert.equal(got.format, "pdf");
    assert.equal(got.versionNumber, 3);
    assert.equal(got.version, h.versions[0].id);
    const text = await Deno.readTextFile(file);
    assert.match(text, /^%PDF-1\.4\n% Riverside Tower\.rvt \(version 3\) as pdf/);
    assert.equal(got.size, new TextEncoder().encode(text).length);
    assert.equal(got.sha1, await sha1Of(file));
    assert.deepEqual(await filesIn(h.home.cwd), ["Riverside Tower.pdf"], "no part file is left behind");
    assert.match(r.stderr, /Downloaded version 3 of Riverside Tower\.rvt as pdf/);

    const log = await requestLog(h.sb.url, "/data/v1/projects/");
    const created = log.filter((e) => e.method === "POST" && e.path.endsWith("/downloads"));
    assert.deepEqual(created.map((e) => e.status), [202], "one job");
    const polls = log.filter((e) => e.path.includes("/jobs/")).map((e) => e.status);
    assert.ok(
      polls.includes(200) && polls.at(-1) === 303,
      `polled while it worked, then redirected: ${polls}`,
    );

    // A version id and --out name another version and file; `dm download` takes --format too.
    await jobSeconds(h, 0);
    const out = await h.run([
      "dm",
      "download",
      h.project,
      h.versions[2].id,
      "--format",
      "DWG",
      "--out",
      "v1.dwg",
      ...APP,
      "-o",
      "json",
    ]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(json<Row>(out).versionNumber, 1);
    assert.match(await Deno.readTextFile(path.join(h.home.cwd, "v1.dwg")), /\(version 1\) as dwg/);
    // The finished downloads are listed with the version's own file.
    const described = json<Row>(
      await h.run(["version", "describe", h.project, h.versions[2].id, ...APP, "-o", "json"]),
    );
    assert.deepEqual(described.downloads.map((d: Row) => d.attributes.format.fileType), ["rvt", "dwg"]);
  } finally {
    await h.close();
  }
});

Deno.test("item download --format: an unsupported format is a usage error naming `diazo item formats`; nothing starts", async () => {
  const h = await fixture();
  try {
    const r = await h.run(["item", "download", h.project, h.item, "--format", "stl", ...APP]);
    assertOneError(
      r,
      2,
      /cannot be downloaded as 'stl': its formats are dwf, dwg, ifc, nwc, pdf/,
      /`diazo item formats /,
    );
    const log = await requestLog(h.sb.url, "/data/v1/projects/");
    assert.equal(log.filter((e) => e.method === "POST").length, 0, "no job was started");
    assert.deepEqual(await filesIn(h.home.cwd), []);
  } finally {
    await h.close();
  }
});

Deno.test("item download --format: a job that outlasts --timeout stops with exit 5 and writes nothing", async () => {
  const h = await fixture();
  try {
    await jobSeconds(h, 600);
    const r = await h.run([
      "item",
      "download",
      h.project,
      h.item,
      "--format",
      "ifc",
      "--timeout",
      "1",
      ...APP,
    ]);
    assertOneError(r, 5, /timed out after 1 s/, /--timeout/);
    assert.deepEqual(await filesIn(h.home.cwd), []);
  } finally {
    await h.close();
  }
});

Deno.test("the item_formats tool lists a version's download formats", async () => {
  const h = await fixture();
  const serve = await startServe(h.env, [], h.home.cwd);
  try {
    const tip = await okTool(serve.client, "item_formats", {
      project_id: h.project,
      item_id: h.item,
      auth: "app",
    });
    assert.deepEqual(tip, {
      version: h.versions[0].id,
      name: "Riverside Tower.rvt",
      formats: ["dwf", "dwg", "ifc", "nwc", "pdf"],
    });
    const v1 = await okTool(serve.client, "item_formats", {
      project_id: h.project,
      version_id: h.versions[2].id,
      auth: "app",
    });
    assert.equal(v1.version, h.versions[2].id);
    const neither = await fails(serve.client, "item_formats", { project_id: h.project, auth: "app" });
    assert.match(neither.message, /item_id|version_id/);
  } finally {
    await serve.close();
    await h.close();
  }
});
