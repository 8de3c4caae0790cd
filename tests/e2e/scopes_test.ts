/** e2e: the scope matrix, the scope-usage log, and secret-free reports. */
import assert from "node:assert/strict";
import { encodeUrn, objectIdOf } from "../../src/aps/urn.ts";
import { diazo, json, SANDBOX_SECRET, sandboxEnv, withSandboxHome } from "./harness.ts";
import { CUBE_OBJ } from "./md_helpers.ts";

/** Commands that need exactly one scope, with what makes them run. */
const MATRIX: {
  scope: string;
  /** Scopes removed first, when the operation accepts more than one (default: `scope`). */
  remove?: string;
  args: (i: number) => string[];
  setup?: (env: Record<string, string>, i: number) => Promise<void>;
}[] = [
  { scope: "bucket:read", args: () => ["bucket", "list", "--region", "US"] },
  { scope: "bucket:create", args: (i) => ["bucket", "create", "--key", `matrix-create-${i}`] },
  {
    scope: "bucket:delete",
    args: (i) => ["bucket", "delete", `matrix-del-${i}`, "--yes"],
    setup: async (env, i) => {
      const r = await diazo(["bucket", "create", "--key", `matrix-del-${i}`], { env });
      assert.equal(r.code, 0, r.stderr);
    },
  },
  {
    scope: "data:read",
    args: (i) => ["object", "list", `matrix-data-${i}`],
    setup: (env, i) => dataBucket(env, i),
  },
  { scope: "data:read", args: () => ["hub", "list", "--as", "app"] },
  {
    scope: "data:write",
    args: (i) => ["object", "delete", `matrix-data-${i}`, "payload.txt", "--yes"],
    setup: (env, i) => dataBucket(env, i, true),
  },
  {
    // Uploads accept data:write or data:create: without both they fail, data:create alone suffices.
    scope: "data:create",
    remove: "data:write,data:create",
    args: (i) => ["object", "upload", `matrix-data-${i}`, "payload.txt"],
    setup: (env, i) => dataBucket(env, i),
  },
  { scope: "code:all", args: () => ["da", "engine", "list"] },
  {
    // The viewer page's token may carry only what the profile grants the app; --timeout ends the page.
    scope: "viewables:read",
    args: (
      i,
    ) => ["view", encodeUrn(objectIdOf(`matrix-data-${i}`, "cube.obj")), "--no-open", "--timeout", "1"],
    setup: (env, i) => translatedModel(env, i),
  },
];

