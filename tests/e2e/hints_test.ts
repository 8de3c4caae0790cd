/**
 * e2e: hints that point somewhere real: a close output format or help topic, the command's own usage
 * line, `--out`/`--force` for a download onto a file, a close profile name, and the profile (not
 * SVC_*) when a profile's credentials are refused.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { assertOneError, withSandboxHome } from "./harness.ts";

Deno.test("-o jsn: did you mean json; diazo help <unknown>: the help topics listed", () =>
  withSandboxHome(async ({ run }) => {
    for (const args of [["-o", "jsn", "bucket", "list"], ["bucket", "list", "-o", "jsn"]]) {
      const r = await run(args);
      assertOneError(
        r,
        2,
        /invalid output format 'jsn'/,
        /^hint: Did you mean json\? Use one of: json, yaml/m,
      );
    }
    const help = await run(["help", "nosuch"]);
    assertOneError(
      help,
      2,
      /unknown command or help topic 'nosuch'/,
      /Help topics \(`diazo help <topic>`\): environment, exit-codes, formatting, config\./,
    );
    const close = await run(["help", "formating"]);
    assert.match(close.stderr, /hint: Did you mean 'formatting'\?/);
  }));

Deno.test("a missing required option or argument shows that command's usage line", () =>
  withSandboxHome(async ({ run }) => {
    const create = await run(["bucket", "create"]);
    assertOneError(
      create,
      2,
      /required option '-k, --key <bucketKey>' not specified/,
      /^hint: Usage: diazo bucket create \[options\] \(see `diazo bucket create --help`\)\.$/m,
    );
    const info = await run(["object", "info", "some-bucket"]);
    assertOneError(
      info,
      2,
      /missing required argument 'objectKey'/,
      /Usage: diazo object info \[options\] <bucketKey> <objectKey>/,
    );
    assert.doesNotMatch(create.stderr + info.stderr, /Run `diazo --help`/);
  }));

Deno.test("object download --out onto an existing file names --out and --force, not -o", () =>
  withSandboxHome(async ({ run, home }) => {
    assert.equal((await run(["bucket", "create", "-k", "hint-b1"])).code, 0);
    await Deno.writeTextFile(path.join(home.cwd, "m.obj"), "v 0 0 0\n");
    assert.equal((await run(["object", "upload", "hint-b1", "m.obj"])).code, 0);
    const r = await run(["object", "download", "hint-b1", "m.obj", "--out", "m.obj"]);
    assertOneError(r, 2, /already exists/, /--force.*--out|--out.*--force/);
    assert.doesNotMatch(r.stderr, /another -o/);
  }));

Deno.test("config profile use wrok: did you mean work, and `diazo config profile list`", () =>
  withSandboxHome(async ({ run }) => {
    assert.equal((await run(["config", "profile", "create", "work", "--client-id", "x"])).code, 0);
    const r = await run(["config", "profile", "use", "wrok"]);
    assertOneError(
      r,
      4,
      /Not found: profile 'wrok'/,
      /^hint: Did you mean work\? `diazo config profile list`/m,
    );
  }));

Deno.test("a wrong secret in a profile names the profile and diazo config, not SVC_CLIENT_ID", () =>
  withSandboxHome(async ({ run, sb, env }) => {
    const created = await run(
      [
        "config",
        "profile",
        "create",
        "work",
        "--client-id",
        "diazo-sandbox",
        "--base-url",
        sb.url,
        "--client-secret-stdin",
      ],
      { stdin: "not-the-sandbox-secret" },
    );
    assert.equal(created.code, 0, created.stderr);
    const { SVC_CLIENT_ID: _id, SVC_CLIENT_SECRET: _secret, DIAZO_BASE_URL: _url, ...bare } = env;
    const r = await run(["--profile", "work", "auth", "test"], { env: bare });
    assertOneError(
      r,
      3,
      /Authentication failed with the app credentials of profile work/,
      /profile work .*`diazo config profile create work --client-id <id> --client-secret-stdin --force`/,
    );
    assert.doesNotMatch(r.stderr, /SVC_CLIENT_ID/);
    // From the environment, the hint still names the variables.
    const fromEnv = await run(["auth", "test"], { env: { ...env, SVC_CLIENT_SECRET: "wrong-secret-value" } });
    assertOneError(fromEnv, 3, /^error: Authentication failed$/m, /SVC_CLIENT_ID/);
  }));
