/**
 * e2e: account administration as the specification spells it (`acc accounts|projects|create-project|add-user`)
 * against both API generations (an ACC account through ACC Admin v1, a BIM 360 account through HQ
 * v1), `--as app --user`, project update and members, companies, and a bulk `admin user import`
 * of 200 users interrupted by a sandbox fault and resumed with no duplicate and no loss.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { SANDBOX_USER } from "../../src/sandbox/auth/users.ts";
import { seededAccountId, seededBim360AccountId } from "../../src/sandbox/admin/store.ts";
import { addFault, assertOneError, json, requestLog, type SandboxHome, withSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";

type Row = Record<string, unknown> & { id: string; name: string; status: string; platform?: string };

const ACC = seededAccountId();
const BIM = seededBim360AccountId();

/** Methods and paths of the logged requests below `prefix` since entry `from`. */
async function sent(h: SandboxHome, prefix: string, from = 0): Promise<string[]> {
  return (await requestLog(h.sb.url, prefix)).slice(from).map((e) => `${e.method} ${e.path}`);
}

/**
 * `acc accounts/projects/create-project/add-user`: ACC through ACC Admin v1, BIM 360 through HQ v1.
 * The kind of an account comes from documented data (its hub, its projects' `platform`): with a
 * `GET /hq/v1/accounts` forced to 404, as no public reference defines it, everything still works.
 */
