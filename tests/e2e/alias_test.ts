/** e2e: aliases expand (appended args, $n placeholders, to plugins and built-ins); loops, shadowing and empties are refused. */
import assert from "node:assert/strict";
import { diazo, json, spawnDiazo } from "./harness.ts";
import { assertOneError, extHome, PROBE_PLUGIN, sandboxProfile } from "./ext_helpers.ts";

Deno.test("aliases: placeholders first, the rest appended; an alias may expand to an alias and to a plugin", async () => {
  const x = await extHome();
  try {
    await x.script("diazo-probe", PROBE_PLUGIN);
    const env = x.env();
    const add = await spawnDiazo(["plugin", "alias", "add", "greet", "probe hello $2 --x=$1", "-o", "json"], {
      env,
    });
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual(json(add), { name: "greet", expansion: "probe hello $2 --x=$1" });
    assert.equal((await spawnDiazo(["plugin", "alias", "add", "g2", "greet 'two words'"], { env })).code, 0);

    const r = await spawnDiazo(["greet", "A", "B", "C", "--d"], { env, cwd: x.home.cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "<hello>\n<B>\n<--x=A>\n<C>\n<--d>\n");
    const chained = await spawnDiazo(["g2", "Z"], { env, cwd: x.home.cwd });
    assert.equal(chained.stdout, "<hello>\n<Z>\n<--x=two words>\n");
    assertOneError(
      await spawnDiazo(["greet", "A"], { env }),
      2,
      /alias 'greet' needs 2 arguments \(\$1\.\.\$2\), got 1/,
    );

    const debug = await spawnDiazo(["--debug", "g2", "Z"], { env, cwd: x.home.cwd });
    assert.match(debug.stderr, /debug: alias g2 → greet: --debug probe hello Z --x=two words\n/);
    assert.match(
      debug.stderr,
      /debug: plugin probe: \S+diazo-probe hello Z --x=two words → exit 0 in \d+ ms/,
    );

    const list = await spawnDiazo(["alias", "list", "-o", "json"], { env });
    const viaPlugin = await spawnDiazo(["plugin", "alias", "list", "-o", "json"], { env });
    assert.deepEqual(json(list), [
      { name: "g2", expansion: "greet 'two words'" },
      { name: "greet", expansion: "probe hello $2 --x=$1" },
    ]);
    assert.equal(viaPlugin.stdout, list.stdout, "alias list and plugin alias list are one command");
  } finally {
    await x.close();
  }
});

Deno.test("an alias to a built-in command: the expansion then the user's arguments, against the sandbox", async () => {
  const x = await extHome();
  const sb = await sandboxProfile(x);
  try {
    const env = x.env();
    assert.equal(
      (await diazo(["plugin", "alias", "add", "mkb", "bucket create --policy transient --key"], { env }))
        .code,
      0,
    );
    assert.equal((await diazo(["plugin", "alias", "add", "lsb", "bucket list -o json"], { env })).code, 0);
    const made = await diazo(["mkb", "alias-e2e-bucket", "-o", "json"], { env });
    assert.equal(made.code, 0, made.stderr);
    assert.equal(json<{ bucketKey: string }>(made).bucketKey, "alias-e2e-bucket");
    const keys = await diazo(["lsb", "--query", "[].bucketKey"], { env });
    assert.equal(keys.code, 0, keys.stderr);
    assert.deepEqual(json(keys), ["alias-e2e-bucket"]);
  } finally {
    await sb.close();
    await x.close();
  }
});

Deno.test("aliases: loops name the chain, built-ins cannot be shadowed, an empty expansion is an error", async () => {
  const x = await extHome();
  try {
    const env = x.env();
    assertOneError(
      await diazo(["plugin", "alias", "add", "bucket", "object list"], { env }),
      2,
      /alias 'bucket' would shadow the built-in command 'diazo bucket'/,
    );
    assertOneError(
      await diazo(["plugin", "alias", "add", "e", "  "], { env }),
      2,
      /alias 'e' expands to nothing/,
    );
    assert.equal((await diazo(["plugin", "alias", "add", "a", "b --one"], { env })).code, 0);
    assertOneError(await diazo(["plugin", "alias", "add", "b", "a"], { env }), 2, /Alias loop: b → a → b/);
    const exists = await diazo(["plugin", "alias", "add", "a", "config get"], { env });
    assert.equal(exists.code, 6, exists.stderr);
    assert.match(exists.stderr, /alias 'a' exists \(b --one\); pass --force/);
    assert.equal((await diazo(["plugin", "alias", "add", "a", "b --two", "--force"], { env })).code, 0);

    // A file written by hand: the loop, the empty alias and the shadowing alias show up at use.
    const file = await x.pluginsJson({
      aliases: { a: "b x", b: "c", c: "a y", e: "", bucket: "config get output" },
    });
    assertOneError(
      await diazo(["a", "arg"], { env }),
      2,
      /^error: Alias loop: a → b → c → a$/,
      /diazo alias list/,
    );
    assertOneError(await diazo(["e"], { env }), 2, /alias 'e' expands to nothing/);
    const help = await diazo(["bucket", "--help"], { env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: diazo bucket/, "the built-in runs, not the alias");
    assert.equal(
      help.stderr,
      `warning: alias 'bucket' in ${file} is ignored: 'bucket' is a built-in command\n`,
    );
    const list = await diazo(["alias", "list", "-o", "json"], { env });
    assert.deepEqual(json<{ name: string }[]>(list).map((a) => a.name), ["a", "b", "c", "e"]);
    assert.match(list.stderr, /alias 'bucket' .* is ignored/);

    assert.equal((await diazo(["plugin", "alias", "remove", "e"], { env })).code, 0);
    assert.deepEqual(Object.keys((await x.readPluginsJson() as { aliases: object }).aliases), [
      "a",
      "b",
      "c",
      "bucket",
    ]);
    assertOneError(await diazo(["plugin", "alias", "remove", "e"], { env }), 4, /Not found: alias 'e'/);
  } finally {
    await x.close();
  }
});
