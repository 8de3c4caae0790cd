/**
 * Token answers are checked before they are used or cached, the token store's readers survive a
 * malformed entry, and a refused refresh names its cause.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { openSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

Deno.test("item 2: a token answer without access_token is an authentication error naming the endpoint, never cached", async () => {
  const h = startHostile((req, url) =>
    url.pathname === "/authentication/v2/token"
      ? req.body!.cancel().then(() => Response.json({ ok: true }))
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["bucket", "list", "--region", "US"], env, home.cwd);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^error: Authentication failed: the token endpoint http:\/\/127\.0\.0\.1:\d+\/authentication\/v2\/token answered with no access_token\n/,
    );
    assert.deepEqual(h.hits.map((x) => x.path).filter((p) => !p.startsWith("/authentication")), []);
    const tokens = await Deno.readTextFile(path.join(home.configDir, "tokens.json")).catch(() => "{}");
    assert.deepEqual(JSON.parse(tokens), {});
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 2: a token answer with expires_in 0 is refused too; a malformed stored entry is skipped by every reader", async () => {
  const h = startHostile((req, url) =>
    url.pathname === "/authentication/v2/token"
      ? req.body!.cancel().then(() => Response.json({ access_token: "abcd-token", expires_in: 0 }))
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["bucket", "list", "--region", "US"], env, home.cwd);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /answered with no positive expires_in/);
    // What an earlier version left behind: an entry without access_token.
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      path.join(home.configDir, "tokens.json"),
      JSON.stringify({
        "default|2-legged|x|y|data:read": { ok: true, profile: "default", mode: "2-legged" },
      }),
    );
    for (const argv of [["auth", "support-report", "-o", "json"], ["auth", "status", "-o", "json"]]) {
      const report = await run(argv, env, home.cwd);
      assert.doesNotMatch(report.stderr, /Cannot read properties|TypeError/, argv.join(" "));
      assert.equal(report.code, 0, `${argv.join(" ")}: ${report.stderr}`);
    }
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 17: a wrong client secret during a 3-legged refresh is 'Authentication failed', not 'Token expired'", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const login = await loginUser(h.env, "data:read");
    assert.equal(login.code, 0, login.stderr);
    const file = path.join(h.home.configDir, "tokens.json");
    const all = JSON.parse(await Deno.readTextFile(file));
    for (const t of Object.values(all) as { expires_at: number }[]) t.expires_at = 0;
    await Deno.writeTextFile(file, JSON.stringify(all));
    const r = await h.run(["api", "/project/v1/hubs", "--as", "user"], {
      env: { ...h.env, SVC_CLIENT_SECRET: "not-the-secret" },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /^error: Authentication failed: the token endpoint refused the app's client credentials/,
    );
    assert.doesNotMatch(r.stderr, /Token expired/);
  } finally {
    await h.close();
  }
});
