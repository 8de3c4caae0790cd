/** e2e: the CLI (in process, through runCli) against a sandbox on port 0 — auth, lists, output, errors. */
import assert from "node:assert/strict";
import path from "node:path";
import { diazo, json, requestLog, SANDBOX_SECRET, sandboxEnv, withSandboxHome } from "./harness.ts";

async function seedBuckets(url: string, keys: string[]): Promise<void> {
  const tok = await fetch(`${url}/authentication/v2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("diazo-sandbox:diazo-sandbox-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=bucket:create",
  }).then((r) => r.json());
  for (const key of keys) {
    const res = await fetch(`${url}/oss/v2/buckets`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tok.access_token}`,
        "content-type": "application/json",
        region: key.startsWith("eu-") ? "EMEA" : "US",
      },
      body: JSON.stringify({ bucketKey: key, policyKey: "transient" }),
    });
    await res.body?.cancel();
    assert.equal(res.status, 200);
  }
}

Deno.test("auth test succeeds with the well-known credentials and prints JSON", () =>
  withSandboxHome(async ({ sb, home }) => {
    const r = await diazo(["auth", "test", "-o", "json"], { env: sandboxEnv(home, sb.url) });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ ok: boolean; client_id: string; scopes: string[]; base_url: string }>(r);
    assert.equal(out.ok, true);
    assert.equal(out.client_id, "diazo-sandbox");
    assert.equal(out.base_url, sb.url);
    assert.ok(out.scopes.includes("bucket:read"));
  }));

Deno.test("bucket list follows every page, pipes as JSON, and --query filters", () =>
  withSandboxHome(async ({ sb, home }) => {
    const keys = Array.from({ length: 230 }, (_, i) => `b-${String(i).padStart(3, "0")}`);
    await seedBuckets(sb.url, [...keys, "eu-one"]);
    const env = sandboxEnv(home, sb.url);
    const r = await diazo(["bucket", "list"], { env }); // stdout is a pipe: JSON by default
    assert.equal(r.code, 0, r.stderr);
    const all = json<{ bucketKey: string; region: string; createdDate: number; createdAt: string }[]>(r);
    assert.equal(all.length, 231);
    assert.deepEqual(all.filter((b) => b.region === "US").map((b) => b.bucketKey), keys);
    assert.deepEqual(all.filter((b) => b.region === "EMEA").map((b) => b.bucketKey), ["eu-one"]);
    assert.equal(all[0].createdAt, new Date(all[0].createdDate).toISOString());
    const pages = (await requestLog(sb.url, "/oss/v2/buckets")).filter((e) => e.method === "GET");
    assert.ok(pages.length >= 3 + 8, `expected 3 US pages and one per other region, saw ${pages.length}`);

    const q = await diazo(["bucket", "list", "--region", "EMEA", "--query", "[].bucketKey", "-o", "json"], {
      env,
    });
    assert.equal(q.code, 0, q.stderr);
    assert.deepEqual(json(q), ["eu-one"]);

    const limited = await diazo(["bucket", "list", "--region", "US", "--limit", "5", "-o", "json"], { env });
    assert.deepEqual(json<{ bucketKey: string }[]>(limited).map((b) => b.bucketKey), keys.slice(0, 5));

    const csv = await diazo(["bucket", "list", "--region", "EMEA", "-o", "csv"], { env });
    assert.match(csv.stdout, /^bucketKey,policyKey,region,createdAt\r\neu-one,transient,EMEA,/);
    const yaml = await diazo(["bucket", "list", "--region", "EMEA", "-o", "yaml"], { env });
    assert.match(yaml.stdout, /- bucketKey: eu-one/);
  }));

Deno.test("consecutive commands reuse the cached token (one token request)", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    for (let i = 0; i < 3; i++) {
      assert.equal((await diazo(["bucket", "list", "--region", "US"], { env })).code, 0);
    }
    const tokenCalls = (await requestLog(sb.url, "/authentication/v2/token")).length;
    assert.equal(tokenCalls, 1);
    const st = await Deno.stat(path.join(home.configDir, "tokens.json"));
    if (Deno.build.os !== "windows") assert.equal(st.mode! & 0o777, 0o600);
    const logout = await diazo(["auth", "logout", "-o", "json"], { env });
    assert.equal(json<{ removed: number }>(logout).removed, 1);
    await diazo(["bucket", "list", "--region", "US"], { env });
    assert.equal((await requestLog(sb.url, "/authentication/v2/token")).length, 2);
  }));

