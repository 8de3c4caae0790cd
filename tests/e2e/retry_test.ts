/** e2e: retries proven against the sandbox's fault injection. */
import assert from "node:assert/strict";
import path from "node:path";
import { addFault, diazo, json, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";

const LIST = ["bucket", "list", "--region", "US", "-o", "json"];

async function warmToken(env: Record<string, string>): Promise<void> {
  // Obtain the token first so that faults on the bucket route count only bucket requests.
  const r = await diazo(["auth", "test"], { env });
  assert.equal(r.code, 0, r.stderr);
}

Deno.test("429 with Retry-After: 1 then success -> one retry after at least 1 s", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await warmToken(env);
    await addFault(sb.url, { method: "GET", path: "/oss/v2/buckets", status: 429, retry_after: 1, count: 1 });
    const r = await diazo(LIST, { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json(r), []);
    const log = await requestLog(sb.url, "/oss/v2/buckets");
    assert.deepEqual(log.map((e) => e.status), [429, 200]);
    const gap = Number(new Date(log[1].time)) - Number(new Date(log[0].time));
    assert.ok(gap >= 1000, `retry came after ${gap} ms`);
  }));

Deno.test("three 503s then success -> success", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await warmToken(env);
    await addFault(sb.url, { method: "GET", path: "/oss/v2/buckets", status: 503, count: 3 });
    const r = await diazo(LIST, { env });
    assert.equal(r.code, 0, r.stderr);
    const log = await requestLog(sb.url, "/oss/v2/buckets");
    assert.deepEqual(log.map((e) => e.status), [503, 503, 503, 200]);
  }));

Deno.test("a permanent 500 -> exit 5 after the configured attempts", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await warmToken(env);
    await Deno.writeTextFile(
      path.join(home.configDir, "config.json"),
      JSON.stringify({ settings: { max_attempts: 3 } }),
    );
    await addFault(sb.url, { method: "GET", path: "/oss/v2/buckets", status: 500 });
    const r = await diazo(LIST, { env });
    assert.equal(r.code, 5);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error: The platform failed with HTTP 500 after 3 attempts\nhint: /);
    assert.equal((await requestLog(sb.url, "/oss/v2/buckets")).length, 3);
  }));

Deno.test("a POST that is not safe to retry is not retried", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await warmToken(env);
    await addFault(sb.url, { method: "POST", path: "/oss/v2/buckets", status: 503, count: 1 });
    const r = await diazo(["bucket", "create", "--key", "once-only"], { env });
    assert.equal(r.code, 5);
    const posts = (await requestLog(sb.url, "/oss/v2/buckets")).filter((e) => e.method === "POST");
    assert.equal(posts.length, 1);
  }));

Deno.test("a dropped connection on a GET is retried", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await warmToken(env);
    await addFault(sb.url, { method: "GET", path: "/oss/v2/buckets", drop: true, count: 1 });
    const r = await diazo(LIST, { env });
    assert.equal(r.code, 0, r.stderr);
  }));
