/**
 * The one scope table (src/aps/operation_scopes.ts) against the official files' `security` sections,
 * and everything that must agree with it: the sandbox's enforcement (its router reads the table),
 * `auth test-scopes` (endpointScope reads it), the scopes the services' requests declare, and the
 * tool server's tool scopes. A test here fails when any of them disagrees with the table.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { endpointScope } from "../../src/aps/endpoint_scopes.ts";
import { OPERATION_SCOPES, scopesOfRequest, scopesOfTemplate } from "../../src/aps/operation_scopes.ts";
import { ALL_TOOLS } from "../../src/mcp/tools/index.ts";
import { createRouter } from "../../src/sandbox/router.ts";
import { SERVICE_ROUTES } from "../../src/sandbox/server.ts";
import { DATA_CREATE, DATA_READ, DATA_WRITE } from "../../src/services/acc_scopes.ts";
import { ACCOUNT_READ, ACCOUNT_WRITE } from "../../src/services/admin.ts";
import { DA_SCOPE } from "../../src/services/da.ts";
import { DM_READ_SCOPE } from "../../src/services/dm.ts";
import { DM_CREATE_SCOPE, DM_WRITE_SCOPE } from "../../src/services/dm_write.ts";
import { RC_READ, RC_WRITE } from "../../src/services/reality.ts";
import { OFFICIAL_FILES } from "../contract/gate.ts";

/**
 * Where the table departs from a file's `security`, and why: the file's spelling of a scope the
 * platform names otherwise.
 */
const CORRECTIONS: Record<string, readonly string[]> = {
  // modelderivative.yaml spells it `viewable:read`; the platform's scope is `viewables:read`.
  "GET /modelderivative/v2/designdata/{urn}/manifest": ["viewables:read"],
};

// deno-lint-ignore no-explicit-any
type Node = any;

/** Every operation of the official files with the scopes its `security` names (any scheme). */
async function fileScopes(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const file of OFFICIAL_FILES) {
    const doc: Node = parse(await Deno.readTextFile(new URL(`../../openapi/${file}`, import.meta.url)));
    for (const [path, item] of Object.entries<Node>(doc.paths)) {
      for (const method of ["get", "put", "post", "delete", "patch", "head"]) {
        if (!item[method]) continue;
        const security: Node[] = item[method].security ?? doc.security ?? [];
        const scopes = [...new Set(security.flatMap((r) => Object.values(r).flat() as string[]))];
        out.set(`${method.toUpperCase()} ${path}`, scopes);
      }
    }
  }
  return out;
}

Deno.test("scope table: every scope it gives an operation of a file is one that file's security names", async () => {
  const files = await fileScopes();
  let checked = 0;
  for (const [key, scopes] of OPERATION_SCOPES) {
    const declared = files.get(key);
    if (!declared || declared.length === 0) continue; // no file, or a file naming no scope: the documented list
    checked++;
    const allowed = [...declared, ...CORRECTIONS[key] ?? []];
    const stray = scopes.filter((s) => !allowed.includes(s));
    assert.deepEqual(stray, [], `${key}: the file names ${declared.join(", ")}`);
  }
  assert.ok(checked > 50, `only ${checked} operations checked against their file`);
});

Deno.test("scope table: the sandbox enforces the table's scopes on every protected route of an operation", () => {
  const router = createRouter(...SERVICE_ROUTES);
  let checked = 0;
  for (const route of SERVICE_ROUTES.flat()) {
    const table = scopesOfTemplate(route.method, route.pattern);
    if (route.scopes.length === 0) continue; // a public route (signed URLs, health)
    assert.ok(table, `${route.method} ${route.pattern}: a protected route of an operation the table lacks`);
    const concrete = route.pattern.replace(
      /:([A-Za-z_]+)/g,
      (_, name) => name === "region" ? "us-east" : "p1",
    )
      .replace(/\*$/, "a/b");
    const found = router.match(route.method, concrete);
    if (found?.route.handler !== route.handler) continue; // an earlier route of the same shape wins
    assert.deepEqual(found.route.scopes, table, `${route.method} ${route.pattern}`);
    checked++;
  }
  assert.ok(checked > 100, `only ${checked} routes checked`);
});

