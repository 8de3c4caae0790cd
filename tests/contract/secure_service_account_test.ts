/** Contract of secureServiceAccount.yaml: the JWT-bearer token exchange; the account API is not served. */

import assert from "node:assert/strict";
import { signAssertion } from "../../src/auth/service_account.ts";
import { APP, basic } from "../sandbox/helpers.ts";
import { runPlan } from "./contract.ts";

const ACCOUNTS =
  "the sandbox makes service accounts through its control API (POST /_sandbox/service-accounts), " +
  "not the platform's account API";

Deno.test("contract: secureServiceAccount.yaml", async () => {
  await runPlan({
    file: "secureserviceaccount/secureServiceAccount.yaml",
    setup: async (s) => {
      const made = await s.send("POST", `${s.sb.url}/_sandbox/service-accounts`, { json: {} });
      assert.equal(made.status, 201);
      return made.json as { serviceAccountId: string; keyId: string; privateKey: string };
    },
    ops: {
      "POST /authentication/v2/token": async (s, sa) => {
        const assertion = await signAssertion({
          clientId: APP.id,
          serviceAccountId: sa.serviceAccountId,
          keyId: sa.keyId,
          pem: sa.privateKey,
          scopes: ["data:read", "data:write"],
        });
        const form = {
          grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
          assertion,
          scope: "data:read",
        };
        const a = await s.call("POST /authentication/v2/token", "/authentication/v2/token", {
          form,
          headers: { authorization: basic(APP.id, APP.secret) },
        });
        assert.equal(a.status, 200);
        const bad = await s.call("POST /authentication/v2/token", "/authentication/v2/token", {
          form: { ...form, assertion: "not-a-jwt" },
          headers: { authorization: basic(APP.id, APP.secret) },
        });
        assert.equal(bad.status, 400);
      },
      "POST /authentication/v2/service-accounts": { notServed: ACCOUNTS },
      "GET /authentication/v2/service-accounts": { notServed: ACCOUNTS },
      "GET /authentication/v2/service-accounts/{serviceAccountId}": { notServed: ACCOUNTS },
      "PATCH /authentication/v2/service-accounts/{serviceAccountId}": { notServed: ACCOUNTS },
      "DELETE /authentication/v2/service-accounts/{serviceAccountId}": { notServed: ACCOUNTS },
      "POST /authentication/v2/service-accounts/{serviceAccountId}/keys": { notServed: ACCOUNTS },
      "GET /authentication/v2/service-accounts/{serviceAccountId}/keys": { notServed: ACCOUNTS },
      "PATCH /authentication/v2/service-accounts/{serviceAccountId}/keys/{keyId}": { notServed: ACCOUNTS },
      "DELETE /authentication/v2/service-accounts/{serviceAccountId}/keys/{keyId}": { notServed: ACCOUNTS },
    },
  });
});
