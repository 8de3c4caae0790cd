/**
 * e2e: RFIs against a sandbox, in process: create, get, update sending only what changed (the request
 * log shows the body), forbidden moves naming the allowed ones, a non-member refused, a project that
 * does not exist.
 */
import assert from "node:assert/strict";
import { assertUsageError, diazo, json, makeHome, sandboxEnv } from "./harness.ts";
import { accFixture, lastSeq, logSince, PROJECT, type Row, sentBodies, userToken } from "./acc_fixture.ts";
import { loginUser } from "./user_login.ts";

const { sandbox, close } = accFixture();

Deno.test("rfi: create -> get -> update sends only what changed -> forbidden move names the allowed ones", async () => {
  const h = await sandbox();
  const created = await h.run([
    "rfi",
    "create",
    "--project",
    PROJECT,
    "--title",
    "Duct clash at C4",
    "--question",
    "Lower the duct?",
    "--due-date",
    "2026-12-01",
    "-o",
    "json",
  ]);
  assert.equal(created.code, 0, created.stderr);
  const rfi = json<Row & { status: string; dueDate: string }>(created);
  assert.equal(rfi.status, "draft");
  assert.equal(rfi.dueDate, "2026-12-01");
  assert.match(created.stderr, new RegExp(`Created RFI ${rfi.id}`));
  const got = json<Row & { title: string }>(
    await h.run(["rfi", "get", rfi.id, "--project", PROJECT, "-o", "json"]),
  );
  assert.equal(got.title, "Duct clash at C4");

  let seq = await lastSeq(h);
  const update = await h.run([
    "rfi",
    "update",
    rfi.id,
    "--project",
    PROJECT,
    "--title",
    "Duct clash at C4",
    "--status",
    "submitted",
    "--assigned-to",
    "SANDBOXADAMORENO",
    "-o",
    "json",
  ]);
  assert.equal(update.code, 0, update.stderr);
  assert.deepEqual(await sentBodies(h, seq, "PATCH"), [
    { status: "submitted", assignedTo: [{ id: "SANDBOXADAMORENO", type: "user" }] },
  ], "the unchanged title is not sent");
  assert.match(update.stderr, /Updated RFI .*: status, assignedTo/);
  seq = await lastSeq(h);
  const same = await h.run([
    "rfi",
    "update",
    rfi.id,
    "--project",
    PROJECT,
    "--status",
    "submitted",
  ]);
  assert.equal(same.code, 0, same.stderr);
  assert.deepEqual(await sentBodies(h, seq, "PATCH"), [], "nothing differed, nothing sent");

  seq = await lastSeq(h);
  const jump = await h.run(["rfi", "update", rfi.id, "--project", PROJECT, "--status", "closed"]);
  assertUsageError(jump, /^error: cannot move RFI \S+ from 'submitted' to 'closed'$/);
  assert.match(jump.stderr, /hint: From 'submitted' it may move to: open, void\./);
  const tried = await logSince(h, seq, "/construction/rfis");
  assert.deepEqual(tried.map((e) => e.method), ["GET"], "the record was read, no PATCH was sent");
  // The platform refuses such a move too (a client that does not read the permitted actions).
  const direct = await fetch(`${h.sb.url}/construction/rfis/v3/projects/${PROJECT}/rfis/${rfi.id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${await userToken(h)}`, "content-type": "application/json" },
    body: JSON.stringify({ status: "closed" }),
  });
  assert.equal(direct.status, 400);
  assert.match(
    (await direct.json()).message,
    /cannot move the RFI from 'submitted' to 'closed'; allowed: open, void/,
  );
  const shown = await h.run(["rfi", "get", rfi.id, "--project", PROJECT, "-o", "table"]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /Duct clash at C4/);

  // Logged in, a bad body file still stops before any request.
  await Deno.writeTextFile(`${h.home.cwd}/wrong.yaml`, "title: Duct\npriority: [High]\n");
  const before = await lastSeq(h);
  assertUsageError(
    await h.run(["rfi", "update", rfi.id, "--project", PROJECT, "--from-file", "wrong.yaml"]),
    /wrong\.yaml:2:11: field 'priority' must be a string/,
  );
  assert.equal(await lastSeq(h), before, "no request was sent");
  const missing = await h.run(["rfi", "get", "00000000-0000-4000-8000-000000000000", "--project", PROJECT]);
  assert.equal(missing.code, 4, missing.stderr);
  assert.match(missing.stderr, /^error: Not found: RFI 00000000-/);
  // A user who is not a member of the project, asking for one record of it: the specification's access denial.
  const visitor = await makeHome();
  try {
    const env = sandboxEnv(visitor, h.sb.url, { DIAZO_NO_BROWSER: "1" });
    assert.equal((await loginUser(env, "data:read,data:write", "visitor.user")).code, 0);
    const denied = await diazo(["rfi", "get", rfi.id, "--project", PROJECT], { env });
    assert.equal(denied.code, 3, denied.stderr);
    assert.match(denied.stderr, /^error: Access denied to a construction-cloud project\nhint: /);
  } finally {
    await visitor.cleanup();
  }
  // The same id in a project that does not exist: the project is what is missing.
  for (const kind of [["rfi"], ["acc", "submittal"], ["acc", "checklist"]]) {
    const noProject = await h.run([...kind, "get", rfi.id, "--project", crypto.randomUUID()]);
    assert.equal(noProject.code, 4, noProject.stderr);
    assert.match(noProject.stderr, /^error: Project not found\nhint: /, kind.join(" "));
  }
});

Deno.test("rfi: close the shared sandbox", () => close());
