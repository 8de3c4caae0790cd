/**
 * `--limit` below a page asks the platform for that many items (src/http/pagination.ts `pageSized`,
 * and the lists that page themselves: src/families/admin/api_hq.ts), for the lists of several families
 * and both page-size names (`limit`, JSON:API's `page[limit]`);
 * a limit above a page keeps the list's own page size. Through runCli against a sandbox on port 0,
 * read back from the sandbox's request log.
 */
import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { json, openSandboxHome, type SandboxHome } from "./harness.ts";
import { lastSeq, logSince, PROJECT } from "./acc_fixture.ts";
import { loginUser } from "./user_login.ts";

const ACCOUNT = seededAccountId();

/** Runs a list command and returns its items and the query of each list request it sent under `prefix`. */
async function listed(h: SandboxHome, args: string[], prefix: string) {
  const seq = await lastSeq(h);
  const r = await h.run([...args, "-o", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const sent = (await logSince(h, seq, prefix)).filter((e) => e.method === "GET").map((e) => e.query);
  return { items: json<unknown[]>(r), sent };
}

Deno.test("--limit: a list cut below a page asks for that many items, in every family's page-size name", async (t) => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const login = await loginUser(h.env, "data:read,data:write,data:create,account:read");
    assert.equal(login.code, 0, login.stderr);
    for (const key of ["limit-a", "limit-b", "limit-c"]) {
      const made = await h.run(["bucket", "create", "--key", key]);
      assert.equal(made.code, 0, made.stderr);
    }
    // Each list cut below its page: the command, where its requests go, the page-size name, the limit.
    const cuts: { name: string; args: string[]; prefix: string; size: string; n: number }[] = [
      // One request per region, each for two buckets.
      { name: "bucket list (OSS)", args: ["bucket", "list"], prefix: "/oss/v2/buckets", size: "limit", n: 2 },
      {
        name: "issue list (ACC)",
        args: ["issue", "list", "--project", PROJECT],
        prefix: `/construction/issues/v1/projects/${PROJECT}/issues`,
        size: "limit",
        n: 3,
      },
      {
        name: "project list (JSON:API)",
        args: ["project", "list", `b.${ACCOUNT}`],
        prefix: `/project/v1/hubs/b.${ACCOUNT}/projects`,
        size: "page[limit]",
        n: 1,
      },
      {
        name: "admin project list (account administration)",
        args: ["admin", "project", "list", "--account", ACCOUNT],
        prefix: `/construction/admin/v1/accounts/${ACCOUNT}/projects`,
        size: "limit",
        n: 1,
      },
      {
        name: "admin user list (HQ, paged by its own loop)",
        args: ["admin", "user", "list", "--account", ACCOUNT],
        prefix: `/hq/v1/accounts/${ACCOUNT}/users`,
        size: "limit",
        n: 2,
      },
    ];
    for (const c of cuts) {
      await t.step(c.name, async () => {
        const { items, sent } = await listed(h, [...c.args, "--limit", String(c.n)], c.prefix);
        assert.equal(items.length, c.n);
        assert.ok(sent.length > 0 && sent.every((q) => q[c.size] === String(c.n)), JSON.stringify(sent));
      });
    }
    await t.step("a limit above a page keeps the page size and reads on", async () => {
      const { items, sent } = await listed(
        h,
        ["issue", "list", "--project", PROJECT, "--limit", "120"],
        `/construction/issues/v1/projects/${PROJECT}/issues`,
      );
      assert.equal(items.length, 120);
      assert.deepEqual(sent.map((q) => [q.limit, q.offset]), [["100", undefined], ["100", "100"]]);
    });
  } finally {
    await h.close();
  }
});
