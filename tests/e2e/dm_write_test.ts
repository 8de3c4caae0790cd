/**
 * e2e: data management writes against one sandbox — folder create, item upload (multipart, then a
 * second version), byte-identical downloads, renames, binding an OSS object, the `dm ...`
 * spellings, and every JSON:API body diazo sent checked against datamanagement.yaml.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { dmFolderId, dmProjectId } from "../../src/aps/dm_ids.ts";
import { contextFor } from "../../src/front/root.ts";
import { runItemUpload } from "../../src/families/dm/write.ts";
import { loadSpec } from "../contract/spec.ts";
import { fails, ok as okTool, startServe } from "../mcp/helpers.ts";
import { FLAGS } from "../ops/helpers.ts";
import { addFault, captureIo, json, openSandboxHome, requestLog, type SandboxHome } from "./harness.ts";
import { randomFile, sha1Of } from "./object_helpers.ts";
import { loginUser } from "./user_login.ts";

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;
type Fixture = SandboxHome & { hub: string; project: string; top: string };

const MiB = 1024 * 1024;
let shared: Promise<Fixture> | undefined;

/** One sandbox for the file: a user login that may write, and the ids of "Project Files". */
function fixture(): Promise<Fixture> {
  return shared ??= (async () => {
    const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
    const login = await loginUser(h.env, "data:read,data:write,data:create,bucket:create,bucket:read");
    assert.equal(login.code, 0, login.stderr);
    const hub = (await ok(h, ["hub", "list"]))[0].id;
    const project = (await ok(h, ["project", "list", hub])).find((p: Row) => p.name === "Harbor Bridge")!.id;
    const top = (await ok(h, ["folder", "list", project, "--hub", hub]))
      .find((f: Row) => f.name === "Project Files")!.id;
    return { ...h, hub, project, top };
  })();
}

/** Runs a command that must succeed with JSON output and returns the parsed value. */
async function ok<T = Row[]>(h: SandboxHome, args: string[]): Promise<T> {
  const r = await h.run([...args, "--output", "json"]);
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  return json<T>(r);
}

