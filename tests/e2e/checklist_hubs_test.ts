/**
 * Checklists of every BIM 360 project a user sees, whichever account hub holds it: the client finds a
 * project's checklists container through its data-management project (families/checklist/api.ts),
 * and the sandbox's account hubs list every project of their account (src/sandbox/dm/routes.ts).
 */
import assert from "node:assert/strict";
import { json, withSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";
import { seedAccount, seedBim360Account } from "../../src/sandbox/admin/store.ts";

const template = [...seedAccount().projects.values()].find((p) => p.classification === "template")!;
const legacy = [...seedBim360Account().projects.values()];

Deno.test("checklists: the BIM 360 account's projects and the template project are found", async () => {
  await withSandboxHome(async (h) => {
    const login = await loginUser(h.env, "data:read,data:write,data:create");
    assert.equal(login.code, 0, login.stderr);
    assert.equal(legacy.length, 2, "the seed has two BIM 360 projects in the BIM 360 account");
    for (const p of legacy) {
      const r = await h.run(["acc", "checklist", "list", "--project", p.id, "-o", "json"]);
      assert.equal(r.code, 0, `${p.name}: ${r.stderr}`);
      assert.ok(Array.isArray(json(r)));
    }
    const t = await h.run(["acc", "checklist", "list", "--project", template.id]);
    assert.equal(t.code, 2, t.stderr);
    assert.match(t.stderr, /^error: project \S+ is an ACC project; the BIM 360 checklists API/);
    assert.doesNotMatch(t.stderr, /Project not found/);
    const hubs = json<{ id: string; name: string }[]>(await h.run(["hub", "list", "-o", "json"]));
    const hub = hubs.find((x) => x.id === `b.${legacy[0].accountId}`);
    assert.ok(hub, "the BIM 360 account is a hub");
    const projects = json<{ id: string; name: string }[]>(
      await h.run(["project", "list", hub.id, "-o", "json"]),
    );
    assert.deepEqual(projects.map((p) => p.id).sort(), legacy.map((p) => `b.${p.id}`).sort());
  });
});
