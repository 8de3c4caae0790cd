/**
 * The output layer in a real 100-column terminal (a tmux pane): `diazo object list` of long keys
 * prints a table whose keys are whole (an identifier is never cut: a column gives way instead, and
 * the table says which) and whose sizes read `KiB`/`MiB`, while `-o json` of the same list keeps
 * byte counts and full keys and URNs. Into a pipe `-o table` is tab-separated raw values.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { runCli } from "../../src/front/root.ts";
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