Deno.test("scope table: auth test-scopes names the table's scope", () => {
  for (const [key, scopes] of OPERATION_SCOPES) {
    const [method, template] = key.split(" ");
    const path = template.replace(/\{[^}]+\}/g, "p1").replace(/\*$/, "a/b");
    assert.deepEqual(scopesOfRequest(method, path), scopes, key);
    if (scopes.length < 10) assert.equal(endpointScope(method, path), scopes[0], key);
  }
});

Deno.test("scope table: the scope every service request declares is one its operation accepts", () => {
  const uses: [string, string][] = [
    [DM_READ_SCOPE, "GET /project/v1/hubs"],
    [DM_CREATE_SCOPE, "POST /data/v1/projects/{project_id}/folders"],
    [DM_WRITE_SCOPE, "PATCH /data/v1/projects/{project_id}/items/{item_id}"],
    [ACCOUNT_READ, "GET /construction/admin/v1/accounts/{accountId}/projects"],
    [ACCOUNT_WRITE, "POST /construction/admin/v1/accounts/{accountId}/projects"],
    [DA_SCOPE, "POST /da/{region}/v3/workitems"],
    [RC_READ, "GET /photo-to-3d/v1/photoscene/{id}/progress"],
    [RC_WRITE, "POST /photo-to-3d/v1/photoscene"],
    [DATA_READ, "GET /construction/issues/v1/projects/{projectId}/issues"],
    [DATA_WRITE, "PATCH /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
    [DATA_READ, "POST /construction/rfis/v3/projects/{projectId}/search:rfis"],
    [DATA_WRITE, "PATCH /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
  ];
  for (const [declared, key] of uses) {
    const accepted = OPERATION_SCOPES.get(key);
    assert.ok(accepted, `${key} is not in the table`);
    assert.ok(accepted.includes(declared), `${key}: the service declares ${declared}, the table ${accepted}`);
  }
  for (const s of DATA_CREATE.split(" ")) {
    assert.ok(OPERATION_SCOPES.get("POST /construction/rfis/v3/projects/{projectId}/rfis")!.includes(s), s);
  }
});

/** The operations each tool calls. */
const TOOL_OPERATIONS: Record<string, readonly string[]> = {
  bucket_list: ["GET /oss/v2/buckets"],
  bucket_create: ["POST /oss/v2/buckets"],
  bucket_get: ["GET /oss/v2/buckets/{bucketKey}/details"],
  bucket_delete: ["DELETE /oss/v2/buckets/{bucketKey}"],
  object_list: ["GET /oss/v2/buckets/{bucketKey}/objects"],
  object_upload: ["GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload"],
  object_delete: ["DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}"],
  object_signed_url: ["POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed"],
  hub_list: ["GET /project/v1/hubs"],
  project_list: ["GET /project/v1/hubs/{hub_id}/projects"],
  folder_list: ["GET /data/v1/projects/{project_id}/folders/{folder_id}/contents"],
  item_versions: ["GET /data/v1/projects/{project_id}/items/{item_id}/versions"],
  folder_create: ["POST /data/v1/projects/{project_id}/folders"],
  item_upload: ["POST /data/v1/projects/{project_id}/items"],
  issue_list: ["GET /construction/issues/v1/projects/{projectId}/issues"],
  issue_get: ["GET /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
  issue_create: ["POST /construction/issues/v1/projects/{projectId}/issues"],
  issue_update: ["PATCH /construction/issues/v1/projects/{projectId}/issues/{issueId}"],
  issue_comment_add: ["POST /construction/issues/v1/projects/{projectId}/issues/{issueId}/comments"],
  rfi_list: ["POST /construction/rfis/v3/projects/{projectId}/search:rfis"],
  asset_list: ["GET /construction/assets/v2/projects/{projectId}/assets"],
  submittal_list: ["GET /construction/submittals/v2/projects/{projectId}/items"],
  checklist_list: ["GET /bim360/checklists/v1/containers/{projectId}/instances"],
  issue_types: ["GET /construction/issues/v1/projects/{projectId}/issue-types"],
  rfi_get: ["GET /construction/rfis/v3/projects/{projectId}/rfis/{rfiId}"],
  asset_get: ["POST /construction/assets/v2/projects/{projectId}/assets:batch-get"],
  submittal_get: ["GET /construction/submittals/v2/projects/{projectId}/items/{itemId}"],
  checklist_get: ["GET /bim360/checklists/v1/containers/{projectId}/instances/{instanceId}"],
  admin_account_list: ["GET /project/v1/hubs", "GET /construction/admin/v1/accounts/{accountId}/projects"],
  admin_project_list: ["GET /construction/admin/v1/accounts/{accountId}/projects"],
  admin_project_users: ["GET /construction/admin/v1/projects/{projectId}/users"],
  admin_project_user_add: [
    "GET /construction/admin/v1/projects/{projectId}/users",
    "POST /construction/admin/v1/projects/{projectId}/users",
  ],
  webhook_list: ["GET /webhooks/v1/hooks"],
  webhook_create: ["GET /webhooks/v1/hooks", "POST /webhooks/v1/systems/{system}/events/{event}/hooks"],
  webhook_delete: [
    "GET /webhooks/v1/hooks",
    "DELETE /webhooks/v1/systems/{system}/events/{event}/hooks/{hook_id}",
  ],
  item_download: [
    "GET /data/v1/projects/{project_id}/items/{item_id}/tip",
    "GET /data/v1/projects/{project_id}/versions/{version_id}",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  da_engine_list: ["GET /da/{region}/v3/engines"],
  da_appbundle_list: ["GET /da/{region}/v3/appbundles"],
  da_activity_list: ["GET /da/{region}/v3/activities"],
  da_workitem_run: [
    "POST /da/{region}/v3/workitems",
    "GET /da/{region}/v3/workitems/{id}",
    "GET /oss/v2/buckets/{bucketKey}/details",
    "POST /oss/v2/buckets",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload",
    "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  da_workitem_status: [
    "GET /da/{region}/v3/workitems/{id}",
    "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
  ],
  reality_create: ["POST /photo-to-3d/v1/photoscene"],
  reality_upload: ["POST /photo-to-3d/v1/file"],
  reality_process: ["POST /photo-to-3d/v1/photoscene/{id}"],
  reality_status: ["GET /photo-to-3d/v1/photoscene/{id}/progress"],
  reality_result: ["GET /photo-to-3d/v1/photoscene/{id}"],
  translate_start: [
    "POST /modelderivative/v2/designdata/job",
    "GET /modelderivative/v2/designdata/{urn}/manifest",
  ],
  translate_status: ["GET /modelderivative/v2/designdata/{urn}/manifest"],
  translate_manifest: ["GET /modelderivative/v2/designdata/{urn}/manifest"],
  translate_properties: ["GET /modelderivative/v2/designdata/{urn}/metadata/{modelGuid}/properties"],
};

Deno.test("scope table: every tool's scopes are scopes of the operations it calls", () => {
  for (const tool of ALL_TOOLS) {
    if (tool.scopes.length === 0) continue; // auth tools and object_urn send no platform request
    const ops = TOOL_OPERATIONS[tool.name];
    if (!ops) {
      // A tool not mapped yet: each scope must at least be one some operation of the table takes.
      const known = new Set([...OPERATION_SCOPES.values()].flat());
      assert.deepEqual(
        tool.scopes.filter((s) => !known.has(s)),
        [],
        `${tool.name}: scopes no operation takes`,
      );
      continue;
    }
    const accepted = ops.flatMap((op) => {
      const scopes = OPERATION_SCOPES.get(op);
      assert.ok(scopes, `${tool.name}: ${op} is not in the table`);
      return scopes;
    });
    const stray = tool.scopes.filter((s) => !accepted.includes(s));
    assert.deepEqual(stray, [], `${tool.name} declares scopes its operations do not take`);
  }
});
