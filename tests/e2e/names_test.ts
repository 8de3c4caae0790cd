/**
 * Hubs and projects by name, and the default hub and project (src/front/names.ts, README.md "Hubs and
 * projects by name"): `config set project`, DIAZO_PROJECT, `--project <name or prefix>`, an
 * ambiguous prefix and an unknown name, through runCli against a sandbox on port 0.
 */
import assert from "node:assert/strict";
import { assertOneError, json, openSandboxHome, requestLog, type SandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";
import { seedAccount, seededAccountId } from "../../src/sandbox/admin/store.ts";

const RIVERSIDE = [...seedAccount().projects.values()].find((p) => p.name === "Riverside Tower")!.id;
const HARBOR = [...seedAccount().projects.values()].find((p) => p.name === "Harbor Bridge")!.id;
const ACCOUNT = seededAccountId();

type Issue = { id: string; containerId?: string; projectId?: string };

let shared: Promise<SandboxHome> | undefined;
/** One sandbox for the file, logged in as the sandbox user. */
function sandbox(): Promise<SandboxHome> {
  return shared ??= (async () => {
    const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
    const login = await loginUser(h.env, "data:read,data:write,data:create,account:read,account:write");
    assert.equal(login.code, 0, login.stderr);
    return h;
  })();
}

/** The ids of the first issues `args` lists (json). */
async function issueIds(h: SandboxHome, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const r = await h.run(["issue", "list", "--limit", "5", "-o", "json", ...args], {
    env: { ...h.env, ...env },
  });
  assert.equal(r.code, 0, r.stderr);
  return json<Issue[]>(r).map((i) => i.id);
}

/** The lookups a run sent: its hub and project listings. */
async function listings(h: SandboxHome, since: number) {
  const all = await requestLog(h.sb.url, "/project/v1/hubs");
  return all.slice(since).map((e) => e.path);
}

Deno.test("names: config set project by name, --project by prefix, DIAZO_PROJECT, flag over env over profile", async () => {
  const h = await sandbox();
  const riverside = await issueIds(h, ["--project", RIVERSIDE]);
  const harbor = await issueIds(h, ["--project", HARBOR]);
  assert.notDeepEqual(riverside, harbor, "the two projects have different issues");

  const set = await h.run(["config", "set", "project", "Riverside Tower"]);
  assert.equal(set.code, 0, set.stderr);
  const before = (await requestLog(h.sb.url, "/project/v1/hubs")).length;
  assert.deepEqual(await issueIds(h, []), riverside, "no --project: the configured project");
  const looked = await listings(h, before);
  assert.equal(looked.filter((p) => p === "/project/v1/hubs").length, 1, `one hubs listing: ${looked}`);
  assert.equal(new Set(looked).size, looked.length, `each hub listed once: ${looked}`);

  assert.deepEqual(await issueIds(h, ["--project", "riverside"]), riverside, "a unique prefix, any case");
  assert.deepEqual(
    await issueIds(h, ["--project", "HARBOR BRIDGE"]),
    harbor,
    "an exact name beats a longer one",
  );
  assert.deepEqual(
    await issueIds(h, [], { DIAZO_PROJECT: "Harbor Bridge" }),
    harbor,
    "DIAZO_PROJECT wins over the profile",
  );
  assert.deepEqual(
    await issueIds(h, ["--project", RIVERSIDE], { DIAZO_PROJECT: "no such project" }),
    riverside,
    "the flag wins over both (and an id needs no lookup)",
  );

  const list = json<{ key: string; value: string | null; source: string }[]>(
    await h.run(["config", "list", "-o", "json"], { env: { ...h.env, DIAZO_HUB: `b.${ACCOUNT}` } }),
  );
  assert.deepEqual(list.find((e) => e.key === "project"), {
    key: "project",
    value: "Riverside Tower",
    source: "profile default",
  });
  assert.deepEqual(list.find((e) => e.key === "hub"), {
    key: "hub",
    value: `b.${ACCOUNT}`,
    source: "DIAZO_HUB",
  });
  const text = await h.run(["config", "list", "-o", "table"]);
  assert.match(text.stdout, /project\s+Riverside Tower\s+profile default/);

  const status = json<{ project: string | null; project_source: string; hub: string | null }>(
    await h.run(["auth", "status", "-o", "json"]),
  );
  assert.equal(status.project, "Riverside Tower");
  assert.equal(status.project_source, "profile");
  assert.equal(status.hub, null);
  const summary = await h.run(["auth", "status"], { env: { ...h.env, DIAZO_PROJECT: "Harbor Bridge" } });
  assert.match(
    summary.stderr + summary.stdout,
    /Project: +Harbor Bridge \(default of --project; DIAZO_PROJECT\)/,
  );

  const got = await h.run(["config", "get", "project", "-o", "json"]);
  assert.equal(json<{ value: string }>(got).value, "Riverside Tower");
  const unset = await h.run(["config", "unset", "project"]);
  assert.equal(unset.code, 0, unset.stderr);
  assertOneError(
    await h.run(["issue", "list"]),
    2,
    /required option '--project <id>' not specified/,
    /diazo config set project/,
  );
});

Deno.test("names: an ambiguous prefix lists the candidates, an unknown name says what it may be (exit 2)", async () => {
  const h = await sandbox();
  const made = await h.run([
    "admin",
    "project",
    "create",
    "--account",
    "Diazo Sandbox",
    "--name",
    "Riverside Annex",
    "--type",
    "Office",
    "-o",
    "json",
  ]);
  assert.equal(made.code, 0, made.stderr);
  const annex = json<{ id: string }>(made).id;

  const many = await h.run(["issue", "list", "--project", "riverside"]);
  assertOneError(many, 2, /--project 'riverside' matches 2 projects: /, /diazo dm projects/);
  assert.match(many.stderr, new RegExp(`Riverside Tower \\(b\\.${RIVERSIDE}\\)`));
  assert.match(many.stderr, new RegExp(`Riverside Annex \\(b\\.${annex}\\)`));
  const tower = await h.run(["issue", "list", "--project", "riverside t", "--limit", "1", "-o", "json"]);
  assert.equal(tower.code, 0, tower.stderr);

  const typo = await h.run(["issue", "list", "--project", "Rivreside Tower"]);
  assertOneError(typo, 2, /^error: no project named 'Rivreside Tower'$/, /Did you mean 'Riverside Tower'\?/);
  const inHub = await h.run(["folder", "list", "Rivreside", "--hub", "diazo sandbox acc"]);
  assertOneError(
    inHub,
    2,
    new RegExp(`no project named 'Rivreside' in hub b\\.${ACCOUNT}`),
    /diazo project list b\./,
  );

  const hub = await h.run(["project", "list", "diazo"]);
  assertOneError(hub, 2, /<hub> 'diazo' matches 2 hubs: /, /diazo hub list/);
  const byHub = json<{ name: string }[]>(
    await h.run(["project", "list", "Diazo Sandbox Account", "-o", "json"]),
  );
  assert.ok(byHub.some((p) => p.name === "Riverside Annex"));

  const badId = await h.run(["issue", "list", "--project", "b.not-a-guid"]);
  assertOneError(badId, 2, /'b\.not-a-guid' is not an ACC\/BIM 360 id/, /`diazo project list <hub>`/);
});

Deno.test("names: the sandbox closes", async () => {
  if (shared) await (await shared).close();
});
