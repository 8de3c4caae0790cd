import assert from "node:assert/strict";
import { CATALOG, DiazoError, ExitCode } from "../../src/core/errors.ts";
import { errorFromResponse } from "../../src/core/response_error.ts";

/** The seed's catalog: every message must exist with a remedy. */
const SEED_MESSAGES = [
  "Authentication failed",
  "Callback URL mismatch",
  "Token expired",
  "Insufficient privileges to access this resource",
  "Authentication required (3-legged OAuth)",
  "Missing credentials",
  "Permission denied",
  "Bucket already exists",
  "Bucket not found",
  "File not found: {file}",
  "Translation still pending after {minutes} minutes",
  "Translation failed",
  "Invalid URN",
  "Project not found",
  "Design Automation nickname required",
  "Engine not found",
  "Webhook callback not reachable",
];

Deno.test("catalog: the seed's seventeen messages are present, each with a hint and an exit code", () => {
  const messages = Object.values(CATALOG).map((e) => e.message as string);
  assert.equal(SEED_MESSAGES.length, 17);
  for (const m of SEED_MESSAGES) assert.ok(messages.includes(m), `missing: ${m}`);
  for (const [code, e] of Object.entries(CATALOG)) {
    assert.ok(e.hint === "{hint}" || e.hint.length > 10, `${code} needs a hint`);
    assert.ok(Object.values(ExitCode).includes(e.exit), `${code} has a valid exit code`);
  }
});

Deno.test("errorFromResponse maps by status, platform code and resource kind", () => {
  const cases: [number, unknown, Parameters<typeof errorFromResponse>[2], string, number][] = [
    [401, { errorCode: "AUTH-006" }, {}, "auth_failed", 3],
    [401, { errorCode: "AUTH-010" }, {}, "token_expired", 3],
    [401, { error: "invalid_client" }, { resource: "token" }, "auth_failed", 3],
    [403, { errorCode: "AUTH-012" }, { scope: "bucket:read" }, "insufficient_scope", 3],
    [403, { errorCode: "AUTH-012" }, { scope: "bucket:create" }, "cannot_create_bucket", 3],
    [403, { reason: "not yours" }, { scope: "bucket:read" }, "permission_denied", 3],
    [404, { reason: "x" }, { resource: "bucket" }, "bucket_not_found", 4],
    [404, {}, { resource: "project" }, "project_not_found", 4],
    [404, {}, {}, "not_found", 4],
    // A construction-cloud record request: the project or the record may be what is missing or refused.
    [
      404,
      { message: "project 1f2e not found" },
      { resource: "acc-record", key: "RFI 9" },
      "project_not_found",
      4,
    ],
    [404, { message: "RFI 9 not found" }, { resource: "acc-record", key: "RFI 9" }, "not_found", 4],
    [404, {}, { resource: "acc-record", key: "RFI 9" }, "not_found", 4],
    [
      403,
      { message: "the user is not a member of this project" },
      { resource: "acc-record" },
      "acc_access_denied",
      3,
    ],
    [403, { message: "the token lacks data:write" }, { resource: "acc-record" }, "acc_access_denied", 3],
    [403, {}, { resource: "acc-record" }, "acc_access_denied", 3],
    [
      403,
      { message: "only the creator may change a draft RFI" },
      { resource: "acc-record" },
      "permission_denied",
      3,
    ],
    [
      403,
      { message: "only the creator may change a draft RFI" },
      { resource: "acc-project" },
      "acc_access_denied",
      3,
    ],
    [409, { reason: "Bucket already exists" }, { resource: "bucket" }, "bucket_exists", 6],
    [409, {}, {}, "conflict", 6],
    [429, {}, { attempts: 4 }, "rate_limited", 5],
    [503, {}, { attempts: 4 }, "server_error", 5],
    [400, { reason: "bad" }, {}, "bad_request", 2],
    [418, {}, {}, "request_failed", 1],
  ];
  for (const [status, body, ctx, code, exit] of cases) {
    const e = errorFromResponse(status, body, ctx);
    assert.equal(e.code, code, `${status} ${JSON.stringify(body)}`);
    assert.equal(e.exitCode, exit);
    assert.equal(e.status, status);
  }
});

Deno.test("the scope is named in the hint, the message stays the catalog's", () => {
  const e = errorFromResponse(403, { errorCode: "AUTH-012", developerMessage: "whatever text" }, {
    scope: "data:write",
  });
  assert.equal(e.message, "Insufficient privileges to access this resource");
  assert.match(e.hint, /data:write/);
  const two = errorFromResponse(403, { errorCode: "AUTH-012" }, { scope: "data:read data:write" });
  assert.match(two.hint, /--add data:read,data:write`/, "several scopes are named as --add takes them");
});

Deno.test("placeholders are filled", () => {
  assert.equal(
    new DiazoError("file_not_found", { params: { file: "a.obj" } }).message,
    "File not found: a.obj",
  );
});

Deno.test("the specification's remedies: Authentication failed says log out then auth test; Cannot create bucket names the scope", () => {
  const failed = errorFromResponse(401, { errorCode: "AUTH-006" }, {});
  assert.match(failed.hint, /auth logout.*auth test/);
  const create = errorFromResponse(403, { errorCode: "AUTH-012" }, {
    scope: "bucket:create",
    resource: "bucket",
  });
  assert.equal(create.message, "Cannot create bucket");
  assert.match(create.hint, /--add bucket:create/);
  assert.equal(create.exitCode, ExitCode.auth);
});
