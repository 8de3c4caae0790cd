/**
 * The output layer in a real 100-column terminal (a tmux pane): `diazo object list` of long keys
 * prints a table whose keys are whole (an identifier is never cut: a column gives way instead, and
 * the table says which) and whose sizes read `KiB`/`MiB`, while `-o json` of the same list keeps
 * byte counts and full keys and URNs. Into a pipe `-o table` is tab-separated raw values. At 80
 * columns `issue list` shows number, title and status rather than the issue's GUID, and
 * `item versions` keeps the version number.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { runCli } from "../../src/front/root.ts";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { openSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";
import type { Io } from "../../src/command/io.ts";
import { objectFixture } from "./object_helpers.ts";
import { cliLine, hasTmux, runInPane, shQuote } from "./tmux.ts";

const WIDTH = 100;

/** An Io that keeps what is written, for the set-up commands run in process. */
function quietIo(): Io & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (t) => void (out += t), isTerminal: false },
    stderr: { write: (t) => void (err += t), isTerminal: false },
    stdin: { isTerminal: false, readText: () => Promise.resolve(""), readLine: () => Promise.resolve(null) },
    out: () => out,
    err: () => err,
  };
}

async function run(argv: string[], env: Record<string, string>, cwd: string): Promise<string> {
  const io = quietIo();
  const code = await runCli(argv, io, env, cwd);
  assert.equal(code, 0, `diazo ${argv.join(" ")}: ${io.err()}`);
  return io.out();
}

const KEYS: [string, number][] = [
  ["projects/2026/tower-block-a/levels/level-03/structural/a-long-model-file-name-rev-12.ifc", 1536],
  ["projects/2026/tower-block-a/levels/level-04/architecture/another-long-model-name-7.rvt", 2_621_440],
  ["projects/2026/tower-block-b/site/survey/point-cloud-extract-with-a-longer-name.obj", 700],
];

/** The object fixture's sandbox, home and bucket, holding KEYS. */
async function bucketWithLongKeys() {
  const fx = await objectFixture("e2e-terminal-width");
  const env = { ...fx.env, DIAZO_NO_UPDATE_NOTIFIER: "1" };
  for (const [key, size] of KEYS) {
    const file = path.join(fx.home.cwd, `f${size}`);
    await Deno.writeFile(file, new Uint8Array(size).fill(7));
    await run(["object", "upload", fx.bucket, file, "--key", key, "-o", "json"], env, fx.home.cwd);
  }
  return { ...fx, env };
}

