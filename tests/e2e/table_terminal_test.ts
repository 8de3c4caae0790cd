/**
 * Tables as a person sees them in real terminals of 80 and 120 columns (tmux panes): `folder
 * list`, `webhook list`, `issue list`, `bucket list` and `object list` show every identifier whole,
 * no row separators, and a footer naming the columns a narrow terminal hid; `translate manifest`
 * shows its derivatives as lines and a small table, never JSON.
 */
import assert from "node:assert/strict";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { json, type RunResult } from "./harness.ts";
import { CUBE_OBJ, mdFixture } from "./md_helpers.ts";
import { cliLine, hasTmux, runInPane } from "./tmux.ts";
import { loginUser } from "./user_login.ts";

const RIVERSIDE = [...seedAccount().projects.values()][0].id;
const BUCKET = "e2e-table-terminal-with-a-rather-long-bucket-name";
const KEYS = [
  "projects/2026/tower-block-a/levels/level-03/structural/model-name-rev-12.ifc",
  "projects/2026/tower-block-b/site/survey/point-cloud-extract.obj",
];

/** What each command lists: the columns it draws and the identifiers that must show whole. */
interface Listing {
  name: string;
  args: string[];
  columns: string[];
  ids: string[];
}

function ok(r: RunResult): RunResult {
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** The pane's text split at the `== name` lines the script prints. */
function sections(pane: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of pane.split("\n")) {
    // The shell may print its prompt after the first echo began (keys typed before the prompt).
    const head = /(?:^|\s)== (\w+)$/.exec(line);
    if (head) out.set(head[1], current = []);
    else if (/^done=\d+/.test(line)) current = undefined;
    else current?.push(line.trimEnd());
  }
  return out;
}

/** Checks one listing's lines at `width`; true when the terminal hid columns. */
function checkListing(l: Listing, lines: string[], width: number): boolean {
  const text = lines.join("\n");
  const at = `${l.name} at ${width} columns:\n${text}`;
  assert.doesNotMatch(text, /[│├┼┤┌└]/, `no borders or row separators: ${at}`);
  assert.doesNotMatch(text, /^(error|warning):/m, at);
  for (const line of lines) assert.ok(line.length <= width, `wider than ${width}: ${at}`);
  const head = lines.find((x) => l.columns.some((c) => x.split(/ {2,}/).includes(c)));
  assert.ok(head, `a header: ${at}`);
  const shown = head.split(/ {2,}/);
  const footer = lines.map((x) => /^(\d+) columns? hidden \((.*)\): --wide shows all$/.exec(x)).find(Boolean);
  const hidden = footer ? footer[2].split(", ") : [];
  assert.deepEqual([...shown, ...hidden].sort(), [...l.columns].sort(), `shown or named hidden: ${at}`);
  if (footer) assert.equal(Number(footer[1]), hidden.length);
  for (const id of l.ids) assert.ok(text.includes(id), `${id} whole: ${at}`);
  return hidden.length > 0;
}

Deno.test({
  name:
    "80 and 120 columns: lists keep every id whole, no row separators, hidden columns named; a manifest without JSON",
  ignore: !hasTmux,
  async fn() {
    const fx = await mdFixture({ bucket: BUCKET });
    try {
      const env = { ...fx.env, DIAZO_NO_UPDATE_NOTIFIER: "1" };
      const run = (args: string[]) => fx.run(args, { env });
      for (const key of KEYS) await fx.upload(key, CUBE_OBJ);
      const { urn } = await fx.upload("house.obj", CUBE_OBJ);
      ok(await run(["translate", "start", urn, "--wait", "-o", "json"]));
      const hub = json<{ id: string }[]>(ok(await run(["hub", "list", "--as", "app", "-o", "json"])))[0].id;
      const top = json<{ id: string }[]>(
        ok(await run(["folder", "list", `b.${RIVERSIDE}`, "--hub", hub, "--as", "app", "-o", "json"])),
      );
      const folder = top[0].id;
      const contents = json<{ id: string }[]>(
        ok(await run(["folder", "list", `b.${RIVERSIDE}`, folder, "--as", "app", "-o", "json"])),
      );
      const hook = ["webhook", "create", "--url", "https://hooks.example.com/diazo/receiver", "--event"];
      ok(await run([...hook, "dm.version.added", "--scope", `folder=${folder}`]));
      ok(await loginUser(env, "data:read,data:write,data:create"));
      const hooks = json<{ hookId: string }[]>(ok(await run(["webhook", "list", "-o", "json"])));
      const issues = json<{ id: string; displayId: number }[]>(
        ok(await run(["issue", "list", "--project", RIVERSIDE, "-o", "json"])),
      );
      assert.ok(contents.length > 0 && hooks.length > 0 && issues.length > 0);

      const listings: Listing[] = [
        {
          name: "folder",
          args: ["folder", "list", `b.${RIVERSIDE}`, folder, "--as", "app"],
          columns: ["type", "name", "id", "lastModified", "versionNumber", "size"],
          ids: contents.map((c) => c.id),
        },
        {
          name: "webhook",
          args: ["webhook", "list"],
          columns: ["hookId", "system", "event", "status", "callbackUrl", "scopeText", "createdDate"],
          ids: hooks.map((h) => h.hookId),
        },
        {
          name: "issue",
          args: ["issue", "list", "--project", RIVERSIDE],
          columns: ["displayId", "id", "title", "status", "assignedTo", "dueDate"],
          // Issues are addressed by number: the number is the id kept whole (the GUID gives way first).
          ids: issues.map((i) => ` ${i.displayId} `.trim()),
        },
        {
          name: "bucket",
          args: ["bucket", "list"],
          columns: ["bucketKey", "policyKey", "region", "createdDate"],
          ids: [BUCKET],
        },
        {
          name: "object",
          args: ["object", "list", BUCKET],
          columns: ["objectKey", "size", "sha1"],
          ids: KEYS,
        },
      ];
      const script = [
        ...listings.map((l) => `echo "== ${l.name}"; ${cliLine(l.args)}`),
        `echo "== manifest"; ${cliLine(["translate", "manifest", urn])}`,
      ];
      for (const width of [80, 120]) {
        const raw = await runInPane(width, env, fx.home.cwd, fx.home.dir, script);
        const pane = sections(raw);
        assert.deepEqual([...pane.keys()], [...listings.map((l) => l.name), "manifest"], raw);
        const hid = listings.map((l) => checkListing(l, pane.get(l.name) ?? [], width));
        if (width === 80) {
          assert.ok(hid[0] && hid[1] && hid[2], "at 80 columns the wide lists hide columns and say so");
        }
        const manifest = (pane.get("manifest") ?? []).join("\n");
        assert.match(manifest, /^status +success$/m, manifest);
        assert.match(manifest, /^derivatives$/m, manifest);
        assert.match(manifest, /^ {2}house\.obj +.*svf2/m, manifest);
        assert.doesNotMatch(manifest, /[{}"]/, `no JSON in the manifest:\n${manifest}`);
      }
    } finally {
      await fx.close();
    }
  },
});
