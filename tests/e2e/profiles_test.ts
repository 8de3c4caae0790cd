/**
 * e2e: profiles as the AWS CLI resolves them (an explicitly named profile's own app wins over the
 * environment's; an unknown name is a usage error with a suggestion; "default" is a real profile),
 * `auth status` as `gh auth status` reads (exit 1 with no usable credential), and `config list`,
 * `get`, `unset`, the secret asked for at a terminal.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import {
  assertUsageError,
  captureIo,
  cliEnv,
  diazo,
  json,
  SANDBOX_ID,
  SANDBOX_SECRET,
  withSandboxHome,
} from "./harness.ts";

type Status = {
  profile: string;
  profile_source: string;
  client_id: string | null;
  client_id_source: string;
  ignored_env: string[];
  usable: boolean;
};

Deno.test("auth status with no credentials at all exits 1 and says what to do; with the app's it exits 0", () =>
  withSandboxHome(async (h) => {
    const none = await diazo(["auth", "status", "-o", "json"], { env: cliEnv(h.home), cwd: h.home.cwd });
    assert.equal(none.code, 1, none.stderr);
    const st = json<Status & { tokens: unknown[]; client_secret: null }>(none);
    assert.deepEqual(
      [st.client_id, st.usable, st.tokens],
      [null, false, []],
      "the record, as before, plus usable",
    );
    assert.match(none.stderr, /No usable credential: set SVC_CLIENT_ID/);
    const app = await h.run(["auth", "status", "-o", "json"]);
    assert.equal(app.code, 0, app.stderr);
    assert.equal(json<Status>(app).usable, true);
    assert.match(
      app.stderr,
      /^Profile default \(no profile chosen\)\n {2}Platform: +http:\/\/127\.0\.0\.1:\d+ \(DIAZO_BASE_URL\)\n {2}App: +client diazo-sandbox \(SVC_CLIENT_ID\)/,
    );
  }));

Deno.test("--profile work with SVC_* exported uses the profile's app (said with --debug); DIAZO_PROFILE alike", () =>
  withSandboxHome(async (h) => {
    // The profile holds the sandbox's app; the environment names another that the sandbox refuses.
    const env = { ...h.env, SVC_CLIENT_ID: "env-app", SVC_CLIENT_SECRET: "env-app-secret-value" };
    const created = await diazo(
      ["config", "profile", "create", "work", "--client-id", SANDBOX_ID, "--client-secret-stdin"],
      { env, stdin: SANDBOX_SECRET },
    );
    assert.equal(created.code, 0, created.stderr);
    const st = await diazo(["--profile", "work", "auth", "status", "-o", "json"], { env });
    assert.equal(st.code, 0, st.stderr);
    const s = json<Status>(st);
    assert.deepEqual([s.profile, s.profile_source, s.client_id, s.client_id_source], [
      "work",
      "flag",
      SANDBOX_ID,
      "profile",
    ]);
    assert.deepEqual(s.ignored_env, ["SVC_CLIENT_ID", "SVC_CLIENT_SECRET"]);
    const test = await diazo(["--profile", "work", "auth", "test", "-o", "json", "--debug"], { env });
    assert.equal(test.code, 0, test.stderr);
    assert.match(
      test.stderr,
      /profile work \(from --profile\) uses its own app; ignoring SVC_CLIENT_ID, SVC_CLIENT_SECRET/,
    );
    const byEnv = await diazo(["auth", "test", "-o", "json"], { env: { ...env, DIAZO_PROFILE: "work" } });
    assert.equal(byEnv.code, 0, byEnv.stderr);
    // Chosen only by config.json's active profile, the environment still wins (as before).
    assert.equal((await diazo(["config", "profile", "use", "work"], { env })).code, 0);
    const active = await diazo(["auth", "status", "-o", "json"], { env });
    assert.deepEqual([json<Status>(active).client_id, json<Status>(active).profile_source], [
      "env-app",
      "config",
    ]);
  }));

Deno.test("an unknown profile (--profile or DIAZO_PROFILE) is exit 2 with a suggestion", () =>
  withSandboxHome(async (h) => {
    assert.equal((await h.run(["config", "profile", "create", "work", "--client-id", "x"])).code, 0);
    const typo = await h.run(["--profile", "wrok", "bucket", "list"]);
    assertUsageError(typo, /unknown profile 'wrok' \(from --profile\)/);
    assert.match(typo.stderr, /hint: Did you mean work\?/);
    const status = await h.run(["auth", "status", "--profile", "nosuch"]);
    assertUsageError(status, /unknown profile 'nosuch'/);
    assert.match(
      status.stderr,
      /hint: .*Profiles: default, work; create it with `diazo config profile create nosuch`/,
    );
    const env = await h.run(["auth", "test"], { env: { ...h.env, DIAZO_PROFILE: "wokr" } });
    assertUsageError(env, /unknown profile 'wokr' \(from DIAZO_PROFILE\)/);
    assert.equal(
      (await h.run(["--profile", "default", "bucket", "list", "-o", "json"])).code,
      0,
      "default exists",
    );
  }));

Deno.test('config profile use default works after switching away; config list, get, unset, set KEY ""', () =>
  withSandboxHome(async (h) => {
    assert.equal((await h.run(["config", "set", "output", "yaml"])).code, 0);
    assert.equal((await h.run(["config", "profile", "create", "work", "--client-id", "w", "--use"])).code, 0);
    const back = await h.run(["config", "profile", "use", "default"]);
    assert.equal(back.code, 0, back.stderr);
    const current = await h.run(["config", "profile", "current", "-o", "json"]);
    assert.deepEqual(json(current), { name: "default", exists: true, source: "config" });
    assert.equal((await h.run(["config", "profile", "use", "work"])).code, 0);

    type Entry = { key: string; value: string | null; source: string };
    const list = json<Entry[]>(
      await h.run(["config", "list", "-o", "json"], { env: { ...h.env, DIAZO_TIMEOUT: "9" } }),
    );
    const by = Object.fromEntries(list.map((e) => [e.key, [e.value, e.source]]));
    assert.deepEqual(by.profile, ["work", "config.json"]);
    assert.deepEqual(
      by.client_id,
      [SANDBOX_ID, "SVC_CLIENT_ID"],
      "the environment wins over an active profile",
    );
    assert.deepEqual(by.client_secret, ["diaz…(20 chars)", "SVC_CLIENT_SECRET"], "masked");
    assert.deepEqual(by.output, ["json", "--output"]);
    assert.deepEqual(by.timeout, ["9", "DIAZO_TIMEOUT"]);
    assert.deepEqual(by.concurrency, ["5", "default"]);
    assert.ok(!JSON.stringify(list).includes(SANDBOX_SECRET));
    const plain = json<Entry[]>(await h.run(["config", "list", "-o", "json"], { env: cliEnv(h.home) }));
    assert.deepEqual(plain.find((e) => e.key === "client_id"), {
      key: "client_id",
      value: "w",
      source: "profile work",
    });

    assert.equal(
      json<{ value: string }>(await h.run(["config", "get", "output", "-o", "json"])).value,
      "yaml",
    );
    const cleared = await h.run(["config", "set", "output", "", "-o", "json"]);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.deepEqual(json(cleared), { key: "output", unset: true });
    assert.equal(json<{ value: null }>(await h.run(["config", "get", "output", "-o", "json"])).value, null);
    const unset = await h.run(["config", "unset", "client_id", "-o", "json"]);
    assert.deepEqual(json(unset), { key: "client_id", unset: true, profile: "work" });
    const again = await h.run(["config", "unset", "client_id", "-o", "json"]);
    assert.deepEqual(json(again), { key: "client_id", unset: false, profile: "work" });
    assertUsageError(await h.run(["config", "unset", "outptu"]), /unknown configuration key 'outptu'/);
  }));

Deno.test("config profile create on a terminal asks for the secret (not echoed) and stores it as --client-secret-stdin does", () =>
  withSandboxHome(async (h) => {
    const cap = captureIo();
    let asked = 0;
    const io = {
      ...cap.io,
      stdin: {
        ...cap.io.stdin,
        isTerminal: true,
        readSecret: () => (asked++, Promise.resolve(`${SANDBOX_SECRET}\n`)),
      },
    };
    const env = cliEnv(h.home, { DIAZO_BASE_URL: h.sb.url });
    const code = await runCli(
      ["config", "profile", "create", "local", "--client-id", SANDBOX_ID, "--use"],
      io,
      env,
      h.home.cwd,
    );
    assert.equal(code, 0, cap.stderr());
    assert.equal(asked, 1);
    assert.match(cap.stderr(), /Client secret for profile local \(not shown; Enter for none\): /);
    assert.ok(!cap.stderr().includes(SANDBOX_SECRET) && !cap.stdout().includes(SANDBOX_SECRET));
    const test = await diazo(["auth", "test", "-o", "json"], { env });
    assert.equal(test.code, 0, "the typed secret is the profile's: no 'Missing credentials' later");
    // Not on a terminal (or with --non-interactive): nothing is asked.
    const piped = await diazo(["config", "profile", "create", "quiet", "--client-id", "q"], { env });
    assert.equal(piped.code, 0);
    assert.doesNotMatch(piped.stderr, /Client secret/);
  }));

Deno.test("config set --help describes its arguments; every command's arguments have a description", async () => {
  const help = await diazo(["config", "set", "--help"], { env: { NO_COLOR: "1" } });
  assert.doesNotMatch(help.stdout, /key\s+key\b/);
  assert.match(help.stdout, /key\s+a setting \(output, timeout/);
  assert.match(help.stdout, /value\s+the new value/);
  const { fullProgram } = await import("../../src/front/program.ts");
  const { argumentName } = await import("../../src/front/help.ts");
  const bare: string[] = [];
  type Cmd = Awaited<ReturnType<typeof fullProgram>>;
  const walk = (c: Cmd, at: string) => {
    for (const a of c.args ?? []) {
      const d = (a.description ?? "").trim().toLowerCase();
      if (!d || d === argumentName(a).toLowerCase()) bare.push(`${at} <${argumentName(a)}>`);
    }
    for (const s of c.commands ?? []) walk(s, `${at} ${s.name}`.trim());
  };
  walk(await fullProgram(), "");
  assert.deepEqual(bare, []);
});

Deno.test("auth status on a terminal: a summary a person reads (profile, app and its source, user login: who, scopes, expiry)", () =>
  withSandboxHome(async (h) => {
    await fetch(`${h.sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_flow: true, auto_approve: true, device_interval_seconds: 1 }),
    }).then((r) => r.body?.cancel());
    const login = await h.run(["auth", "login", "--device", "--scopes", "data:read"]);
    assert.equal(login.code, 0, login.stderr);
    const cap = captureIo();
    const io = { ...cap.io, stdout: { ...cap.io.stdout, isTerminal: true } };
    assert.equal(await runCli(["auth", "status"], io, h.env, h.home.cwd), 0, cap.stderr());
    const lines = cap.stdout().split("\n");
    assert.equal(lines[0], "Profile default (no profile chosen)");
    assert.match(cap.stdout(), /\n {2}App: +client diazo-sandbox \(SVC_CLIENT_ID\)\n/);
    assert.match(
      cap.stdout(),
      /\n {2}User login: DIAZOSANDBOXUSER, expires in \d+ minutes\n {14}scopes data:read\n/,
    );
    assert.doesNotMatch(cap.stdout(), /[{}[\]]/, "no JSON in the summary");
  }));