Deno.test("dm write e2e: folder create -> upload (multipart) -> new version -> download -> rename -> bind", async () => {
  const h = await fixture();
  const { project, top } = h;
  const folder = await ok<Row>(h, ["folder", "create", project, top, "--name", "Uploads"]);
  assert.equal(folder.name, "Uploads");
  assert.match(folder.id, /^urn:adsk\.wipprod:fs\.folder:co\./);
  const again = await h.run(["folder", "create", project, top, "--name", "Uploads"]);
  assert.equal(again.code, 6, "a second folder of the same name is a conflict");
  assert.match(again.stderr, /^error: Conflict: /);

  const file = path.join(h.home.cwd, "deck.ifc");
  const first = await randomFile(file, 11 * MiB);
  const up1 = await ok<Row>(h, ["item", "upload", project, folder.id, "deck.ifc", "--part-size", "5"]);
  assert.equal(up1.name, "deck.ifc");
  assert.equal(up1.versionNumber, 1);
  assert.equal(up1.newVersion, false);
  assert.equal(up1.size, 11 * MiB);
  const puts = (await requestLog(h.sb.url)).filter((e) => e.method === "PUT" && e.status === 200);
  assert.equal(puts.length, 3, "11 MiB in 5 MiB parts is three part uploads");

  const second = await randomFile(file, 6 * MiB);
  const up2 = await ok<Row>(h, ["item", "upload", project, folder.id, "deck.ifc", "--part-size", "5"]);
  assert.equal(up2.id, up1.id, "the same name makes a new version of the same item");
  assert.equal(up2.versionNumber, 2);
  assert.equal(up2.newVersion, true);
  const versions = await ok(h, ["item", "versions", project, up1.id]);
  assert.deepEqual(versions.map((v) => v.versionNumber), [2, 1]);

  const tip = await ok<Row>(h, ["item", "download", project, up1.id, "--out", "tip.ifc"]);
  assert.equal(tip.versionNumber, 2);
  assert.equal(await sha1Of(path.join(h.home.cwd, "tip.ifc")), second, "the tip is byte-identical");
  const v1 = await ok<Row>(h, ["item", "download", project, versions[1].id, "--out", "v1.ifc"]);
  assert.equal(v1.versionNumber, 1);
  assert.equal(await sha1Of(path.join(h.home.cwd, "v1.ifc")), first, "version 1 is byte-identical");

  const renamed = await ok<Row>(h, ["item", "rename", project, up1.id, "--name", "Deck (issued).ifc"]);
  assert.equal(renamed.name, "Deck (issued).ifc");
  const folderRenamed = await ok<Row>(h, ["folder", "rename", project, folder.id, "--name", "Issued"]);
  assert.equal(folderRenamed.name, "Issued");
  const described = await ok<Row>(h, ["item", "version", "describe", project, versions[0].id]);
  assert.equal(described.versionNumber, 2);
  assert.deepEqual(described.downloads.map((d: Row) => d.attributes.format.fileType), ["ifc"]);
  const describedTable = await h.run(["item", "version", "describe", project, versions[0].id, "-o", "table"]);
  assert.match(
    describedTable.stdout,
    /^formats\tifc$/m,
    "the record names the formats it can be downloaded as",
  );
  const versionRenamed = await ok<Row>(h, [
    "item",
    "version",
    "rename",
    project,
    versions[0].id,
    "--name",
    "deck-2.ifc",
  ]);
  assert.equal(versionRenamed.name, "deck-2.ifc");

  // An object in an app's bucket bound to an item, then again as its second version.
  assert.equal((await h.run(["bucket", "create", "--key", "e2e-dm-bind"])).code, 0);
  await randomFile(path.join(h.home.cwd, "pier.dwg"), 1000);
  const put = await h.run(["object", "upload", "e2e-dm-bind", "pier.dwg", "-o", "json"]);
  assert.equal(put.code, 0, put.stderr);
  const bound = await ok<Row>(h, ["item", "bind", project, folder.id, "e2e-dm-bind/pier.dwg"]);
  assert.equal(bound.name, "pier.dwg");
  assert.equal(bound.versionNumber, 1);
  const rebound = await ok<Row>(h, ["item", "bind", project, folder.id, json<Row>(put).urn]);
  assert.equal(rebound.id, bound.id);
  assert.equal(rebound.versionNumber, 2);
  const back = await ok<Row>(h, ["item", "download", project, bound.id, "--out", "pier-back.dwg"]);
  assert.equal(back.sha1, await sha1Of(path.join(h.home.cwd, "pier.dwg")));

  // A seeded version's bytes are made when first asked for: the size it reports, the same each time.
  const seeded = (await ok(h, ["folder", "list", project, top, "--type", "items"]))
    .sort((a, b) => a.size - b.size)[0];
  const got = await ok<Row>(h, ["item", "download", project, seeded.id, "--out", "seeded-1"]);
  assert.equal(got.size, seeded.size);
  assert.equal((await Deno.stat(path.join(h.home.cwd, "seeded-1"))).size, seeded.size);
  const again2 = await ok<Row>(h, ["item", "download", project, seeded.id, "--out", "seeded-2"]);
  assert.equal(again2.sha1, got.sha1, "the same bytes on every download");
  assert.equal(await sha1Of(path.join(h.home.cwd, "seeded-2")), got.sha1);

  const encoded = versions[1].id.replace("?version=", "%3Fversion%3D");
  const v1again = await ok<Row>(h, ["item", "download", project, encoded, "--out", "v1-encoded.ifc"]);
  assert.equal(v1again.versionNumber, 1, "a URL-encoded version id names that version");
  const neither = await h.run(["item", "download", project, versions[1].id.replace(/\?version=\d+$/, "")]);
  assert.equal(neither.code, 2, neither.stderr);
  assert.match(
    neither.stderr,
    /^error: invalid item or version id '.*'\nhint: An item id looks like .* a version id like /,
  );

  const badObject = await h.run(["item", "bind", project, folder.id, "not-an-object"]);
  assert.equal(badObject.code, 2, badObject.stderr);
  const badName = await h.run(["folder", "create", project, top, "--name", "a/b"]);
  assert.equal(badName.code, 2);
  assert.match(badName.stderr, /^error: invalid name 'a\/b'/);
});

