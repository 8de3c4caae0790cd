/** Contract of construction/accountadmin/accountadmin.yaml: projects and users of an ACC account. */

import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { runPlan } from "./contract.ts";

const ADMIN = "/construction/admin/v1";
const HQ = "the sandbox emulates what diazo's `admin` commands use: account projects, project users and " +
  "the account's user list; this part of the HQ v1 API is not emulated";
const ADMIN_MORE = "not emulated: diazo's `admin` commands do not use it";

/** A project the steps read, learnt from the list. */
const found = { project: "" };

Deno.test("contract: accountadmin.yaml", async () => {
  const account = seededAccountId();
  await runPlan({
    file: "construction/accountadmin/accountadmin.yaml",
    setup: async (s) => ({ t: await s.userToken("account:read account:write") }),
    ops: {
      "GET /construction/admin/v1/accounts/{accountId}/projects": async (s, { t }) => {
        const op = "GET /construction/admin/v1/accounts/{accountId}/projects";
        const a = await s.call(op, `${ADMIN}/accounts/${account}/projects?limit=2`, { token: t });
        found.project = a.json.results[0].id;
        assert.equal((await s.call(op, `${ADMIN}/accounts/${account}/projects`)).status, 401);
      },
      "POST /construction/admin/v1/accounts/{accountId}/projects": async (s, { t }) => {
        const op = "POST /construction/admin/v1/accounts/{accountId}/projects";
        const body = { name: "Contract Tower", type: "Office" };
        assert.equal(
          (await s.call(op, `${ADMIN}/accounts/${account}/projects`, { token: t, json: body })).status,
          202,
        );
        assert.equal(
          (await s.call(op, `${ADMIN}/accounts/${account}/projects`, { token: t, json: body })).status,
          409,
        );
        assert.equal(
          (await s.call(op, `${ADMIN}/accounts/${account}/projects`, { token: t, json: {} })).status,
          400,
        );
      },
      "GET /construction/admin/v1/projects/{projectId}": async (s, { t }) => {
        const op = "GET /construction/admin/v1/projects/{projectId}";
        assert.equal((await s.call(op, `${ADMIN}/projects/${found.project}`, { token: t })).status, 200);
        const none = await s.call(op, `${ADMIN}/projects/00000000-0000-0000-0000-000000000000`, { token: t });
        assert.equal(none.status, 404);
      },
      "GET /construction/admin/v1/projects/{projectId}/users": async (s, { t }) => {
        const op = "GET /construction/admin/v1/projects/{projectId}/users";
        assert.equal(
          (await s.call(op, `${ADMIN}/projects/${found.project}/users?limit=5`, { token: t })).status,
          200,
        );
      },
      "GET /hq/v1/accounts/{account_id}/users": async (s, { t }) => {
        const a = await s.call(
          "GET /hq/v1/accounts/{account_id}/users",
          `/hq/v1/accounts/${account}/users?limit=5`,
          {
            token: t,
          },
        );
        assert.equal(a.status, 200);
      },
      "PATCH /hq/v1/accounts/{account_id}/projects/{project_id}/image": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/companies": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/companies/import": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies/{company_id}": { notServed: HQ },
      "PATCH /hq/v1/accounts/{account_id}/companies/{company_id}": { notServed: HQ },
      "PATCH /hq/v1/accounts/{account_id}/companies/{company_id}/image": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/companies/search": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/projects/{project_id}/companies": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/users": { notServed: HQ },
      "POST /hq/v1/accounts/{account_id}/users/import": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/users/{user_id}": { notServed: HQ },
      "PATCH /hq/v1/accounts/{account_id}/users/{user_id}": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/users/search": { notServed: HQ },
      "GET /hq/v1/accounts/{account_id}/business_units_structure": { notServed: HQ },
      "PUT /hq/v1/accounts/{account_id}/business_units_structure": { notServed: HQ },
      "POST /construction/admin/v1/projects/{projectId}/users": { notServed: ADMIN_MORE },
      "POST /construction/admin/v2/projects/{projectId}/users:import": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/projects/{projectId}/users/{userId}": { notServed: ADMIN_MORE },
      "PATCH /construction/admin/v1/projects/{projectId}/users/{userId}": { notServed: ADMIN_MORE },
      "DELETE /construction/admin/v1/projects/{projectId}/users/{userId}": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/projects": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/companies": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/products": { notServed: ADMIN_MORE },
      "GET /construction/admin/v1/accounts/{accountId}/users/{userId}/roles": { notServed: ADMIN_MORE },
    },
  });
});
