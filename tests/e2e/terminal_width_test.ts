/**
 * Issue 12's must-show for the output layer: in a real 100-column terminal (a tmux pane), `diazo
 * object list` of long keys prints a table whose every line fits and whose sizes read `KiB`/`MiB`,
 * while `-o json` of the same list keeps byte counts and full keys and URNs. The CLI is spawned
 * inside tmux because only a real terminal gives it a width; skipped (with a message) without tmux.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { runCli } from "../../src/cli/root.ts";
import type { Io } from "../../src/cli/io.ts";
import { cliCommand } from "./harness.ts";
import { objectFixture } from "./object_helpers.ts";

const WIDTH = 100;

const hasTmux = await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).output()
  .then((r) => r.success, () => false);
if (!hasTmux) {
  console.warn("skipping the tmux terminal-width test: tmux is not installed (apt-get install -y tmux)");
}

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

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const r = await new Deno.Command("tmux", {
    args: ["-L", socket, "-f", "/dev/null", ...args],
    stderr: "piped",
  })
    .output();
  assert.ok(r.success, `tmux ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
  return new TextDecoder().decode(r.stdout);
}

/** The pane's text with wrapped lines joined, once `marker` shows (or after `ms`). */
async function waitFor(socket: string, marker: RegExp, ms = 60_000): Promise<string> {
  const end = Date.now() + ms;
  while (true) {
    const text = await tmux(socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "width");
    if (marker.test(text) || Date.now() > end) return text;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const KEYS: [string, number][] = [
  ["projects/2026/tower-block-a/levels/level-03/structural/a-very-long-model-file-name-rev-12.ifc", 1536],
  ["projects/2026/tower-block-a/levels/level-04/architecture/another-long-model-name-rev-7.rvt", 2_621_440],
  ["projects/2026/tower-block-b/site/survey/point-cloud-extract-with-an-even-longer-name.obj", 700],
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
  name: "a 100-column terminal: object list fits with readable sizes; -o json keeps bytes, keys and URNs",
  ignore: !hasTmux,
  async fn() {
    const { home, env, bucket, close } = await bucketWithLongKeys();
    const socket = `diazo-width-${Deno.pid}-${Date.now()}`;
    try {
      // The pane's shell runs one script: the exact environment, no COLUMNS (the width comes from the terminal).
      const jsonFile = path.join(home.dir, "list.json");
      const cli = (args: string[]) => [Deno.execPath(), ...cliCommand(args)].map(shQuote).join(" ");
      const script = path.join(home.dir, "list.sh");
      await Deno.writeTextFile(
        script,
        [
          "unset COLUMNS LINES",
          ...Object.entries(env).map(([k, v]) => `export ${k}=${shQuote(v)}`),
          `cd ${shQuote(home.cwd)}`,
          cli(["object", "list", bucket]),
          'echo "table-exit=$?"',
          `${cli(["object", "list", bucket, "-o", "json"])} > ${shQuote(jsonFile)}`,
          'echo "json-exit=$?"',
        ].join("\n") + "\n",
      );
      await tmux(socket, "new-session", "-d", "-x", String(WIDTH), "-y", "50", "-s", "width", "sh");
      await tmux(socket, "send-keys", "-t", "width", `sh ${shQuote(script)}`, "Enter");
      const pane = await waitFor(socket, /json-exit=\d+/);
      assert.match(pane, /table-exit=0/, pane);
      assert.match(pane, /json-exit=0/, pane);

      const table = pane.slice(pane.indexOf("┌"), pane.indexOf("table-exit=")).trimEnd().split("\n");
      assert.ok(table.length >= 2 * KEYS.length + 3, `a table in:\n${pane}`);
      for (const line of table) {
        assert.ok(line.trimEnd().length <= WIDTH, `wider than ${WIDTH} columns (${line.length}): ${line}`);
      }
      const text = table.join("\n");
      assert.match(text, /objectKey/);
      assert.match(text, /…/, "the long keys are cut");
      assert.match(text, /1\.5 KiB/);
      assert.match(text, /2\.5 MiB/);
      assert.match(text, /700 B/);
      assert.doesNotMatch(text, /2621440/);

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
      await tmux(socket, "kill-server").catch(() => {});
      await close();
    }
  },
});

Deno.test("without a terminal, COLUMNS fits a requested table; a bucket's date shows once, readable", async () => {
  const { home, env, bucket, close } = await bucketWithLongKeys();
  try {
    const narrow = await run(["object", "list", bucket, "-o", "table"], { ...env, COLUMNS: "60" }, home.cwd);
    for (const line of narrow.trimEnd().split("\n")) assert.ok(line.length <= 60, `wider than 60: ${line}`);
    assert.match(narrow, /2\.5 MiB/);
    const unfitted = await run(["object", "list", bucket, "-o", "table"], env, home.cwd);
    assert.ok(unfitted.split("\n").some((l) => l.length > 100), "no width known: not fitted");

    const buckets = await run(["bucket", "list", "-o", "table"], env, home.cwd);
    assert.match(buckets, /createdDate/);
    assert.doesNotMatch(buckets, /createdAt/, "the computed helper is not a second column");
    assert.match(buckets, /just now|seconds? ago/);
    const raw = JSON.parse(await run(["bucket", "list", "-o", "json"], env, home.cwd)) as {
      bucketKey: string;
      createdDate: number;
      createdAt: string;
    }[];
    const mine = raw.find((b) => b.bucketKey === bucket)!;
    assert.equal(typeof mine.createdDate, "number", "json keeps the platform's epoch");
    assert.equal(mine.createdAt, new Date(mine.createdDate).toISOString(), "and the helper beside it");
  } finally {
    await close();
  }
});