Deno.test("dm write e2e: the dm spellings give the long forms' results", async () => {
  const h = await fixture();
  const { hub, project, top } = h;
  assert.deepEqual(await ok(h, ["dm", "projects", hub]), await ok(h, ["project", "list", hub]));
  const everyHub = await ok(h, ["dm", "projects"]);
  assert.ok(everyHub.some((p) => p.name === "Default Project"), "without a hub, every hub's projects");

  const folder = await ok<Row>(h, ["dm", "create-folder", project, top, "--name", "Spelled"]);
  const listed = await ok(h, ["folder", "list", project, top, "--type", "folders"]);
  assert.ok(listed.some((f) => f.id === folder.id && f.name === "Spelled"));
  const sha = await randomFile(path.join(h.home.cwd, "span.rvt"), 2000);
  const up = await ok<Row>(h, ["dm", "upload", project, folder.id, "span.rvt"]);
  const long = await ok<Row>(h, ["item", "get", project, up.id]);
  assert.equal(long.versionNumber, up.versionNumber);
  assert.equal(long.name, "span.rvt");
  const got = await ok<Row>(h, ["dm", "download", project, up.id, "--out", "span-back.rvt"]);
  assert.equal(got.sha1, sha);
  const updated = await ok<Row>(h, ["dm", "update-item", project, up.id, "--name", "Span.rvt"]);
  assert.equal(updated.name, "Span.rvt");
  assert.equal((await ok<Row>(h, ["item", "get", project, up.id])).name, "Span.rvt");
});

Deno.test("dm write e2e: an interrupted item upload resumes with its storage and stored parts", async () => {
  const h = await fixture();
  const { project, top } = h;
  const sha = await randomFile(path.join(h.home.cwd, "cable.nwd"), 11 * MiB);
  const storage = `/data/v1/projects/${project}/storage`;
  const before = {
    storage: (await requestLog(h.sb.url, storage)).length,
    log: (await requestLog(h.sb.url)).length,
  };
  await addFault(h.sb.url, {
    method: "POST",
    path: "/oss/v2/buckets/wip.dm.prod/objects/",
    status: 403,
    count: 1,
  });
  const args = ["item", "upload", project, top, "cable.nwd", "--part-size", "5", "--resume"];
  const failed = await h.run(args);
  assert.equal(failed.code, 3, failed.stderr);
  const parts = (await requestLog(h.sb.url)).slice(before.log).filter((e) => e.method === "PUT").length;
  assert.equal(parts, 3);
  const resumed = await ok<Row>(h, args);
  assert.equal(resumed.versionNumber, 1);
  const log = (await requestLog(h.sb.url)).slice(before.log);
  assert.equal(log.filter((e) => e.method === "PUT").length, parts, "no part is sent again");
  assert.equal((await requestLog(h.sb.url, storage)).length - before.storage, 1, "one storage location");
  const back = await ok<Row>(h, ["item", "download", project, resumed.id, "--out", "cable-back.nwd"]);
  assert.equal(back.sha1, sha);
});

Deno.test("dm write e2e: a new version reaches a dm.version.added hook on a folder above it", async () => {
  const h = await fixture();
  const delivered = Promise.withResolvers<Row>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    delivered.resolve(await req.json());
    return new Response(null, { status: 200 });
  });
  let hookId: string | undefined;
  try {
    const url = `http://127.0.0.1:${server.addr.port}/hook`;
    const created = [
      "webhook",
      "create",
      "--url",
      url,
      "--event",
      "dm.version.added",
      "--scope",
      `folder=${h.top}`,
    ];
    hookId = (await ok<Row>(h, created)).hookId;
    assert.ok(hookId, "the hook has an id");
    const sub = await ok<Row>(h, ["folder", "create", h.project, h.top, "--name", "Hooked"]);
    await randomFile(path.join(h.home.cwd, "hooked.dwg"), 500);
    const up = await ok<Row>(h, ["item", "upload", h.project, sub.id, "hooked.dwg"]);
    const timeout = setTimeout(() => delivered.reject(new Error("no callback within 10 s")), 10_000);
    const body = await delivered.promise.finally(() => clearTimeout(timeout));
    assert.equal(body.hook.event, "dm.version.added");
    assert.equal(body.payload.lineageUrn, up.id);
    assert.equal(body.payload.parentFolderUrn, sub.id);
    assert.equal(body.payload.sizeInBytes, 500);
  } finally {
    if (hookId) {
      await h.run(["webhook", "delete", hookId, "--system", "data", "--event", "dm.version.added", "--yes"]);
    }
    await server.shutdown();
  }
});

