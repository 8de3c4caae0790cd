/**
 * e2e: assets, submittals and checklists (and RFI lists) against one sandbox, in process: every list over
 * two pages and stopped by --limit, get, create, update sending only what changed (the request
 * log shows the body), forbidden moves, `b.` ids stripped, no login and bad --from-file before
 * any request, a non-member refused, a project that does not exist.
 */
import assert from "node:assert/strict";
import { assertUsageError, json, requestLog } from "./harness.ts";
import {
  accFixture,
  BIM360_PROJECT,
  CHECKLISTS,
  lastSeq,
  logSince,
  PROJECT,
  type Row,
  sentBodies,
  userToken,
} from "./acc_fixture.ts";
import { fails, ok, startServe } from "../mcp/helpers.ts";

const { fresh, sandbox, close } = accFixture();

Deno.test("acc build: no login stops before any request; bad --from-file is a usage error with its position", async () => {
  const h = await fresh(); // no login yet: this test runs first
  for (const args of [["rfi", "list"], ["acc", "asset", "list"], ["acc", "checklist", "templates"]]) {
    const r = await h.run([...args, "--project", PROJECT]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^error: Authentication required \(3-legged OAuth\)\nhint: .*diazo auth login/);
  }
  assert.deepEqual(await requestLog(h.sb.url), [], "no request was sent");
  const files: [string, string, RegExp][] = [
    ["bad.json", '{"title": "x"\n  "status": "open"}', /bad\.json:2:3: not valid JSON or YAML/],
    ["empty.json", '{"title": "x",\n  "status": }', /empty\.json:2:11: field 'status' has no value/],
    ["unknown.yaml", "title: Duct\ncolour: red\n", /unknown\.yaml:2:1: unknown field 'colour'/],
    ["type.yaml", "title: Duct\ndueDate: soon\n", /type\.yaml:2:10: field 'dueDate' must be a date/],
  ];
  for (const [name, text, message] of files) {
    await Deno.writeTextFile(`${h.home.cwd}/${name}`, text);
    assertUsageError(await h.run(["rfi", "create", "--project", PROJECT, "--from-file", name]), message);
  }
  assertUsageError(
    await h.run(["acc", "asset", "update", "x1", "--project", PROJECT, "--from-file", "-"], {
      stdin: "[1, 2]",
    }),
    /<stdin>:1:1: the body must be an object/,
  );
  assertUsageError(
    await h.run(["rfi", "list", "--project", "b.riverside"]),
    /'b\.riverside' is not an ACC\/BIM 360 id/,
  );
  assertUsageError(
    await h.run(["acc", "asset", "create", "--project", PROJECT, "--name", "AHU-7"]),
    /^error: a new asset needs --category \(categoryId\), --status \(statusId\)$/m,
  );
  for (const noun of [["rfi"], ["acc", "asset"], ["acc", "submittal"], ["acc", "checklist"]]) {
    for (
      const verb of ["list", "get", "create", "update", ...(noun[1] === "checklist" ? ["templates"] : [])]
    ) {
      const help = await h.run([...noun, verb, "--help"]);
      assert.match(
        help.stdout,
        new RegExp(`Examples:\\n {2}\\$ diazo ${noun.join(" ")} ${verb} `),
        help.stdout,
      );
    }
  }
  assert.deepEqual(await requestLog(h.sb.url), [], "bad input sent nothing either");
  // The platform refuses the app's own (2-legged) token on these services, whatever its scopes.
  const app = await fetch(`${h.sb.url}/authentication/v2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("diazo-sandbox:diazo-sandbox-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=data:read data:write",
  }).then((r) => r.json());
  for (
    const path of [
      "/construction/assets/v2/projects/P/assets",
      `/bim360/checklists/v1/containers/${CHECKLISTS}/templates`,
    ]
  ) {
    const res = await fetch(`${h.sb.url}${path.replace("P", PROJECT)}`, {
      headers: { authorization: `Bearer ${app.access_token}` },
    });
    assert.equal(res.status, 403, path);
    assert.match((await res.json()).message, /needs a user's token/);
  }
});

Deno.test("acc build: every list follows both pages, --limit stops, b. ids are stripped, tables scan", async () => {
  const h = await sandbox();
  const lists: [string[], string, string, string?][] = [
    [["rfi", "list"], `/construction/rfis/v3/projects/${PROJECT}/search:rfis`, "POST"],
    [["acc", "asset", "list"], `/construction/assets/v2/projects/${PROJECT}/assets`, "GET"],
    [["acc", "submittal", "list"], `/construction/submittals/v2/projects/${PROJECT}/items`, "GET"],
    [
      ["acc", "checklist", "list"],
      `/bim360/checklists/v1/containers/${CHECKLISTS}/instances`,
      "GET",
      BIM360_PROJECT,
    ],
  ];
  for (const [args, path, method, project = PROJECT] of lists) {
    let seq = await lastSeq(h);
    const all = await h.run([...args, "--project", `b.${project}`, "-o", "json"]);
    assert.equal(all.code, 0, all.stderr);
    const rows = json<Row[]>(all);
    assert.ok(rows.length > 50, `${args.join(" ")}: ${rows.length} records`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, "no record twice");
    const pages = await logSince(h, seq, path);
    assert.equal(pages.filter((p) => p.method === method && p.path === path).length, 2, `${path}: two pages`);
    seq = await lastSeq(h);
    const some = await h.run([...args, "--project", project, "--limit", "3", "-o", "json"]);
    assert.deepEqual(json<Row[]>(some).map((r) => r.id), rows.slice(0, 3).map((r) => r.id));
    assert.equal((await logSince(h, seq, path)).length, 1, "--limit 3 takes one page");
  }
  const table = await h.run(["rfi", "list", "--project", PROJECT, "--status", "open", "-o", "table"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /id\s.*title\s.*status\s.*assignee\s.*dueDate/);
  assert.doesNotMatch(table.stdout, /\bdraft\b/);
  const mine = json<{ assignedTo: { id: string }[] }[]>(
    await h.run(["rfi", "list", "--project", PROJECT, "--assigned-to", "SANDBOXADAMORENO", "-o", "json"]),
  );
  assert.ok(mine.length > 0 && mine.every((r) => r.assignedTo.some((a) => a.id === "SANDBOXADAMORENO")));
  const before = await lastSeq(h);
  const myRfis = await h.run([
    "rfi",
    "list",
    "--project",
    PROJECT,
    "--assigned-to",
    "me,SANDBOXJONASBERG",
    "-o",
    "json",
  ]);
  assert.equal(myRfis.code, 0, myRfis.stderr);
  const searched = (await sentBodies(h, before, "POST")) as { filter: { assignedTo: string[] } }[];
  assert.deepEqual(
    searched[0].filter.assignedTo,
    ["DIAZOSANDBOXUSER", "SANDBOXJONASBERG"],
    "me is the caller",
  );
  const due = json<{ dueDate: string }[]>(
    await h.run(["rfi", "list", "--project", PROJECT, "--due-before", "2026-01-25", "-o", "json"]),
  );
  assert.ok(
    due.length > 0 && due.every((r) => r.dueDate < "2026-01-25"), // before it, as issue list --due-before
    JSON.stringify(due.map((r) => r.dueDate)),
  );
  const assets = await h.run(["acc", "asset", "list", "--project", PROJECT, "--limit", "5", "-o", "table"]);
  assert.match(assets.stdout, /AHU-01\s.*Specified/, "a table shows the status label");
  const done = json<{ attributes: { status: string } }[]>(
    await h.run([
      "acc",
      "checklist",
      "list",
      "--project",
      BIM360_PROJECT,
      "--status",
      "completed",
      "-o",
      "json",
    ]),
  );
  assert.ok(done.length > 0 && done.every((c) => c.attributes.status === "completed"));
  const templates = await h.run([
    "acc",
    "checklist",
    "templates",
    "--project",
    `b.${BIM360_PROJECT}`,
    "-o",
    "csv",
  ]);
  assert.equal(templates.code, 0, templates.stderr);
  assert.match(templates.stdout, /^id,title,templateType,sections,items\r?\n/);
  assert.match(templates.stdout, /Daily safety walk,safety,2,6/);
});

Deno.test("acc asset, submittal, checklist: create -> get -> update with only the changed fields", async () => {
  const h = await sandbox();
  const run = async (args: string[]) => {
    const r = await h.run([...args, "--project", PROJECT, "-o", "json"]);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    return r;
  };
  // Assets: the status must be one of the category's set.
  const [seeded] = json<(Row & { statusId: string })[]>(await run(["acc", "asset", "list", "--limit", "1"]));
  const asset = json<Row & { clientAssetId: string; version: number }>(
    await run(["acc", "asset", "create", "--name", "AHU-99", "--category", "2", "--status", seeded.statusId]),
  );
  assert.equal(asset.clientAssetId, "AHU-99");
  assert.equal(json<Row>(await run(["acc", "asset", "get", asset.id])).id, asset.id);
  let seq = await lastSeq(h);
  const patched = await run([
    "acc",
    "asset",
    "update",
    asset.id,
    "--name",
    "AHU-99",
    "--barcode",
    "0042",
  ]);
  assert.deepEqual(await sentBodies(h, seq, "PATCH"), [{ [asset.id]: { barcode: "0042" } }]);
  assert.ok(json<{ version: number }>(patched).version > asset.version, "a change bumps the version");
  const badStatus = await h.run([
    "acc",
    "asset",
    "update",
    asset.id,
    "--project",
    PROJECT,
    "--status",
    "nope",
  ]);
  assert.equal(badStatus.code, 2);
  assert.match(badStatus.stderr, /'statusId' must be one of the category's statuses/);

  // Submittals: the state moves through the transition endpoint, other fields through PATCH.
  const [item0] = json<(Row & { typeId: string; specId: string })[]>(
    await run(["acc", "submittal", "list", "--limit", "1"]),
  );
  await Deno.writeTextFile(
    `${h.home.cwd}/item.yaml`,
    `title: Curtain wall shop drawings\ntypeId: ${item0.typeId}\nspecId: ${item0.specId}\npriority: High\n`,
  );
  const item = json<Row & { stateId: string; statusId: string }>(
    await run(["acc", "submittal", "create", "--from-file", "item.yaml"]),
  );
  assert.deepEqual([item.stateId, item.statusId], ["mgr-1", "2"]);
  assert.equal(json<Row>(await run(["acc", "submittal", "get", item.id])).id, item.id);
  seq = await lastSeq(h);
  await run([
    "acc",
    "submittal",
    "update",
    item.id,
    "--state",
    "rev",
    "--priority",
    "High",
  ]);
  assert.deepEqual((await sentBodies(h, seq, "POST")).at(-1), { stateId: "rev" });
  assert.deepEqual(await sentBodies(h, seq, "PATCH"), [], "the priority was already High");
  const back = await h.run(["acc", "submittal", "update", item.id, "--project", PROJECT, "--state", "draft"]);
  assertUsageError(back, /cannot move submittal \S+ from 'rev' to 'draft'/);
  assert.match(back.stderr, /may move to: mgr-2, void/);
  const noSpec = await h.run(["acc", "submittal", "update", item.id, "--project", PROJECT, "--spec", "nope"]);
  assert.equal(noSpec.code, 2, noSpec.stderr);
  assert.match(
    noSpec.stderr,
    /'specId' nope is not a spec of the project/,
    "the item exists; its spec does not",
  );

  // Checklists (BIM 360 projects only): made from a template, then moved along their statuses.
  const runB = async (args: string[]) => {
    const r = await h.run([...args, "--project", BIM360_PROJECT, "-o", "json"]);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    return r;
  };
  const [template] = json<Row[]>(await runB(["acc", "checklist", "templates"]));
  const list = json<Row & { attributes: { status: string; assigneeId: string } }>(
    await runB([
      "acc",
      "checklist",
      "create",
      "--template",
      template.id,
      "--title",
      "Level 3 pre-pour",
      "--assigned-to", // as rfi and issue spell it (--assignee too)
      "SANDBOXJONASBERG",
    ]),
  );
  assert.equal(list.attributes.status, "not_started");
  assert.equal(list.attributes.assigneeId, "SANDBOXJONASBERG");
  // A template the project lacks is a bad body (exit 2), not a missing project.
  const noTemplate = await h.run([
    "acc",
    "checklist",
    "create",
    "--project",
    BIM360_PROJECT,
    "--template",
    "00000000-0000-4000-8000-000000000000",
    "--title",
    "x",
  ]);
  assert.equal(noTemplate.code, 2, noTemplate.stderr);
  assert.match(noTemplate.stderr, /'templateId' 00000000-\S+ is not a checklist template of the project/);
  const full = json<Row & { included: { type: string }[] }>(await runB(["acc", "checklist", "get", list.id]));
  assert.ok(full.included.some((r) => r.type === "instance_items"), "sections and items come with it");
  seq = await lastSeq(h);
  await runB([
    "acc",
    "checklist",
    "update",
    list.id,
    "--status",
    "in_progress",
    "--title",
    "Level 3 pre-pour",
  ]);
  assert.deepEqual(await sentBodies(h, seq, "PATCH"), [
    { data: { type: "instances", id: list.id, attributes: { status: "in_progress" } } },
  ]);
  const done = await runB(["acc", "checklist", "update", list.id, "--status", "completed"]);
  assert.equal(json<{ attributes: { status: string } }>(done).attributes.status, "completed");
  const skip = await h.run([
    "acc",
    "checklist",
    "update",
    list.id,
    "--project",
    BIM360_PROJECT,
    "--status",
    "not_started",
  ]);
  assert.equal(skip.code, 2);
  assert.match(skip.stderr, /allowed: in_progress/);
});

Deno.test("acc checklist: an ACC project is refused with its reason; a BIM 360 one uses its checklists container", async () => {
  const h = await sandbox();
  for (const args of [["list"], ["templates"], ["get", "1"]]) {
    const seq = await lastSeq(h);
    const r = await h.run(["acc", "checklist", ...args, "--project", PROJECT]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: project \S+ is an ACC project; the BIM 360 checklists API does not serve/,
    );
    assert.match(r.stderr, /\nhint: .*BIM 360 projects/);
    assert.deepEqual(await logSince(h, seq, "/bim360/"), [], "no checklist request for an ACC project");
  }
  // The sandbox, asked directly, knows no checklists container for the ACC project, nor the BIM 360
  // project's GUID where its container differs: only the container its project names serves.
  const token = await userToken(h);
  for (const [container, status] of [[PROJECT, 404], [BIM360_PROJECT, 404], [CHECKLISTS, 200]] as const) {
    const res = await fetch(`${h.sb.url}/bim360/checklists/v1/containers/${container}/templates`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.body?.cancel();
    assert.equal(res.status, status, container);
  }
  const seq = await lastSeq(h);
  const listed = await h.run(["acc", "checklist", "templates", "--project", BIM360_PROJECT, "-o", "json"]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    (await logSince(h, seq, "/bim360/")).map((e) => e.path),
    [`/bim360/checklists/v1/containers/${CHECKLISTS}/templates`],
  );
});

Deno.test("serve: rfi_list, asset_list, submittal_list, checklist_list page with cursors, read-only, isError", async () => {
  const h = await sandbox();
  const serve = await startServe(h.env, ["--read-only"], h.home.cwd);
  try {
    const { tools } = await serve.client.listTools();
    for (const name of ["rfi_list", "asset_list", "submittal_list", "checklist_list"]) {
      const project = name === "checklist_list" ? BIM360_PROJECT : PROJECT;
      const tool = tools.find((t) => t.name === name);
      assert.equal(tool?.annotations?.readOnlyHint, true, `${name} is offered read-only`);
      const ids: string[] = [];
      let cursor: string | undefined;
      let calls = 0;
      do {
        const args = { project_id: `b.${project}`, limit: 40, cursor, fields: ["*"] };
        const page = await ok(serve.client, name, args);
        assert.ok(
          page.count > 0 && page.items.every((i: { record: unknown }) => typeof i.record === "object"),
        );
        ids.push(...page.items.map((i: Row) => i.id));
        cursor = page.next_cursor;
        calls++;
      } while (cursor);
      assert.ok(calls >= 2, `${name}: more than one answer`);
      assert.equal(new Set(ids).size, ids.length, `${name}: each cursor goes on where the answer stopped`);
      assert.ok(ids.length > 50);
    }
    const open = await ok(serve.client, "rfi_list", { project_id: PROJECT, status: ["open"], limit: 5 });
    assert.ok(open.items.every((i: { status: string }) => i.status === "open"));
    const cursor = await fails(serve.client, "rfi_list", { project_id: PROJECT, cursor: "not-a-cursor" });
    assert.match(cursor.message, /invalid cursor/);
    const bad = await fails(serve.client, "asset_list", { project_id: "riverside" });
    assert.equal(bad.code, "usage");
    assert.match(bad.message, /'riverside' is not an ACC\/BIM 360 id/);
  } finally {
    await serve.close();
  }
});

Deno.test("acc build: close the shared sandbox", () => close());