Deno.test("wrong secret: exit 3, the catalog message and hint on stderr, nothing on stdout", () =>
  withSandboxHome(async ({ sb, home }) => {
    for (const args of [["auth", "test"], ["bucket", "list"]]) {
      const r = await diazo(args, { env: sandboxEnv(home, sb.url, { SVC_CLIENT_SECRET: "wrong-secret" }) });
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        /^error: Authentication failed\nhint: Check SVC_CLIENT_ID and SVC_CLIENT_SECRET/,
      );
      assert.doesNotMatch(r.stderr, /\bat .*\.ts:\d+/, "no stack trace");
    }
    const j = await diazo(["auth", "test", "-o", "json"], {
      env: sandboxEnv(home, sb.url, { SVC_CLIENT_SECRET: "wrong-secret" }),
    });
    const obj = JSON.parse(j.stderr.trim().split("\n").at(-1)!);
    assert.deepEqual(Object.keys(obj.error).sort(), ["code", "hint", "message", "status"]);
    assert.equal(obj.error.code, "auth_failed");
    assert.equal(obj.error.status, 401);
  }));

Deno.test("missing credentials and unknown bucket map to their catalog entries", () =>
  withSandboxHome(async ({ sb, home }) => {
    const noCreds = await diazo(["bucket", "list"], {
      env: sandboxEnv(home, sb.url, { SVC_CLIENT_ID: "", SVC_CLIENT_SECRET: "" }),
    });
    assert.equal(noCreds.code, 3);
    assert.match(noCreds.stderr, /^error: Missing credentials\nhint: /);
    const missing = await diazo(["bucket", "info", "no-such-bucket"], { env: sandboxEnv(home, sb.url) });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /^error: Bucket not found\nhint: /);
    const create = await diazo(["bucket", "create", "--key", "dup-key"], { env: sandboxEnv(home, sb.url) });
    assert.equal(create.code, 0, create.stderr);
    const again = await diazo(["bucket", "create", "--key", "dup-key"], { env: sandboxEnv(home, sb.url) });
    assert.equal(again.code, 6);
    assert.match(again.stderr, /^error: Bucket already exists\n/);
  }));

Deno.test(".env never overrides an exported variable; SVC_CLIENT_ID wins over APS_CLIENT_ID", () =>
  withSandboxHome(async ({ sb, home }) => {
    await Deno.writeTextFile(
      path.join(home.cwd, ".env"),
      "SVC_CLIENT_ID=wrong-from-dotenv\nSVC_CLIENT_SECRET=wrong-too\n",
    );
    const exported = await diazo(["auth", "test", "-o", "json"], {
      env: sandboxEnv(home, sb.url),
      cwd: home.cwd,
    });
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(json<{ client_id_source: string }>(exported).client_id_source, "SVC_CLIENT_ID");

    const both = await diazo(["auth", "test", "-o", "json"], {
      env: sandboxEnv(home, sb.url, { APS_CLIENT_ID: "wrong-aps", APS_CLIENT_SECRET: "wrong-aps" }),
    });
    assert.equal(both.code, 0, both.stderr);

    // With nothing exported, .env supplies the credentials.
    await Deno.writeTextFile(
      path.join(home.cwd, ".env"),
      `SVC_CLIENT_ID=diazo-sandbox\nSVC_CLIENT_SECRET=${SANDBOX_SECRET}\n`,
    );
    const fromFile = await diazo(["auth", "test", "-o", "json"], {
      env: sandboxEnv(home, sb.url, { SVC_CLIENT_ID: "", SVC_CLIENT_SECRET: "" }),
      cwd: home.cwd,
    });
    // An exported empty value counts as set, so the file must not fill it.
    assert.equal(fromFile.code, 3);
    const env = sandboxEnv(home, sb.url);
    delete env.SVC_CLIENT_ID;
    delete env.SVC_CLIENT_SECRET;
    const filled = await diazo(["auth", "test", "-o", "json"], { env, cwd: home.cwd });
    assert.equal(filled.code, 0, filled.stderr);
    assert.equal(json<{ client_id_source: string }>(filled).client_id_source, "SVC_CLIENT_ID");
  }));