Deno.test("dm write e2e: the folder_create and item_upload tools", async () => {
  const h = await fixture();
  const serve = await startServe(h.env, [], h.home.cwd);
  try {
    const made = await okTool(serve.client, "folder_create", {
      project_id: h.project,
      parent_folder_id: h.top,
      name: "From a tool",
    });
    assert.equal(made.folder.name, "From a tool");
    const sha = await randomFile(path.join(h.home.cwd, "tool.dwg"), 3000);
    const up = await okTool(serve.client, "item_upload", {
      project_id: h.project,
      folder_id: made.folder.id,
      file: "tool.dwg",
    });
    assert.equal(up.newVersion, false);
    assert.equal(up.version.attributes.versionNumber, 1);
    const back = await ok<Row>(h, ["item", "download", h.project, up.item.id, "--out", "tool-back.dwg"]);
    assert.equal(back.sha1, sha);
    const outside = await fails(serve.client, "item_upload", {
      project_id: h.project,
      folder_id: made.folder.id,
      file: "/etc/hostname",
    });
    assert.equal(outside.code, "usage");
  } finally {
    await serve.close();
  }
});

Deno.test("dm write e2e: an item of the same name filed during the upload (409) makes the upload its next version", async () => {
  const h = await fixture();
  const folder = await ok<Row>(h, ["folder", "create", h.project, h.top, "--name", "Raced"]);
  await Deno.mkdir(path.join(h.home.cwd, "other"));
  await randomFile(path.join(h.home.cwd, "other", "race.dwg"), 700);
  const sha = await randomFile(path.join(h.home.cwd, "race.dwg"), 900);
  const deps = await contextFor(captureIo().io, FLAGS, h.env, h.home.cwd);
  let rival: Row | undefined;
  // The folder has been read (no race.dwg) when the upload starts: another client files one now.
  const filed = await runItemUpload(
    { project: dmProjectId(h.project), folder: dmFolderId(folder.id), file: "race.dwg" },
    deps,
    async () => {
      rival = await ok<Row>(h, ["item", "upload", h.project, folder.id, "other/race.dwg"]);
      return { update() {}, stop() {} };
    },
  );
  assert.equal(rival?.versionNumber, 1);
  assert.equal(filed.item.id, rival?.id, "the upload joined the item filed meanwhile");
  assert.equal(filed.newVersion, true);
  assert.equal(filed.version.attributes.versionNumber, 2);
  const conflicts = (await requestLog(h.sb.url, `/data/v1/projects/${h.project}/items`))
    .filter((e) => e.method === "POST" && e.status === 409);
  assert.equal(conflicts.length, 1, "the item POST was refused once, then a version was filed");
  const back = await ok<Row>(h, ["item", "download", h.project, filed.item.id, "--out", "race-back.dwg"]);
  assert.equal(back.sha1, sha);
});

Deno.test("dm write e2e: every JSON:API body diazo sent validates against datamanagement.yaml", async () => {
  const h = await fixture();
  try {
    const spec = await loadSpec("datamanagement/datamanagement.yaml");
    const writes = (await requestLog(h.sb.url, "/data/v1/")).filter((e) => e.method !== "GET") as Row[];
    const ops = new Set<string>();
    for (const e of writes) {
      assert.ok(e.body, `${e.method} ${e.path}: its body is in the request log`);
      const op = spec.operationOf(e.method, e.path);
      assert.ok(op, `${e.method} ${e.path} is an operation of the file`);
      ops.add(op);
      assert.deepEqual(await spec.checkRequest(op, e.body), [], `${op}: ${JSON.stringify(e.body)}`);
    }
    assert.deepEqual([...ops].sort(), [
      "PATCH /data/v1/projects/{project_id}/folders/{folder_id}",
      "PATCH /data/v1/projects/{project_id}/items/{item_id}",
      "PATCH /data/v1/projects/{project_id}/versions/{version_id}",
      "POST /data/v1/projects/{project_id}/folders",
      "POST /data/v1/projects/{project_id}/items",
      "POST /data/v1/projects/{project_id}/storage",
      "POST /data/v1/projects/{project_id}/versions",
    ]);
    // A reset forgets every write: the seeded world is back.
    assert.equal((await fetch(`${h.sb.url}/_sandbox/reset`, { method: "POST" })).status, 200);
    const after = await ok(h, ["folder", "list", h.project, h.top, "--type", "folders", "--as", "app"]);
    assert.deepEqual(after.filter((f) => ["Issued", "Spelled"].includes(f.name)), []);
  } finally {
    await h.close();
  }
});
