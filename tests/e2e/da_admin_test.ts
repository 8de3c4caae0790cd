/** e2e: Design Automation and account administration commands against a sandbox. */
import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { diazo, json, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";

type IdRow = { id: string; owner: string; name: string; alias: string };

Deno.test("da: engines across pages, --limit, get, nickname, app bundles, activities, bad input", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    const engines = await diazo(["da", "engine", "list", "-o", "json"], { env });
    assert.equal(engines.code, 0, engines.stderr);
    const rows = json<IdRow[]>(engines);
    assert.equal(rows.length, 16);
    assert.deepEqual(rows.find((r) => r.id === "Autodesk.Revit+2024"), {
      id: "Autodesk.Revit+2024",
      owner: "Autodesk",
      name: "Revit",
      alias: "2024",
    });
    const pages = (await requestLog(sb.url, "/da/us-east/v3/engines")).filter((e) => e.method === "GET");
    assert.equal(pages.length, 2, "the list took two page requests");
    assert.ok(
      (pages[1] as unknown as { query: Record<string, string> }).query.page,
      "the second carries ?page=",
    );

    const limited = await diazo(["da", "engine", "list", "--limit", "3", "-o", "json"], { env });
    assert.deepEqual(json<IdRow[]>(limited).map((r) => r.id), rows.slice(0, 3).map((r) => r.id));
    assert.equal((await requestLog(sb.url, "/da/us-east/v3/engines")).length, 3, "--limit 3 needs one page");

    const table = await diazo(["da", "engine", "list", "-o", "table"], { env });
    assert.match(table.stdout, /id\s.*owner\s.*name\s.*alias/);
    assert.match(table.stdout, /Autodesk\.Inventor\+2025/);

    const one = await diazo(["da", "engine", "get", "Autodesk.AutoCAD+24", "-o", "json"], { env });
    assert.equal(json<{ id: string; productVersion: string }>(one).productVersion, "24");
    const missing = await diazo(["da", "engine", "get", "Autodesk.AutoCAD+1"], { env });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /^error: Engine not found\nhint: .*diazo da engine list/);
    const before = (await requestLog(sb.url)).length;
    const badId = await diazo(["da", "engine", "get", "AutoCAD"], { env });
    assert.equal(badId.code, 2);
    assert.match(badId.stderr, /^error: invalid engine id 'AutoCAD'\nhint: .*Autodesk\.AutoCAD\+24/);
    const badName = await diazo([
      "da",
      "appbundle",
      "create",
      "--id",
      "my-app",
      "--engine",
      "Autodesk.AutoCAD+24",
    ], {
      env,
    });
    assert.equal(badName.code, 2);
    assert.match(badName.stderr, /hint: .*my_app/);
    assert.equal((await requestLog(sb.url)).length, before, "bad input sends no request");

    const none = await diazo(["da", "nickname", "-o", "json"], { env });
    assert.deepEqual(json(none), { nickname: "diazo-sandbox" });
    // The client id answered as the nickname is not one that creating app bundles accepts: say so.
    assert.match(none.stderr, /no nickname of its own.*needs one: set SVC_DA_NICKNAME=<name>/);
    const nick = await diazo(["da", "nickname", "Diazo_E2E", "-o", "json"], { env });
    assert.equal(nick.code, 0, nick.stderr);
    assert.deepEqual(json(nick), { nickname: "Diazo_E2E" });
    assert.match(nick.stderr, /needs this nickname configured too: set SVC_DA_NICKNAME=Diazo_E2E/);

    const create = [
      "da",
      "appbundle",
      "create",
      "--id",
      "Extract",
      "--engine",
      "Autodesk.AutoCAD+24",
      "-o",
      "json",
    ];
    const nickEnv = { ...env, SVC_DA_NICKNAME: "Diazo_E2E" };
    const created = await diazo(create, { env: nickEnv });
    assert.equal(created.code, 0, created.stderr);
    const bundle = json<{ id: string; version: number; uploadParameters: { formData: { key: string } } }>(
      created,
    );
    assert.equal(bundle.id, "Diazo_E2E.Extract");
    assert.equal(bundle.uploadParameters.formData.key, "apps/Diazo_E2E/Extract/1");
    assert.match(created.stderr, /Created app bundle Diazo_E2E\.Extract version 1/);
    const again = await diazo(create, { env: nickEnv });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(json<{ version: number }>(again).version, 2, "an existing bundle gets its next version");
    const bundles = json<IdRow[]>(await diazo(["da", "appbundle", "list", "-o", "json"], { env }));
    assert.deepEqual(bundles.map((b) => b.id), ["Diazo_E2E.Extract+$LATEST"]);
    const acts = json<IdRow[]>(await diazo(["da", "activity", "list", "-o", "json"], { env }));
    assert.ok(acts.some((a) => a.id === "AutoCAD.PlotToPDF+prod" && a.alias === "prod"));
  }));