Deno.test({
  name:
    "a 100-column terminal: object list keeps keys whole, hides sha1 and says so; -o json keeps everything",
  ignore: !hasTmux,
  async fn() {
    const { home, env, bucket, close } = await bucketWithLongKeys();
    try {
      const jsonFile = path.join(home.dir, "list.json");
      const pane = await runInPane(WIDTH, env, home.cwd, home.dir, [
        cliLine(["object", "list", bucket]),
        'echo "table-exit=$?"',
        `${cliLine(["object", "list", bucket, "-o", "json"])} > ${shQuote(jsonFile)}`,
        'echo "json-exit=$?"',
      ]);
      assert.match(pane, /table-exit=0/, pane);
      assert.match(pane, /json-exit=0/, pane);

      const table = pane.slice(pane.indexOf("objectKey"), pane.indexOf("table-exit=")).trimEnd().split("\n");
      for (const line of table) {
        assert.ok(line.trimEnd().length <= WIDTH, `wider than ${WIDTH} columns (${line.length}): ${line}`);
      }
      const text = table.join("\n");
      for (const [key] of KEYS) assert.ok(text.includes(key), `${key} whole in:\n${text}`);
      assert.doesNotMatch(text, /…|│|├/);
      assert.match(text, /1\.5 KiB/);
      assert.match(text, /2\.5 MiB/);
      assert.match(text, /700 B/);
      assert.doesNotMatch(text, /2621440/);
      assert.match(text, /^1 column hidden \(sha1\): --wide shows all$/m);

      const listed = JSON.parse(await Deno.readTextFile(jsonFile)) as {
        objectKey: string;
        objectId: string;
        size: number;
        urn: string;
      }[];
      assert.deepEqual(listed.map((o) => [o.objectKey, o.size]).sort(), [...KEYS].sort());
      for (const o of listed) {
        assert.equal(o.objectId, `urn:adsk.objects:os.object:${bucket}/${o.objectKey}`);
        assert.equal(o.urn, btoa(o.objectId).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_"));
      }
    } finally {
      await close();
    }
  },
});

Deno.test("into a pipe, -o table is tab-separated raw values (COLUMNS changes nothing); a date shows once", async () => {
  const { home, env, bucket, close } = await bucketWithLongKeys();
  try {
    const narrow = await run(["object", "list", bucket, "-o", "table"], { ...env, COLUMNS: "60" }, home.cwd);
    const [head, ...rows] = narrow.trimEnd().split("\n");
    assert.deepEqual(head.split("\t"), ["objectKey", "size", "sha1"]);
    assert.deepEqual(
      rows.map((r) => r.split("\t").slice(0, 2)).sort(),
      KEYS.map(([k, s]) => [k, String(s)]).sort(),
    );
    assert.doesNotMatch(narrow, /…|─/, "nothing cut, no rule");

    const buckets = await run(["bucket", "list", "-o", "table"], env, home.cwd);
    assert.match(buckets, /^bucketKey\tpolicyKey\tregion\tcreatedDate$/m);
    assert.doesNotMatch(buckets, /createdAt/, "the computed helper is not a second column");
    const raw = JSON.parse(await run(["bucket", "list", "-o", "json"], env, home.cwd)) as {
      bucketKey: string;
      createdDate: number;
      createdAt: string;
    }[];
    const mine = raw.find((b) => b.bucketKey === bucket)!;
    assert.match(buckets, new RegExp(`^${bucket}\\ttransient\\tUS\\t${mine.createdDate}$`, "m"), "raw epoch");
    assert.equal(mine.createdAt, new Date(mine.createdDate).toISOString(), "and the helper beside it");
  } finally {
    await close();
  }
});

/** A GUID anywhere in a line. */
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

Deno.test({
  name:
    "an 80-column terminal: issue list shows number, title, status (not the GUID); item versions its number",
  ignore: !hasTmux,
  async fn() {
    const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1", DIAZO_NO_UPDATE_NOTIFIER: "1" });
    try {
      const login = await loginUser(h.env, "data:read");
      assert.equal(login.code, 0, login.stderr);
      const riverside = [...seedAccount().projects.values()][0].id;
      const list = async (args: string[]) =>
        JSON.parse(await run([...args, "-o", "json"], h.env, h.home.cwd));
      const hub = (await list(["hub", "list"]))[0].id;
      const project = (await list(["project", "list", hub])).find((p: { name: string }) =>
        p.name === "Riverside Tower"
      ).id;
      const top = await list(["folder", "list", project, "--hub", hub]);
      const files = await list([
        "folder",
        "list",
        project,
        top.find((f: { name: string }) => f.name === "Project Files").id,
      ]);
      const architecture = files.find((f: { name: string }) => f.name === "Architecture").id;
      const rvt = (await list(["folder", "list", project, architecture, "--type", "items"]))
        .find((f: { name: string }) => f.name.endsWith(".rvt")).id;
      const pane = await runInPane(80, h.env, h.home.cwd, h.home.dir, [
        cliLine(["issue", "list", "--project", riverside, "--limit", "4"]),
        'echo "issues-exit=$?"',
        cliLine(["item", "versions", project, rvt]),
        'echo "versions-exit=$?"',
      ]);
      assert.match(pane, /issues-exit=0/, pane);
      assert.match(pane, /versions-exit=0/, pane);
      const issues = pane.slice(pane.indexOf("displayId"), pane.indexOf("issues-exit=")).trimEnd().split(
        "\n",
      );
      for (const line of issues) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
      assert.match(issues[0], /^displayId +title +status +assignedTo +dueDate$/, issues.join("\n"));
      assert.ok(!issues.some((l) => GUID.test(l)), `no GUID at 80 columns:\n${issues.join("\n")}`);
      assert.match(issues[2], /^1 +Cracked slab/);
      assert.match(issues.at(-1)!, /^1 column hidden \(id\): --wide shows all$/);

      const versions = pane.slice(pane.indexOf("versionNumber"), pane.indexOf("versions-exit=")).trimEnd()
        .split("\n");
      for (const line of versions) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
      assert.deepEqual(
        versions.slice(2, 5).map((l) => l.split(/ +/)[0]),
        ["3", "2", "1"],
        versions.join("\n"),
      );
      assert.match(
        versions.at(-1)!,
        /^\d columns? hidden \(.*\bid\): --wide shows all$/,
        versions.join("\n"),
      );
    } finally {
      await h.close();
    }
  },
});