/** A bucket holding cube.obj, translated to svf2 (the sandbox's jobs made instant). */
async function translatedModel(env: Record<string, string>, i: number): Promise<void> {
  await dataBucket(env, i);
  await fetch(`${env.DIAZO_BASE_URL}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ job_seconds: 0 }),
  })
    .then((r) => r.body?.cancel());
  await Deno.writeTextFile(`${env.MATRIX_CWD}/cube.obj`, CUBE_OBJ);
  const up = await diazo(["object", "upload", `matrix-data-${i}`, "cube.obj"], { env, cwd: env.MATRIX_CWD });
  assert.equal(up.code, 0, up.stderr);
  const urn = encodeUrn(objectIdOf(`matrix-data-${i}`, "cube.obj"));
  const tr = await diazo(["translate", "start", urn, "--format", "svf2", "--wait"], { env });
  assert.equal(tr.code, 0, tr.stderr);
}

/** A bucket for the data scopes, optionally holding payload.txt. */
async function dataBucket(env: Record<string, string>, i: number, withObject = false): Promise<void> {
  const r = await diazo(["bucket", "create", "--key", `matrix-data-${i}`], { env });
  assert.equal(r.code, 0, r.stderr);
  if (withObject) {
    const up = await diazo(["object", "upload", `matrix-data-${i}`, "payload.txt"], {
      env,
      cwd: env.MATRIX_CWD,
    });
    assert.equal(up.code, 0, up.stderr);
  }
}

Deno.test("scope matrix: without the scope -> catalog message naming it and exit 3; with it -> success", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, { MATRIX_CWD: home.cwd });
    await Deno.writeTextFile(`${home.cwd}/payload.txt`, "payload");
    let i = 0;
    for (const m of MATRIX) {
      i++;
      await m.setup?.(env, i);
      const reduce = await diazo(["auth", "reduce-scopes", "--remove", m.remove ?? m.scope], { env });
      assert.equal(reduce.code, 0, reduce.stderr);
      const denied = await diazo(m.args(i), { env, cwd: home.cwd });
      assert.equal(denied.code, 3, `${m.scope}: ${denied.stderr}`);
      assert.equal(denied.stdout, "");
      // the specification names the bucket:create case "Cannot create bucket"; every other scope is the generic message.
      const message = m.scope === "bucket:create"
        ? "Cannot create bucket"
        : "Insufficient privileges to access this resource";
      assert.match(denied.stderr, new RegExp(`^error: ${message}\nhint: .*`));
      assert.ok(denied.stderr.includes(`--add ${m.scope}`), `the hint names ${m.scope}: ${denied.stderr}`);
      const extend = await diazo(["auth", "extend-scopes", "--add", m.scope], { env });
      assert.equal(extend.code, 0, extend.stderr);
      const ok = await diazo(m.args(i), { env, cwd: home.cwd });
      assert.equal(ok.code, 0, `${m.scope}: ${ok.stderr}`);
    }
    // Scopes are also checked at the token endpoint, per mode.
    for (const s of ["viewables:read", "code:all"]) {
      const r = await diazo(["auth", "test-scope", s, "-o", "json"], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(json<{ granted: boolean }>(r).granted, true);
    }
    // account:* is granted to an app by the platform; diazo only recommends a user's login for it.
    for (const s of ["account:read", "account:write"]) {
      const r = await diazo(["auth", "test-scope", s, "-o", "json"], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(json<{ granted: boolean }>(r).granted, true);
      assert.match(r.stderr, /diazo recommends a 3-legged login/);
    }
    const probe = await diazo([
      "auth",
      "test-scopes",
      "--scopes",
      "data:read",
      "--endpoint",
      "/oss/v2/buckets",
    ], { env });
    assert.equal(probe.code, 3);
    assert.match(probe.stderr, /^error: Insufficient privileges to access this resource/);

    const logs = json<{ command: string; scopes: string[]; exit: number }[]>(
      await diazo(["logs", "--scope-usage", "--last", "1d", "-o", "json"], { env }),
    );
    assert.ok(
      logs.some((l) => l.command === "bucket list" && l.scopes.includes("bucket:read") && l.exit === 0),
    );
    assert.ok(logs.some((l) => l.command === "bucket list" && l.exit === 3));
    const report = json<{ used: { scope: string; uses: number }[]; unused_granted: string[] }>(
      await diazo(["auth", "scope-report", "--period", "1d", "-o", "json"], { env }),
    );
    assert.ok(report.used.find((u) => u.scope === "bucket:create")!.uses >= 2);
    assert.ok(!report.unused_granted.includes("bucket:create"));
    assert.ok(report.used.some((u) => u.scope === "code:all"), "da engine list used code:all");
    const st = json<{ scope: string; in_profile: boolean; in_valid_token: boolean }[]>(
      await diazo(["auth", "status", "--scopes", "-o", "json"], { env }),
    );
    assert.deepEqual(st.find((x) => x.scope === "bucket:delete"), {
      scope: "bucket:delete",
      in_profile: true,
      in_valid_token: true,
      purpose: "Delete buckets",
    });
    const verbose = json<{ tokens: { claims: { client_id: string } }[] }>(
      await diazo(["auth", "status", "--verbose", "-o", "json"], { env }),
    );
    assert.ok(verbose.tokens.every((t) => t.claims.client_id === "diazo-sandbox"));
    const badPeriod = await diazo(["auth", "scope-report", "--period", "soon"], { env });
    assert.equal(badPeriod.code, 2);
  }));

Deno.test("support-report --sanitize and --debug runs contain no secret, token or code", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    const runs = [
      await diazo(["auth", "test", "--debug"], { env }),
      await diazo(["bucket", "list", "--debug"], { env }),
      await diazo(["auth", "status", "--debug", "-o", "json"], { env }),
      await diazo(["auth", "inspect-token", "--debug", "-o", "json"], { env }),
      await diazo(["auth", "diagnose", "--debug", "-o", "json"], { env }),
      await diazo(["auth", "support-report", "--sanitize", "--debug", "-o", "json"], { env }),
    ];
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const tokens = Object.values(JSON.parse(await Deno.readTextFile(`${home.configDir}/tokens.json`))) as {
      access_token: string;
    }[];
    const all = runs.map((r) => r.stdout + r.stderr).join("\n");
    assert.ok(!all.includes(SANDBOX_SECRET));
    for (const t of tokens) assert.ok(!all.includes(t.access_token.split(".")[2]));
    const report = JSON.parse(runs[5].stdout);
    assert.ok(!JSON.stringify(report).includes('diazo-sandbox"'), "sanitized report masks the client id");
    assert.ok(Array.isArray(report.diagnose));
    assert.ok(
      report.environment_variables_set.includes("SVC_CLIENT_SECRET"),
      "names of variables, never values",
    );
  }));