Deno.test("admin: needs a user login (no request before), then projects, create -> pending -> listed, users", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, { DIAZO_NO_BROWSER: "1" });
    const account = seededAccountId();
    const noLogin = await diazo(["admin", "project", "list", "--account", `b.${account}`], { env });
    assert.equal(noLogin.code, 3);
    assert.match(
      noLogin.stderr,
      /^error: Authentication required \(3-legged OAuth\)\nhint: .*diazo auth login/,
    );
    assert.deepEqual(await requestLog(sb.url), [], "it failed before any request");
    const badAccount = await diazo(["admin", "user", "list", "--account", "b.my-account"], { env });
    assert.equal(badAccount.code, 2);
    assert.match(badAccount.stderr, /^error: 'b\.my-account' is not an ACC\/BIM 360 id\nhint: /);

    const login = await loginUser(env, "data:read,account:read,account:write");
    assert.equal(login.code, 0, login.stderr);

    type Project = { id: string; name: string; status: string; type: string };
    const list = () =>
      diazo(["admin", "project", "list", "--account", `b.${account}`, "-o", "json"], { env });
    const seeded = json<Project[]>(await list());
    assert.equal(seeded.length, 4);
    const riverside = seeded.find((p) => p.name === "Riverside Tower")!;
    assert.ok(riverside, "the DM hub's project is listed");
    const archived = json<Project[]>(
      await diazo(["admin", "project", "list", "--account", account, "--status", "archived", "-o", "json"], {
        env,
      }),
    );
    assert.deepEqual(archived.map((p) => p.name), ["Warehouse Retrofit"]);
    const badStatus = await diazo(["admin", "project", "list", "--account", account, "--status", "open"], {
      env,
    });
    assert.equal(badStatus.code, 2);

    const createArgs = [
      "admin",
      "project",
      "create",
      "--account",
      account,
      "--name",
      "E2E Depot",
      "--type",
      "Office",
    ];
    const created = await diazo([...createArgs, "-o", "json"], { env });
    assert.equal(created.code, 0, created.stderr);
    const project = json<Project>(created);
    assert.equal(project.status, "pending");
    assert.equal(project.name, "E2E Depot");
    const posts = (await requestLog(sb.url, `/construction/admin/v1/accounts/${account}/projects`))
      .filter((e) => e.method === "POST");
    assert.deepEqual(posts.map((e) => e.status), [202]);
    assert.ok(json<Project[]>(await list()).some((p) => p.id === project.id), "the new project is listed");
    const got = await diazo(["admin", "project", "get", project.id, "-o", "json"], { env });
    assert.equal(json<Project>(got).name, "E2E Depot");
    const dup = await diazo(createArgs, { env });
    // The platform answers a taken name 400 (it declares no 409 here): bad input, exit 2.
    assert.equal(dup.code, 2, dup.stderr);
    assert.match(dup.stderr, /already exists/);

    const waited = await diazo([
      "admin",
      "project",
      "create",
      "--account",
      account,
      "--name",
      "Waited",
      "--type",
      "Office",
      "--wait",
      "-o",
      "json",
    ], { env });
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(json<Project>(waited).status, "active", "--wait polls until provisioned");

    const unknown = await diazo(["admin", "project", "get", crypto.randomUUID()], { env });
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /^error: Project not found\n/);

    const members = await diazo(["admin", "project", "users", `b.${riverside.id}`, "-o", "json"], { env });
    assert.equal(members.code, 0, members.stderr);
    const rows = json<{ email: string; projectAdmin: boolean }[]>(members);
    assert.equal(rows.length, 7);
    assert.equal(rows.find((u) => u.email === "sandbox.user@diazo.invalid")?.projectAdmin, true);

    const users = await diazo(["admin", "user", "list", "--account", `b.${account}`, "-o", "json"], { env });
    assert.equal(users.code, 0, users.stderr);
    assert.equal(json<unknown[]>(users).length, 12);
    const hq = await requestLog(sb.url, `/hq/v1/accounts/${account}/users`);
    assert.equal((hq[0] as unknown as { query: Record<string, string> }).query.limit, "100");
    const few = await diazo(["admin", "user", "list", "--account", account, "--limit", "3", "-o", "csv"], {
      env,
    });
    assert.equal(few.stdout.trim().split(/\r?\n/).length, 4, "a header and three users");
    assert.match(few.stdout, /^id,name,email,role,status,company_name/);
  }));
