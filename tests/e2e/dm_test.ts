/** e2e: the hub, project, folder and item commands against the sandbox's seeded data management. */
import assert from "node:assert/strict";
import { threeLeggedKey } from "../../src/auth/user_token.ts";
import { authorizationCode, exchangeCode } from "../sandbox/oauth_helpers.ts";
import { diazo, json, requestLog, SANDBOX_ID, withSandboxHome } from "./harness.ts";

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

/** Runs a command that must succeed with JSON output and returns the parsed value. */
async function ok<T = Row[]>(env: Record<string, string>, args: string[]): Promise<T> {
  const r = await diazo([...args, "-o", "json"], { env });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  return json<T>(r);
}

/** Hub, project and the ids of its "Sheets" folder (450 drawings), found through the CLI itself. */
async function sheets(env: Record<string, string>) {
  const hub = (await ok(env, ["hub", "list"]))[0].id as string;
  const projects = await ok(env, ["project", "list", hub]);
  const project = projects.find((p) => p.name === "Riverside Tower")!.id as string;
  const top = await ok(env, ["folder", "list", project, "--hub", hub]);
  const projectFiles = top.find((f) => f.name === "Project Files")!.id as string;
  const contents = await ok(env, ["folder", "list", project, projectFiles]);
  return {
    hub,
    project,
    projectFiles,
    contents,
    sheets: contents.find((f) => f.name === "Sheets")!.id as string,
  };
}

Deno.test("dm e2e: folder list follows every page (several page requests), --limit stops early", async () => {
  await withSandboxHome(async ({ sb, env }) => {
    const { project, sheets: folder, contents } = await sheets(env);
    assert.deepEqual(contents.map((c) => c.type).sort(), ["folders", "folders", "folders", "items"]);
    const contentsPath = `/data/v1/projects/${project}/folders/${encodeURIComponent(folder)}/contents`;

    const all = await ok(env, ["folder", "list", project, folder]);
    assert.equal(all.length, 450);
    assert.equal(new Set(all.map((r) => r.id)).size, 450);
    // The platform's fields pass through; helpers sit beside them.
    assert.equal(all[0].type, "items");
    assert.equal(all[0].attributes.displayName, "A-001.dwg");
    assert.equal(all[0].name, "A-001.dwg");
    assert.equal(all[0].versionNumber, 1);
    assert.equal(typeof all[0].size, "number");
    assert.equal(all[449].name, "A-450.dwg");
    const pages = (await requestLog(sb.url, contentsPath)).map((e) =>
      (e as Row).query["page[number]"] ?? "0"
    );
    assert.deepEqual(pages, ["0", "1", "2"], "three page requests at the default page size");

    const limited = await ok(env, ["folder", "list", project, folder, "--limit", "250"]);
    assert.deepEqual(limited.map((r) => r.name), all.slice(0, 250).map((r) => r.name));
    const after = (await requestLog(sb.url, contentsPath)).slice(3);
    assert.equal(after.length, 2, "250 results need two pages, not three");

    const items = await ok(env, ["folder", "list", project, folder, "--type", "folders"]);
    assert.deepEqual(items, []);

    // A human table on request.
    const table = await diazo(["folder", "list", project, folder, "--limit", "3", "-o", "table"], { env });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /A-003\.dwg/);
    assert.match(table.stdout, /versionNumber/);
    assert.doesNotMatch(table.stdout, /A-004\.dwg/);
  });
});

Deno.test("dm e2e: hub/project/folder/item get and item versions", async () => {
  await withSandboxHome(async ({ env }) => {
    const { hub, project, contents } = await sheets(env);
    const hubRow = await ok<Row>(env, ["hub", "get", hub]);
    assert.equal(hubRow.id, hub);
    assert.equal(hubRow.region, "US");
    // An ACC account id (the bare GUID) names the same hub.
    assert.equal((await ok<Row>(env, ["hub", "get", hub.slice(2)])).id, hub);
    const projectRow = await ok<Row>(env, ["project", "get", hub, project.slice(2)]);
    assert.equal(projectRow.id, project);
    assert.equal(projectRow.projectType, "ACC");

    const architecture = contents.find((c) => c.name === "Architecture")!.id;
    const folderRow = await ok<Row>(env, ["folder", "get", project, architecture]);
    assert.equal(folderRow.attributes.name, "Architecture");
    const files = await ok(env, ["folder", "list", project, architecture, "--type", "items"]);
    const rvt = files.find((f) => f.name.endsWith(".rvt"))!;
    assert.equal(rvt.versionNumber, 3, "the tip version's number");

    const item = await ok<Row>(env, ["item", "get", project, rvt.id]);
    assert.equal(item.id, rvt.id);
    assert.equal(item.tip.attributes.versionNumber, 3);
    const versions = await ok(env, ["item", "versions", project, rvt.id]);
    assert.deepEqual(versions.map((v) => v.versionNumber), [3, 2, 1]);
    assert.equal(versions[0].id, item.tip.id);
    const newest = await ok(env, ["item", "versions", project, rvt.id, "--limit", "1"]);
    assert.deepEqual(newest.map((v) => v.id), [item.tip.id]);
  });
});

