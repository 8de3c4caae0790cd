/**
 * e2e: the `issue` family against one sandbox — no login, lists over pages and filters, ids in
 * every form, the create → get → update → transition → comment → attachment flow on one issue,
 * a forbidden transition, `--from-file` mistakes, a non-member, and the issue tools of `serve`.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { fails, ok, startServe } from "../mcp/helpers.ts";
import { diazo, json, makeHome, openSandboxHome, requestLog, type RunResult, sandboxEnv } from "./harness.ts";
import { loginUser } from "./user_login.ts";

const [RIVERSIDE, HARBOR] = [...seedAccount().projects.values()].map((p) => p.id);
const ISSUES = "/construction/issues/v1/projects";

type Issue = {
  id: string;
  displayId: number;
  title: string;
  status: string;
  dueDate: string | null;
  assignedTo: string | null;
  issueSubtypeId: string;
  permittedStatuses: string[];
};

function fail(r: RunResult, code: number, message: RegExp): void {
  assert.equal(r.code, code, r.stderr);
  assert.match(r.stderr, message);
  assert.match(r.stderr, /\nhint: \S/);
}

Deno.test("issue: every command against the sandbox", async (t) => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  const env = h.env;
  const run = (...args: string[]) => diazo(args, { env, cwd: h.home.cwd });
  const count = async () => (await requestLog(h.sb.url)).length;
  try {
    await t.step("no login: exit 3 before any request", async () => {
      const r = await run("issue", "list", "--project", RIVERSIDE);
      fail(r, 3, /^error: Authentication required \(3-legged OAuth\)\nhint: .*diazo auth login/);
      assert.deepEqual(await requestLog(h.sb.url), [], "the request log is empty");
    });

    const login = await loginUser(env, "data:read,data:write,data:create");
    assert.equal(login.code, 0, login.stderr);

    await t.step("list: every page, --limit, filters, table; b. and ACC addresses stripped", async () => {
      const all = json<Issue[]>(await run("issue", "list", "--project", `b.${RIVERSIDE}`, "-o", "json"));
      assert.equal(all.length, 130);
      const pages = await requestLog(h.sb.url, `${ISSUES}/${RIVERSIDE}/issues`);
      assert.equal(pages.length, 2, "two pages of 100");
      assert.ok(pages.every((p) => p.path === `${ISSUES}/${RIVERSIDE}/issues`), "the bare GUID is sent");
      const before = await count();
      const url = `https://acc.autodesk.com/docs/files/projects/${RIVERSIDE}?folderUrn=urn%3Aadsk.wipprod`;
      const five = json<Issue[]>(await run("issue", "list", "--project", url, "--limit", "5", "-o", "json"));
      assert.deepEqual(five.map((i) => i.displayId), [1, 2, 3, 4, 5]);
      assert.equal(await count(), before + 1, "--limit 5 takes one page");

      const open = json<Issue[]>(
        await run("issue", "list", "--project", RIVERSIDE, "--status", "open", "-o", "json"),
      );
      assert.ok(open.length > 5 && open.every((i) => i.status === "open"));
      const who = all[1].assignedTo!;
      const due = json<Issue[]>(
        await run(
          "issue",
          "list",
          "--project",
          RIVERSIDE,
          "--assigned-to",
          who,
          "--due-before",
          "2024-05-01",
          "-o",
          "json",
        ),
      );
      assert.ok(due.length > 0);
      assert.ok(due.every((i) => i.assignedTo === who && i.dueDate !== null && i.dueDate < "2024-05-01"));
      const found = json<Issue[]>(
        await run("issue", "list", "--project", HARBOR, "--search", "handrail", "-o", "json"),
      );
      assert.ok(found.length > 0 && found.every((i) => /handrail/i.test(i.title)));

      const mine = json<Issue[]>(
        await run(
          "issue",
          "list",
          "--project",
          RIVERSIDE,
          "--assigned-to",
          "me",
          "--sort",
          "-dueDate",
          "-o",
          "json",
        ),
      );
      assert.ok(
        mine.length > 0 && mine.every((i) => i.assignedTo === "DIAZOSANDBOXUSER"),
        "me is the caller",
      );
      const dues = mine.map((i) => i.dueDate ?? "");
      assert.deepEqual(dues, [...dues].sort().reverse(), "--sort -dueDate");
      const table = await run("issue", "list", "--project", RIVERSIDE, "--limit", "3", "-o", "table");
      assert.match(table.stdout, /displayId\s.*id\s.*title\s.*status\s.*assignedTo\s.*dueDate/);
      const sent = await count();
      const sort = await run("issue", "list", "--project", RIVERSIDE, "--sort", "-dueDate,colour");
      fail(sort, 2, /^error: --sort 'colour' is not a field issues sort by\nhint: .*createdBy/);
      assert.equal(await count(), sent, "a bad --sort sends nothing");
      const byType = json<Issue[]>(
        await run(
          "issue",
          "list",
          "--project",
          RIVERSIDE,
          "--sort",
          "issueSubType,-displayId",
          "--limit",
          "3",
          "-o",
          "json",
        ),
      );
      assert.equal(byType.length, 3, "every field of the platform's sortBy is accepted");
      const bad = await run("issue", "list", "--project", "b.my-project");
      fail(bad, 2, /^error: 'b\.my-project' is not an ACC\/BIM 360 id/);
      const unknown = await run("issue", "list", "--project", "my-project");
      fail(unknown, 2, /^error: no project named 'my-project'\n/);
      const missing = await run("issue", "list", "--project", crypto.randomUUID());
      fail(missing, 4, /^error: Project not found\n/);
    });

    await t.step("types: categories and subtypes", async () => {
      const types = json<{ title: string; subtypes: { title: string }[] }[]>(
        await run("issue", "types", "--project", RIVERSIDE, "-o", "json"),
      );
      assert.deepEqual(types.map((x) => x.title), [
        "Quality",
        "Safety",
        "Design",
        "Commissioning",
        "Warranty",
      ]);
      const table = await run("issue", "types", "--project", RIVERSIDE, "-o", "table");
      assert.match(table.stdout, /subtypeId\s.*type\s.*code\s.*category\s.*active/);
      assert.match(table.stdout, /Defect\s.*DEF\s.*Quality/);
    });

    await t.step("create → get → update → transition → comment → attachment on one issue", async () => {
      const created = json<Issue>(
        await run(
          "issue",
          "create",
          "--project",
          RIVERSIDE,
          "--title",
          "Cracked plinth",
          "--type",
          "Defect",
          "--due",
          "2026-12-01",
          "-o",
          "json",
        ),
      );
      assert.equal(created.status, "open");
      assert.equal(created.displayId, 131);
      /** `diazo issue <verb> <the issue> --project <Riverside> ...rest`. */
      const on = (verb: string, ...rest: string[]) =>
        run("issue", verb, created.id, "--project", RIVERSIDE, ...rest);
      const got = json<Issue>(await on("get", "-o", "json"));
      assert.equal(got.title, "Cracked plinth");
      assert.equal(got.dueDate, "2026-12-01");
      const byNumber = json<Issue>(await run("issue", "get", "#131", "--project", RIVERSIDE, "-o", "json"));
      assert.equal(byNumber.id, created.id, "an issue is also named by its number");
      fail(await run("issue", "get", "999", "--project", RIVERSIDE), 4, /^error: Not found: issue #999/);
      const elsewhere = await run("issue", "get", created.id, "--project", crypto.randomUUID());
      fail(elsewhere, 4, /^error: Project not found\n/);

      // Only what differs is sent: the title is unchanged, the due date and assignee are new.
      const update = await on(
        "update",
        "--title",
        "Cracked plinth",
        "--due-date", // the spelling of rfi and acc records; --due too
        "2026-12-15",
        "--assigned-to",
        "SANDBOXADAMORENO",
        "-o",
        "json",
        "--debug",
      );
      assert.equal(update.code, 0, update.stderr);
      const patches = (await requestLog(h.sb.url, `${ISSUES}/${RIVERSIDE}/issues/${created.id}`))
        .filter((e) => e.method === "PATCH") as unknown as { body: unknown }[];
      const sent = { dueDate: "2026-12-15", assignedTo: "SANDBOXADAMORENO", assignedToType: "user" };
      assert.deepEqual(patches.map((p) => p.body), [sent], "the request log shows only the changed fields");
      const traced = /> PATCH \S+\n(?:.*\n)*?debug: > (\{.*\})/.exec(update.stderr);
      assert.deepEqual(JSON.parse(traced?.[1] ?? "null"), sent, "--debug shows the same body");
      const reassigned = await on("update", "--assigned-to", "SANDBOXBRUNOKELLER", "-o", "json");
      assert.equal(
        json<Issue>(reassigned).assignedTo,
        "SANDBOXBRUNOKELLER",
        "a new assignee of the same type",
      );
      const before = await count();
      const same = await on("update", "--due", "2026-12-15");
      assert.equal(same.code, 0, same.stderr);
      assert.match(same.stderr, /already has those values; nothing sent/);
      assert.equal(await count(), before + 1, "one GET, no PATCH");

      const moved = json<Issue>(
        await on("transition", "--to", "in_progress", "-o", "json"),
      );
      assert.equal(moved.status, "in_progress");
      const requests = await count();
      const again = await on("transition", "--to", "in_progress", "-o", "json");
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /Issue #131 is already in_progress: nothing sent/);
      assert.equal(json<Issue>(again).status, "in_progress");
      assert.equal(await count(), requests + 1, "a second run reads the issue and sends nothing");
      const forbidden = await on("transition", "--to", "closed");
      fail(
        forbidden,
        2,
        /^error: cannot move issue #131 from in_progress to closed\nhint: .*pending, in_review, open/,
      );
      const unknown = await on("transition", "--to", "answered");
      fail(unknown, 2, /^error: 'answered' is not an issue status\nhint: From in_progress it may move to/);

      const comment = await on("comment", "--body", "On it", "-o", "json");
      assert.equal(json<{ body: string }>(comment).body, "On it");
      const comments = json<{ body: string }[]>(
        await run("issue", "comment", "list", created.id, "--project", RIVERSIDE, "-o", "json"),
      );
      assert.deepEqual(comments.map((c) => c.body), ["On it"]);

      await Deno.writeTextFile(path.join(h.home.cwd, "site photo.jpg"), "not really a jpeg\n".repeat(100));
      const attached = await run(
        "issue",
        "attachment",
        created.id,
        "site photo.jpg",
        "--project",
        RIVERSIDE,
        "-o",
        "json",
      );
      assert.equal(attached.code, 0, attached.stderr);
      const a = json<{ displayName: string; fileSize: number; storageUrn: string }>(attached);
      assert.equal(a.displayName, "site photo.jpg");
      assert.equal(a.fileSize, 1800);
      assert.match(a.storageUrn, /^urn:adsk\.objects:os\.object:wip\.dm\.prod\/[0-9a-f-]{36}\.jpg$/);
      const listed = json<{ displayName: string }[]>(
        await run("issue", "attachment", "list", created.id, "--project", RIVERSIDE, "-o", "json"),
      );
      assert.deepEqual(listed.map((x) => x.displayName), ["site photo.jpg"]);
      const noFile = await run("issue", "attachment", created.id, "nope.jpg", "--project", RIVERSIDE);
      fail(noFile, 2, /^error: File not found: nope\.jpg/);
    });

    await t.step("a list of comments over two pages", async () => {
      const first =
        json<Issue[]>(await run("issue", "list", "--project", RIVERSIDE, "--limit", "1", "-o", "json"))[0];
      const comments = json<unknown[]>(
        await run("issue", "comment", "list", first.id, "--project", RIVERSIDE, "-o", "json"),
      );
      assert.equal(comments.length, 105);
      assert.equal(
        (await requestLog(h.sb.url, `${ISSUES}/${RIVERSIDE}/issues/${first.id}/comments`)).length,
        2,
      );
    });

    await t.step(
      "--from-file: fields from YAML; mistakes are exit 2 with file:line:col and no request",
      async () => {
        await Deno.writeTextFile(
          path.join(h.home.cwd, "issue.yaml"),
          "title: Loose railing\nissueSubtypeId: Hazard\ndueDate: 2026-11-30\nlocationDetails: Stair B\n",
        );
        const made = json<Issue & { locationDetails: string }>(
          await run("issue", "create", "--project", RIVERSIDE, "--from-file", "issue.yaml", "-o", "json"),
        );
        assert.equal(made.locationDetails, "Stair B");
        assert.equal(made.dueDate, "2026-11-30");
        const cases: [string, string, RegExp][] = [
          ["bad.json", '{"title": "x"\n  "status": "open"}', /^error: bad\.json:2:3: not valid JSON or YAML/],
          ["bad.yaml", "title: x\n  - y: [\n", /^error: bad\.yaml:\d+:\d+: not valid JSON or YAML/],
          ["unknown.yaml", "title: x\ncolour: red\n", /^error: unknown\.yaml:2:1: unknown field 'colour'/],
          [
            "type.json",
            '{\n  "title": "x",\n  "published": "yes"\n}',
            /^error: type\.json:3:16: field 'published' must be true or false/,
          ],
        ];
        for (const [name, text, message] of cases) {
          await Deno.writeTextFile(path.join(h.home.cwd, name), text);
          const before = await count();
          const r = await run(
            "issue",
            "create",
            "--project",
            RIVERSIDE,
            "--type",
            "Defect",
            "--from-file",
            name,
          );
          fail(r, 2, message);
          assert.equal(await count(), before, `${name}: no request`);
        }
      },
    );

    await t.step("a user who is not a member: exit 3, access denied", async () => {
      const other = await makeHome();
      try {
        const otherEnv = sandboxEnv(other, h.sb.url, { DIAZO_NO_BROWSER: "1" });
        const l = await loginUser(otherEnv, "data:read,data:write", "visitor.user");
        assert.equal(l.code, 0, l.stderr);
        const r = await diazo(["issue", "list", "--project", RIVERSIDE], { env: otherEnv });
        fail(r, 3, /^error: Access denied to a construction-cloud project\nhint: .*account:read,data:read/);
        // A member whose login lacks the data scopes is refused the same way.
        const again = await loginUser(otherEnv, "account:read");
        assert.equal(again.code, 0, again.stderr);
        const noScope = await diazo(["issue", "types", "--project", RIVERSIDE], { env: otherEnv });
        fail(noScope, 3, /^error: Access denied to a construction-cloud project\n/);
      } finally {
        await other.cleanup();
      }
    });

    await t.step("--help: every command has an example", async () => {
      const commands = [
        ["list"],
        ["get"],
        ["create"],
        ["update"],
        ["types"],
        ["transition"],
        ["comment"],
        ["comment", "list"],
        ["attachment"],
        ["attachment", "list"],
      ];
      for (const c of commands) {
        const r = await run("issue", ...c, "--help");
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /Examples:\n {2}\$ diazo issue /, c.join(" "));
      }
    });

    await t.step("serve: issue tools with structured results, isError, --read-only", async () => {
      const serve = await startServe(env, [], h.home.cwd);
      try {
        const { tools } = await serve.client.listTools();
        const hints = (name: string) => tools.find((x) => x.name === name)?.annotations;
        assert.equal(hints("issue_update")?.destructiveHint, true, "an update overwrites fields");
        assert.equal(hints("issue_create")?.destructiveHint, false, "a create adds");
        assert.equal(hints("issue_get")?.readOnlyHint, true);
        const status = await ok(serve.client, "auth_status");
        const use = (name: string) => status.tools.find((x: { name: string }) => x.name === name);
        assert.deepEqual(
          [use("issue_list").login, use("issue_list").usable],
          ["user", true],
          "the user login serves",
        );
        const page = await ok(serve.client, "issue_list", { project_id: `b.${HARBOR}`, limit: 10 });
        assert.equal(page.count, 10);
        assert.equal(page.has_more, true);
        const rest = await ok(serve.client, "issue_list", {
          project_id: HARBOR,
          limit: 50,
          cursor: page.next_cursor,
        });
        assert.equal(rest.count, 14);
        // The tools were listed first (as every assistant does): the client checks each answer against them.
        const made = (await ok(serve.client, "issue_create", {
          project_id: HARBOR,
          title: "Bearing pad missing",
          issue_subtype_id: "Defect",
        })).issue;
        const byNumber = (await ok(serve.client, "issue_get", {
          project_id: HARBOR,
          issue_id: String(made.displayId),
        })).issue;
        assert.equal(byNumber.id, made.id);
        assert.equal(byNumber.status, "open");
        assert.ok(
          Array.isArray(byNumber.permittedActions),
          "the platform's record, with fields beyond the declared",
        );
        const upd = await ok(serve.client, "issue_update", {
          project_id: HARBOR,
          issue_id: made.id,
          title: "Bearing pad missing",
          status: "in_review",
        });
        assert.deepEqual(upd.changed, ["status"]);
        const refused = await fails(serve.client, "issue_update", {
          project_id: HARBOR,
          issue_id: made.id,
          status: "draft",
        });
        assert.equal(refused.code, "usage");
        assert.match(refused.message, /cannot move issue #\d+ from in_review to draft/);
        const c = await ok(serve.client, "issue_comment_add", {
          project_id: HARBOR,
          issue_id: made.id,
          body: "Seen",
        });
        assert.equal(c.body, "Seen");
      } finally {
        await serve.close();
      }
      const ro = await startServe(env, ["--read-only"], h.home.cwd);
      try {
        const names = (await ro.client.listTools()).tools.map((x) => x.name);

        assert.ok(names.includes("issue_list") && names.includes("issue_get"));
        for (const w of ["issue_create", "issue_update", "issue_comment_add"]) {
          assert.ok(!names.includes(w), w);
        }
      } finally {
        await ro.close();
      }
    });
  } finally {
    await h.close();
  }
});
