/**
 * The construction-cloud and account tools through tools only, as the logged-in sandbox user: an
 * issue created with a type found by issue_types, one record of each kind read, and a project's
 * users listed and added to.
 */
import assert from "node:assert/strict";
import { openSandboxHome } from "../e2e/harness.ts";
import { loginUser } from "../e2e/user_login.ts";
import { ok, startServe } from "./helpers.ts";
import { BIM360_PROJECT } from "../e2e/acc_fixture.ts";

Deno.test("tools: accounts, projects and users; issue_types gives the type issue_create takes; one record of each kind", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const login = await loginUser(h.env, "data:read,data:write,data:create,account:read,account:write");
    assert.equal(login.code, 0, login.stderr);
    const serve = await startServe(h.env, ["--toolsets", "acc,admin"], h.home.cwd);
    try {
      const accounts = await ok(serve.client, "admin_account_list", {});
      assert.ok(accounts.count > 0);
      const projects = await ok(serve.client, "admin_project_list", {
        account_id: accounts.items[0].id,
        limit: 2,
      });
      assert.equal(projects.count, 2);
      const project = projects.items[0].id;
      const before = await ok(serve.client, "admin_project_users", { project_id: project });
      const added = await ok(serve.client, "admin_project_user_add", {
        project_id: project,
        email: "new.member@example.com",
        confirm: true,
      });
      assert.equal(added.member.email, "new.member@example.com");
      const after = await ok(serve.client, "admin_project_users", { project_id: project, limit: 200 });
      assert.equal(after.count, before.count + 1);

      const { types } = await ok(serve.client, "issue_types", { project_id: project });
      const subtype = types.flatMap((t: { subtypes?: { id: string; isActive: boolean }[] }) =>
        t.subtypes ?? []
      )
        .find((s: { isActive: boolean }) => s.isActive);
      assert.ok(subtype, "an active subtype");
      const { issue } = await ok(serve.client, "issue_create", {
        project_id: project,
        title: "Made through tools",
        issue_subtype_id: subtype.id,
      });
      assert.equal(issue.issueSubtypeId, subtype.id);
      assert.equal(
        (await ok(serve.client, "issue_get", { project_id: project, issue_id: issue.id })).issue.title,
        "Made through tools",
      );

      for (const kind of ["rfi", "asset", "submittal", "checklist"]) {
        // Checklists are a BIM 360 service: the seeded BIM 360 project has them.
        const where = kind === "checklist" ? BIM360_PROJECT : project;
        const first = (await ok(serve.client, `${kind}_list`, { project_id: where, limit: 1 })).items[0];
        assert.ok(first, `${kind}: one listed`);
        const got = await ok(serve.client, `${kind}_get`, { project_id: where, id: first.id });
        assert.equal(got.record.id, first.id, kind);
      }
    } finally {
      await serve.close();
    }
  } finally {
    await h.close();
  }
});