Deno.test("dm e2e: bad ids are usage errors before any request; unknown ids exit 4 with a hint", async () => {
  await withSandboxHome(async ({ sb, env }) => {
    const { hub, project } = await sheets(env);
    const before = (await requestLog(sb.url)).length;
    const bad = await diazo(["project", "list", "b.my-hub"], { env });
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, "");
    assert.match(bad.stderr, /^error: invalid hub id 'b\.my-hub'\nhint: A hub id looks like b\./);
    const badItem = await diazo(["item", "versions", project, "Tower.rvt"], { env });
    assert.equal(badItem.code, 2);
    assert.match(badItem.stderr, /hint: An item id looks like urn:adsk\.wipprod:dm\.lineage:/);
    const noHub = await diazo(["folder", "list", project], { env });
    assert.equal(noHub.code, 2);
    assert.match(noHub.stderr, /needs --hub <hub>/);
    assert.equal((await requestLog(sb.url)).length, before, "no request for malformed input");
    const named = await diazo(["project", "list", "my-hub"], { env });
    assert.equal(named.code, 2, "a name no hub has is a usage error");
    assert.match(named.stderr, /^error: no hub named 'my-hub'\nhint: .*`diazo hub list`/m);

    const unknown = "b.00000000-0000-4000-8000-000000000000";
    const missing = await diazo(["project", "get", hub, unknown], { env });
    assert.equal(missing.code, 4, missing.stderr);
    assert.equal(missing.stdout, "");
    assert.match(
      missing.stderr,
      new RegExp(`^error: Not found: project ${unknown.replace(".", "\\.")} in hub`, "m"),
    );
    assert.match(missing.stderr, new RegExp(`\nhint: List the projects with \`diazo project list ${hub}\``));
    const top = await diazo(["folder", "list", unknown, "--hub", hub, "-o", "json"], { env });
    assert.equal(top.code, 4);
    const err = JSON.parse(top.stderr.split("\n").find((l) => l.startsWith("{"))!).error;
    assert.equal(err.code, "dm_not_found");
    assert.equal(err.status, 404);
    assert.match(err.hint, /b\. prefix/);
  });
});

Deno.test("dm e2e: the personal hub needs a user's login; with one, commands act as the user", async () => {
  await withSandboxHome(async ({ sb, home, env }) => {
    const auto = await diazo(["hub", "list", "-o", "json"], { env });
    assert.equal(auto.code, 0, auto.stderr);
    const appHubs = json<Row[]>(auto);
    assert.deepEqual(appHubs.map((h) => h.id.slice(0, 2)), ["b.", "b."], "the ACC and the BIM 360 account");
    assert.match(
      auto.stderr,
      /^warning: no user login: acting as the app, which sees only the hubs and projects it was provisioned for/m,
      "without a user login, stderr says the command acts as the app",
    );
    const quiet = await diazo(["hub", "list", "--as", "app", "-o", "json"], { env });
    assert.equal(quiet.stderr, "", "--as app says nothing");
    const asUser = await diazo(["hub", "list", "--as", "user"], { env });
    assert.equal(asUser.code, 3);
    assert.match(
      asUser.stderr,
      /^error: Authentication required \(3-legged OAuth\)\nhint: .*diazo auth login/,
    );

    // A 3-legged login of the profile, stored as `diazo auth login` stores it.
    const { code, verifier } = await authorizationCode(sb, "data:read");
    const exchanged = await exchangeCode(sb, code, verifier);
    assert.equal(exchanged.status, 200);
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      `${home.configDir}/tokens.json`,
      JSON.stringify({
        [threeLeggedKey("default", SANDBOX_ID, sb.url)]: {
          access_token: exchanged.json.access_token,
          refresh_token: exchanged.json.refresh_token,
          expires_at: Date.now() + 3_000_000,
          scopes: ["data:read"],
          mode: "3-legged",
          client_id: SANDBOX_ID,
          base_url: sb.url,
          profile: "default",
        },
      }),
      { mode: 0o600 },
    );
    const userHubs = await ok(env, ["hub", "list"]);
    assert.deepEqual(userHubs.map((h) => h.id.slice(0, 2)).sort(), ["a.", "b.", "b."]);
    const personal = userHubs.find((h) => h.id.startsWith("a."))!;
    assert.equal(personal.hubType, "PersonalHub");
    const projects = await ok(env, ["project", "list", personal.id]);
    assert.equal(projects[0].projectType, "personal");
    // --as app forces the app's token: the personal hub is out of reach again.
    assert.deepEqual((await ok(env, ["hub", "list", "--as", "app"])).map((h) => h.id.slice(0, 2)), [
      "b.",
      "b.",
    ]);
    const denied = await diazo(["project", "list", personal.id, "--as", "app"], { env });
    assert.equal(denied.code, 3);
    assert.match(denied.stderr, /Authentication required \(3-legged OAuth\)/);
  });
});
