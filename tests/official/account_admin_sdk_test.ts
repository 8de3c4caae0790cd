/**
 * The official account-admin and authentication SDKs against the sandbox: assign a project user
 * then read it back, import project users (v2), read, patch and import HQ account users, and read
 * the user's profile with the token passed as the SDK passes it (no `Bearer`).
 */
import assert from "node:assert/strict";
import { AdminClient, ProductAccess, ProductKeys, Region } from "@aps_sdk/construction-account-admin";
import { AuthenticationClient } from "@aps_sdk/authentication";
import { seededAccountId, seededBim360AccountId } from "../../src/sandbox/admin/store.ts";
import { SANDBOX_USER } from "../../src/sandbox/auth/users.ts";
import { withSandbox } from "../sandbox/helpers.ts";
import { login } from "../sandbox/oauth_helpers.ts";
import { sdkManagerFor } from "./sdk.ts";

Deno.test("official SDK: project users (assign, get, v2 import) on an ACC account", async () => {
  await withSandbox(async (sb) => {
    const { access_token: accessToken } = await login(sb, "account:read account:write");
    const admin = new AdminClient({ sdkManager: sdkManagerFor(sb) });
    const projects = await admin.getProjects(seededAccountId(), { accessToken, limit: 5 });
    const projectId = projects.results![0].id!;

    const assigned = await admin.assignProjectUser(projectId, {
      email: "sdk.member@example.com",
      products: [{ key: ProductKeys.Docs, access: ProductAccess.Member }],
    }, { accessToken, region: Region.Us });
    assert.equal(assigned.email, "sdk.member@example.com");
    const read = await admin.getProjectUser(projectId, assigned.id!, { accessToken, region: Region.Us });
    assert.deepEqual([read.id, read.email], [assigned.id, "sdk.member@example.com"]);

    const imported = await admin.importProjectUsers(projectId, {
      users: [
        { email: "sdk.one@example.com", products: [{ key: ProductKeys.Docs, access: ProductAccess.Member }] },
        {
          email: "sdk.two@example.com",
          products: [{ key: ProductKeys.Build, access: ProductAccess.Administrator }],
        },
      ],
    }, { accessToken });
    assert.match(String(imported.jobId), /^[0-9a-f-]{36}$/);
    const members = await admin.getProjectUsers(projectId, { accessToken, limit: 200 });
    const emails = members.results!.map((u) => u.email);
    assert.ok(
      emails.includes("sdk.one@example.com") && emails.includes("sdk.two@example.com"),
      emails.join(),
    );
  });
});

Deno.test("official SDK: HQ account users (get, patch, import) on both account kinds", async () => {
  await withSandbox(async (sb) => {
    const { access_token: accessToken } = await login(sb, "account:read account:write");
    const admin = new AdminClient({ sdkManager: sdkManagerFor(sb) });
    for (const accountId of [seededAccountId(), seededBim360AccountId()]) {
      const users = await admin.getUsers(accountId, { accessToken, limit: 100 });
      const active = users.find((u) => u.status === "active")!;
      const one = await admin.getUser(accountId, active.id!, { accessToken });
      assert.deepEqual([one.id, one.email], [active.id, active.email]);

      const patched = await admin.patchUserDetails(accountId, active.id!, { status: "inactive" as never }, {
        accessToken,
      });
      assert.equal(patched.status, "inactive");
      assert.equal((await admin.getUser(accountId, active.id!, { accessToken })).status, "inactive");

      const result = await admin.importUsers(accountId, [
        { email: "sdk.import@example.com", first_name: "Sdk" },
        { email: "not an address" },
      ], { accessToken });
      assert.deepEqual([result.success, result.failure], [1, 1]);
      assert.equal(result.success_items![0].email, "sdk.import@example.com");
    }
  });
});

Deno.test("official SDK: getUserInfo sends the token without Bearer, and the sandbox answers", async () => {
  await withSandbox(async (sb) => {
    const { access_token } = await login(sb, "user-profile:read");
    const auth = new AuthenticationClient({ sdkManager: sdkManagerFor(sb) });
    auth.usersApi.baseAddress = new URL(sb.url);
    const info = await auth.getUserInfo(access_token);
    assert.equal(info.email, SANDBOX_USER.email);
    const refused = await fetch(`${sb.url}/userinfo`, { headers: { authorization: "not-a-token" } });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
  });
});
