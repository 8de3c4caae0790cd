/** `auth test-scopes` names the scope the endpoint needs when the tested set lacks it, not the tested scopes. */
import assert from "node:assert/strict";
import { endpointScope } from "../../src/aps/endpoint_scopes.ts";
import { assertOneError, diazo, json, withSandboxHome } from "../e2e/harness.ts";

Deno.test("endpointScope: the specification's operations by method and path; unknown ones are undefined", () => {
  assert.equal(endpointScope("GET", "/oss/v2/buckets"), "bucket:read");
  assert.equal(endpointScope("post", "/oss/v2/buckets"), "bucket:create");
  assert.equal(endpointScope("GET", "/oss/v2/buckets/my-bucket/details?x=1"), "bucket:read");
  assert.equal(endpointScope("GET", "//da/us-east/v3/engines"), "code:all");
  assert.equal(endpointScope("GET", "/modelderivative/v2/designdata/dXJu/manifest"), "data:read");
  assert.equal(
    endpointScope("GET", "/modelderivative/v2/designdata/formats"),
    undefined,
    "any token lists formats",
  );
  assert.equal(endpointScope("POST", "/construction/admin/v2/projects/p/users:import"), "account:write");
  assert.equal(endpointScope("GET", "/hq/v1/accounts/abc/users"), "account:read");
  assert.equal(endpointScope("GET", "/oss/v2/buckets//details"), undefined);
  assert.equal(endpointScope("GET", "/no/such/path"), undefined);
});

Deno.test("auth test-scopes: a set without the endpoint's scope fails naming bucket:read (the endpoint's), not data:read", async () => {
  await withSandboxHome(async ({ env }) => {
    const denied = await diazo(
      ["auth", "test-scopes", "--scopes", "data:read", "--endpoint", "/oss/v2/buckets", "-o", "table"],
      { env },
    );
    assertOneError(
      denied,
      3,
      /^error: Insufficient privileges to access this resource$/,
      /--add bucket:read/,
    );
    assert.ok(!denied.stderr.includes("--add data:read"), denied.stderr);
    const granted = await diazo(
      ["auth", "test-scopes", "--scopes", "bucket:read", "--endpoint", "/oss/v2/buckets", "-o", "json"],
      { env },
    );
    assert.equal(granted.code, 0, granted.stderr);
    assert.equal(json<{ status: number }>(granted).status, 200);
  });
});
