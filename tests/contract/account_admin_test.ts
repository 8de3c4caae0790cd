/** Contract of construction/accountadmin/accountadmin.yaml: projects and users of an ACC account. */

import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { expect, runPlan, type World } from "./contract.ts";

const ADMIN = "/construction/admin/v1";
const HQ = "the sandbox emulates what diazo's `admin` commands use: account projects, project users and " +
  "members, the account's users and companies; this part of the HQ v1 API is not emulated";
const ADMIN_MORE = "not emulated: diazo's `admin` commands do not use it";

Deno.test("contract: accountadmin.yaml", async () => {
  await runPlan<World>({
    file: "construction/accountadmin/accountadmin.yaml",
    setup: async (s) => ({
      t: await s.userToken("account:read account:write"),
      accountId: seededAccountId(),
    }),
    ops: {
      "GET /construction/admin/v1/accounts/{accountId}/projects": async (s, w) => {
        const op = "GET /construction/admin/v1/accounts/{accountId}/projects";
        w.projectId = (await expect(s, w, op, 200, { query: "?limit=2" })).json.results[0].id;
        assert.equal((await s.call(op, `${ADMIN}/accounts/${w.accountId}/projects`)).status, 401);
      },
      "POST /construction/admin/v1/accounts/{accountId}/projects": async (s, w) => {
        const op = "POST /construction/admin/v1/accounts/{accountId}/projects";
        const json = { name: "Contract Tower", type: "Office" };
        await expect(s, w, op, 202, { json });
        // A taken name is bad input: the platform declares no 409 for this operation.
        const taken = await expect(s, w, op, 400, { json });
        assert.match(taken.json.message, /already exists/);
        await expect(s, w, op, 400, { json: {} });
      },
      "GET /construction/admin/v1/projects/{projectId}": async (s, w) => {
        const op = "GET /construction/admin/v1/projects/{projectId}";
        await expect(s, w, op, 200);
        await expect(s, w, op, 404, { params: { projectId: "00000000-0000-0000-0000-000000000000" } });
      },
      "GET /construction/admin/v1/projects/{projectId}/users": async (s, w) => {
        await expect(s, w, "GET /construction/admin/v1/projects/{projectId}/users", 200, {
          query: "?limit=5",
        });
      },
      "GET /hq/v1/accounts/{account_id}/users": async (s, w) => {
        const op = "GET /hq/v1/accounts/{account_id}/users";
        await expect(s, w, op, 200, { query: "?limit=5", params: { account_id: w.accountId } });
      },
      "PATCH /hq/v1/accounts/{account_id}/projects/{project_id}/image": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies": async (s, w) => {
        await expect(s, w, "GET /hq/v1/accounts/{account_id}/companies", 200, {
          query: "?limit=2",
          params: { account_id: w.accountId },
        });
      },
      "POST /hq/v1/accounts/{account_id}/companies": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/companies/import": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies/{company_id}": { notServed: HQ },
      "PATCH /hq/v1/accounts/{account_id}/companies/{company_id}": { notServed: HQ },
      "PATCH /hq/v1/accounts/{account_id}/companies/{company_id}/image": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies/search": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/projects/{project_id}/companies": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/users": async (s, w) => {
        const op = "POST /hq/v1/accounts/{account_id}/users";
        const params = { account_id: w.accountId };
        const json = { email: "contract.user@example.com", first_name: "Contract", last_name: "User" };
        w.hqUserId = (await expect(s, w, op, 201, { json, params })).json.id;
        await expect(s, w, op, 409, { json, params });
        await expect(s, w, op, 400, { json: { email: "not-an-address" }, params });
      },
      "POST /hq/v1/accounts/{account_id}/users/import": async (s, w) => {
        const op = "POST /hq/v1/accounts/{account_id}/users/import";
        const json = [{ email: "contract.import@example.com" }, { email: "contract.user@example.com" }];
        const a = await expect(s, w, op, 201, { json, params: { account_id: w.accountId } });
        assert.deepEqual([a.json.success, a.json.failure], [1, 1], "the known e-mail fails alone");
      },
      "GET /hq/v1/accounts/{account_id}/users/{user_id}": async (s, w) => {
        const op = "GET /hq/v1/accounts/{account_id}/users/{user_id}";
        await expect(s, w, op, 200, { params: { account_id: w.accountId, user_id: w.hqUserId } });
        await expect(s, w, op, 404, { params: { account_id: w.accountId, user_id: "nobody" } });
      },
      "PATCH /hq/v1/accounts/{account_id}/users/{user_id}": async (s, w) => {
        const op = "PATCH /hq/v1/accounts/{account_id}/users/{user_id}";
        const params = { account_id: w.accountId, user_id: w.hqUserId };
        const companies = await s.call(
          "GET /hq/v1/accounts/{account_id}/companies",
          `/hq/v1/accounts/${w.accountId}/companies`,
          { token: w.t },
        );
        await expect(s, w, op, 200, { json: { company_id: companies.json[0].id }, params });
        // A pending user's status cannot change (accountadmin.yaml `UserPatchPayload.status`).
        await expect(s, w, op, 400, { json: { status: "inactive" }, params });
      },
      "GET /hq/v1/accounts/{account_id}/users/search": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/business_units_structure": { notServed: HQ },
      "PUT /hq/v1/accounts/{account_id}/business_units_structure": { notServed: HQ },
      "POST /construction/admin/v1/projects/{projectId}/users": async (s, w) => {
        const op = "POST /construction/admin/v1/projects/{projectId}/users";
        const json = { email: "contract.member@example.com", products: [{ key: "docs", access: "member" }] };
        w.userId = (await expect(s, w, op, 201, { json })).json.id;
        await expect(s, w, op, 400, { json: { email: "contract.member@example.com" } });
      },
      "POST /construction/admin/v2/projects/{projectId}/users:import": async (s, w) => {
        const op = "POST /construction/admin/v2/projects/{projectId}/users:import";
        const json = {
          users: [{ email: "contract.imported@example.com", products: [{ key: "docs", access: "member" }] }],
        };
        await expect(s, w, op, 202, { json });
        await expect(s, w, op, 400, { json: { users: [] } });
      },
      "GET /construction/admin/v1/projects/{projectId}/users/{userId}": async (s, w) => {
        const op = "GET /construction/admin/v1/projects/{projectId}/users/{userId}";
        await expect(s, w, op, 200);
        await expect(s, w, op, 404, { params: { userId: "nobody" } });
      },
      "PATCH /construction/admin/v1/projects/{projectId}/users/{userId}": { notServed: ADMIN_MORE },
      "DELETE /construction/admin/v1/projects/{projectId}/users/{userId}": async (s, w) => {
        const op = "DELETE /construction/admin/v1/projects/{projectId}/users/{userId}";
        await expect(s, w, op, 204);
        await expect(s, w, op, 404);
      },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/projects": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/companies": async (s, w) => {
        await expect(s, w, "GET /construction/admin/v1/accounts/{accountId}/companies", 200, {
          query: "?limit=2",
        });
      },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/products": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/roles": { notServed: ADMIN_MORE },
    },
  });
});
