/** Lists whose pages loop are cut with a warning; issue numbers are checked as digits, not rounded. */
import assert from "node:assert/strict";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { issueNumber } from "../../src/families/issue/verbs.ts";
import { openSandboxHome, requestLog } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

const items = Array.from({ length: 100 }, (_, i) => ({ objectKey: `k${i}` }));

Deno.test("item 13: api --paginate over a server repeating the same page and next link: 100 items once, a warning", async () => {
  const h = startHostile((_req, url, h) =>
    url.pathname === "/oss/v2/buckets/b/objects"
      ? Response.json({ items, next: `${h.url}${url.pathname}?startAt=k99` })
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["api", "/oss/v2/buckets/b/objects", "--paginate", "-o", "json"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).length, 100);
    assert.match(
      r.stderr,
      /warning: page 2 of \/oss\/v2\/buckets\/b\/objects repeats an earlier page; stopped there/,
    );
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 13: a next link that points back to an earlier page ends the list with a warning", async () => {
  let n = 0;
  const h = startHostile((_req, url, h) => {
    if (url.pathname !== "/oss/v2/buckets/b/objects") return undefined;
    const page = items.slice(0, 10).map((x) => ({ objectKey: `${x.objectKey}-${n++}` }));
    return Response.json({ items: page, next: `${h.url}${url.pathname}?startAt=a` });
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["api", "/oss/v2/buckets/b/objects", "--paginate", "-o", "json"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).length, 20);
    assert.match(r.stderr, /warning: page 2 of \/oss\/v2\/buckets\/b\/objects links back to an earlier page/);
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 18: issue numbers are checked as digit strings within 1..2147483647", () => {
  assert.equal(issueNumber("42"), 42);
  assert.equal(issueNumber("0042"), 42);
  assert.equal(issueNumber("2147483647"), 2147483647);
  for (const bad of ["0", "2147483648", "99999999999999999999", "9".repeat(400)]) {
    assert.throws(() => issueNumber(bad), /is out of range/, bad);
  }
});

Deno.test("item 18: issue get 99999999999999999999 is a usage error; nothing rounded is sent", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    assert.equal((await loginUser(h.env, "data:read")).code, 0);
    const project = [...seedAccount().projects.values()][0].id;
    const before = (await requestLog(h.sb.url, "/construction/issues")).length;
    const r = await h.run(["issue", "get", "99999999999999999999", "--project", project]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: issue number 99999999999999999999 is out of range\n/);
    assert.equal((await requestLog(h.sb.url, "/construction/issues")).length, before, "no issue request");
  } finally {
    await h.close();
  }
});
