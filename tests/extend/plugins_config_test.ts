import assert from "node:assert/strict";
import path from "node:path";
import { DiazoError } from "../../src/core/errors.ts";
import {
  editPluginsFile,
  jsonErrorOffset,
  lineColumn,
  loadPluginsFile,
  parsePluginsFile,
  removeAlias,
  setAlias,
  setPluginEnabled,
} from "../../src/extend/plugins_config.ts";

const FILE = "/cfg/plugins.json";

function parseError(text: string): DiazoError {
  try {
    parsePluginsFile(text, FILE);
  } catch (e) {
    assert.ok(e instanceof DiazoError);
    return e;
  }
  throw new Error(`parsed: ${text}`);
}

Deno.test("parsePluginsFile: the seed format; enabled defaults to true; sections are optional", () => {
  const { config } = parsePluginsFile(
    JSON.stringify({
      plugins: { hello: { description: "says hello" }, off: { enabled: false, path: "bin/off" } },
      hooks: { pre_upload: ["echo a", "echo b"] },
      aliases: { lsb: "bucket list" },
    }),
    FILE,
  );
  assert.deepEqual(config, {
    plugins: {
      hello: { enabled: true, description: "says hello" },
      off: { enabled: false, path: "bin/off" },
    },
    hooks: { pre_upload: ["echo a", "echo b"] },
    aliases: { lsb: "bucket list" },
  });
  assert.deepEqual(parsePluginsFile("{}", FILE).config, { plugins: {}, hooks: {}, aliases: {} });
  assert.deepEqual(parsePluginsFile("  \n", FILE).config, { plugins: {}, hooks: {}, aliases: {} });
});

Deno.test("parsePluginsFile: malformed JSON names the file and line:column of the mistake", () => {
  const cases: [string, string][] = [
    ['{\n  "aliases": {\n    "a" "b"\n  }\n}', ":3:9"], // missing colon
    ['{\n  "hooks": {\n    "pre_upload": [tru]\n  }\n}', ":3:20"], // bad literal (no position from V8)
    ['{\n  "aliases": { "a": "b", }\n}', ":2:26"], // trailing comma
    ['{\n  "aliases": {}\n', ":3:1"], // ended early
    ['{"aliases": {}}\n}', ":2:1"], // extra text
  ];
  for (const [text, at] of cases) {
    const e = parseError(text);
    assert.equal(e.code, "invalid_plugins_file");
    assert.equal(e.exitCode, 2);
    assert.ok(
      e.message.startsWith(`Invalid plugins file ${FILE}${at}: not valid JSON`),
      `${e.message} (want ${at})`,
    );
    assert.match(e.hint, /Fix it by hand/);
  }
});

Deno.test("jsonErrorOffset agrees with V8 where V8 gives a position, and is -1 for valid JSON", () => {
  const texts = [
    '{"a" 1}',
    '{"a": 1.}',
    '{"a": 2e}',
    '{"a": "\\q"}',
    '{"a": [1, 2,, 3]}',
    "[1, 2] 3",
    '{"a": "x\ny"}',
    '{"a": -}',
    '{"a": 01}',
  ];
  let compared = 0;
  for (const text of texts) {
    let message = "";
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    const m = /\(line (\d+) column (\d+)\)/.exec(message);
    if (!m) continue;
    compared++;
    const at = lineColumn(text, jsonErrorOffset(text));
    assert.deepEqual([at.line, at.column], [Number(m[1]), Number(m[2])], text);
  }
  assert.ok(compared >= 6, `compared ${compared} of ${texts.length}`);
  for (const ok of ['{"a": [1, -2.5e3, true, false, null, "q\\"u"]}', "[]", '"x"', " 0 "]) {
    assert.equal(jsonErrorOffset(ok), -1, ok);
  }
});

Deno.test("parsePluginsFile: a hook that is not an array of strings is an error naming the hook and its line", () => {
  const e = parseError('{\n  "hooks": {\n    "pre_upload": ["ok"],\n    "post_upload": "echo done"\n  }\n}');
  assert.match(e.message, /plugins\.json:4:5: hook post_upload must be an array of shell command strings/);
  assert.match(parseError('{"hooks": {"pre_x": ["a", 3]}}').message, /hook pre_x must be an array/);
  assert.match(parseError('{"hooks": []}').message, /hooks must be an object/);
});

Deno.test("parsePluginsFile: wrong types of aliases and plugin fields are named", () => {
  assert.match(parseError('{"aliases": {"up": ["object", "upload"]}}').message, /alias up must be a string/);
  assert.match(
    parseError('{"plugins": {"x": {"enabled": "no"}}}').message,
    /plugins\.x\.enabled must be true or false/,
  );
  assert.match(parseError('{"plugins": {"x": {"path": 3}}}').message, /plugins\.x\.path must be a string/);
  assert.match(parseError('{"plugins": {"x": true}}').message, /plugins\.x must be an object/);
  assert.match(parseError("[1]").message, /expected a JSON object/);
});

Deno.test("editPluginsFile: changes only what it touches, keeps every other key, writes valid JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "plugins.json");
    const original = {
      $comment: "kept",
      plugins: { hello: { path: "bin/diazo-hello", description: "greets" }, other: { enabled: true } },
      hooks: { pre_upload: ["echo pre"] },
      aliases: { lsb: "bucket list" },
    };
    await Deno.writeTextFile(file, JSON.stringify(original));
    await editPluginsFile(dir, (raw) => setPluginEnabled(raw, "hello", false));
    await editPluginsFile(dir, (raw) => setAlias(raw, "up", "object upload $1"));
    const removed = await editPluginsFile(dir, (raw) => removeAlias(raw, "lsb"));
    assert.equal(removed, true);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), {
      $comment: "kept",
      plugins: {
        hello: { path: "bin/diazo-hello", description: "greets", enabled: false },
        other: { enabled: true },
      },
      hooks: { pre_upload: ["echo pre"] },
      aliases: { up: "object upload $1" },
    });
    const loaded = await loadPluginsFile(dir);
    assert.equal(loaded.exists, true);
    assert.equal(loaded.config.plugins.hello.enabled, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("editPluginsFile: creates a missing file; never overwrites a malformed one; an edit that throws writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "plugins.json");
    assert.equal((await loadPluginsFile(dir)).exists, false);
    await editPluginsFile(dir, (raw) => setPluginEnabled(raw, "x", false));
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), { plugins: { x: { enabled: false } } });

    const before = await Deno.readTextFile(file);
    await assert.rejects(
      editPluginsFile(dir, () => {
        throw new Error("refused");
      }),
      /refused/,
    );
    assert.equal(await Deno.readTextFile(file), before);

    await Deno.writeTextFile(file, '{"aliases": {');
    await assert.rejects(editPluginsFile(dir, (raw) => setAlias(raw, "a", "b")), /Invalid plugins file/);
    assert.equal(
      await Deno.readTextFile(file),
      '{"aliases": {',
      "the malformed file is left for the user to fix",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
