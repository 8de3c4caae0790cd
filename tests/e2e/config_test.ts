/** e2e: profiles and settings through the CLI, run in process. */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, diazo, json, makeHome, SANDBOX_SECRET, withSandboxHome } from "./harness.ts";

Deno.test("profiles: create (secret from stdin), list, use, current, export without and with secrets, import, delete", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = cliEnv(home);
    const created = await diazo(
      [
        "config",
        "profile",
        "create",
        "sand",
        "--client-id",
        "diazo-sandbox",
        "--client-secret-stdin",
        "--base-url",
        sb.url,
        "--use",
        "-o",
        "json",
      ],
      { env, stdin: SANDBOX_SECRET + "\n" },
    );
    assert.equal(created.code, 0, created.stderr);
    assert.ok(!created.stdout.includes(SANDBOX_SECRET));
    const cfgFile = path.join(home.configDir, "config.json");
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(cfgFile)).mode! & 0o777, 0o600);

    // The profile alone is enough to talk to the platform.
    const t = await diazo(["auth", "test", "-o", "json"], { env });
    assert.equal(t.code, 0, t.stderr);
    assert.equal(json<{ profile: string; base_url: string }>(t).base_url, sb.url);

    assert.equal(
      (await diazo(["config", "profile", "create", "other", "--client-id", "x"], { env })).code,
      0,
    );
    assert.equal(
      (await diazo(["config", "profile", "create", "other", "--client-id", "y"], { env })).code,
      6,
    );
    const list = json<{ name: string; active: boolean; has_secret: boolean }[]>(
      await diazo(["config", "profile", "list", "-o", "json"], { env }),
    );
    assert.deepEqual(list.map((p) => [p.name, p.active, p.has_secret]), [["sand", true, true], [
      "other",
      false,
      false,
    ]]);

    assert.equal((await diazo(["config", "profile", "use", "other"], { env })).code, 0);
    assert.equal(
      json<{ name: string }>(await diazo(["config", "profile", "current", "-o", "json"], { env })).name,
      "other",
    );
    assert.equal(
      json<{ name: string; source: string }>(
        await diazo(["config", "profile", "current", "-o", "json"], {
          env: { ...env, DIAZO_PROFILE: "sand" },
        }),
      ).source,
      "env",
    );
    const missing = await diazo(["config", "profile", "use", "sadn"], { env });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /Did you mean sand\? `diazo config profile list`/);

    const exported = await diazo(["config", "profile", "export", "-o", "json"], { env });
    assert.ok(!exported.stdout.includes(SANDBOX_SECRET), "export leaves secrets out by default");
    const withSecrets = await diazo([
      "config",
      "profile",
      "export",
      "sand",
      "--include-secrets",
      "-o",
      "json",
    ], { env });
    assert.equal(
      json<{ profiles: { sand: { client_secret: string } } }>(withSecrets).profiles.sand.client_secret,
      SANDBOX_SECRET,
    );
    assert.match(withSecrets.stderr, /warning: the export contains client secrets/);

    const other = await makeHome();
    try {
      const imp = await diazo(["config", "profile", "import", "-"], {
        env: cliEnv(other),
        stdin: withSecrets.stdout,
      });
      assert.equal(imp.code, 0, imp.stderr);
      const t2 = await diazo(["auth", "test", "--profile", "sand", "-o", "json"], { env: cliEnv(other) });
      assert.equal(t2.code, 0, t2.stderr);
      assert.equal(
        (await diazo(["config", "profile", "import", "-"], { env: cliEnv(other), stdin: withSecrets.stdout }))
          .code,
        6,
      );
      const bad = await diazo(["config", "profile", "import", "nope.json"], {
        env: cliEnv(other),
        cwd: other.cwd,
      });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^error: File not found: nope\.json/);
    } finally {
      await other.cleanup();
    }

    const del = await diazo(["config", "profile", "delete", "sand", "--yes", "-o", "json"], { env });
    assert.equal(del.code, 0, del.stderr);
    assert.equal(json<{ tokens_removed: number }>(del).tokens_removed, 1);
  }));

Deno.test("config get/set: settings and profile keys, validated; secrets never from argv", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    assert.equal((await diazo(["config", "set", "output", "yaml"], { env })).code, 0);
    // The setting now decides the format when no flag is given.
    const got = await diazo(["config", "get", "output"], { env });
    assert.match(got.stdout, /^key: output\nvalue: yaml\n/);
    assert.equal((await diazo(["config", "set", "output", "xml"], { env })).code, 2);
    assert.equal((await diazo(["config", "set", "timeout", "-3"], { env })).code, 2);
    assert.equal((await diazo(["config", "set", "base_url", "not a url"], { env })).code, 2);
    assert.equal((await diazo(["config", "set", "scopes", "bucket:read,nonsense:scope"], { env })).code, 2);
    const secret = await diazo(["config", "set", "client_secret", "s3cret"], { env });
    assert.equal(secret.code, 2);
    assert.equal((await diazo(["config", "set", "client_id", "abc", "-o", "json"], { env })).code, 0);
    const id = await diazo(["config", "get", "client_id", "-o", "json"], { env });
    assert.deepEqual(json(id), { key: "client_id", value: "abc", profile: "default" });
  } finally {
    await home.cleanup();
  }
});

Deno.test("config profile create never changes the active profile; --use does (as aws)", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    const run = (args: string[]) => diazo(["config", "profile", ...args], { env, cwd: home.cwd });
    const current = async () => json<{ name: string; source: string }>(await run(["current", "-o", "json"]));
    const first = await run(["create", "first", "--client-id", "a"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^Created profile first\n/, "not said to be active");
    assert.deepEqual(await current(), { name: "default", exists: false, source: "default" });
    const used = await run(["create", "second", "--client-id", "b", "--use"]);
    assert.match(used.stderr, /^Created profile second \(active\)\n/);
    assert.equal((await current()).name, "second");
    await run(["create", "third", "--client-id", "c"]);
    const list = json<{ name: string; active: boolean }[]>(await run(["list", "-o", "json"]));
    assert.deepEqual(list.map((p) => [p.name, p.active]), [["first", false], ["second", true], [
      "third",
      false,
    ]]);
  } finally {
    await home.cleanup();
  }
});