async function accSpellings(h: SandboxHome): Promise<void> {
  await addFault(h.sb.url, { method: "GET", path: "glob:/hq/v1/accounts", status: 404 });
  const accounts = json<Row[]>(await h.run(["acc", "accounts", "-o", "json"]));
  assert.deepEqual(accounts.map((a) => [a.id, a.platform]).sort(), [[ACC, "acc"], [BIM, "bim360"]].sort());
  assert.deepEqual(accounts.map((a) => a.hubId).sort(), [`b.${ACC}`, `b.${BIM}`].sort());

  const accProjects = await h.run(["acc", "projects", "--account", `b.${ACC}`, "-o", "json"]);
  assert.equal(accProjects.code, 0, accProjects.stderr);
  assert.equal(json<Row[]>(accProjects).length, 4);
  const bimRun = await h.run(["acc", "projects", "--account", BIM, "-o", "json"]);
  assert.equal(bimRun.code, 0, bimRun.stderr);
  const bim = json<Row[]>(bimRun);
  assert.deepEqual(bim.map((p) => [p.name, p.platform, p.type]), [
    ["Harbor Bridge Retrofit", "bim360", "Bridge"],
    ["Old Mill Apartments", "bim360", "Multi-Family Housing"],
  ]);
  assert.ok(bim.every((p) => typeof p.project_type === "string"), "HQ's own fields pass through");
  assert.deepEqual(
    await sent(h, `/hq/v1/accounts/${ACC}/projects`),
    [],
    "the ACC account is not read through HQ",
  );
  assert.ok(
    (await requestLog(h.sb.url, `/construction/admin/v1/accounts/${BIM}/projects`)).every((e) =>
      e.query.limit === "1"
    ),
    "the BIM 360 one is read through ACC only to learn its kind (its projects' platform)",
  );
  assert.deepEqual(await sent(h, `/hq/v1/accounts/${BIM}/projects`), [`GET /hq/v1/accounts/${BIM}/projects`]);
  const longForm = await h.run(["admin", "project", "list", "--account", BIM, "-o", "json"]);
  assert.deepEqual(json(longForm), bim, "`admin project list` is the same command");

  const accCreated = await h.run([
    "acc",
    "create-project",
    "--account",
    ACC,
    "--name",
    "Spec Tower",
    "--type",
    "Office",
    "-o",
    "json",
  ]);
  assert.equal(accCreated.code, 0, accCreated.stderr);
  assert.equal(json<Row>(accCreated).status, "pending");
  const bimCreated = await h.run([
    "acc",
    "create-project",
    "--account",
    BIM,
    "--name",
    "Spec Bridge",
    "--type",
    "Bridge",
    "--start-date",
    "2025-03-01",
    "--end-date",
    "2026-06-30",
    "-o",
    "json",
  ]);
  assert.equal(bimCreated.code, 0, bimCreated.stderr);
  const bridge = json<Row>(bimCreated);
  assert.deepEqual([bridge.status, bridge.platform, bridge.start_date, bridge.end_date], [
    "active",
    "bim360",
    "2025-03-01",
    "2026-06-30",
  ]);
  const posts = (await requestLog(h.sb.url)).filter((e) =>
    e.method === "POST" && e.path.includes("/projects")
  );
  assert.deepEqual(posts.map((e) => `${e.path} ${e.status}`), [
    `/construction/admin/v1/accounts/${ACC}/projects 202`,
    `/hq/v1/accounts/${BIM}/projects 201`,
  ]);
  const template = await h.run([
    "acc",
    "create-project",
    "--account",
    BIM,
    "--name",
    "T",
    "--type",
    "Office",
    "--classification",
    "template",
  ]);
  assertOneError(template, 2, /ACC accounts only/);

  for (const account of [ACC, BIM]) {
    const added = await h.run([
      "acc",
      "add-user",
      "--account",
      account,
      "--email",
      "New.Hire@Example.com",
      "--first-name",
      "New",
      "-o",
      "json",
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual([json<Row>(added).email, json<Row>(added).status], ["new.hire@example.com", "pending"]);
    const again = await h.run(["acc", "add-user", "--account", account, "--email", "new.hire@example.com"]);
    assertOneError(again, 6, /^error: Conflict: .*already exists/);
  }
  assert.deepEqual(
    (await sent(h, "/hq/v1/accounts/")).filter((l) => l.startsWith("POST") && l.endsWith("/users")),
    [
      `POST /hq/v1/accounts/${ACC}/users`,
      `POST /hq/v1/accounts/${ACC}/users`,
      `POST /hq/v1/accounts/${BIM}/users`,
      `POST /hq/v1/accounts/${BIM}/users`,
    ],
  );
  const before = (await requestLog(h.sb.url)).length;
  assertOneError(await h.run(["acc", "add-user", "--account", ACC, "--email", "nobody"]), 2, /not an e-mail/);
  assertOneError(await h.run(["acc", "projects", "--account", BIM, "--platform", "hq"]), 2, /platform/);
  assert.equal((await requestLog(h.sb.url)).length, before, "bad input sends no request");
}

/** `--as app --user`, project update, project members, companies of both generations. */
async function appAndMembers(h: SandboxHome): Promise<void> {
  const before = (await requestLog(h.sb.url)).length;
  const noUser = await h.run([
    "acc",
    "create-project",
    "--account",
    ACC,
    "--name",
    "App Made",
    "--type",
    "Office",
    "--as",
    "app",
  ]);
  assertOneError(noUser, 2, /--user is required with --as app/, /--user/);
  assertOneError(await h.run(["acc", "accounts", "--user", "x"]), 2, /--user is only used with --as app/);
  assert.equal((await requestLog(h.sb.url)).length, before, "refused before any request");
  // The platform grants account:* to apps too; the profile's 2-legged tokens carry what it asks.
  const scopes = await h.run(["auth", "extend-scopes", "--add", "account:read,account:write"]);
  assert.equal(scopes.code, 0, scopes.stderr);
  const asApp = ["--as", "app", "--user", SANDBOX_USER.userid, "-o", "json"];
  const appMade = await h.run([
    "acc",
    "create-project",
    "--account",
    ACC,
    "--name",
    "App Made",
    "--type",
    "Office",
    ...asApp,
  ]);
  assert.equal(appMade.code, 0, appMade.stderr);
  const appList = await h.run([
    "acc",
    "projects",
    "--account",
    ACC,
    "--as",
    "app",
    "--status",
    "pending",
    "-o",
    "json",
  ]);
  assert.ok(json<Row[]>(appList).some((p) => p.name === "App Made"), appList.stderr);
  const stranger = await h.run([
    "acc",
    "create-project",
    "--account",
    ACC,
    "--name",
    "X",
    "--type",
    "Office",
    "--as",
    "app",
    "--user",
    "nobody",
  ]);
  assert.equal(stranger.code, 3, stranger.stderr);

  const bimProjects = json<Row[]>(await h.run(["admin", "project", "list", "--account", BIM, "-o", "json"]));
  const mill = bimProjects.find((p) => p.name === "Old Mill Apartments")!;
  const updated = await h.run([
    "admin",
    "project",
    "update",
    mill.id,
    "--account",
    BIM,
    "--name",
    "Old Mill Lofts",
    "--status",
    "archived",
    "-o",
    "json",
  ]);
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual([json<Row>(updated).name, json<Row>(updated).status], ["Old Mill Lofts", "archived"]);
  const archived = json<Row[]>(
    await h.run(["acc", "projects", "--account", BIM, "--status", "archived", "-o", "json"]),
  );
  assert.deepEqual(archived.map((p) => p.name), ["Old Mill Lofts"]);
  const warehouse =
    json<Row[]>(await h.run(["acc", "projects", "--account", ACC, "--name", "Warehouse", "-o", "json"]))[0];
  const accUpdated = await h.run([
    "admin",
    "project",
    "update",
    warehouse.id,
    "--account",
    ACC,
    "--name",
    "Warehouse Two",
    "-o",
    "json",
  ]);
  assert.equal(accUpdated.code, 0, accUpdated.stderr);
  assert.equal(json<Row>(accUpdated).name, "Warehouse Two", "an ACC project is updated too");
  assertOneError(
    await h.run(["admin", "project", "update", mill.id, "--account", BIM]),
    2,
    /nothing to change/,
  );
  const gone = await h.run([
    "admin",
    "project",
    "update",
    crypto.randomUUID(),
    "--account",
    BIM,
    "--name",
    "Z",
  ]);
  assertOneError(gone, 4, /^error: Project not found$/);

  const riverside =
    json<Row[]>(await h.run(["acc", "projects", "--account", ACC, "--name", "Riverside", "-o", "json"]))[0];
  const added = await h.run([
    "admin",
    "project",
    "user",
    "add",
    riverside.id,
    "--email",
    "new.member@example.com",
    "--products",
    "docs:administrator,build:member",
    "-o",
    "json",
  ]);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(json<{ accessLevels: { projectAdmin: boolean } }>(added).accessLevels.projectAdmin, true);
  const members = () =>
    h.run(["admin", "project", "users", riverside.id, "-o", "json", "--query", "[].email"]);
  assert.ok(json<string[]>(await members()).includes("new.member@example.com"));
  const twice = await h.run([
    "admin",
    "project",
    "user",
    "add",
    riverside.id,
    "--email",
    "new.member@example.com",
  ]);
  assert.equal(twice.code, 6, twice.stderr);
  const removed = await h.run([
    "admin",
    "project",
    "user",
    "remove",
    riverside.id,
    "new.member@example.com",
    "--yes",
    "-o",
    "json",
  ]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.ok(!json<string[]>(await members()).includes("new.member@example.com"));
  const notMember = await h.run([
    "admin",
    "project",
    "user",
    "remove",
    riverside.id,
    "new.member@example.com",
    "--yes",
  ]);
  assert.equal(notMember.code, 4, notMember.stderr);

  const accCompanies = json<Row[]>(await h.run(["admin", "company", "list", "--account", ACC, "-o", "json"]));
  assert.deepEqual(accCompanies.map((c) => c.name), [
    "Diazo Construction",
    "Steelworks Ltd",
    "Harbor Engineering",
  ]);
  const bimCompanies = json<Row[]>(await h.run(["admin", "company", "list", "--account", BIM, "-o", "json"]));
  assert.deepEqual(bimCompanies.map((c) => c.name), ["Legacy Builders", "Old Town Surveys"]);
  assert.equal((await sent(h, `/construction/admin/v1/accounts/${ACC}/companies`)).length, 1);
  assert.equal((await sent(h, `/hq/v1/accounts/${BIM}/companies`)).length, 1);
}

/** A bulk import of 200 users, interrupted after 120 by a fault, resumed with no duplicate and no loss. */
async function bulkImport(h: SandboxHome): Promise<void> {
  const emails = Array.from({ length: 200 }, (_, i) => `bulk.${String(i).padStart(3, "0")}@example.com`);
  const csv = ["email,first_name,last_name", ...emails.map((e, i) => `${e},Bulk,"Person, ${i}"`)].join("\n");
  await Deno.writeTextFile(path.join(h.home.cwd, "users.csv"), csv + "\n");
  // One of them is in the account already: its row counts as done, not as a second user.
  assert.equal((await h.run(["admin", "user", "add", "--account", ACC, "--email", emails[7]])).code, 0);
  const usersPath = `/hq/v1/accounts/${ACC}/users`;
  // A blip is resent (a row's POST is safe to repeat: a 409 counts as done)...
  await addFault(h.sb.url, { path: usersPath, method: "POST", status: 503, after: 60, count: 1 });
  // ...an outage stops the import.
  await addFault(h.sb.url, { path: usersPath, method: "POST", status: 503, after: 120 }); // (the blip is not counted here)
  const imp = ["admin", "user", "import", "--account", ACC, "--from-file", "users.csv", "-o", "json"];
  // --quiet: on a slow machine the import runs past the first progress line (item 19), not the point here.
  const first = await h.run([...imp.slice(0, -2), "--quiet"]);
  assertOneError(first, 5, /^error: Import stopped after 120 of 200 users: /, /Run the same command again/);
  await fetch(`${h.sb.url}/_sandbox/faults`, { method: "DELETE" }).then((r) => r.body?.cancel());

  const from = (await requestLog(h.sb.url, usersPath)).length;
  const second = await h.run(imp);
  assert.equal(second.code, 0, second.stderr);
  const rows = json<{ email: string; result: string }[]>(second);
  const count = (r: string) => rows.filter((x) => x.result === r).length;
  assert.deepEqual([count("done-before"), count("created"), count("existed")], [120, 80, 0]);
  assert.match(second.stderr, /120 of 200 users were already imported by an earlier run/);
  assert.equal(
    (await sent(h, usersPath, from)).filter((l) => l.startsWith("POST")).length,
    80,
    "only the rest is sent",
  );

  const directory = json<string[]>(
    await h.run(["admin", "user", "list", "--account", ACC, "-o", "json", "--query", "[].email"]),
  );
  const bulk = directory.filter((e) => e.startsWith("bulk."));
  assert.deepEqual([...bulk].sort(), emails, "every user once: no duplicate, no loss");

  const from3 = (await requestLog(h.sb.url, usersPath)).length;
  const third = await h.run(imp);
  assert.equal(third.code, 0, third.stderr);
  assert.ok(json<{ result: string }[]>(third).every((r) => r.result === "done-before"));
  assert.match(third.stderr, /200 of 200 users were already imported/);
  assert.deepEqual(await sent(h, usersPath, from3), [], "a finished import sends nothing");

  // A row the platform refuses (an unknown company) fails alone; the others are added, exit 1.
  // (Written as spreadsheets save CSV: a byte-order mark and CRLF line ends.)
  await Deno.writeTextFile(
    path.join(h.home.cwd, "mixed.csv"),
    "\uFEFFemail,company_id\r\nm1@example.com,\r\nm2@example.com,nope\r\n",
  );
  const mixed = await h.run([
    "admin",
    "user",
    "import",
    "--account",
    ACC,
    "--from-file",
    "mixed.csv",
    "-o",
    "json",
  ]);
  assert.equal(mixed.code, 1, mixed.stderr);
  assert.deepEqual(json<{ result: string }[]>(mixed).map((r) => r.result), ["created", "failed"]);
  assert.match(mixed.stderr, /error: 1 of 2 users were not added/);
  await Deno.writeTextFile(path.join(h.home.cwd, "bad.csv"), "email,nick\nx@example.com,x\n");
  assertOneError(
    await h.run(["admin", "user", "import", "--account", ACC, "--from-file", "bad.csv"]),
    2,
    /bad\.csv:1: unknown column 'nick'/,
  );
  await Deno.writeTextFile(
    path.join(h.home.cwd, "dup.csv"),
    "email\na@example.com\nb@example.com\nA@example.com\n",
  );
  assertOneError(
    await h.run(["admin", "user", "import", "--account", ACC, "--from-file", "dup.csv"]),
    2,
    /dup\.csv:4: a@example\.com is already on line 2/,
  );
  assertOneError(
    await h.run(["admin", "user", "import", "--account", ACC, "--from-file", "none.csv"]),
    2,
    /File not found: none\.csv/,
  );
}

Deno.test("admin: the specification's acc spellings on both API generations, app writes, members, a resumed bulk import", (t) =>
  withSandboxHome(async (h) => {
    const login = await loginUser(h.env, "account:read,account:write,data:read");
    assert.equal(login.code, 0, login.stderr);
    await t.step(
      "acc accounts/projects/create-project/add-user: ACC Admin v1 and HQ v1",
      () => accSpellings(h),
    );
    await t.step("--as app --user, project update, members, companies", () => appAndMembers(h));
    await t.step("import of 200 users interrupted after 120 and resumed", () => bulkImport(h));
  }, { DIAZO_NO_BROWSER: "1" }));
