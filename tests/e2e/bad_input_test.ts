/** e2e: bad input gets one clear error line, a hint, exit 2, and never a stack trace. */
import assert from "node:assert/strict";
import path from "node:path";
import { assertUsageError, cliEnv, diazo, makeHome } from "./harness.ts";

Deno.test("bad input: unknown command, unknown flag, bad --output, bad --query, bad numbers", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home, { DIAZO_BASE_URL: "http://127.0.0.1:9" });
    assertUsageError(await diazo(["buckt", "list"], { env }), /unknown command 'buckt'/);
    const typo = await diazo(["buckt"], { env });
    assert.match(typo.stderr, /hint: Did you mean bucket\?/);
    assertUsageError(await diazo(["bucket", "lst"], { env }), /unknown command 'lst'/);
    assertUsageError(
      await diazo(["bucket", "list", "--frobnicate"], { env }),
      /unknown option '--frobnicate'/,
    );
    assertUsageError(
      await diazo(["--output", "xml", "bucket", "list"], { env }),
      /invalid output format 'xml' \(from --output\)/,
    );
    // The query is checked before any request: the unreachable base URL is never contacted.
    assertUsageError(await diazo(["bucket", "list", "--query", "[?bad"], { env }), /invalid --query/);
    assertUsageError(
      await diazo(["bucket", "list", "--timeout", "soon"], { env }),
      /--timeout must be a positive number/,
    );
    assertUsageError(
      await diazo(["bucket", "create", "--key", "Has-Capitals"], { env }),
      /invalid bucket key 'Has-Capitals'/,
    );
    assertUsageError(await diazo(["config", "get", "outptu"], { env }), /unknown configuration key 'outptu'/);
    const envOut = await diazo(["config", "profile", "list"], { env: { ...env, DIAZO_OUTPUT: "xml" } });
    assertUsageError(envOut, /invalid output format 'xml' \(from DIAZO_OUTPUT\)/);
  } finally {
    await home.cleanup();
  }
});

Deno.test("bad input: malformed config.json and malformed .env line", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home, {
      DIAZO_BASE_URL: "http://127.0.0.1:9",
      SVC_CLIENT_ID: "x",
      SVC_CLIENT_SECRET: "y",
    });
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      path.join(home.configDir, "config.json"),
      '{\n  "profiles": {\n    "a": { "client_id": "x" },,\n  }\n}\n',
    );
    const r = await diazo(["config", "profile", "list"], { env });
    assertUsageError(r, /Invalid configuration file .*config\.json: line 3, column \d+/);
    await Deno.remove(path.join(home.configDir, "config.json"));

    await Deno.writeTextFile(path.join(home.cwd, ".env"), "SVC_CLIENT_ID=a\nnot a valid line\n");
    const d = await diazo(["auth", "status"], { env, cwd: home.cwd });
    assertUsageError(d, /Invalid \.env file .*\.env:2: expected KEY=VALUE/);
  } finally {
    await home.cleanup();
  }
});

Deno.test("non-interactive destructive action without --yes is a usage error, never a silent no-op", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    assert.equal((await diazo(["config", "profile", "create", "p1", "--client-id", "abc"], { env })).code, 0);
    const r = await diazo(["config", "profile", "delete", "p1"], { env });
    assertUsageError(r, /confirmation required/);
    assert.match(r.stderr, /--yes/);
    const list = await diazo(["config", "profile", "list", "-o", "json"], { env });
    assert.deepEqual(JSON.parse(list.stdout).map((p: { name: string }) => p.name), ["p1"]);
    assert.equal((await diazo(["config", "profile", "delete", "p1", "--yes"], { env })).code, 0);
  } finally {
    await home.cleanup();
  }
});

Deno.test("--help has examples and goes to stdout with exit 0; --version names deno and target", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    for (
      const args of [["--help"], ["bucket", "list", "--help"], ["config", "profile", "create", "--help"], [
        "auth",
        "test",
        "--help",
      ]]
    ) {
      const r = await diazo(args, { env });
      assert.equal(r.code, 0, args.join(" "));
      assert.match(r.stdout, /Examples:\n {2}\$ diazo /);
      assert.equal(r.stderr, "");
    }
    const v = await diazo(["--version"], { env });
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^diazo \d+\.\d+\.\d+ .*\ndeno \d+\.\d+\.\d+\ntarget \S+-\S+/);
  } finally {
    await home.cleanup();
  }
});
